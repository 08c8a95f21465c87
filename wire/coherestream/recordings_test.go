package coherestream

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/internal/testutil/wiretest"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire/sse"
	"github.com/google/go-cmp/cmp"
)

// recordings are the streams of testdata (see its README), with the number
// of their calls, to check that expect finds what they hold.
var recordings = []struct {
	file  string
	calls int
}{
	{"vercel-ai__cohere-tool-call.chunks.txt", 2},
	{"vercel-ai__cohere-empty-tool-call.chunks.txt", 1},
	{"vercel-ai__cohere-reasoning.chunks.txt", 0},
	{"vercel-ai__cohere-text.chunks.txt", 0},
	{"vercel-ai__cohere-citations.chunks.txt", 0},
	{"vercel-ai__issue-22070-cached-usage.chunks.txt", 0},
}

// recording frames a recording's payloads as Cohere sends them, each event
// named by its type, or as data-only events.
func recording(t testing.TB, file string, named bool) []byte {
	t.Helper()
	chunks, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	b, err := wiretest.SSEFromChunks(chunks, named)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// expected is what a stream says, decoded with encoding/json independently
// of Read: its calls (arguments in canonical form, {} for none), its text
// and thinking by index (the tool plan at 0).
type expected struct {
	calls          []wiretest.CallOutcome
	text, thinking map[int64]string
}

func expect(t testing.TB, s []byte) expected {
	t.Helper()
	e := expected{text: map[int64]string{}, thinking: map[int64]string{}}
	args := map[int64]string{}
	for data := range wiretest.DataLines(t, s) {
		var ev struct {
			Type  string
			Index int64
			Delta struct {
				Message struct {
					ToolPlan string `json:"tool_plan"`
					Content  json.RawMessage
					Calls    json.RawMessage `json:"tool_calls"`
				}
			}
		}
		if err := json.Unmarshal([]byte(data), &ev); err != nil {
			t.Fatal(err)
		}
		m := ev.Delta.Message
		var content struct{ Text, Thinking string }
		var call struct {
			ID       string
			Function struct{ Name, Arguments string }
		}
		switch ev.Type {
		case "tool-plan-delta":
			e.thinking[0] += m.ToolPlan
		case "content-start", "content-delta":
			if err := json.Unmarshal(m.Content, &content); err != nil {
				t.Fatal(err)
			}
			if content.Text != "" {
				e.text[ev.Index] += content.Text
			}
			if content.Thinking != "" {
				e.thinking[ev.Index] += content.Thinking
			}
		case "tool-call-start", "tool-call-delta":
			if err := json.Unmarshal(m.Calls, &call); err != nil {
				t.Fatal(err)
			}
			if ev.Type == "tool-call-start" {
				e.calls = append(e.calls, outcome(ev.Index, call.ID, call.Function.Name, ""))
			}
			args[ev.Index] += call.Function.Arguments
		}
	}
	for i := range e.calls {
		a := args[e.calls[i].Index]
		if a == "" {
			a = "{}"
		}
		canon, err := testutil.Canonical([]byte(a))
		if err != nil {
			t.Fatal(err)
		}
		e.calls[i].Arguments = string(canon)
	}
	return e
}

// TestRecordings: Read gives each recording's calls, text and thinking as
// encoding/json reads them, framed with event names and without, whole
// and split in reads of every size.
func TestRecordings(t *testing.T) {
	for _, rec := range recordings {
		for _, named := range []bool{true, false} {
			t.Run(rec.file, func(t *testing.T) {
				s := recording(t, rec.file, named)
				e := expect(t, s)
				if len(e.calls) != rec.calls {
					t.Fatalf("the recording has %d calls, want %d", len(e.calls), rec.calls)
				}
				got := cohereAdapter.Run(toolcall.New(), strings.NewReader(string(s)))
				cohereAdapter.CheckEnd(t, got.Err, false)
				if diff := cmp.Diff(e.calls, got.Calls); diff != "" {
					t.Errorf("calls (-want +got):\n%s", diff)
				}
				if diff := cmp.Diff(e.text, got.Text); diff != "" {
					t.Errorf("text (-want +got):\n%s", diff)
				}
				if diff := cmp.Diff(e.thinking, got.Thinking); diff != "" {
					t.Errorf("thinking (-want +got):\n%s", diff)
				}
				cohereAdapter.CheckSplits(t, rec.file, s, func(rd io.Reader) wiretest.Got {
					return cohereAdapter.Run(toolcall.New(), rd)
				})
			})
		}
	}
}

// TestRecordingsCut: each recording cut at every byte before the end of
// its message-end's data gives an error wrapping io.ErrUnexpectedEOF,
// never ErrMalformed, and no call the whole does not give, the text given
// being a prefix of the whole's.
func TestRecordingsCut(t *testing.T) {
	for _, rec := range recordings {
		s := recording(t, rec.file, true)
		whole := cohereAdapter.Run(toolcall.New(), strings.NewReader(string(s)))
		end := strings.LastIndex(string(s), "}") + 1
		resp := toolcall.New()
		for n := range end {
			got := cohereAdapter.Run(resp, strings.NewReader(string(s[:n])))
			if !errors.Is(got.Err, io.ErrUnexpectedEOF) || errors.Is(got.Err, ErrMalformed) {
				t.Fatalf("%s cut at %d: Read = %v, want io.ErrUnexpectedEOF", rec.file, n, got.Err)
			}
			for i, c := range got.Calls {
				if c.Executable && c != whole.Calls[i] {
					t.Fatalf("%s cut at %d: call %+v executable", rec.file, n, c)
				}
			}
			for i, text := range got.Text {
				if !strings.HasPrefix(whole.Text[i], text) {
					t.Fatalf("%s cut at %d: text %q, whole %q", rec.file, n, text, whole.Text[i])
				}
			}
		}
	}
}

// TestMaxTokensRecording: the recording that ends at MAX_TOKENS marks the
// response cut short.
func TestMaxTokensRecording(t *testing.T) {
	r := NewReader(toolcall.New())
	s := recording(t, "vercel-ai__issue-22070-cached-usage.chunks.txt", true)
	if err := r.ReadEvents(t.Context(), sse.NewReader(strings.NewReader(string(s)))); err != nil {
		t.Fatal(err)
	}
	if r.FinishReason() != "MAX_TOKENS" {
		t.Errorf("FinishReason = %q", r.FinishReason())
	}
}

// TestReadEventsReused: a Reader and its SSE reader kept from stream to
// stream with Reset read each recording as Read does, one after the other,
// and again cut short.
func TestReadEventsReused(t *testing.T) {
	var streams [][]byte
	for _, rec := range recordings {
		s := recording(t, rec.file, true)
		streams = append(streams, s, s[:len(s)*2/3])
	}
	cohereAdapter.CheckReadEvents(t, NewReader(toolcall.New()), streams)
}
