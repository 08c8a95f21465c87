package render

import (
	"bytes"
	"github.com/argstream/argstream/fragment"
	"strings"
	"testing"

	"github.com/argstream/argstream/internal/testutil/wiretest"
	"github.com/argstream/argstream/toolcall"
)

var styles = []Style{FunctionCall, JSON}

// examples are the shipped tool calls (testdata/examples), by tool name.
var examples = []string{"fs_create_file", "fs_modify_file"}

// hostile is a call whose keys, values and name hold what a prompt
// injection would write to take over a terminal: escape sequences, a
// carriage return to overwrite a line, bidi overrides and isolates,
// zero-width and tag characters, a key "#" and a key that looks like the
// JSON style's placeholder.
var hostile = struct{ name, args string }{
	name: "fs_create_file\x1b[2K\rCalling tool read_file",
	args: `{"path": "src/\u202egnp.exe", "#": "not a comment", "// streaming \"content\"…": 1,` +
		` "mode\u200b": "0644\u2066x\u2069", "content": "ok\r\u001b[1A\u001b[2KDone.\n\tindented\u00a0line\n\u009b31mred` +
		`\u000btab\u0000nul\u007fdel\udb40\udc41tag\ufeffbom\n"}`,
}

// TestGoldenExamples: each shipped example in each style, identical for
// every chunking.
func TestGoldenExamples(t *testing.T) {
	for _, name := range examples {
		doc := wiretest.Testdata(t, "examples/"+name+".json")
		for _, st := range styles {
			t.Run(name+"."+st.String(), func(t *testing.T) {
				checkChunkings(t, name+"."+st.String(), name, doc, append(plainOpts, WithStyle(st))...)
			})
		}
	}
}

// TestGoldenHostile: control and invisible characters in a tool's name,
// keys and values, shown escaped in each style.
func TestGoldenHostile(t *testing.T) {
	for _, st := range styles {
		t.Run(st.String(), func(t *testing.T) {
			checkChunkings(t, "hostile."+st.String(), hostile.name, []byte(hostile.args), append(plainOpts, WithStyle(st))...)
		})
	}
}

// TestGoldenColor: the function-call style of fs_create_file and of the
// hostile call in colour, ESC written as \e in the golden file so that it
// reads as text.
func TestGoldenColor(t *testing.T) {
	for _, c := range []struct{ golden, name string }{
		{"fs_create_file.function_call.color", "fs_create_file"},
		{"hostile.function_call.color", hostile.name},
		{"hostile.json.color", hostile.name},
	} {
		doc := []byte(hostile.args)
		if c.name == "fs_create_file" {
			doc = wiretest.Testdata(t, "examples/fs_create_file.json")
		}
		st := FunctionCall
		if strings.HasSuffix(c.golden, ".json.color") {
			st = JSON
		}
		var want string
		for i, ch := range chunkings {
			got, _ := renderChunks(c.name, ch.split(doc), WithColor(true), WithWidth(80), asTerminal, WithStyle(st))
			if i == 0 {
				want = got
				checkGolden(t, c.golden, strings.ReplaceAll(got, "\x1b", `\e`))
				if err := safeText([]byte(got), true); err != nil {
					t.Errorf("%s: %v", c.golden, err)
				}
				plain, _ := renderChunks(c.name, [][]byte{doc}, WithColor(false), WithWidth(80), asTerminal, WithStyle(st))
				if stripSGR(got) != plain {
					t.Errorf("%s: without its SGR sequences, the output is not the plain one:\n%s", c.golden, lineDiff(plain, stripSGR(got)))
				}
			} else if got != want {
				t.Errorf("%s, chunks %s: output differs from whole:\n%s", c.golden, ch.name, lineDiff(want, got))
			}
		}
	}
}

