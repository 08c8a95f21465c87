package bench

import (
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/argstream/argstream/internal/wirecount"
	"github.com/google/go-cmp/cmp"
)

// sdkDivergences are the recordings on which an SDK's final arguments
// differ from argstream's by design, and how. TestWireContenders checks
// that exact difference, so that a change on either side shows.
var sdkDivergences = map[string]string{
	// Its arguments are not JSON (a bare word): argstream's call fails
	// with a syntax error; anthropic-sdk-go's Accumulate, at the block's
	// content_block_stop, replaces input that is not valid JSON with {}
	// (refreshContentBlockRaw), which unmarshals without error: a caller
	// that checks only json.Unmarshal's error runs the tool with no
	// arguments.
	"anthropic-sdk-python__tests-lib-streaming-fixtures__tool_use_invalid_json_response.sse": "invalid input becomes {}",
}

// outcome is what the contenders are compared on: a call's tool name and
// its arguments, decoded, or that they failed.
type outcome struct {
	Name   string
	Args   any
	Failed bool
}

func outcomes(t *testing.T, calls []WireCall) []outcome {
	t.Helper()
	var out []outcome
	for _, c := range calls {
		o := outcome{Name: c.Name, Failed: c.Err != nil}
		switch {
		case c.Err != nil:
		case c.Value != nil:
			o.Args = map[string]any(c.Value)
		default:
			// argstream's compact arguments, decoded as the SDKs decode.
			var v map[string]any
			if err := json.Unmarshal(c.Arguments, &v); err != nil {
				t.Fatalf("%s: argstream's arguments %.80q: %v", c.Name, c.Arguments, err)
			}
			o.Args = v
		}
		out = append(out, o)
	}
	return out
}

// wireTestStreams are the synthetic streams at 1k (without -short, at the
// sizes of -wiresizes too: 100k by default, 1m if asked) and the
// recordings, of wire, each in every layout of WireLayouts.
func wireTestStreams(t *testing.T, wire string) []WireStream {
	t.Helper()
	sizes := []string{"1k"}
	if !testing.Short() {
		for _, size := range strings.Split(*wireSizes, ",") {
			if !slices.Contains(sizes, size) {
				sizes = append(sizes, size)
			}
		}
	}
	ss, err := LoadWireStreams(wire, "testdata", sizes, true)
	if err != nil {
		t.Fatal(err)
	}
	if ss, err = InLayouts(ss, WireLayouts); err != nil {
		t.Fatal(err)
	}
	return ss
}

