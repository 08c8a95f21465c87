package geministream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/internal/testutil/wiretest"
	"github.com/argstream/argstream/toolcall"
	"github.com/google/go-cmp/cmp"
)

// recordings are the streams of testdata (see its README), with the number
// of their calls, to check that expect finds what they hold.
var recordings = []struct {
	file  string
	calls int
}{
	{"vercel-ai__google-tool-call.chunks.txt", 1},
	{"vercel-ai__google-tool-call-gemini3.chunks.txt", 1},
	{"vercel-ai__google-reasoning-gemini3.chunks.txt", 0},
	// Vertex AI's streamFunctionCallArguments: refused at the first
	// event that streams.
	{"vercel-ai__google-stream-no-args-tool-call.chunks.txt", 1},
	{"vercel-ai__google-stream-tool-call-arguments.chunks.txt", 0},
	{"vercel-ai__google-vertex-stream-tool-call-arguments-nested.1.chunks.txt", 0},
}

// recording frames a recording's payloads as Gemini sends them: data-only
// events.
func recording(t testing.TB, file string) []byte {
	t.Helper()
	chunks, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	b, err := wiretest.SSEFromChunks(chunks, false)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// expected is what a stream says, decoded with encoding/json independently
// of Read: candidate 0's whole calls, text and thinking, up to the first
// event that streams a call's arguments (streamedAt, from 1; 0 if none).
type expected struct {
	calls          []wiretest.CallOutcome
	text, thinking string
	streamedAt     int
}

func expect(t testing.TB, stream []byte) expected {
	t.Helper()
	var e expected
	n := 0
	for data := range wiretest.DataLines(t, stream) {
		n++
		var ev struct {
			Candidates []struct {
				Index   int
				Content struct {
					Parts []struct {
						Text         *string
						Thought      bool
						FunctionCall *struct {
							ID, Name     string
							Args         json.RawMessage
							PartialArgs  []json.RawMessage
							WillContinue bool
						}
					}
				}
			}
		}
		if err := json.Unmarshal([]byte(data), &ev); err != nil {
			t.Fatalf("decoding %q: %v", data, err)
		}
		for _, c := range ev.Candidates {
			if c.Index != 0 {
				continue
			}
			for _, p := range c.Content.Parts {
				switch fc := p.FunctionCall; {
				case fc != nil && (fc.WillContinue || len(fc.PartialArgs) > 0 || fc.Name == ""):
					e.streamedAt = n
					return e
				case fc != nil:
					args := []byte("{}")
					if len(fc.Args) > 0 && string(fc.Args) != "null" {
						var err error
						if args, err = testutil.Canonical(fc.Args); err != nil {
							t.Fatal(err)
						}
					}
					e.calls = append(e.calls, outcome(int64(len(e.calls)), fc.ID, fc.Name, string(args)))
				case p.Text != nil && p.Thought:
					e.thinking += *p.Text
				case p.Text != nil:
					e.text += *p.Text
				}
			}
		}
	}
	return e
}

// TestRecordings: Read gives each recording's calls, text and thinking as
// encoding/json reads them, whole and split in reads of every size; a
// recording that streams arguments is refused at its first such event.
func TestRecordings(t *testing.T) {
	for _, rec := range recordings {
		t.Run(rec.file, func(t *testing.T) {
			s := recording(t, rec.file)
			e := expect(t, s)
			if len(e.calls) != rec.calls {
				t.Fatalf("the recording has %d calls, want %d", len(e.calls), rec.calls)
			}
			got := geminiAdapter.Run(toolcall.New(), strings.NewReader(string(s)))
			if e.streamedAt == 0 {
				geminiAdapter.CheckEnd(t, got.Err, false)
			} else if !errors.Is(got.Err, ErrMalformed) || !strings.Contains(got.Err.Error(), fmt.Sprintf("event %d: ", e.streamedAt)) {
				t.Fatalf("Read = %v, want ErrMalformed at event %d", got.Err, e.streamedAt)
			}
			want := e.calls
			if e.streamedAt != 0 {
				// Refused: every call fails.
				for i := range want {
					want[i].Executable, want[i].Arguments = false, ""
				}
			}
			if diff := cmp.Diff(want, got.Calls); diff != "" {
				t.Errorf("calls (-want +got):\n%s", diff)
			}
			if got.Text[0] != e.text || got.Thinking[0] != e.thinking {
				t.Errorf("text %q, thinking %q; want %q, %q", got.Text[0], got.Thinking[0], e.text, e.thinking)
			}
			geminiAdapter.CheckSplits(t, rec.file, s, func(rd io.Reader) wiretest.Got {
				return geminiAdapter.Run(toolcall.New(), rd)
			})
		})
	}
}

// TestRecordingsFramed: the recordings framed at random (CRLF, comments,
// data split over lines) read the same.
func TestRecordingsFramed(t *testing.T) {
	for _, rec := range recordings[:3] {
		s := recording(t, rec.file)
		var events []wiretest.SSEEvent
		for data := range wiretest.DataLines(t, s) {
			events = append(events, wiretest.SSEEvent{Data: data})
		}
		want := expect(t, s)
		for seed := range uint64(20) {
			framed := wiretest.FrameSSE(events, false, newRand(seed))
			resp := toolcall.New()
			if err := Read(context.Background(), strings.NewReader(string(framed)), resp); err != nil {
				t.Fatalf("%s, seed %d: Read = %v", rec.file, seed, err)
			}
			if diff := cmp.Diff(want.calls, wiretest.Outcomes(resp.End())); diff != "" {
				t.Errorf("%s, seed %d (-want +got):\n%s", rec.file, seed, diff)
			}
		}
	}
}
