package coherestream

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/argstream/argstream/internal/testutil/wiretest"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire"
	"github.com/argstream/argstream/wire/sse"
	"github.com/google/go-cmp/cmp"
)

func outcome(i int64, id, name, args string) wiretest.CallOutcome {
	return wiretest.CallOutcome{Index: i, ID: id, Name: name, Arguments: args, Executable: true}
}

// TestEvents: streams of the shapes the API sends give their calls, text,
// thinking and tool plan, whether the events are named or data only.
func TestEvents(t *testing.T) {
	for _, tc := range []struct {
		name     string
		events   []string
		want     []wiretest.CallOutcome
		text     map[int64]string
		thinking map[int64]string
	}{
		{
			name: "two calls",
			events: join([]string{startEv, planEv}, call(0, "c0", "get_weather", `{"city": "Paris \"FR\""}`),
				call(1, "c1", "get_time", `{"tz":"CET"}`), []string{endCallEv}),
			want:     []wiretest.CallOutcome{outcome(0, "c0", "get_weather", `{"city":"Paris \"FR\""}`), outcome(1, "c1", "get_time", `{"tz":"CET"}`)},
			thinking: map[int64]string{0: "I will check."},
		},
		{
			name:   "arguments in the start",
			events: []string{startEv, callStart(0, "c0", "f", `{"a":`), callDelta(0, `1}`), callEnd(0), endCallEv},
			want:   []wiretest.CallOutcome{outcome(0, "c0", "f", `{"a":1}`)},
		},
		{
			name:   "no arguments",
			events: []string{startEv, callStart(0, "c0", "now", ""), callEnd(0), endCallEv},
			want:   []wiretest.CallOutcome{outcome(0, "c0", "now", `{}`)},
		},
		{
			name:   "{} then deltas is not a placeholder",
			events: []string{startEv, callStart(0, "c0", "f", `{}`), callDelta(0, `{"a":1}`), callEnd(0), endCallEv},
			want:   []wiretest.CallOutcome{{Index: 0, ID: "c0", Name: "f", Syntax: true}},
		},
		{
			name: "interleaved, no message-start, no id",
			events: []string{callStart(0, "", "f", ""), callStart(1, "c1", "g", `{"b"`), callDelta(0, `{"a":2}`),
				callDelta(1, `:[true]}`), callEnd(1), callEnd(0), endCallEv},
			want: []wiretest.CallOutcome{outcome(0, "", "f", `{"a":2}`), outcome(1, "c1", "g", `{"b":[true]}`)},
		},
		{
			name: "text, thinking, citations, debug, a type to come",
			events: []string{startEv,
				`{"type":"content-start","index":0,"delta":{"message":{"content":{"type":"thinking","thinking":""}}}}`, thinkEv,
				`{"type":"content-end","index":0}`,
				`{"type":"content-start","index":1,"delta":{"message":{"content":{"type":"text","text":"A"}}}}`,
				`{"type":"content-delta","index":1,"delta":{"message":{"content":{"text":"é"}}},"logprobs":{"token_ids":[1]}}`,
				`{"type":"content-end","index":1}`,
				`{"type":"citation-start","index":0,"delta":{"message":{"citations":{"start":0,"end":1,"text":"A","sources":[]}}}}`,
				`{"type":"citation-end","index":0}`, `{"type":"debug","prompt":"x"}`, `{"type":"future-event","delta":{}}`, doneEv},
			text:     map[int64]string{1: "Aé"},
			thinking: map[int64]string{0: "hm"},
		},
		{
			name:   "MAX_TOKENS cuts an open call",
			events: []string{startEv, callStart(0, "c0", "f", `{"a":"x`), maxEv},
			want:   []wiretest.CallOutcome{{Index: 0, ID: "c0", Name: "f", Truncated: true}},
		},
		{
			name:   "[DONE] after message-end",
			events: []string{startEv, callStart(0, "c0", "f", `{}`), callEnd(0), endCallEv, "[DONE]"},
			want:   []wiretest.CallOutcome{outcome(0, "c0", "f", `{}`)},
		},
	} {
		for _, framing := range []struct {
			name  string
			frame func(...string) string
		}{{"named", stream}, {"data only", dataOnly}} {
			t.Run(tc.name+"/"+framing.name, func(t *testing.T) {
				s := framing.frame(tc.events...)
				got := cohereAdapter.Run(toolcall.New(), strings.NewReader(s))
				if got.Err != nil {
					t.Fatalf("Read = %v", got.Err)
				}
				if diff := cmp.Diff(tc.want, got.Calls); diff != "" {
					t.Errorf("calls (-want +got):\n%s", diff)
				}
				if tc.text == nil {
					tc.text = map[int64]string{}
				}
				if tc.thinking == nil {
					tc.thinking = map[int64]string{}
				}
				if diff := cmp.Diff(tc.text, got.Text); diff != "" {
					t.Errorf("text (-want +got):\n%s", diff)
				}
				if diff := cmp.Diff(tc.thinking, got.Thinking); diff != "" {
					t.Errorf("thinking (-want +got):\n%s", diff)
				}
				cohereAdapter.CheckSplits(t, tc.name, []byte(s), func(rd io.Reader) wiretest.Got {
					return cohereAdapter.Run(toolcall.New(), rd)
				})
			})
		}
	}
}

