package geministream

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
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
	// Vertex AI's streamFunctionCallArguments.
	{"vercel-ai__google-stream-no-args-tool-call.chunks.txt", 4},
	{"vercel-ai__google-stream-tool-call-arguments.chunks.txt", 2},
	{"vercel-ai__google-vertex-stream-tool-call-arguments-nested.1.chunks.txt", 1},
	{"vercel-ai__google-stream-tool-call-array-arguments-missing-terminal-function-call.chunks.txt", 1},
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
// of Read: candidate 0's calls, text and thinking. The arguments of a call
// are in values, as encoding/json decodes them (for a streamed call, built
// from its partialArgs), and in calls, in canonical form for a whole call
// (Arguments "" for a streamed one: its keys come in the order they
// streamed).
type expected struct {
	calls          []wiretest.CallOutcome
	values         []any
	text, thinking string
	streamed       int // the calls that streamed their arguments
}

// pathSegment matches one segment of the jsonPaths of the recordings.
var pathSegment = regexp.MustCompile(`^(?:\.([A-Za-z_][A-Za-z0-9_]*)|\[([0-9]+)\])`)

// setPath sets the value at the segments of a jsonPath in v, a map or a
// slice, made if nil, and returns v.
func setPath(t testing.TB, v any, path string, val func(old any) any) any {
	m := pathSegment.FindStringSubmatch(path)
	if m == nil {
		t.Fatalf("jsonPath segment %q", path)
	}
	rest := path[len(m[0]):]
	at := func(old any) any {
		if rest == "" {
			return val(old)
		}
		return setPath(t, old, rest, val)
	}
	if m[1] != "" {
		o, _ := v.(map[string]any)
		if o == nil {
			o = map[string]any{}
		}
		o[m[1]] = at(o[m[1]])
		return o
	}
	i, _ := strconv.Atoi(m[2])
	a, _ := v.([]any)
	for len(a) <= i {
		a = append(a, nil)
	}
	a[i] = at(a[i])
	return a
}

func expect(t testing.TB, stream []byte) expected {
	t.Helper()
	var (
		e         expected
		streaming map[string]any // the arguments of the call that streams, if any
		open      bool
		strPath   string // the jsonPath of a string that continues
	)
	for data := range wiretest.DataLines(t, stream) {
		var ev struct {
			Candidates []struct {
				Index   int
				Content struct {
					Parts []struct {
						Text         *string
						Thought      bool
						FunctionCall *struct {
							ID, Name    string
							Args        json.RawMessage
							PartialArgs []struct {
								JSONPath     string
								StringValue  *string
								NumberValue  *float64
								BoolValue    *bool
								NullValue    *string
								WillContinue bool
							}
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
				case fc != nil && (fc.WillContinue || len(fc.PartialArgs) > 0 || open):
					if fc.Name != "" {
						e.calls = append(e.calls, outcome(int64(len(e.calls)), fc.ID, fc.Name, ""))
						e.streamed++
						streaming, open = map[string]any{}, true
					}
					for _, a := range fc.PartialArgs {
						var v any
						switch {
						case a.StringValue != nil:
							v = *a.StringValue
						case a.NumberValue != nil:
							v = *a.NumberValue
						case a.BoolValue != nil:
							v = *a.BoolValue
						case a.NullValue != nil:
							v = nil
						}
						cont := strPath == a.JSONPath
						setPath(t, streaming, strings.TrimPrefix(a.JSONPath, "$"), func(old any) any {
							if cont {
								return old.(string) + v.(string)
							}
							return v
						})
						strPath = ""
						if a.WillContinue {
							strPath = a.JSONPath
						}
					}
					if !fc.WillContinue {
						e.values = append(e.values, any(streaming))
						open = false
					}
				case fc != nil:
					args := []byte("{}")
					if len(fc.Args) > 0 && string(fc.Args) != "null" {
						var err error
						if args, err = testutil.Canonical(fc.Args); err != nil {
							t.Fatal(err)
						}
					}
					var v any
					if err := json.Unmarshal(args, &v); err != nil {
						t.Fatal(err)
					}
					e.calls = append(e.calls, outcome(int64(len(e.calls)), fc.ID, fc.Name, string(args)))
					e.values = append(e.values, v)
				case p.Text != nil && p.Thought:
					e.thinking += *p.Text
				case p.Text != nil:
					e.text += *p.Text
				}
			}
		}
	}
	if open {
		t.Fatal("the recording ends with a call that streams its arguments")
	}
	return e
}

// checkArguments checks that the arguments of each call are a valid JSON
// text, whose value is the one expected, and returns got with the
// arguments of the streamed calls (Arguments "" in want) cleared, to be
// compared with want.
func checkArguments(t testing.TB, want []wiretest.CallOutcome, values []any, got []wiretest.CallOutcome) []wiretest.CallOutcome {
	t.Helper()
	if len(got) != len(want) {
		return got
	}
	got = slices.Clone(got)
	for i := range got {
		if !json.Valid([]byte(got[i].Arguments)) {
			t.Errorf("call %d: arguments %q are not a JSON text", i, got[i].Arguments)
			continue
		}
		var v any
		if err := json.Unmarshal([]byte(got[i].Arguments), &v); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(values[i], v); diff != "" {
			t.Errorf("call %d: arguments %s (-want +got):\n%s", i, got[i].Arguments, diff)
		}
		if want[i].Arguments == "" {
			got[i].Arguments = ""
		}
	}
	return got
}

// TestRecordings: Read gives each recording's calls, text and thinking as
// encoding/json reads them, whole and split in reads of every size; the
// arguments of a call that streams them (Vertex AI's partialArgs) are a
// JSON text whose value is the object the test builds from them.
func TestRecordings(t *testing.T) {
	for _, rec := range recordings {
		t.Run(rec.file, func(t *testing.T) {
			s := recording(t, rec.file)
			e := expect(t, s)
			if len(e.calls) != rec.calls {
				t.Fatalf("the recording has %d calls, want %d", len(e.calls), rec.calls)
			}
			got := geminiAdapter.Run(toolcall.New(), strings.NewReader(string(s)))
			geminiAdapter.CheckEnd(t, got.Err, false)
			if diff := cmp.Diff(e.calls, checkArguments(t, e.calls, e.values, got.Calls)); diff != "" {
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
	for _, rec := range recordings {
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
			if diff := cmp.Diff(want.calls, checkArguments(t, want.calls, want.values, wiretest.Outcomes(resp.End()))); diff != "" {
				t.Errorf("%s, seed %d (-want +got):\n%s", rec.file, seed, diff)
			}
		}
	}
}

// TestReadEventsReused: a Reader and its SSE reader kept from stream to
// stream with Reset read each recording as Read does, one after the other,
// and again cut short.
func TestReadEventsReused(t *testing.T) {
	var streams [][]byte
	for _, rec := range recordings {
		s := recording(t, rec.file)
		streams = append(streams, s, s[:len(s)*2/3])
	}
	geminiAdapter.CheckReadEvents(t, NewReader(toolcall.New()), streams)
}
