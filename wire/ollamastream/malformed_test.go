package ollamastream

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire"
)

// TestMalformed reads streams with one line that two readers could read
// differently, or that is not what Ollama sends, each after a whole call:
// Read's error must wrap wire.ErrMalformed and say which line and what,
// and the Response must have failed (the call before is not executable).
func TestMalformed(t *testing.T) {
	before := callLine("c0", "f", `{"a":1}`)
	for _, tc := range []struct {
		line, err string
	}{
		{``, `line 2: EOF`},
		{` `, `line 2: EOF`},
		{`[]`, `line 2: not a JSON object`},
		{`"x"`, `not a JSON object`},
		{`{"done":false} {"done":false}`, `line 2: bytes after the JSON object`},
		{`{"done":false`, `line 2: `},
		{"{\"message\":{\"content\":\"\xff\"}}", `line 2: `},
		{`{"message":{"content":"\ud800"}}`, `invalid surrogate`},
		// Repeated names, anywhere, the arguments' included.
		{`{"done":false,"done":true}`, `duplicate`},
		{`{"message":{"content":"a","content":"b"}}`, `duplicate`},
		{`{"message":{"tool_calls":[{"function":{"name":"f","arguments":{"p":"/tmp","p":"/etc"}}}]}}`, `duplicate`},
		{`{"model":{"x":1,"x":2}}`, `duplicate`},
		// Names readers match differently.
		{`{"Done":true}`, `line 2: : member name "Done" is "done" in another case`},
		{`{"message":{"Tool_Calls":[]}}`, `/message: member name "Tool_Calls" is "tool_calls" in another case`},
		{`{"message":{"tool_calls":[{"function":{"name":"f","Arguments":{}}}]}}`, `member name "Arguments" is "arguments" in another case`},
		{`{"message":{"tool_calls":[{"function":{"name":"f","arguments":{},"NAME":"g"}}]}}`, `member names "name" and "NAME" are equal under case folding`},
		{`{"message":{"tool_calls":[{"ID":"x","function":{"name":"f","arguments":{}}}]}}`, `is "id" in another case`},
		{`{"Error":"x"}`, `is "error" in another case`},
		{`{"message":{"role":"assistant","Role":"user"}}`, `member names "role" and "Role" are equal under case folding`},
		{`{"mes\u0073age":{}}`, `written with an escape`},
		{`{"message":{"thin` + "\u212a" + `ing":"x"}}`, `member name "thin` + "\u212a" + `ing" is "thinking" in another case`}, // the Kelvin sign
		// Kinds.
		{`{"done":"true"}`, `/done is "true", not a boolean`},
		{`{"done":1}`, `not a boolean`},
		{`{"message":[]}`, `/message is not an object`},
		{`{"message":{"content":1}}`, `/message/content is not a string`},
		{`{"message":{"thinking":{}}}`, `/message/thinking is not a string`},
		{`{"message":{"tool_calls":{}}}`, `/message/tool_calls is not an array`},
		{`{"message":{"tool_calls":[null]}}`, `/message/tool_calls/0 is null, not a object`},
		{`{"message":{"tool_calls":[{"function":null}]}}`, `/message/tool_calls/0/function is null, not a object`},
		{`{"message":{"tool_calls":[{"function":{"name":"f","arguments":"{}"}}]}}`, `/message/tool_calls/0/function/arguments is "{}", not a object`},
		{`{"message":{"tool_calls":[{"function":{"name":"f","arguments":null}}]}}`, `arguments is null, not a object`},
		{`{"message":{"tool_calls":[{"function":{"name":null,"arguments":{}}}]}}`, `/message/tool_calls/0/function/name is null, not a string`},
		{`{"message":{"tool_calls":[{"id":1,"function":{"name":"f","arguments":{}}}]}}`, `/message/tool_calls/0/id is not a string`},
		{`{"message":{"tool_calls":[{"function":{"index":-1,"name":"f","arguments":{}}}]}}`, `/message/tool_calls/0/function/index is -1, not an integer`},
		{`{"message":{"tool_calls":[{"function":{"index":1.0,"name":"f","arguments":{}}}]}}`, `index is 1.0, not an integer`},
		{`{"message":{"tool_calls":[{"function":{"index":9007199254740992,"name":"f","arguments":{}}}]}}`, `not an integer from 0 to 2^53-1`},
		{`{"done_reason":1}`, `/done_reason is not a string`},
		// Missing parts of a call.
		{`{"message":{"tool_calls":[{"id":"x"}]}}`, `/message/tool_calls/0 has no function`},
		{`{"message":{"tool_calls":[{"function":{"arguments":{}}}]}}`, `/message/tool_calls/0/function has no name`},
		{`{"message":{"tool_calls":[{"function":{"name":"f","arguments":{}}},{"function":{"name":"f"}}]}}`, `/message/tool_calls/1/function has no arguments`},
		// Errors the clients read differently.
		{`{"error":""}`, `/error is an empty string`},
		{`{"error":null}`, `/error is null, not a string`},
		{`{"error":{"message":"x"}}`, `not a string`},
		// Line breaks for some readers only.
		{`{"done":false,` + "\r" + `"model":"m"}`, `line 2: a CR at byte 14`},
		{`{"message":{"content":"a` + "\u2028" + `b"}}`, `a U+2028 at byte 24`},
		{`{"message":{"content":"a` + "\u2029" + `b"}}`, `a U+2029 at byte 24`},
		{`{"message":{"content":"a` + "\u0085" + `b"}}`, `a U+0085 at byte 24`},
		{"\ufeff{}", `line 2: `},
	} {
		stream := ndjson(before, tc.line, doneLine)
		resp := toolcall.New()
		err := Read(t.Context(), strings.NewReader(stream), resp)
		if !errors.Is(err, wire.ErrMalformed) || !strings.Contains(err.Error(), tc.err) || !strings.HasPrefix(err.Error(), "ollama: malformed event: line 2: ") {
			t.Errorf("%q: Read = %v, want ErrMalformed in line 2 with %q", tc.line, err, tc.err)
		}
		if res := resp.End(); len(res) != 1 || res[0].Executable || res[0].Arguments != nil {
			t.Errorf("%q: results %+v, want the call of line 1 failed", tc.line, res)
		}
	}
}

