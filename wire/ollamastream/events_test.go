package ollamastream

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/argstream/argstream/internal/testutil/wiretest"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire"
	"github.com/google/go-cmp/cmp"
)

// exec is the outcome of an executable call.
func exec(index int64, id, name, args string) wiretest.CallOutcome {
	return wiretest.CallOutcome{Index: index, ID: id, Name: name, Arguments: args, Executable: true}
}

// TestEvents reads streams of every shape the API sends, and checks the
// calls, the text and the reasoning they give, and Read's error.
func TestEvents(t *testing.T) {
	for _, tc := range []struct {
		name, stream string
		calls        []wiretest.CallOutcome
		text, think  string
		err          string // a part of Read's error; "" for none
	}{
		{
			name: "thinking, text and a call",
			stream: ndjson(
				head+`"","thinking":"Let me "},"done":false}`,
				head+`"","thinking":"check."},"done":false}`,
				textLine(`I'll look \"it\" up.`),
				callLine("call_ab12cd34", "get_weather", `{"city":"Paris","days":[1,2]}`),
				doneLine),
			calls: []wiretest.CallOutcome{exec(0, "call_ab12cd34", "get_weather", `{"city":"Paris","days":[1,2]}`)},
			text:  `I'll look "it" up.`, think: "Let me check.",
		},
		{
			name: "calls numbered in stream order, whatever their function.index",
			stream: ndjson(
				head+`"","tool_calls":[{"id":"call_1","function":{"index":0,"name":"a","arguments":{}}},{"id":"call_2","function":{"index":0,"name":"b","arguments":{"x":null}}}]},"done":false}`,
				head+`"","tool_calls":[{"id":"call_3","function":{"index":7,"name":"c","arguments":{ "y" : "\u00e9" }}}]},"done":false}`,
				doneLine),
			calls: []wiretest.CallOutcome{exec(0, "call_1", "a", `{}`), exec(1, "call_2", "b", `{"x":null}`), exec(2, "call_3", "c", `{"y":"é"}`)},
		},
		{
			name: "an older Ollama: no id, no index, no content member, a type",
			stream: ndjson(
				`{"message":{"role":"assistant","tool_calls":[{"type":"function","function":{"name":"web_search","arguments":{"query":"q"}}}]},"done":false}`,
				`{"message":{"role":"assistant"},"done":true}`),
			calls: []wiretest.CallOutcome{exec(0, "", "web_search", `{"query":"q"}`)},
		},
		{
			name:   "nulls",
			stream: ndjson(`{"message":null,"done":null}`, `{"message":{"content":null,"thinking":null,"tool_calls":null},"done":false,"done_reason":null}`, doneLine),
		},
		{
			name:   "the last line without its end of line, CRLF ends, members to come",
			stream: textLine("a") + "\r\n" + `{"message":{"content":"b","extra":{"Content":1}},"new":[1],"done":true,"done_reason":"length"}`,
			text:   "ab",
		},
		{
			name:   "done_reason length",
			stream: ndjson(callLine("c", "f", `{"n":1}`), `{"message":{"content":""},"done":true,"done_reason":"length"}`),
			calls:  []wiretest.CallOutcome{exec(0, "c", "f", `{"n":1}`)},
		},
		{
			name:   "an error line",
			stream: ndjson(textLine("a"), `{"error":"model \"x\" not found"}`),
			text:   "a",
			err:    `ollama: error event: model "x" not found`,
		},
		{
			name: "an error line after a call, and with a call in it",
			stream: ndjson(callLine("c1", "f", `{}`),
				`{"error":"oops","message":{"tool_calls":[{"function":{"name":"g","arguments":{}}}]}}`),
			calls: []wiretest.CallOutcome{exec(0, "c1", "f", `{}`)},
			err:   "oops",
		},
		{
			// Not Read's to refuse: the Response judges the arguments, and
			// refuses them (a tool decoding them with encoding/json v1
			// would read one key).
			name:   "arguments keys equal under case folding",
			stream: ndjson(callLine("c", "f", `{"a":1,"A":2}`), doneLine),
			calls:  []wiretest.CallOutcome{{Index: 0, ID: "c", Name: "f", Syntax: true}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := adapterRead.Run(toolcall.New(), strings.NewReader(tc.stream))
			if tc.err == "" && got.Err != nil || tc.err != "" && (got.Err == nil || !strings.Contains(got.Err.Error(), tc.err)) {
				t.Fatalf("Read = %v, want an error with %q", got.Err, tc.err)
			}
			if diff := cmp.Diff(tc.calls, got.Calls); diff != "" {
				t.Errorf("calls (-want +got):\n%s", diff)
			}
			if got.Text[0] != tc.text || got.Thinking[0] != tc.think || len(got.Text) > 1 || len(got.Thinking) > 1 {
				t.Errorf("text %v, thinking %v; want %q, %q", got.Text, got.Thinking, tc.text, tc.think)
			}
			adapterRead.CheckSplits(t, tc.name, []byte(tc.stream), func(rd io.Reader) wiretest.Got {
				return adapterRead.Run(toolcall.New(), rd)
			})
		})
	}
}

// TestProviderError: an error line is a *wire.ProviderError with the
// message, not a malformed stream, and does not fail the Response.
func TestProviderError(t *testing.T) {
	resp := toolcall.New()
	err := Read(t.Context(), strings.NewReader(ndjson(callLine("c", "f", `{}`), `{"error":"boom"}`, doneLine)), resp)
	var pe *wire.ProviderError
	if !errors.As(err, &pe) || pe.Message != "boom" || pe.Wire != wire.Ollama || errors.Is(err, wire.ErrMalformed) {
		t.Fatalf("Read = %#v", err)
	}
	if res := resp.End(); len(res) != 1 || !res[0].Executable {
		t.Errorf("results %+v, want the call before the error executable", res)
	}
}
