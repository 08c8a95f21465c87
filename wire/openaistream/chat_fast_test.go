package openaistream

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/argstream/argstream/internal/testutil/wiretest"
	"github.com/argstream/argstream/wire/internal/adapter"
)

// chatParsed is what parse reads from one chunk's data.
type chatParsed struct {
	HasError, HasChosen, HasID             bool
	ID                                     string
	ErrType, ErrCode, ErrMessage, ErrParam string
	Index                                  int64
	Finish, Thinking, Text, Refusal        string
	Calls                                  []chatParsedCall
}

type chatParsedCall struct {
	Index             int64
	HasIndex, HasType bool
	Typ, ID, Name     string
	Args              string
}

func (r *ChatReader) parsed() chatParsed {
	p := chatParsed{
		HasError: r.hasError, HasChosen: r.hasChosen, HasID: r.hasID, ID: string(r.id),
		ErrType: string(r.errType), ErrCode: string(r.errCode), ErrMessage: string(r.errMessage), ErrParam: string(r.errParam),
	}
	if r.hasChosen {
		c := &r.chosen
		p.Index, p.Finish, p.Thinking, p.Text, p.Refusal = c.index, string(c.finish), string(c.thinking), string(c.text), string(c.refusal)
		for _, t := range c.calls[:c.nCalls] {
			p.Calls = append(p.Calls, chatParsedCall{t.index, t.hasIndex, t.hasType, string(t.typ), string(t.id), string(t.name), string(t.args)})
		}
	}
	return p
}

// chatFastVsSlow checks parse and the fast path against the token decoder
// (wiretest.FastVsSlow), for the chosen choice, and reports whether the
// fast path took data. A fast path that declines must have set no choice.
func chatFastVsSlow(data []byte, choice int64) (took bool, problem string) {
	cfg := adapter.Config{Choice: choice}
	return wiretest.FastVsSlow(data,
		func(data []byte) (chatParsed, error) {
			r := ChatReader{cfg: cfg}
			err := r.parse(data, false)
			return r.parsed(), err
		},
		func(data []byte) (chatParsed, error) {
			r := ChatReader{cfg: cfg}
			err := r.parseSlow(data)
			return r.parsed(), err
		},
		func(data []byte) (chatParsed, bool) {
			r := ChatReader{cfg: cfg}
			ok := r.fastChunk(data)
			if !ok && (r.hasChosen || r.hasError) {
				return chatParsed{}, true // seen as taken, and different
			}
			return r.parsed(), ok
		})
}

const chatHead = `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1727346180,"model":"gpt-4o","system_fingerprint":"fp_1","choices":`