// TestAfterDone: anything after the done line is malformed, an error line
// included, and Reader.Line returns the first error again.
func TestAfterDone(t *testing.T) {
	for _, after := range []string{textLine(""), doneLine, `{"error":"x"}`, ``, callLine("c", "f", `{}`)} {
		resp := toolcall.New()
		err := Read(t.Context(), strings.NewReader(ndjson(callLine("c0", "f", `{}`), doneLine, after)), resp)
		if !errors.Is(err, wire.ErrMalformed) || !strings.Contains(err.Error(), "line 3: a line after the line with done true") {
			t.Errorf("%q after done: Read = %v", after, err)
		}
		if res := resp.End(); len(res) != 1 || res[0].Executable {
			t.Errorf("%q after done: results %+v", after, res)
		}
	}
	resp := toolcall.New()
	r := NewReader(resp)
	if err := r.Line([]byte(doneLine + "\n")); err != nil || !r.Done() {
		t.Fatalf("Line = %v, Done %v", err, r.Done())
	}
	first := r.Line([]byte(doneLine))
	if again := r.Line([]byte(textLine("x"))); !errors.Is(first, wire.ErrMalformed) || again != first {
		t.Errorf("Line after done = %v, then %v", first, again)
	}
}

// TestCut: a body that ends before the done line, between lines or in a
// line cut short, is an error wrapping io.ErrUnexpectedEOF, not a
// malformed stream: the calls of the whole lines read stay executable.
func TestCut(t *testing.T) {
	whole := ndjson(callLine("c0", "f", `{"a":1}`), textLine("x"), doneLine)
	for _, tc := range []struct{ stream, err string }{
		{``, `ollama: stream ended after line 0, before a line with done true: unexpected EOF`},
		{ndjson(callLine("c0", "f", `{"a":1}`)), `stream ended after line 1, before`},
		{ndjson(callLine("c0", "f", `{"a":1}`), textLine("x")), `stream ended after line 2, before`},
		{ndjson(callLine("c0", "f", `{"a":1}`)) + `{"message":{"content":"ab`, `ollama: stream cut in line 2: unexpected EOF`},
		{whole[:strings.LastIndex(whole, "}")], `stream cut in line 3`},
	} {
		resp := toolcall.New()
		err := Read(t.Context(), strings.NewReader(tc.stream), resp)
		if !errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, wire.ErrMalformed) || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%q: Read = %v, want %q", tc.stream, err, tc.err)
		}
		res := resp.End()
		if len(tc.stream) > 0 && (len(res) != 1 || !res[0].Executable || string(res[0].Arguments) != `{"a":1}`) {
			t.Errorf("%q: results %+v, want the whole call executable", tc.stream, res)
		}
	}
	// A last line that is not JSON is malformed all the same.
	err := Read(t.Context(), strings.NewReader(ndjson(textLine("x"))+`{"done":tru}`), toolcall.New())
	if !errors.Is(err, wire.ErrMalformed) {
		t.Errorf("a bad literal at the end: Read = %v, want ErrMalformed", err)
	}
}

// TestLongLine: a line longer than MaxLineSize is an error wrapping
// bufio.ErrTooLong with its number, and Read holds no more of it than
// the limit (its buffer stays under twice the limit).
func TestLongLine(t *testing.T) {
	var lr lineReader
	lr.max = 1000
	long := ndjson(textLine("a"), textLine(strings.Repeat("x", 2000)))
	lr.reset(strings.NewReader(long))
	r := NewReader(toolcall.New())
	err := r.readAll(t.Context(), &lr)
	if err == nil || !strings.Contains(err.Error(), "ollama: line 2 is longer than 1000 bytes: bufio.Scanner: token too long") {
		t.Errorf("readAll = %v", err)
	}
	if len(lr.buf) > 1000+1+4096 {
		t.Errorf("buffer of %d bytes", len(lr.buf))
	}
	// A line of exactly the limit is read.
	line := textLine(strings.Repeat("x", 1000-len(textLine(""))))
	lr.reset(strings.NewReader(ndjson(line, doneLine[:0]+`{"done":true}`)))
	r.Reset(toolcall.New())
	if err := r.readAll(t.Context(), &lr); err != nil || len(line) != 1000 {
		t.Errorf("a line of %d bytes: readAll = %v", len(line), err)
	}
}
