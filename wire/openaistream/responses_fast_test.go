package openaistream

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/argstream/argstream/internal/testutil/wiretest"
)

// responsesParsed is what parse reads from the data of an event.
type responsesParsed struct {
	Typ                 string
	Kind                responsesKind
	Index               int64
	HasIndex, HasItemID bool
	ItemID              string
	Str                 string
	HasStr              bool
	Name                string
	Item                itemParsed
	Output              []itemParsed
	Err                 [4]string // the response's error: type, code, message, param
}

// itemParsed is what parse reads of an output item.
type itemParsed struct {
	Typ, ID, CallID, Name, Args, Input string
	HasArgs, HasInput                  bool
	Bad                                string
}

func (it *responsesItem) parsed() itemParsed {
	return itemParsed{string(it.typ), string(it.id), string(it.callID), string(it.name), string(it.args), string(it.input), it.hasArgs, it.hasInput, it.bad}
}

func (r *ResponsesReader) parsed() responsesParsed {
	p := responsesParsed{string(r.typ), r.kind, r.index, r.hasIndex, r.hasItemID, string(r.itemID), string(r.str), r.hasStr,
		string(r.name), r.item.parsed(), nil, [4]string{string(r.nested.typ), string(r.nested.code), string(r.nested.msg), string(r.nested.param)}}
	for k := range r.nOutput {
		p.Output = append(p.Output, r.output[k].parsed())
	}
	return p
}

// responsesFastVsSlow checks parse and the fast path against the token
// decoder (wiretest.FastVsSlow), and reports whether the fast path took
// data.
func responsesFastVsSlow(data []byte) (took bool, problem string) {
	return wiretest.FastVsSlow(data,
		func(data []byte) (responsesParsed, error) {
			var r ResponsesReader
			err := r.parse(data)
			return r.parsed(), err
		},
		func(data []byte) (responsesParsed, error) {
			var r ResponsesReader
			err := r.parseSlow(data)
			return r.parsed(), err
		},
		func(data []byte) (responsesParsed, bool) {
			var r ResponsesReader
			ok := r.fastEvent(data)
			return r.parsed(), ok
		})
}

