package ollamastream

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/argstream/argstream/internal/testutil/wiretest"
)

// ollamaParsed is what parse reads from one line.
type ollamaParsed struct {
	Text, Thinking, Reason, ErrMsg string
	IsDone, HasError               bool
	Calls                          []ollamaParsedCall
}

type ollamaParsedCall struct {
	ID, Name, Args                string
	HasFunction, HasName, HasArgs bool
}

func (r *Reader) parsed() ollamaParsed {
	p := ollamaParsed{Text: string(r.text), Thinking: string(r.thinking), Reason: string(r.reason), ErrMsg: string(r.errMsg),
		IsDone: r.isDone, HasError: r.hasError}
	for _, c := range r.calls[:r.nCalls] {
		args := c.args
		if c.whole != nil {
			args = c.whole
		}
		p.Calls = append(p.Calls, ollamaParsedCall{string(c.id), string(c.name), string(args), c.hasFunction, c.hasName, c.hasArgs})
	}
	return p
}

// ollamaFastVsSlow checks parse and the fast path against the token
// decoder (wiretest.FastVsSlow), and reports whether the fast path took
// the line.
func ollamaFastVsSlow(data []byte) (took bool, problem string) {
	return wiretest.FastVsSlowOn(data, (*Reader).parse, (*Reader).parseSlow, (*Reader).fastParse, (*Reader).parsed)
}

func TestFastParse(t *testing.T) {
	for _, tc := range []struct {
		data string
		took bool
	}{
		{`{"model":"llama3.2","created_at":"2025-07-07T20:22:19.184789Z","message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"f","arguments":{"path":"a.txt","content":"x\n\"y\" \u00e9"}}}]},"done":false}`, true},
		{`{"model":"m","message":{"role":"assistant","content":"","tool_calls":[{"id":"call_1","function":{"index":0,"name":"f","arguments":{}}},{"function":{"index":1,"name":"g","arguments":{"a":[1,2.5,true,null]}}}]},"done":false}`, true},
		{`{"model":"m","message":{"role":"assistant","content":"hi","thinking":"hmm"},"done":true,"done_reason":"stop","total_duration":1}`, true},
		{` { "done" : true , "message" : { "tool_calls" : [ { "function" : { "arguments" : { "a" : 1 } , "name" : "f" } } ] } } `, true},
		{`{"message":{"tool_calls":null},"done":null,"done_reason":null}`, true},
		{`{"message":{"tool_calls":[]}}`, true},
		{`{}`, true},
		// What the fast path leaves to the decoder.
		{`{"error":"boom"}`, false},
		{`{"message":null}`, false},
		{`{"message":{"tool_calls":[null]}}`, false},
		{`{"message":{"tool_calls":[{"function":{"name":"f"}}]}}`, false},
		{`{"message":{"tool_calls":[{"function":{"arguments":{}}}]}}`, false},
		{`{"message":{"tool_calls":[{"id":"c"}]}}`, false},
		{`{"message":{"tool_calls":[{"function":null}]}}`, false},
		{`{"message":{"tool_calls":[{"function":{"name":null,"arguments":{}}}]}}`, false},
		{`{"message":{"tool_calls":[{"function":{"name":"f","arguments":"{}"}}]}}`, false},
		{`{"message":{"tool_calls":[{"function":{"name":"f","arguments":{"a":1,"a":2}}}]}}`, false},
		{`{"message":{"tool_calls":[{"function":{"name":"f","arguments":{"a":"\udc00"}}}]}}`, false},
		{`{"message":{"tool_calls":[{"function":{"index":-1,"name":"f","arguments":{}}}]}}`, false},
		{`{"message":{"tool_calls":[{"Function":{"name":"f","arguments":{}}}]}}`, false},
		{`{"message":{"Tool_Calls":[]}}`, false},
		{`{"done":1}`, false},
		{`{"done":true}x`, false},
		{`{"done":true,"done":false}`, false},
	} {
		wiretest.CheckFastCase(t, tc.data, tc.took, ollamaFastVsSlow)
	}
}