// TestMalformed: what the package documentation calls malformed fails the
// whole response, with the event's number and what is wrong, and no call
// is executable.
func TestMalformed(t *testing.T) {
	c0 := callStart(0, "c0", "f", "")
	for _, tc := range []struct {
		name, stream string
		event        string // "event N:"
		says         string
	}{
		{"event name not the type", "event: tool-call-delta\ndata: " + c0 + "\n\n", "event 1:", `named "tool-call-delta"`},
		{"no type", stream(`{"index":0}`), "event 1:", "/type is missing"},
		{"delta before start", stream(startEv, callDelta(0, "{}")), "event 2:", "never started"},
		{"end before start", stream(callEnd(0)), "event 1:", "never started"},
		{"second start", stream(c0, c0), "event 2:", "started before"},
		{"delta after end", stream(c0, callEnd(0), callDelta(0, "{}")), "event 3:", "after its tool-call-end"},
		{"second end", stream(c0, callEnd(0), callEnd(0)), "event 3:", "second tool-call-end"},
		{"event after message-end", stream(c0, callEnd(0), endCallEv, callDelta(0, "x")), "event 4:", "after message-end"},
		{"start after message-end", stream(endCallEv, callStart(1, "c1", "g", "")), "event 2:", "after message-end"},
		{"index far ahead", stream(callStart(MaxSkip, "c0", "f", "")), "event 1:", "ahead"},
		{"index far ahead of the calls", stream(c0, callStart(1+MaxSkip, "c1", "f", "")), "event 2:", "ahead"},
		{"start without index", stream(`{"type":"tool-call-start","delta":{"message":{"tool_calls":{"id":"a","type":"function","function":{"name":"f","arguments":""}}}}}`), "event 1:", "no /index"},
		{"negative index", stream(`{"type":"tool-call-end","index":-1}`), "event 1:", "/index"},
		{"index past 2^53-1", stream(`{"type":"tool-call-end","index":9007199254740992}`), "event 1:", "/index"},
		{"no name", stream(callStart(0, "c0", "", "")), "event 1:", "function/name"},
		{"another type", stream(strings.Replace(c0, `"function","function"`, `"code","function"`, 1)), "event 1:", `not "function"`},
		{"tool_calls an array", stream(`{"type":"tool-call-start","index":0,"delta":{"message":{"tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":""}}]}}}`), "event 1:", "not an object"},
		{"a name in a delta", stream(c0, `{"type":"tool-call-delta","index":0,"delta":{"message":{"tool_calls":{"function":{"name":"rm","arguments":"{}"}}}}}`), "event 2:", "names an id or a function"},
		{"repeated id", stream(c0, callEnd(0), callStart(1, "c0", "g", "")), "event 3:", "earlier call's"},
		{"repeated member", stream(c0, `{"type":"tool-call-delta","index":0,"delta":{"message":{"tool_calls":{"function":{"arguments":"{}","arguments":"[]"}}}}}`), "event 2:", "duplicate"},
		{"member in another case", stream(c0, `{"type":"tool-call-delta","index":0,"delta":{"message":{"Tool_Calls":{"function":{"arguments":"{}"}}}}}`), "event 2:", "another case"},
		{"escaped name", stream(c0, `{"type":"tool-call-delta","index":0,"delta":{"message":{"tool\u005fcalls":{"function":{"arguments":"{}"}}}}}`), "event 2:", "escape"},
		{"not an object", stream(`[1]`), "event 1:", "not a JSON object"},
		{"text and thinking", stream(`{"type":"content-delta","index":0,"delta":{"message":{"content":{"text":"a","thinking":"b"}}}}`), "event 1:", "both text and thinking"},
		{"second message-start", stream(startEv, startEv), "event 2:", "second message-start"},
		{"late message-start", stream(planEv, startEv), "event 2:", "after other events"},
		{"a call in message-start", stream(`{"type":"message-start","delta":{"message":{"tool_calls":[{"id":"a"}]}}}`), "event 1:", "not empty"},
		{"open call at COMPLETE", stream(c0, doneEv), "event 2:", "no tool-call-end"},
		{"[DONE] before message-end", stream(c0, "[DONE]"), "event 2:", "not a JSON object"},
		{"an event after [DONE]", stream(endCallEv, "[DONE]", planEv), "event 3:", "after message-end"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			results, err := cohereAdapter.ReadChecked(t, []byte(tc.stream))
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("Read = %v, want ErrMalformed", err)
			}
			if msg := err.Error(); !strings.HasPrefix(msg, "cohere: malformed event: "+tc.event) || !strings.Contains(msg, tc.says) {
				t.Errorf("Read = %q, want %q and %q", msg, tc.event, tc.says)
			}
			for _, r := range results {
				if r.Executable {
					t.Errorf("call %+v executable", r.Call)
				}
			}
		})
	}
}