func TestResponsesFastDelta(t *testing.T) {
	for _, tc := range []struct {
		data string
		took bool
	}{
		{`{"type":"response.function_call_arguments.delta","sequence_number":7,"item_id":"fc_1","output_index":0,"delta":"{\"a\": 1"}`, true},
		{`{"type":"response.function_call_arguments.delta","delta":"","obfuscation":"x\u00e9","output_index":3,"item_id":null,"sequence_number":8}` + " \n", true},
		{`{"type":"response.output_text.delta","item_id":"fc_1","delta":"\\"}`, true},
		{`{"item_id":"fc_1","delta":"x"}`, false}, // no type
		{`{"type":"x","sequence_number":7,"item_id":"fc_1","output_index":0,"delta":"x","delta":"y"}`, false},
		{`{"output_index":0,"output_index":1,"delta":"x"}`, false},
		{`{"\u0064elta":"x","output_index":0}`, false},
		{`{"output_index":01,"delta":"x"}`, false},
		{`{"output_index":0,"delta":null}`, false},
		{`{"output_index":0,"item_id":1,"delta":"x"}`, false},
		{`{"output_index":0,"delta":"\ud800"}`, false},
		{`{"output_index":0,"delta":"x"}}`, false},
		{`{"output_index":0, "delta":"x"}`, false},
		{`{"output_index":0,"logprobs":[],"delta":"x"}`, false},
		// Any layout: members in any order, white space, escapes in
		// strings, members of any kind skipped.
		{`{"type": "response.function_call_arguments.delta", "sequence_number": 7, "item_id": "fc_1", "output_index": 0, "delta": "{\"a\": \"caf\u00e9\""}`, true},
		{"{\"delta\" :\t\"x\" ,\n\"output_index\":0,\"type\":\"response.output_text.delta\",\"logprobs\":[{\"token\":\"x\",\"top_logprobs\":[]}]}", true},
		{`{"type":"response.content_part.added","item_id":"m","output_index":0,"content_index":0,"part":{"type":"output_text","annotations":[],"text":""}}`, true},
		// Names the decoder refuses or reads otherwise, other kinds.
		{`{"type":"response.function_call_arguments.delta","Delta":"x","output_index":0}`, false},
		{`{"type":"response.function_call_arguments.delta","delta":"x","output_index":0,"Error":null}`, false},
		{`{"type":"response.function_call_arguments.delta","delta":"x","output_index":0,"x":{"a":1,"a":2}}`, false},
		// The events that are not deltas, read by fastMembers.
		{`{"type":"response.output_item.added","output_index":0,"delta":"x"}`, true},
		{`{"type":"response.completed","output_index":0}`, true},
		{`{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","id":"fc_1","call_id":"c","name":"f","arguments":""}}`, true},
		{`{"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","arguments":{"a":1},"name":null}}`, true},
		{`{"type":"response.function_call_arguments.done","output_index":0,"item_id":"fc_1","arguments":"{\"a\":1}","name":"f"}`, true},
		// Arguments read as a string whatever the type: declined.
		{`{"type":"response.custom_tool_call_input.done","output_index":0,"item_id":"ct_1","input":"x","arguments":1}`, false},
		{`{"type":"response.function_call_arguments.done","output_index":0,"arguments":1}`, false},
		{`{"type":"response.completed","response":{"id":"r","output":[{"type":"function_call","arguments":"{}"},{"type":"message","content":[]}],"error":null}}`, true},
		{`{"type":"response.completed","response":{"output":[1]}}`, false},
		{`{"type":"response.completed","response":{"error":{"code":429,"message":"m"}}}`, true},
		{`{"type":"response.failed","response":{"error":{"code":"x"}}}`, false},
		{`{"type":"error","code":"x","message":"m"}`, false},
		{`{"type":"response.created","response":{"id":"r","output":[],"tools":[{"a":1,"a":2}]}}`, false},
		{`{"type":"response.created","response":{"id":"r","output":[]}}`, true},
	} {
		wiretest.CheckFastCase(t, tc.data, tc.took, responsesFastVsSlow)
	}
}

// responsesData makes the data of an arguments delta, mostly as the API
// writes it, sometimes not, and then mutates some of its bytes.
func responsesData(rng *rand.Rand) []byte {
	return wiretest.MutateBytes(rng, responsesEvent(rng))
}