// TestWireContenders checks that every contender of a wire delivers the
// same tool calls, with the same final arguments, from every synthetic
// stream and every recording, in every layout, so that BenchmarkWire
// compares equal work:
// on the synthetic streams, the workload itself; on each recording, what
// the SDK gives (but for sdkDivergences). argstream's reader may report a
// recording cut short (io.ErrUnexpectedEOF: the anthropic-sdk-python
// recordings lack the blank line after message_stop); the SDKs may not
// fail.
func TestWireContenders(t *testing.T) {
	pol, err := LoadPolicy(PolicyFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, wire := range Wires {
		t.Run(wire, func(t *testing.T) {
			cs := WireContenders(wire, pol)
			if cs[len(cs)-1].Name != "sdk" {
				t.Fatal("the SDK is not the last contender")
			}
			for _, s := range wireTestStreams(t, wire) {
				if s.Deltas == 0 {
					t.Errorf("%s: no argument deltas", s.Name)
				}
				for i, part := range s.Parts {
					name, file := s.Name, ""
					if s.Files != nil {
						file = s.Files[i]
						name = "rec-" + RecordingName(file)
					}
					t.Run(name+"/"+s.Layout, func(t *testing.T) {
						var want []outcome
						if file == "" {
							var v map[string]any
							w, err := LoadDir("testdata", s.Name+".json")
							if err != nil {
								t.Fatal(err)
							}
							if err := json.Unmarshal(w[0].Data, &v); err != nil {
								t.Fatal(err)
							}
							want = []outcome{{Name: ToolName(s.Name), Args: v}}
						}
						// The SDK first: on a recording, it gives want.
						for j := len(cs) - 1; j >= 0; j-- {
							checkWireContender(t, cs[j], part, file, &want)
						}
					})
				}
			}
		})
	}
}

func checkWireContender(t *testing.T, c WireContender, part []byte, file string, want *[]outcome) {
	t.Helper()
	calls, err := c.New().Read(part)
	switch {
	case err != nil && (c.Name == "sdk" || file == "" || !errors.Is(err, io.ErrUnexpectedEOF)):
		t.Fatalf("%s: %v", c.Name, err)
	}
	got := outcomes(t, calls)
	if len(got) == 0 {
		t.Fatalf("%s: no tool call", c.Name)
	}
	if *want == nil {
		*want = got
		return
	}
	w := *want
	if how, ok := sdkDivergences[file]; ok && c.Name != "sdk" {
		// The SDK's outcome (the want) is {} where argstream's call failed.
		if how != "invalid input becomes {}" || len(w) != 1 || len(got) != 1 ||
			w[0].Failed || len(w[0].Args.(map[string]any)) != 0 || !got[0].Failed {
			t.Fatalf("%s: expected divergence (%s) not seen: sdk %+v, %s %+v", c.Name, how, w, c.Name, got)
		}
		return
	}
	if diff := cmp.Diff(w, got); diff != "" {
		t.Errorf("%s (-want +got):\n%s", c.Name, strings.TrimSpace(diff))
	}
}

// TestWireStreams checks the synthetic streams' shape: the deltas' sizes,
// and that every wire has the same deltas for a workload (one more on
// Anthropic and Chat, whose first is empty).
func TestWireStreams(t *testing.T) {
	ws, err := LoadDir("testdata", "createFile-1k.json", "modifyFile-100k.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range ws {
		ds := CutDeltas(w.Data)
		var joined []byte
		for i, d := range ds {
			joined = append(joined, d...)
			if i < len(ds)-1 && (len(d) < 1 || len(d) > 19) {
				t.Errorf("%s: delta %d has %d bytes", w.Name, i, len(d))
			}
		}
		if string(joined) != string(w.Data) {
			t.Errorf("%s: the deltas do not join to the workload", w.Name)
		}
		for _, wire := range Wires {
			stream, err := SyntheticStream(wire, "t", w.Data)
			if err != nil {
				t.Fatal(err)
			}
			n, err := wirecount.Deltas(wire, stream)
			if err != nil {
				t.Fatal(err)
			}
			want := len(ds)
			if wire != WireResponses {
				want++
			}
			if n != want {
				t.Errorf("%s %s: %d deltas, want %d", wire, w.Name, n, want)
			}
		}
	}
}

// TestWireRecordingsCounted checks wirecount.Deltas against DELTAS.json, which
// counts each recorded call's deltas, on the recordings that hold one
// response only.
func TestWireRecordingsCounted(t *testing.T) {
	var index map[string]struct {
		Calls []struct {
			Deltas []string `json:"deltas"`
		} `json:"calls"`
	}
	data, err := readFileFrom(RecordingsDir, "DELTAS.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &index); err != nil {
		t.Fatal(err)
	}
	// Cut to their first response (LoadRecording): fewer deltas than all.
	cut := map[string]bool{
		"vercel-ai__anthropic__anthropic-tool-search-deferred-regex.chunks.txt":         true,
		"vercel-ai__openai__responses__openai-reasoning-encrypted-content.1.chunks.txt": true,
	}
	for _, wire := range Wires {
		for _, f := range WireRecordings[wire] {
			stream, err := LoadRecording(wire, f)
			if err != nil {
				t.Fatal(err)
			}
			n, err := wirecount.Deltas(wire, stream)
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			want := 0
			for _, c := range index[f].Calls {
				want += len(c.Deltas)
			}
			if n == 0 || cut[f] && n >= want || !cut[f] && n != want {
				t.Errorf("%s: %d deltas, DELTAS.json %d", f, n, want)
			}
		}
	}
}