func TestChatFastChunk(t *testing.T) {
	for _, tc := range []struct {
		data string
		took bool
	}{
		{chatHead + `[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"a\": 1"}}]},"logprobs":null,"finish_reason":null}]}`, true},
		{chatHead + `[{"index":0,"delta":{"tool_calls":[{"index":3,"function":{"arguments":""}}]},"logprobs":null,"finish_reason":null}],"usage":null,"obfuscation":"x\u00e9"}` + " \n", true},
		{`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"\\"}}]},"logprobs":null,"finish_reason":null}],"ok":true,"no":false}`, true},
		// Another choice, escaped or duplicate names, an error member.
		{chatHead + `[{"index":1,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"x"}}]},"logprobs":null,"finish_reason":null}]}`, false},
		{`{"\u0063hoices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"x"}}]},"logprobs":null,"finish_reason":null}]}`, false},
		{`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"x"}}]},"logprobs":null,"finish_reason":null}],"choices":[]}`, false},
		{`{"error":null,"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"x"}}]},"logprobs":null,"finish_reason":null}]}`, false},
		// Bad values elsewhere, white space, trailing bytes.
		{`{"id":"\ud800","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"x"}}]},"logprobs":null,"finish_reason":null}]}`, false},
		{"{\"id\":\"\xff\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"x\"}}]},\"logprobs\":null,\"finish_reason\":null}]}", false},
		{`{"created":01,"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"x"}}]},"logprobs":null,"finish_reason":null}]}`, false},
		{`{"choices": [{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"x"}}]},"logprobs":null,"finish_reason":null}]}`, true},
		{`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"x"}}]},"logprobs":null,"finish_reason":null}]}}`, false},
		{`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"x\"}}]},"logprobs":null,"finish_reason":null}]}`, false},
		{`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":99999999999999999999,"function":{"arguments":"x"}}]},"logprobs":null,"finish_reason":null}]}`, false},
		// Text, reasoning, role and finish_reason deltas, members in any order.
		{`{"id":"x","object":"chat.completion.chunk","created":1,"model":"m","system_fingerprint":"fp","choices":[{"index":0,"delta":{"content":null,"reasoning_content":" the"},"logprobs":null,"finish_reason":null}],"usage":null}`, true},
		{`{"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"Hello"},"finish_reason":null}]}`, true},
		{`{"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":null},"logprobs":null,"finish_reason":null}]}`, true},
		{`{"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"tool_calls"}]}`, true},
		{`{"choices":[{"finish_reason":null,"delta":{"refusal":"no \u00e9","content":"a\nb","role":"assistant"},"index":0}]}`, true},
		{`{"choices":[{"delta":{"reasoning_content":"","reasoning":"second"}}]}`, true},
		{`{"choices":[{"delta":{"reasoning":"first","reasoning_content":"second"}}]}`, true},
		{`{"choices":[{"delta":{"reasoning":null,"reasoning_content":"x\u0022"}}]}`, true},
		{`{"choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[{"index":2,"function":{"arguments":"{}"}}],"content":""}}]}`, true},
		// A call's start, its members in any order; two calls in one delta.
		{`{"choices":[{"index":0,"delta":{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"get_weather","arguments":""}}],"refusal":null},"logprobs":null,"finish_reason":null}]}`, true},
		{`{"choices":[{"index":0,"delta":{"tool_calls":[{"type":"function","function":{"arguments":"{\"q\": 1}","name":""},"index":2}]}}]}`, true},
		{`{"choices":[{"delta":{"tool_calls":[{"index":0,"id":null,"type":null,"function":{"name":null,"arguments":null}}]}}]}`, true},
		{`{"choices":[{"delta":{"tool_calls":[{"index":0,"type":"custom","function":{"arguments":"x"},"extra":1}]}}]}`, true},
		{`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"a"}},{"index":1,"function":{"arguments":"b"}}]},"finish_reason":null}]}`, true},
		{`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"a"}},{"index":1,"id":"c","function":{"name":"f"}}]}}]}`, true},
		// Near misses in a call: no index, a repeated member, a function
		// that is null or holds an object, a type that is a number, [].
		{`{"choices":[{"delta":{"tool_calls":[{"id":"c","function":{"arguments":"a"}}]}}]}`, false},
		{`{"choices":[{"delta":{"tool_calls":[{"index":0,"index":1,"function":{"arguments":"a"}}]}}]}`, false},
		{`{"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"a","arguments":"b"}}]}}]}`, false},
		{`{"choices":[{"delta":{"tool_calls":[{"index":0,"function":null}]}}]}`, false},
		{`{"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":{}}}]}}]}`, false},
		{`{"choices":[{"delta":{"tool_calls":[{"index":0,"type":1}]}}]}`, false},
		{`{"choices":[{"delta":{"tool_calls":[]}}]}`, false},
		{`{"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"a"}},]}}]}`, false},
		// Near misses: repeated members, a reasoning object, two choices,
		// white space, an escaped name, values of the wrong kind, two calls.
		{`{"choices":[{"index":0,"delta":{"content":"a","content":"b"},"finish_reason":null}]}`, false},
		{`{"choices":[{"index":0,"delta":{"reasoning":"a","reasoning":"b"},"finish_reason":null}]}`, false},
		{`{"choices":[{"index":0,"index":0,"delta":{"content":"a"},"finish_reason":null}]}`, false},
		{`{"choices":[{"index":0,"delta":{"reasoning":{"text":"a"}},"finish_reason":null}]}`, false},
		{`{"choices":[{"index":0,"delta":{"content":"a"},"finish_reason":null},{"index":1,"delta":{"content":"b"},"finish_reason":null}]}`, false},
		{`{"choices":[{"index":0,"delta":{"content": "a"},"finish_reason":null}]}`, true},
		{`{"choices":[{"index":0,"delta":{"content":"a"} ,"finish_reason":null}]}`, true},
		{`{"choices":[{"index":0,"delta":{"\u0063ontent":"a"},"finish_reason":null}]}`, false},
		{`{"choices":[{"index":0,"delta":{"content":"a"},"finish_reason":1}]}`, false},
		{`{"choices":[{"index":0,"delta":"a","finish_reason":null}]}`, false},
		{`{"choices":[{"index":0,"delta":null,"finish_reason":null}]}`, false},
		{`{"choices":[{"index":0,"delta":{"content":1},"finish_reason":null}]}`, false},
		{`{"choices":[{"index":0,"delta":{"content":"\ud800"},"finish_reason":null}]}`, false},
		{`{"choices":[{"index":0,"delta":{"audio":{}},"finish_reason":null}]}`, true},
		{`{"choices":[{"index":1,"delta":{"content":"a"},"finish_reason":null}]}`, false},
		{`{"choices":[]}`, false},
		// Any layout: members in any order, white space, escapes in
		// strings, members of any kind skipped.
		{`{"choices": [{"logprobs": {"content": [{"token": "a", "bytes": [97], "top_logprobs": []}]}, "finish_reason": null, "delta": {"tool_calls": [{"function": {"arguments": "{\"p\": \"caf\u00e9 \ud83d\ude00\""}, "index": 0}]}, "index": 0}], "id": "x", "obfuscation": "Ab"}`, true},
		{"{\n\t\"choices\" :\r\n[ {\"index\" : 0 , \"delta\" : { \"content\" : \"a\" } } ] , \"usage\" : {\"prompt_tokens\":1,\"x\":[1.5e3,-0]} }\n", true},
		{`{"X_Trace":{"a":{"A":1,"a":2}},"choices":[{"index":0,"delta":{"Role":"assistant","tool_calls":[{"index":0,"Extra":[],"function":{"arguments":"x","Name2":null}}]}}]}`, true},
		// Names the decoder refuses or reads otherwise, at any depth.
		{`{"Choices":[{"index":0,"delta":{"content":"a"}}]}`, false},
		{`{"choices":[{"INDEX":0,"delta":{"content":"a"}}]}`, false},
		{`{"choices":[{"index":0,"delta":{"Content":"a"}}]}`, false},
		{`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"Function":{"arguments":"a"}}]}}]}`, false},
		{`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"ARGUMENTS":"a"}}]}}]}`, false},
		{`{"choices":[{"index":0,"delta":{"content":"a","x":1,"X":2}}]}`, false},
		{`{"choices":[{"index":0,"delta":{"content":"a"}}],"usage":{"a":1,"a":2}}`, false},
		{`{"choices":[{"index":0,"delta":{"content":"a"}}],"usage":[{"a":{"b":1,"b":2}}]}`, false},
		{`{"choices":[{"index":0,"delta":{"content":"a"}}],"Error":null}`, false},
		{`{"choices":[{"index":0,"delta":{"content":"a"}}],"usage":{"x":[1,]}}`, false},
		{`{"choices":[{"index":0,"delta":{"content":"\ud83d"}}]}`, false},
		{`{"choices":[{"index":0,"delta":{"content":"a"}},,"x":1}`, false},
		{`{"x_t":true, "choices":  [{},	"usage":  1}`, false},
	} {
		wiretest.CheckFastCase(t, tc.data, tc.took, func(data []byte) (bool, string) { return chatFastVsSlow(data, 0) })
	}
}

