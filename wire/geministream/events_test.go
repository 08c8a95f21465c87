package geministream

import (
	"bytes"
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

// geminiAdapter is Read under the tests that every wire adapter passes.
var geminiAdapter = wiretest.Adapter{Name: "Read", Read: Read}

// Events of the shapes the API sends.
const (
	textEv     = `{"candidates":[{"content":{"parts":[{"text":"Checking."}],"role":"model"},"index":0}],"modelVersion":"gemini-2.5-flash","responseId":"r1"}`
	thoughtEv  = `{"candidates":[{"content":{"parts":[{"text":"**Planning**","thought":true}],"role":"model"},"index":0}]}`
	callEv     = `{"candidates":[{"content":{"parts":[{"functionCall":{"name":"get_weather","args":{"city":"Paris"}},"thoughtSignature":"c2ln"}],"role":"model"},"index":0}]}`
	twoCallsEv = `{"candidates":[{"content":{"parts":[{"functionCall":{"id":"a1","name":"get_weather","args":{"city": "Paris", "days": [1, 2]}}},{"functionCall":{"id":"a2","name":"get_time","args":{"tz":"CET"}}}],"role":"model"},"index":0}]}`
	stopEv     = `{"candidates":[{"content":{"parts":[{"text":""}],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":29,"candidatesTokenCount":15,"totalTokenCount":89}}`
	usageEv    = `{"usageMetadata":{"promptTokenCount":29,"candidatesTokenCount":15,"totalTokenCount":89},"modelVersion":"gemini-2.5-flash"}`
)

func stream(data ...string) string { return wiretest.DataSSE(data...) }

// outcome is the executable outcome of a whole call.
func outcome(index int64, id, name, args string) wiretest.CallOutcome {
	return wiretest.CallOutcome{Index: index, ID: id, Name: name, Arguments: args, Executable: true}
}

// TestEvents: streams of the shapes the API sends give their calls, text and
// thinking, and end as documented; each is read again split in reads of
// every size, with the same result.
func TestEvents(t *testing.T) {
	for _, tc := range []struct {
		name     string
		stream   string
		calls    []wiretest.CallOutcome
		text     map[int64]string
		thinking map[int64]string
		finish   string
		err      error // wrapped by the error, if any
	}{
		{
			name:   "text, a call, stop",
			stream: stream(textEv, callEv, stopEv),
			calls:  []wiretest.CallOutcome{outcome(0, "", "get_weather", `{"city":"Paris"}`)},
			text:   map[int64]string{0: "Checking."},
			finish: "STOP",
		},
		{
			name:   "two calls in one event, with ids, then a third: indexes by position in the response",
			stream: stream(twoCallsEv, callEv, stopEv),
			calls: []wiretest.CallOutcome{
				outcome(0, "a1", "get_weather", `{"city":"Paris","days":[1,2]}`),
				outcome(1, "a2", "get_time", `{"tz":"CET"}`),
				outcome(2, "", "get_weather", `{"city":"Paris"}`),
			},
			finish: "STOP",
		},
		{
			name: "a call without args, and one with args null: {}",
			stream: stream(`{"candidates":[{"content":{"parts":[{"functionCall":{"name":"now"}},{"functionCall":{"name":"later","args":null}}]}}]}`,
				stopEv),
			calls:  []wiretest.CallOutcome{outcome(0, "", "now", `{}`), outcome(1, "", "later", `{}`)},
			finish: "STOP",
		},
		{
			name:     "thinking, text and the call in one event, candidate 0 without an index (Vertex AI)",
			stream:   stream(`{"candidates":[{"content":{"role":"model","parts":[{"text":"hm","thought":true},{"text":"Sure."},{"functionCall":{"name":"f","args":{}}}]},"finishReason":"STOP"}]}`),
			calls:    []wiretest.CallOutcome{outcome(0, "", "f", `{}`)},
			text:     map[int64]string{0: "Sure."},
			thinking: map[int64]string{0: "hm"},
			finish:   "STOP",
		},
		{
			name:     "thought parts to OnThinking",
			stream:   stream(thoughtEv, thoughtEv, textEv, stopEv),
			text:     map[int64]string{0: "Checking."},
			thinking: map[int64]string{0: "**Planning****Planning**"},
			finish:   "STOP",
		},
		{
			name: "other candidates' text ignored",
			stream: stream(`{"candidates":[{"content":{"parts":[{"text":"zero"}]},"index":0},{"content":{"parts":[{"text":"one"}]},"index":1}]}`,
				`{"candidates":[{"content":{"parts":[{"text":"uno"}]},"index":1,"finishReason":"STOP"}]}`,
				stopEv),
			text:   map[int64]string{0: "zero"},
			finish: "STOP",
		},
		{
			name:   "usage metadata after the finishReason",
			stream: stream(callEv, stopEv, usageEv),
			calls:  []wiretest.CallOutcome{outcome(0, "", "get_weather", `{"city":"Paris"}`)},
			finish: "STOP",
		},
		{
			name:   "MAX_TOKENS: the response cut short, whole calls complete",
			stream: stream(callEv, `{"candidates":[{"content":{"parts":[{"text":"and"}]},"finishReason":"MAX_TOKENS","index":0}]}`),
			calls:  []wiretest.CallOutcome{outcome(0, "", "get_weather", `{"city":"Paris"}`)},
			text:   map[int64]string{0: "and"},
			finish: "MAX_TOKENS",
		},
		{
			name:   "a refusal finishReason ends the response",
			stream: stream(`{"candidates":[{"finishReason":"SAFETY","index":0,"safetyRatings":[{"category":"HARM_CATEGORY_HATE_SPEECH","probability":"HIGH","blocked":true}]}]}`),
			finish: "SAFETY",
		},
		{
			name:   "a blocked prompt ends the response",
			stream: stream(`{"promptFeedback":{"blockReason":"SAFETY","safetyRatings":[]},"usageMetadata":{"promptTokenCount":8}}`),
			finish: "SAFETY",
		},
		{
			name: "arguments streamed (Vertex AI): every kind of value, names quoted, a string over three events, the id again",
			stream: stream(
				parts(`{"functionCall":{"id":"c1","name":"f","willContinue":true,"partialArgs":[{"jsonPath":"$.n","numberValue":2.50}]}}`),
				cont(`{"jsonPath":"$.o['a b'].t","boolValue":true},{"jsonPath":"$.o[\"q\\\"k\"].f","boolValue":false},{"jsonPath":"$.o.z","nullValue":"NULL_VALUE"}`),
				cont(`{"jsonPath":"$.m[0][0]","numberValue":1},{"jsonPath":"$.m[0][1]","numberValue":-2e3},{"jsonPath":"$.m[1][0].k","stringValue":"line\n","willContinue":true}`),
				parts(`{"functionCall":{"id":"c1","partialArgs":[{"jsonPath":"$.m[1][0].k","stringValue":"\"q\"","willContinue":true}],"willContinue":true}}`),
				cont(`{"jsonPath":"$.m[1][0].k","stringValue":"\u00e9"},{"jsonPath":"$.s","stringValue":""}`),
				parts(`{"functionCall":{}}`),
				stopEv),
			calls:  []wiretest.CallOutcome{outcome(0, "c1", "f", `{"n":2.50,"o":{"a b":{"t":true},"q\"k":{"f":false},"z":null},"m":[[1,-2e3],[{"k":"line\n\"q\"é"}]],"s":""}`)},
			finish: "STOP",
		},
		{
			name: "arguments streamed: a quoted name with \\u escapes, a surrogate pair among them",
			stream: stream(
				parts(`{"functionCall":{"name":"f","willContinue":true,"partialArgs":[{"jsonPath":"$['\\u00e9\\ud83d\\ude00 x']","numberValue":1}]}}`),
				parts(`{"functionCall":{}}`),
				stopEv),
			calls:  []wiretest.CallOutcome{outcome(0, "", "f", `{"é😀 x":1}`)},
			finish: "STOP",
		},
		{
			name: "calls that stream and whole calls: a call of one part, one without partialArgs, one ended by its last partialArgs",
			stream: stream(
				parts(`{"functionCall":{"name":"one","partialArgs":[{"jsonPath":"$.x","numberValue":1}]}},{"functionCall":{"name":"whole","args":{"y":2}}}`),
				parts(`{"functionCall":{"name":"none","willContinue":true}}`),
				parts(`{"text":"between"},{"functionCall":{"willContinue":true}},{"functionCall":{}}`),
				parts(`{"functionCall":{"name":"last","willContinue":true}}`),
				parts(`{"functionCall":{"partialArgs":[{"jsonPath":"$.l[0]","stringValue":"a"}]}}`),
				stopEv),
			calls: []wiretest.CallOutcome{
				outcome(0, "", "one", `{"x":1}`),
				outcome(1, "", "whole", `{"y":2}`),
				outcome(2, "", "none", `{}`),
				outcome(3, "", "last", `{"l":["a"]}`),
			},
			text:   map[int64]string{0: "between"},
			finish: "STOP",
		},
		{
			name:   "the body ends while a call streams: it is truncated",
			stream: stream(begin, cont(`{"jsonPath":"$.a","stringValue":"x","willContinue":true}`)),
			calls:  []wiretest.CallOutcome{{Index: 0, Name: "f", Truncated: true}},
			err:    io.ErrUnexpectedEOF,
		},
		{
			name:   "MAX_TOKENS while a call streams: it is truncated",
			stream: stream(begin, cont(`{"jsonPath":"$.a","numberValue":1}`), `{"candidates":[{"content":{"parts":[{"text":""}]},"finishReason":"MAX_TOKENS"}]}`),
			calls:  []wiretest.CallOutcome{{Index: 0, Name: "f", Truncated: true}},
			finish: "MAX_TOKENS",
		},
		{
			name:   "arguments that are invalid for the call are its error, not Read's",
			stream: stream(`{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","args":{"s":"\ud83d\ude00"}}}]},"finishReason":"STOP"}]}`),
			calls:  []wiretest.CallOutcome{outcome(0, "", "f", `{"s":"😀"}`)},
			finish: "STOP",
		},
		{
			name:   "the body ends before a finishReason: the calls that came are complete",
			stream: stream(textEv, callEv),
			calls:  []wiretest.CallOutcome{outcome(0, "", "get_weather", `{"city":"Paris"}`)},
			text:   map[int64]string{0: "Checking."},
			err:    io.ErrUnexpectedEOF,
		},
		{
			name:   "cut inside an event",
			stream: stream(callEv) + `data: {"candidates":[{"content":{"parts":[{"functionCall":{"name":"g","args":{"x":1}}}]}`,
			calls:  []wiretest.CallOutcome{outcome(0, "", "get_weather", `{"city":"Paris"}`)},
			err:    sse.ErrTruncated,
		},
		{
			name:   "an empty body",
			stream: "",
			err:    io.ErrUnexpectedEOF,
		},
		{
			name:   "the last event without its blank line, after the finishReason: dropped",
			stream: stream(callEv, stopEv) + "data: " + usageEv,
			calls:  []wiretest.CallOutcome{outcome(0, "", "get_weather", `{"city":"Paris"}`)},
			finish: "STOP",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := NewReader(nil)
			read := func(rd io.Reader) wiretest.Got {
				resp := toolcall.New()
				r.Reset(resp)
				g := wiretest.Got{Text: map[int64]string{}, Thinking: map[int64]string{}}
				r.cfg.OnText = func(i int64, b []byte) { g.Text[i] += string(b) }
				r.cfg.OnThinking = func(i int64, b []byte) { g.Thinking[i] += string(b) }
				g.Err = r.ReadEvents(context.Background(), sse.NewReader(rd))
				g.Calls = wiretest.Outcomes(resp.End())
				return g
			}
			g := read(strings.NewReader(tc.stream))
			if tc.err == nil && g.Err != nil || tc.err != nil && !errors.Is(g.Err, tc.err) {
				t.Fatalf("error %v, want %v", g.Err, tc.err)
			}
			if tc.err != nil && !errors.Is(g.Err, io.ErrUnexpectedEOF) {
				t.Errorf("error %v does not wrap io.ErrUnexpectedEOF", g.Err)
			}
			if diff := cmp.Diff(tc.calls, g.Calls); diff != "" {
				t.Errorf("calls (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.text, g.Text, cmpEmpty); diff != "" {
				t.Errorf("text (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.thinking, g.Thinking, cmpEmpty); diff != "" {
				t.Errorf("thinking (-want +got):\n%s", diff)
			}
			if r.FinishReason() != tc.finish || r.Ended() != (tc.finish != "") {
				t.Errorf("FinishReason %q, Ended %v; want %q", r.FinishReason(), r.Ended(), tc.finish)
			}
			// Read gives the same, whole and split.
			geminiAdapter.CheckSplits(t, tc.name, []byte(tc.stream), func(rd io.Reader) wiretest.Got {
				return geminiAdapter.Run(toolcall.New(), rd)
			})
			if whole := geminiAdapter.Run(toolcall.New(), strings.NewReader(tc.stream)); !cmp.Equal(whole.Calls, g.Calls) || (whole.Err == nil) != (g.Err == nil) {
				t.Errorf("Read gave %v, %+v; the Reader %v, %+v", whole.Err, whole.Calls, g.Err, g.Calls)
			}
		})
	}
}

// cmpEmpty makes a nil map equal to an empty one.
var cmpEmpty = cmp.FilterValues(func(a, b map[int64]string) bool { return len(a) == 0 && len(b) == 0 }, cmp.Ignore())

// TestProviderError: an error object in the stream is a *wire.ProviderError
// with its status, code and message; the calls before it stay complete.
func TestProviderError(t *testing.T) {
	s := stream(callEv, `{"error":{"code":503,"message":"The model is overloaded. Please try again later.","status":"UNAVAILABLE","details":[]}}`)
	resp := toolcall.New()
	err := Read(context.Background(), strings.NewReader(s), resp)
	var pe *wire.ProviderError
	if !errors.As(err, &pe) {
		t.Fatalf("Read = %v, want a *wire.ProviderError", err)
	}
	want := wire.ProviderError{Wire: wire.Gemini, Type: "UNAVAILABLE", Code: "503", Message: "The model is overloaded. Please try again later."}
	if *pe != want {
		t.Errorf("error %+v, want %+v", *pe, want)
	}
	if errors.Is(err, ErrMalformed) {
		t.Errorf("error %v wraps ErrMalformed", err)
	}
	if res := resp.End(); len(res) != 1 || !res[0].Executable {
		t.Errorf("results %+v, want the one call executable", res)
	}
	if got := err.Error(); got != "gemini: error event: UNAVAILABLE: 503: The model is overloaded. Please try again later." {
		t.Errorf("message %q", got)
	}
}

// TestReaderSteps: the Reader reports the calls each event concerned, and
// returns its first error again.
func TestReaderSteps(t *testing.T) {
	resp := toolcall.New()
	r := NewReader(resp)
	steps := []struct {
		data  string
		calls []int64
	}{
		{textEv, nil}, {twoCallsEv, []int64{0, 1}}, {callEv, []int64{2}}, {stopEv, nil},
	}
	for i, s := range steps {
		if err := r.Event(sse.Event{Data: []byte(s.data)}); err != nil {
			t.Fatalf("event %d: %v", i+1, err)
		}
		if !cmp.Equal(r.EventCalls(), s.calls, cmpEmptySlice) {
			t.Errorf("event %d: EventCalls %v, want %v", i+1, r.EventCalls(), s.calls)
		}
	}
	if !r.Ended() {
		t.Error("not Ended after the finishReason")
	}
	err := r.Event(sse.Event{Data: []byte(`{}`), Type: []byte("message")})
	if !errors.Is(err, ErrMalformed) {
		t.Fatalf("a named event: %v", err)
	}
	if again := r.Event(sse.Event{Data: []byte(usageEv)}); again != err {
		t.Errorf("after an error, Event = %v, want %v again", again, err)
	}
	for _, res := range resp.End() {
		if res.Executable {
			t.Errorf("call %+v executable after a malformed event", res.Call)
		}
	}
	// Reset serves the next stream.
	resp.Reset()
	r.Reset(resp)
	for _, d := range []string{callEv, stopEv} {
		if err := r.Event(sse.Event{Data: []byte(d)}); err != nil {
			t.Fatal(err)
		}
	}
	if res := resp.End(); len(res) != 1 || res[0].Call.Index != 0 || !res[0].Executable {
		t.Errorf("after Reset: %+v", res)
	}
}

var cmpEmptySlice = cmp.FilterValues(func(a, b []int64) bool { return len(a) == 0 && len(b) == 0 }, cmp.Ignore())

// TestContext and TestEnded: a cancelled context stops Read, and a Response
// already ended is refused.
func TestContextAndEnded(t *testing.T) {
	var b bytes.Buffer
	for range 40 {
		b.WriteString(stream(textEv))
	}
	b.WriteString(stream(callEv, stopEv))
	geminiAdapter.CheckContext(t, b.Bytes())
	geminiAdapter.CheckEnded(t, "", []byte(stream(callEv, stopEv)))
}