// TestProviderError: a message-end with finish_reason ERROR is the
// provider's error, with its message.
func TestProviderError(t *testing.T) {
	s := stream(startEv, callStart(0, "c0", "f", `{"a":1}`), callEnd(0),
		`{"type":"message-end","delta":{"finish_reason":"ERROR","error":"internal error"}}`)
	err := Read(context.Background(), strings.NewReader(s), toolcall.New())
	var pe *wire.ProviderError
	if !errors.As(err, &pe) || pe.Wire != wire.Cohere || pe.Type != "ERROR" || pe.Message != "internal error" {
		t.Fatalf("Read = %#v", err)
	}
	if got, want := err.Error(), "cohere: error event: ERROR: internal error"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

// TestCutAnywhere: a stream cut at any byte before its message-end's data
// is complete ends with an error wrapping io.ErrUnexpectedEOF, never
// ErrMalformed; the calls ended before the cut are what the whole stream
// gives, and no other call is executable.
func TestCutAnywhere(t *testing.T) {
	s := []byte(stream(join([]string{startEv, planEv, textEv}, call(0, "c0", "f", `{"a":"x\ny","n":[1,2]}`),
		call(1, "c1", "g", `12`), []string{endCallEv})...))
	whole := cohereAdapter.Run(toolcall.New(), strings.NewReader(string(s)))
	if whole.Err != nil || len(whole.Calls) != 2 {
		t.Fatalf("whole: %v, %d calls", whole.Err, len(whole.Calls))
	}
	end := strings.LastIndex(string(s), "}") + 1
	for n := range end {
		got := cohereAdapter.Run(toolcall.New(), strings.NewReader(string(s[:n])))
		if !errors.Is(got.Err, io.ErrUnexpectedEOF) || errors.Is(got.Err, ErrMalformed) {
			t.Fatalf("cut at %d: Read = %v, want io.ErrUnexpectedEOF", n, got.Err)
		}
		for i, c := range got.Calls {
			if c.Executable && c != whole.Calls[i] {
				t.Fatalf("cut at %d: call %+v executable, whole %+v", n, c, whole.Calls[i])
			}
		}
	}
	// Cut in the last event, after its closing brace, but before the
	// blank line: the SDKs drop such an event, as the spec does.
	got := cohereAdapter.Run(toolcall.New(), strings.NewReader(string(s[:end])))
	if !errors.Is(got.Err, sse.ErrTruncated) || !errors.Is(got.Err, io.ErrUnexpectedEOF) {
		t.Errorf("cut after the last brace: Read = %v", got.Err)
	}
}

// TestReaderState: Ended and FinishReason, and Reset for the next stream.
func TestReaderState(t *testing.T) {
	r := NewReader(toolcall.New())
	rd := sse.NewReader(strings.NewReader(stream(startEv, callStart(0, "c0", "f", "{}"), callEnd(0), endCallEv)))
	var touched [][]int64
	for rd.Next() {
		if err := r.Event(rd.Event()); err != nil {
			t.Fatal(err)
		}
		touched = append(touched, append([]int64(nil), r.EventCalls()...))
	}
	if !r.Ended() || r.FinishReason() != "TOOL_CALL" {
		t.Errorf("Ended %v, FinishReason %q", r.Ended(), r.FinishReason())
	}
	if diff := cmp.Diff([][]int64{nil, {0}, {0}, nil}, touched, cmp.Transformer("", func(s []int64) []int64 {
		if len(s) == 0 {
			return nil
		}
		return s
	})); diff != "" {
		t.Errorf("EventCalls (-want +got):\n%s", diff)
	}
	resp := toolcall.New()
	r.Reset(resp)
	if r.Ended() || r.FinishReason() != "" {
		t.Errorf("after Reset: Ended %v, FinishReason %q", r.Ended(), r.FinishReason())
	}
	rd.Reset(strings.NewReader(stream(callStart(0, "c0", "f", "{}"), callEnd(0), doneEv)))
	for rd.Next() {
		if err := r.Event(rd.Event()); err != nil {
			t.Fatalf("after Reset: %v (the same index and id, in another stream)", err)
		}
	}
}