// checkChunkings renders doc under every chunking, checks each output is
// the same and safe, and compares it with the golden file.
func checkChunkings(t *testing.T, golden, name string, doc []byte, opts ...Option) {
	t.Helper()
	var want, wantPartial string
	for i, c := range chunkings {
		got, partial := renderChunks(name, c.split(doc), opts...)
		if i == 0 {
			want, wantPartial = got, partial
			checkGolden(t, golden, got)
			if err := safeText([]byte(got), false); err != nil {
				t.Errorf("%s: %v", golden, err)
			}
			continue
		}
		if got != want {
			t.Errorf("%s, chunks %s: output differs from whole:\n%s", golden, c.name, lineDiff(want, got))
		}
		if partial != wantPartial {
			t.Errorf("%s, chunks %s: Partial %q, whole %q", golden, c.name, partial, wantPartial)
		}
	}
}

// recordingGoldens are the Anthropic recordings rendered to golden files:
// a 6 KB Python file in 883 deltas and two shell commands; a call whose
// input comes whole at its start among 15 responses; a call cut off by
// max_tokens.
var recordingGoldens = []struct{ golden, file string }{
	{"code-execution", "vercel-ai__anthropic__anthropic-code-execution-20250825.2.chunks.txt"},
	{"programmatic", "vercel-ai__anthropic__anthropic-programmatic-tool-calling.1.chunks.txt"},
	{"max-tokens", "anthropic-sdk-python__tests-lib-streaming-fixtures__incomplete_partial_json_response.sse"},
}

// TestGoldenRecordings: recorded Anthropic streams read by wire/anthropic
// into a toolcall.Response with the renderer as its sink constructor, the
// body read in every read size; and the same calls driven as an SDK loop
// would, each call's argument text cut again in every chunking. All give
// the golden file.
func TestGoldenRecordings(t *testing.T) {
	for _, rec := range recordingGoldens {
		msgs := sseMessages(t, rec.file)
		for _, st := range styles {
			golden := rec.golden + "." + st.String()
			t.Run(golden, func(t *testing.T) {
				opts := append(plainOpts, WithStyle(st))
				want := renderRecording(msgs, readers[0].wrap, opts...)
				checkGolden(t, golden, want)
				if err := safeText([]byte(want), false); err != nil {
					t.Error(err)
				}
				for _, rd := range readers[1:] {
					if got := renderRecording(msgs, rd.wrap, opts...); got != want {
						t.Errorf("reads of %s: output differs from whole:\n%s", rd.name, lineDiff(want, got))
					}
				}
				for _, c := range chunkings {
					if got := replayRecording(t, msgs, c.split, opts...); got != want {
						t.Errorf("replayed, chunks %s: output differs from wire/anthropic's:\n%s", c.name, lineDiff(want, got))
					}
				}
			})
		}
	}
}

// TestGoldenInterleaved: the two examples as two calls of one response,
// their deltas interleaved 16 bytes at a time, as OpenAI's parallel calls
// may come: each switch between the calls is marked.
func TestGoldenInterleaved(t *testing.T) {
	create := wiretest.Testdata(t, "examples/fs_create_file.json")
	modify := wiretest.Testdata(t, "examples/fs_modify_file.json")
	for _, st := range styles {
		t.Run(st.String(), func(t *testing.T) {
			var out bytes.Buffer
			r := New(&out, append(plainOpts, WithStyle(st))...)
			resp := toolcall.New(toolcall.WithSinks(r.Sink))
			resp.Start(fragment.Call{Index: 0, ID: "call_0", Name: "fs_create_file"}, nil)
			resp.Start(fragment.Call{Index: 1, ID: "call_1", Name: "fs_modify_file"}, nil)
			a, b := create, modify
			for len(a) > 0 || len(b) > 0 {
				n := min(16, len(a))
				resp.Chunk(0, a[:n])
				a = a[n:]
				n = min(16, len(b))
				resp.Chunk(1, b[:n])
				b = b[n:]
			}
			resp.End()
			checkGolden(t, "interleaved."+st.String(), out.String())
			if err := safeText(out.Bytes(), false); err != nil {
				t.Error(err)
			}
		})
	}
}

func stripSGR(s string) string {
	for _, seq := range []string{sgrReset, sgrBold, sgrDim, sgrReverse, sgrRed} {
		s = strings.ReplaceAll(s, seq, "")
	}
	return s
}