// ollamaLine makes a line: a message of text, thinking or whole tool calls,
// or the done line, members in random order, some repeated, some values of
// the wrong kind, some names in another case; unknown members around.
func ollamaLine(rng *rand.Rand) []byte {
	d := wiretest.Draw{Rand: rng}
	pick, rare := d.Pick, d.Rare
	str := func() string { return `"` + d.Chars(8) + `"` }
	object, some := d.Object, d.Some
	call := func(k int) string {
		args := rare(object(some(`"path":`+str(), `"content":`+str(), `"n":[1,2.5e3,true,null,{"a":"b"}]`, `"o":{"p":{"q":[]}}`)...),
			"null", "[]", `"{}"`, `{"a":1,"a":2}`, `{"\u0061":1}`, `{"a":01}`, `{"a":[1,]}`)
		fn := object(some(
			`"index":`+rare(fmt.Sprint(k), "-1", "01", `"0"`, "null", "1.5"),
			`"name":`+rare(pick(`"get_weather"`, `"write"`, str()), "null", "1"),
			`"arguments":`+args,
			rare(`"x":1`, `"Name":"f"`, `"description":null`))...)
		return object(append(some(`"id":`+rare(pick(`"call_1"`, str()), "null", "1")), `"function":`+rare(fn, "null", "[]", `"f"`))...)
	}
	var calls []string
	for k := range rng.IntN(3) {
		calls = append(calls, call(k))
	}
	message := object(append(some(
		`"role":"assistant"`,
		`"content":`+rare(pick(str(), `""`), "null", "1", "{}"),
		`"thinking":`+rare(str(), "null", "[]"),
		rare(`"images":null`, `"Content":"x"`, `"tool_name":"t"`)),
		`"tool_calls":`+rare("["+strings.Join(calls, ",")+"]", "null", "{}", `[null]`))...)
	members := append(some(
		`"model":"llama3.2"`,
		`"created_at":"2025-07-07T20:22:19.184789Z"`,
		`"done_reason":`+rare(pick(`"stop"`, `"length"`), "null", "1"),
		`"eval_count":12`),
		`"message":`+rare(message, "null", "[]"),
		`"done":`+rare(pick("true", "false"), "null", "1", `"true"`))
	members = append(members, rare(`"x":1`, `"error":"e"`, `"Done":true`, `"error":null`))
	return []byte(object(members...) + rare("", " ", "}", "x"))
}

// TestPropertyFastParse: on generated and mutated lines, the fast path
// declines, or reads what the token decoder reads.
func TestPropertyFastParse(t *testing.T) {
	wiretest.FastPathProperty(t, func(rng *rand.Rand) (bool, string) {
		return ollamaFastVsSlow(wiretest.MutateBytes(rng, ollamaLine(rng)))
	})
}

// TestPropertyLayoutFastParse: the lines in any layout (members in any
// order, white space, unknown members, strings escaped as Python writes
// them), mutated or not: the fast path takes each one it takes as written,
// and reads what the token decoder reads. (A layout's CR or line end
// between tokens is for checkBreaks and the line reader, not parse.)
func TestPropertyLayoutFastParse(t *testing.T) {
	wiretest.LayoutProperty(t, ollamaLine, ollamaFastVsSlow)
}

func FuzzFastParse(f *testing.F) {
	wiretest.FuzzFastPath(f, ollamaLine, ollamaFastVsSlow)
}

// checkBreaksRef is checkBreaks written another way, the reference: the
// first of the breaks that bytes.Index finds.
func checkBreaksRef(b []byte) error {
	first, what := len(b), ""
	for _, br := range []string{"\r", "\u0085", "\u2028", "\u2029"} {
		if i := bytes.Index(b, []byte(br)); i >= 0 && i < first {
			first, what = i, br
		}
	}
	switch what {
	case "":
		return nil
	case "\r":
		return fmt.Errorf("a CR at byte %d, which ends a line for some readers", first)
	}
	return fmt.Errorf("a U+%04X at byte %d, which ends a line for some readers", []rune(what)[0], first)
}

// TestPropertyCheckBreaks: checkBreaks, which looks for the bytes that
// may begin a line break, finds what the reference finds, on
// lines dense in those bytes and their near misses.
func TestPropertyCheckBreaks(t *testing.T) {
	pieces := []string{"a", "é", "\u0085", "\u2028", "\u2029", "\r", "\xc2", "\xe2", "\xe2\x80", "—", "€", "…", "\xc2\xa0", `\r`, "😀"}
	wiretest.FastPathProperty(t, func(rng *rand.Rand) (bool, string) {
		var b strings.Builder
		for range rng.IntN(40) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		line := []byte(b.String())
		got, want := fmt.Sprint(checkBreaks(line)), fmt.Sprint(checkBreaksRef(line))
		if got != want {
			return false, fmt.Sprintf("%q: checkBreaks: %s, the reference: %s", line, got, want)
		}
		return got == "<nil>", ""
	})
}