// responsesEvent makes the data of an arguments delta as responsesData
// does, unmutated.
func responsesEvent(rng *rand.Rand) []byte {
	d := wiretest.Draw{Rand: rng}
	pick, rare := d.Pick, d.Rare
	str := func() string { return `"` + d.Chars(8) + `"` }
	members := []string{
		`"type":` + rare(`"response.function_call_arguments.delta"`, `"response.output_text.delta"`, `"response.reasoning_text.delta"`,
			`"response.output_item.added"`, `"response.output_item.done"`, `"response.function_call_arguments.done"`,
			`"response.custom_tool_call_input.done"`, `"response.completed"`, `"response.incomplete"`, `"response.failed"`, `"error"`,
			`"response.content_part.added"`, `""`, "null"),
		`"sequence_number":` + fmt.Sprint(rng.IntN(1000)),
		`"item_id":` + rare(str(), "null", "1", "{}"),
		`"output_index":` + rare(fmt.Sprint(rng.IntN(5)), "01", "-1", "null", "999999999999999999", "1000000000000000000", `"1"`),
		`"delta":` + rare(str(), "null", "1", "[]"),
	}
	// The members of the events that are not deltas: some of them, with
	// values of every kind.
	item := func() string {
		fields := []string{`"type":` + rare(pick(`"function_call"`, `"custom_tool_call"`, `"message"`), "null", "1")}
		for _, name := range []string{"id", "call_id", "name", "arguments", "input", "status"} {
			if rng.IntN(3) > 0 {
				fields = append(fields, `"`+name+`":`+rare(str(), "null", "1", `{"a":[1]}`, "[]", `"\ud800"`))
			}
		}
		if rng.IntN(4) == 0 {
			fields = append(fields, `"content":[{"type":"output_text","text":`+str()+`}]`)
		}
		rng.Shuffle(len(fields), func(i, j int) { fields[i], fields[j] = fields[j], fields[i] })
		return rare("{"+strings.Join(fields, ", ")+"}", "null", "[]", `"x"`)
	}
	switch rng.IntN(4) {
	case 0:
		members = append(members, `"item":`+item())
	case 1:
		var output []string
		for range rng.IntN(4) {
			output = append(output, item())
		}
		fields := []string{`"id":"resp_1"`, `"status":"completed"`, `"tools":[{"type":"function","name":"f","parameters":{"type":"object"}}]`,
			`"output":` + rare("["+strings.Join(output, ",")+"]", "null", "{}"),
			`"error":` + rare("null", `{"type":`+str()+`,"code":`+pick(str(), "429", "null")+`,"message":`+str()+`,"param":null}`, "1")}
		rng.Shuffle(len(fields), func(i, j int) { fields[i], fields[j] = fields[j], fields[i] })
		members = append(members, `"response":`+rare("{"+strings.Join(fields, ",")+"}", "null", "[]"))
	case 2:
		members = append(members, `"`+pick("arguments", "input")+`":`+rare(str(), "null", "1"))
		if rng.IntN(2) == 0 {
			members = append(members, `"name":`+rare(str(), "null", "1"))
		}
	}
	if rng.IntN(2) == 0 {
		members = append(members, `"obfuscation":`+str())
	}
	rng.Shuffle(len(members), func(i, j int) { members[i], members[j] = members[j], members[i] })
	for range rng.IntN(3) {
		name := rare(pick("output_index", "item_id", "delta", "x"), "", `d\u0065lta`, "Delta")
		value := rare(pick(str(), "0", "null", "true", "false"), "-1", "1.5", "01", "{}", "[]", "nul")
		members = append(members[:len(members)-1], `"`+name+`":`+value, members[len(members)-1])
	}
	if rng.IntN(4) == 0 {
		members = members[:rng.IntN(len(members))]
	}
	return []byte("{" + strings.Join(members, ",") + "}" + rare("", " ", "\n\t", "}", "x", "\v"))
}

// TestPropertyResponsesFastDelta: on generated and mutated arguments
// deltas, the fast path declines, or reads what the token decoder reads;
// parse reads what the decoder reads either way.
func TestPropertyResponsesFastDelta(t *testing.T) {
	wiretest.FastPathProperty(t, func(rng *rand.Rand) (bool, string) {
		return responsesFastVsSlow(responsesData(rng))
	})
}

// TestPropertyLayoutResponsesFastDelta: the arguments deltas in any layout
// (members in any order, white space, unknown members, strings escaped as
// Python writes them), mutated or not: the fast path takes each one it
// takes as the API writes it, and reads what the token decoder reads.
func TestPropertyLayoutResponsesFastDelta(t *testing.T) {
	wiretest.LayoutProperty(t, responsesEvent, responsesFastVsSlow)
}

func FuzzResponsesFastDelta(f *testing.F) {
	wiretest.FuzzFastPath(f, responsesData, responsesFastVsSlow)
}

// TestPropertySequenceResponsesFastDelta: a reader kept from event to
// event, whose fast path learns the layout of the events it reads, reads
// each event of a sequence of one layout with other values (and mutations)
// as a fresh token decoder does.
func TestPropertySequenceResponsesFastDelta(t *testing.T) {
	wiretest.SequenceProperty(t, responsesEvent, func(events [][]byte) (int, string) {
		var viaParse, fast ResponsesReader
		took, problem := wiretest.Sequence(events, func(data []byte) (bool, string) {
			return wiretest.FastVsSlow(data,
				func(data []byte) (responsesParsed, error) { err := viaParse.parse(data); return viaParse.parsed(), err },
				func(data []byte) (responsesParsed, error) {
					var r ResponsesReader
					err := r.parseSlow(data)
					return r.parsed(), err
				},
				func(data []byte) (responsesParsed, bool) {
					fast.resetFields()
					ok := fast.fastEvent(data)
					return fast.parsed(), ok
				})
		})
		return took - fast.layout.Learns(), problem // the events read by the layout learned
	})
}
