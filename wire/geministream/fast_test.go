package geministream

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/argstream/argstream/internal/testutil/wiretest"
)

// geminiParsed is what parse reads from one event's data.
type geminiParsed struct {
	HasError, HasChosen            bool
	ErrCode, ErrMessage, ErrStatus string
	Block                          string
	Index                          int64
	Finish                         string
	Calls                          int
	Parts                          []geminiParsedPart
}

type geminiParsedPart struct {
	Kind                            partKind
	Thought, HasArgs, Partial, More bool
	Text, Name, ID, Args            string
	Pargs                           int
}

func (r *Reader) parsed() geminiParsed {
	g := geminiParsed{
		HasError: r.hasError, HasChosen: r.hasChosen,
		ErrCode: string(r.errCode), ErrMessage: string(r.errMessage), ErrStatus: string(r.errStatus), Block: string(r.block),
	}
	if r.hasChosen {
		c := &r.chosen
		g.Index, g.Finish, g.Calls = c.index, string(c.finish), c.calls
		for _, p := range c.parts[:c.n] {
			args := p.args
			if p.whole != nil {
				args = p.whole
			}
			g.Parts = append(g.Parts, geminiParsedPart{p.kind, p.thought, p.hasArgs, p.partial, p.more,
				string(p.text), string(p.name), string(p.id), string(args), p.np})
		}
	}
	return g
}

// geminiFastVsSlow checks parse and the fast path against the token
// decoder (wiretest.FastVsSlow), and reports whether the fast path took
// data.
func geminiFastVsSlow(data []byte) (took bool, problem string) {
	return wiretest.FastVsSlowOn(data, (*Reader).parse, (*Reader).parseSlow, (*Reader).fastParse, (*Reader).parsed)
}

func TestFastParse(t *testing.T) {
	for _, tc := range []struct {
		data string
		took bool
	}{
		{`{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","args":{"path":"a.txt","content":"x\n\"y\" \u00e9"}}}],"role":"model"},"index":0}],"usageMetadata":{"promptTokenCount":1},"modelVersion":"gemini-2.5-flash","responseId":"r"}`, true},
		{`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"id":"c1","name":"write","args":{"n":[1,2.5,true,null],"o":{}}},"thoughtSignature":"c2ln"},{"functionCall":{"id":"c2","name":"read","args":{}}}]},"index":0}]}`, true},
		{`{"candidates":[{"content":{"role":"model","parts":[{"text":"thinking","thought":true},{"text":" and more"}]},"index":0}],"usage_metadata":{}}`, true},
		{`{"candidates":[{"content":{"role":"model","parts":[{"text":""}]},"finishReason":"STOP","index":0}]}`, true},
		{`{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","willContinue":true}}]}}]}`, true},
		{`{"candidates":[{"content":{"parts":[{"functionCall":{}}]}}]}`, true},
		{`{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","args":null,"partialArgs":null}}]}}]}`, true},
		{` { "candidates" : [ { "index" : 0 , "content" : { "parts" : [ { "functionCall" : { "args" : { "a" : 1 } , "name" : "f" } } ] } } ] } ` + "\n", true},
		{`{"candidates":[{"index":1,"content":{"parts":[{"text":"a"}]}},{"index":0,"content":{"parts":[{"text":"b"}]}}]}`, false},
		{`{"candidates":[{"index":0,"content":{"parts":[{"text":"a"}]}},{"index":1,"content":{"parts":[{"text":"b"}]}}]}`, true},
		{`{"candidates":[{"index":0},{"index":0}]}`, false},
		{`{"candidates":[{"index":1,"content":{"parts":[{"functionCall":{"name":"f"}}]}}]}`, false},
		{`{"candidates":[]}`, true},
		{`{}`, true},
		// What the fast path leaves to the decoder: errors, feedback,
		// partialArgs, nulls for objects and arrays.
		{`{"error":{"code":429,"message":"m","status":"RESOURCE_EXHAUSTED"}}`, false},
		{`{"promptFeedback":{"blockReason":"SAFETY"}}`, false},
		{`{"candidates":[{"content":{"parts":[{"functionCall":{"partialArgs":[{"jsonPath":"$.a","stringValue":"x"}]}}]}}]}`, false},
		{`{"candidates":null}`, false},
		{`{"candidates":[{"content":null}]}`, false},
		{`{"candidates":[{"content":{"parts":null}}]}`, false},
		{`{"candidates":[null]}`, false},
		// Names in another case or spelling, repeated, escaped.
		{`{"candidates":[{"content":{"parts":[{"function_call":{"name":"f","args":{}}}]}}]}`, false},
		{`{"candidates":[{"content":{"parts":[{"functioncall":{"name":"f","args":{}}}]}}]}`, false},
		{`{"candidates":[{"content":{"parts":[{"FunctionCall":{"name":"f","args":{}}}]}}]}`, false},
		{`{"candidates":[{"finish_reason":"STOP"}]}`, false},
		{`{"candidates":[{"finishreason":"STOP"}]}`, false},
		{`{"Candidates":[]}`, false},
		{`{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","args":{},"will_continue":true}}]}}]}`, false},
		{`{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","args":{"a":1,"a":2}}}]}}]}`, false},
		{`{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","args":{"\u0061":1}}}]}}]}`, false},
		{`{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","name":"g","args":{}}}]}}]}`, false},
		{`{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","args":{"a":"\ud800"}}}]}}]}`, false},
		{`{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","args":{"a":01}}}]}}]}`, false},
		{`{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","args":[]}}]}}]}`, false},
		{`{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","args":"{}"}}]}}]}`, false},
		{`{"candidates":[{"content":{"parts":[{"text":"a","functionCall":{"name":"f"}}]}}]}`, false},
		{`{"candidates":[{"content":{"parts":[{"thought":1,"text":"a"}]}}]}`, false},
		{`{"candidates":[{"index":-1}]}`, false},
		{`{"candidates":[{"index":0}]}x`, false},
	} {
		wiretest.CheckFastCase(t, tc.data, tc.took, geminiFastVsSlow)
	}
}