// chatData makes the data of a chunk, mostly one laid out as the API
// writes one, sometimes not, and then mutates some of its bytes. Its choice
// carries an arguments delta in the one layout the fast path takes for it,
// or is an object of members in random order (text, reasoning, role,
// tool_calls, finish_reason, an empty delta...), some repeated, some values
// of the wrong kind.
func chatData(rng *rand.Rand) []byte {
	return wiretest.MutateBytes(rng, chatEvent(rng))
}

// chatEvent makes the data of a chunk as chatData does, unmutated.
func chatEvent(rng *rand.Rand) []byte {
	d := wiretest.Draw{Rand: rng}
	pick, rare := d.Pick, d.Rare
	str := func() string { return `"` + d.Chars(8) + `"` }
	// object joins members in random order, now and then one of them twice.
	object := func(members ...string) string {
		rng.Shuffle(len(members), func(i, j int) { members[i], members[j] = members[j], members[i] })
		if len(members) > 0 && rng.IntN(8) == 0 {
			members = append(members, members[rng.IntN(len(members))])
		}
		return "{" + strings.Join(members, ",") + "}"
	}
	// some keeps each member with probability 1/2.
	some := func(members ...string) []string {
		var kept []string
		for _, m := range members {
			if rng.IntN(2) == 0 {
				kept = append(kept, m)
			}
		}
		return kept
	}
	// key is the name of a delta member, now and then another or escaped.
	key := func(n string) string { return `"` + rare(n, `\u0063ontent`, "Content", "reasoning", "content") + `":` }
	var members []string
	for range rng.IntN(4) {
		name := pick("id", "object", "created", "model", "system_fingerprint", "usage", "obfuscation", "service_tier")
		name = rare(name, "error", "message", "type", "code", "param", "", "Id", `i\u0064`, "choices")
		value := pick(str(), "1727346180", "null", "true", "false")
		value = rare(value, "-1", "1.5", "01", "{}", "[]", `{"a":1}`, "nul", "99999999999999999999")
		members = append(members, `"`+name+`":`+value)
	}
	var choices string
	if rng.IntN(2) == 0 {
		choices = rare(`[{"index":`, `[{"index" :`, `[ {"index":`) + rare("0", "1", "00", "-0") +
			rare(`,"delta":{"tool_calls":[{"index":`, `,"delta":{"content":null,"tool_calls":[{"index":`) +
			rare(fmt.Sprint(rng.IntN(5)), "01", "-1", "999999999999999999", "1000000000000000000", `"1"`) +
			rare(`,"function":{"arguments":`, `,"function":{"name":`, `,"type":"function","function":{"arguments":`) +
			str() + rare(`}}]},"logprobs":null,"finish_reason":null}]`, `}}]},"logprobs":null,"finish_reason":"stop"}]`,
			`}}]},"finish_reason":null}]`, `}}]}}]`, `}}]},"logprobs":null,"finish_reason":null},{"index":0}]`)
	} else {
		text := func() string { return pick(str(), str(), "null", `""`) }
		calls := `[{"index":` + fmt.Sprint(rng.IntN(3)) + `,"function":{"arguments":` + str() + `}}]`
		// call is a tool_calls element as a call's first chunk has it, its
		// members in random order, some missing, repeated or of the wrong kind.
		call := func() string {
			fn := object(some(
				`"name":`+rare(pick(`"get_weather"`, `""`, "null"), "1", "{}", str()),
				`"arguments":`+rare(pick(str(), `""`, "null"), "{}", "[]", "true"),
				rare(`"x":1`, `"x":{}`, `"x":[1]`))...)
			return object(append(some(
				`"id":`+rare(pick(`"call_1"`, "null", str()), "1", "{}"),
				`"type":`+rare(pick(`"function"`, "null", `"custom"`), "1", "[]"),
				`"function":`+rare(fn, "null", "[]", `"f"`),
				rare(`"extra":null`, `"extra":{}`, `"extra":"e"`)),
				`"index":`+rare(fmt.Sprint(rng.IntN(3)), "-1", "01", `"0"`, "null"))...)
		}
		deltaMembers := some(
			key("content")+rare(text(), "1", "{}", "true"),
			key("refusal")+rare(text(), "[]", "0"),
			`"role":`+rare(`"assistant"`, "null", "{}", "[]"),
			`"tool_calls":`+rare(pick(calls, "["+call()+"]", "["+call()+","+call()+"]"), "null", "[]",
				`[{"index":0,"id":"c","function":{"arguments":"a"}}]`,
				`[{"index":0,"function":{"arguments":"a"}},{"index":1,"function":{"arguments":"b"}}]`),
			rare(`"audio":null`, `"audio":{}`, `"function_call":{"arguments":"a"}`),
		)
		// Reasoning under one name or the other, or both, as vLLM sends it.
		reasoning := rng.IntN(4)
		if reasoning&1 != 0 {
			deltaMembers = append(deltaMembers, key("reasoning_content")+rare(text(), `{"text":"a"}`, "false"))
		}
		if reasoning&2 != 0 {
			deltaMembers = append(deltaMembers, key("reasoning")+rare(text(), `{"text":`+str()+`}`, "{}", "2"))
		}
		delta := object(deltaMembers...)
		choiceMembers := some(
			`"finish_reason":`+pick("null", `"stop"`, `"tool_calls"`, `""`, rare("null", "1", "{}", "true")),
			`"logprobs":`+rare("null", "{}", "[]", `"x"`, "1.5"),
		)
		if rng.IntN(8) != 0 {
			choiceMembers = append(choiceMembers, `"delta":`+rare(delta, "null", `"x"`, "[]", "1"))
		}
		if rng.IntN(8) != 0 { // a choice without an index is choice 0
			choiceMembers = append(choiceMembers, `"index":`+rare(pick("0", "1"), "00", "-0", `"0"`, "null"))
		}
		choice := object(choiceMembers...)
		choices = "[" + choice + rare("]", `,{"index":1}]`, `,{"index":0}]`, `,null]`)
	}
	at := rng.IntN(len(members) + 1)
	members = append(members[:at], append([]string{`"choices":` + choices}, members[at:]...)...)
	return []byte("{" + strings.Join(members, ",") + "}" + rare("", " ", "\n\t", "}", "x", "\v"))
}

