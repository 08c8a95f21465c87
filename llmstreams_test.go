package argstream_test

import (
	"errors"
	"os"
	"testing"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/aggregate"
	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/sink"
	"github.com/argstream/argstream/token"
	"github.com/go-json-experiment/json"
	"github.com/google/go-cmp/cmp"
)

// recordedCall is one tool call of testdata/llm_streams/DELTAS.json.
type recordedCall struct {
	Key             string   `json:"key"`
	Name            string   `json:"name"`
	Deltas          []string `json:"deltas"`
	FinalFromStream *string  `json:"final_from_stream"` // the provider's own final arguments text, if sent
	Joined          string   `json:"joined"`
	ValidJSON       bool     `json:"valid_json"`
	Status          string   `json:"status"` // valid, empty or invalid
}

func recordedCalls(t *testing.T) map[string][]recordedCall {
	t.Helper()
	data, err := os.ReadFile("testdata/llm_streams/DELTAS.json")
	if err != nil {
		t.Fatal(err)
	}
	var files map[string]struct {
		Calls []recordedCall `json:"calls"`
	}
	if err := json.Unmarshal(data, &files); err != nil {
		t.Fatal(err)
	}
	out := map[string][]recordedCall{}
	for name, f := range files {
		out[name] = f.Calls
	}
	return out
}

// TestRecordedStreams feeds the recorded provider streams delta by delta
// (and whole, and one byte at a time): valid ones aggregate to the recorded
// final arguments; truncated and invalid ones fail. An empty stream (a call
// without arguments) is not valid JSON: argstream reports it as truncated at
// byte 0, and the caller decides whether that means {} (see README).
func TestRecordedStreams(t *testing.T) {
	var counts = map[string]int{}
	for file, calls := range recordedCalls(t) {
		for i, c := range calls {
			counts[c.Status]++
			t.Run(file+"/"+c.Key, func(t *testing.T) {
				data := []byte(c.Joined)
				ways := map[string][][]byte{
					"deltas": nil,
					"whole":  {data},
					"bytes":  testutil.SplitEvery(data, 1),
				}
				for _, d := range c.Deltas {
					ways["deltas"] = append(ways["deltas"], []byte(d))
				}
				for how, chunks := range ways {
					agg := aggregate.New()
					calls := 0
					check := sink.PushFunc(func(p *fragment.Progress) error {
						if p.Call.Name != c.Name || p.Call.Index != int64(i) {
							t.Fatalf("fragment of call %+v, want %s #%d", p.Call, c.Name, i)
						}
						calls++
						return nil
					})
					s := argstream.New(sink.Multi(agg, check), argstream.WithCall(fragment.Call{ID: c.Key, Name: c.Name, Index: int64(i)}))
					err := testutil.Feed(s, chunks)
					switch c.Status {
					case "valid":
						if err != nil {
							t.Fatalf("fed %s: %v", how, err)
						}
						want := c.Joined
						if c.FinalFromStream != nil {
							want = *c.FinalFromStream
						}
						canon, err := testutil.Canonical([]byte(want))
						if err != nil {
							t.Fatal(err)
						}
						got, err := agg.Value()
						if err != nil || string(got) != string(canon) {
							t.Errorf("fed %s: aggregate differs from the recorded arguments (%v):\n%s", how, err, cmp.Diff(string(canon), string(got)))
						}
						if calls == 0 {
							t.Errorf("fed %s: no fragments", how)
						}
					case "empty":
						var se *token.SyntaxError
						if !errors.As(err, &se) || !errors.Is(err, token.ErrTruncated) || se.Offset != 0 {
							t.Errorf("fed %s: %v, want truncated at byte 0", how, err)
						}
					case "invalid":
						var se *token.SyntaxError
						if !errors.As(err, &se) {
							t.Fatalf("fed %s: %v, want a *token.SyntaxError", how, err)
						}
						if se.Offset < 0 || se.Offset > int64(len(data)) {
							t.Errorf("fed %s: error offset %d outside the %d input bytes", how, se.Offset, len(data))
						}
					default:
						t.Fatalf("unknown status %q", c.Status)
					}
				}
			})
		}
	}
	if counts["valid"] == 0 || counts["invalid"] == 0 || counts["empty"] == 0 {
		t.Errorf("corpus has %v calls; want some of each status", counts)
	}
}

// TestRecordedInvalidStreams pins what the two negative recordings are: one
// cut off by max_tokens (truncated at the end), one with a bare word.
func TestRecordedInvalidStreams(t *testing.T) {
	all := recordedCalls(t)
	tests := []struct {
		file string
		cat  error
		at   func(joined string) int64
	}{
		{"anthropic-sdk-python__tests-lib-streaming-fixtures__incomplete_partial_json_response.sse", token.ErrTruncated,
			func(j string) int64 { return int64(len(j)) }},
		{"anthropic-sdk-python__tests-lib-streaming-fixtures__tool_use_invalid_json_response.sse", token.ErrSyntax,
			func(j string) int64 { return int64(len(`{"location": "Paris", "unit": `)) }},
	}
	for _, tt := range tests {
		calls := all[tt.file]
		if len(calls) != 1 {
			t.Fatalf("%s: %d calls", tt.file, len(calls))
		}
		var chunks [][]byte
		for _, d := range calls[0].Deltas {
			chunks = append(chunks, []byte(d))
		}
		_, err := testutil.Run(chunks)
		var se *token.SyntaxError
		if !errors.As(err, &se) || !errors.Is(err, tt.cat) || se.Offset != tt.at(calls[0].Joined) {
			t.Errorf("%s: %v, want %v at byte %d", tt.file, err, tt.cat, tt.at(calls[0].Joined))
		}
	}
}