// geminiEvent makes the data of an event: candidate 0 (and now and then
// another) of text, thought and whole function call parts, members in
// random order, some repeated, some values of the wrong kind, some names in
// another case or spelling; unknown members around.
func geminiEvent(rng *rand.Rand) []byte {
	d := wiretest.Draw{Rand: rng}
	pick, rare := d.Pick, d.Rare
	str := func() string { return `"` + d.Chars(8) + `"` }
	object, some := d.Object, d.Some
	args := func() string {
		return rare(object(some(`"path":`+str(), `"content":`+str(), `"n":[1,2.5e3,true,null,{"a":"b"}]`, `"o":{"p":{"q":[]}}`)...),
			"null", "[]", `"x"`, `{"a":1,"a":2}`, `{"\u0061":1}`, `{"a":01}`, `{"a":[1,]}`, `{"a":tru}`)
	}
	part := func() string {
		switch rng.IntN(3) {
		case 0:
			return object(append(some(`"thought":`+rare(pick("true", "false"), "null", "1", `"t"`), `"thoughtSignature":"c2ln"`),
				`"text":`+rare(str(), "null", "1", "{}"))...)
		case 1:
			name := rare("functionCall", "function_call", "functioncall", "FunctionCall", "functionCall")
			fn := object(some(
				`"name":`+rare(pick(`"get_weather"`, `"write"`), "null", `""`, "1"),
				`"id":`+rare(pick(`"c1"`, `"c2"`), "null", "[]"),
				`"args":`+args(),
				rare(`"x":1`, `"willContinue":true`, `"will_continue":false`, `"partialArgs":null`, `"partialArgs":[]`, `"Args":{}`))...)
			return object(append(some(`"thoughtSignature":"c2ln"`), `"`+name+`":`+rare(fn, "null", "[]", `"f"`))...)
		}
		return object(`"inlineData":{"mimeType":"image/png","data":"AAAA"}`)
	}
	var ps []string
	for range 1 + rng.IntN(3) {
		ps = append(ps, part())
	}
	content := object(append(some(`"role":"model"`), `"parts":`+rare("["+strings.Join(ps, ",")+"]", "null", "[]", "{}"))...)
	cand := object(append(some(
		`"index":`+rare("0", "1", "-1", "00", `"0"`, "null"),
		`"finishReason":`+rare(pick(`"STOP"`, "null"), "1", `"MAX_TOKENS"`),
		rare(`"safetyRatings":[]`, `"finish_reason":"STOP"`, `"Index":0`, `"citationMetadata":{"citations":[{"startIndex":1}]}`)),
		`"content":`+rare(content, "null", "[]"))...)
	cands := "[" + cand + rare("]", `,{"index":1,"content":{"parts":[{"text":"b"}]}}]`, `,{"index":0}]`, `,null]`)
	members := append(some(`"usageMetadata":{"promptTokenCount":1,"totalTokenCount":2}`, `"modelVersion":"gemini-2.5-flash"`, `"responseId":"r1"`),
		`"candidates":`+rare(cands, "null", "[]", "{}"))
	members = append(members, rare(`"x":1`, `"error":{"code":1}`, `"promptFeedback":{}`, `"usage_metadata":{}`, `"candidates_":[]`, `"model_version":"m"`))
	return []byte(object(members...) + rare("", " ", "\n", "}", "x"))
}

// TestPropertyFastParse: on generated and mutated events, the fast path
// declines, or reads what the token decoder reads.
func TestPropertyFastParse(t *testing.T) {
	wiretest.FastPathProperty(t, func(rng *rand.Rand) (bool, string) {
		return geminiFastVsSlow(wiretest.MutateBytes(rng, geminiEvent(rng)))
	})
}

// TestPropertyLayoutFastParse: the events in any layout (members in any
// order, white space, unknown members, strings escaped as Python writes
// them), mutated or not: the fast path takes each one it takes as written,
// and reads what the token decoder reads.
func TestPropertyLayoutFastParse(t *testing.T) {
	wiretest.LayoutProperty(t, geminiEvent, geminiFastVsSlow)
}

func FuzzFastParse(f *testing.F) {
	wiretest.FuzzFastPath(f, geminiEvent, geminiFastVsSlow)
}