// TestPropertyChatFastChunk: on generated and mutated chunks, the fast path
// declines, or reads what the token decoder reads.
func TestPropertyChatFastChunk(t *testing.T) {
	wiretest.FastPathProperty(t, func(rng *rand.Rand) (bool, string) {
		choice := rng.Int64N(2)
		return chatFastVsSlow(chatData(rng), choice)
	})
}

// TestPropertyLayoutChatFastChunk: the chunks in any layout (members in
// any order, white space, unknown members, strings escaped as Python
// writes them), mutated or not: the fast path takes each one it takes as
// the API writes it, and reads what the token decoder reads.
func TestPropertyLayoutChatFastChunk(t *testing.T) {
	wiretest.LayoutProperty(t, chatEvent, func(data []byte) (bool, string) { return chatFastVsSlow(data, 0) })
}

func FuzzChatFastChunk(f *testing.F) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 50 {
		f.Add(chatData(rng), int64(0))
	}
	f.Fuzz(func(t *testing.T, data []byte, choice int64) {
		if _, problem := chatFastVsSlow(data, choice); problem != "" {
			t.Error(problem)
		}
	})
}

// TestPropertySequenceChatFastChunk: a reader kept from chunk to chunk,
// whose fast path learns the layout of the chunks it reads, reads each
// chunk of a sequence of one layout with other values (and mutations) as a
// fresh token decoder does.
func TestPropertySequenceChatFastChunk(t *testing.T) {
	wiretest.SequenceProperty(t, chatEvent, func(events [][]byte) (int, string) {
		viaParse, fast := ChatReader{}, ChatReader{}
		took, problem := wiretest.Sequence(events, func(data []byte) (bool, string) {
			return wiretest.FastVsSlow(data,
				func(data []byte) (chatParsed, error) {
					err := viaParse.parse(data, false)
					return viaParse.parsed(), err
				},
				func(data []byte) (chatParsed, error) {
					var r ChatReader
					err := r.parseSlow(data)
					return r.parsed(), err
				},
				func(data []byte) (chatParsed, bool) {
					r := &fast
					r.hasChosen, r.id, r.hasID = false, r.id[:0], false
					ok := r.fastChunk(data)
					if !ok && (r.hasChosen || r.hasError) {
						return chatParsed{}, true // seen as taken, and different
					}
					return r.parsed(), ok
				})
		})
		return took - fast.layout.Learns(), problem // the events read by the layout learned
	})
}

// TestNamesLowerCase: the names the readers read are in lower case, which
// adapter.Members's checks of names in another case rely on.
func TestNamesLowerCase(t *testing.T) {
	for _, names := range []adapter.Names{chunkNames, chatErrorNames, choiceNames, deltaNames, reasoningNames, callNames,
		functionNames, eventNames, itemNames, responseNames, errorNames} {
		for _, n := range names {
			if n != strings.ToLower(n) {
				t.Errorf("name %q is not in lower case", n)
			}
		}
	}
}
