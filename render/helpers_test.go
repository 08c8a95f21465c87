package render

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"github.com/argstream/argstream/fragment"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/internal/testutil/wiretest"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire/anthropicstream"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// plainOpts are the options of the golden files: no colour, 80 columns.
var plainOpts = []Option{WithColor(false), WithWidth(80), asTerminal}

// asTerminal wraps lines as on a terminal (words cut where they must be),
// whatever the output is.
var asTerminal Option = func(c *config) { c.hard = true }

// chunking is one way to cut argument text into chunks.
type chunking struct {
	name  string
	split func([]byte) [][]byte
}

// chunkings are the cuts every golden file is checked under: whole, 1, 7
// and 16 bytes, and random lengths 0 to 64 from five seeds.
var chunkings = func() []chunking {
	cs := []chunking{
		{"whole", func(b []byte) [][]byte { return [][]byte{b} }},
		{"1", func(b []byte) [][]byte { return testutil.SplitEvery(b, 1) }},
		{"7", func(b []byte) [][]byte { return testutil.SplitEvery(b, 7) }},
		{"16", func(b []byte) [][]byte { return testutil.SplitEvery(b, 16) }},
	}
	for seed := range uint64(5) {
		cs = append(cs, chunking{fmt.Sprint("random:", seed), func(b []byte) [][]byte {
			return testutil.SplitRandom(b, rand.New(rand.NewPCG(seed, 7)), 64)
		}})
	}
	return cs
}()

// readers are the read sizes a recorded SSE body is read in: whole, 1, 7
// and 16 bytes, and random sizes 1 to 64 from five seeds.
var readers = func() []struct {
	name string
	wrap func(io.Reader) io.Reader
} {
	rs := []struct {
		name string
		wrap func(io.Reader) io.Reader
	}{
		{"whole", func(r io.Reader) io.Reader { return r }},
		{"1", iotest.OneByteReader},
		{"7", func(r io.Reader) io.Reader { return sizedReader{r, 7} }},
		{"16", func(r io.Reader) io.Reader { return sizedReader{r, 16} }},
	}
	for seed := range uint64(5) {
		rs = append(rs, struct {
			name string
			wrap func(io.Reader) io.Reader
		}{fmt.Sprint("random:", seed), func(r io.Reader) io.Reader { return wiretest.RandomReads(r, seed, 64) }})
	}
	return rs
}()

type sizedReader struct {
	r io.Reader
	n int
}

func (s sizedReader) Read(p []byte) (int, error) { return s.r.Read(p[:min(len(p), s.n)]) }

// renderChunks renders one call, named name, whose arguments come in chunks,
// through a toolcall.Response as an SDK loop drives it, and returns the
// output and the call's Partial at the end.
func renderChunks(name string, chunks [][]byte, opts ...Option) (string, string) {
	var out bytes.Buffer
	r := New(&out, opts...)
	resp := toolcall.New(toolcall.WithSinks(r.Sink))
	resp.Start(fragment.Call{Index: 0, ID: "call_0", Name: name}, nil)
	for _, c := range chunks {
		resp.Chunk(0, c)
	}
	resp.Stop(0)
	resp.End()
	return out.String(), r.Partial(0)
}

// checkGolden compares got with testdata/name.golden, or writes it with
// -update.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run %s -update to write it)", err, t.Name())
	}
	if got != string(want) {
		t.Errorf("%s differs:\n%s", path, lineDiff(string(want), got))
	}
}

// lineDiff shows the first lines where want and got differ.
func lineDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(wl), len(gl)); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return fmt.Sprintf("line %d:\nwant %q\ngot  %q", i+1, w, g)
		}
	}
	return "same lines"
}

// sseMessages reads a recording as the SSE bodies of its messages: a
// vercel/ai *.chunks.txt (one data payload per line, several messages)
// framed again, each message on its own; an *.sse file as it is.
func sseMessages(t *testing.T, file string) [][]byte {
	t.Helper()
	data := wiretest.Testdata(t, "llm_streams/"+file)
	if !strings.HasSuffix(file, ".chunks.txt") {
		return [][]byte{data}
	}
	var msgs [][]byte
	var cur []byte
	for line := range bytes.Lines(data) {
		cur = append(cur, line...)
		if wiretest.JSONType(t, bytes.TrimSpace(line)) == "message_stop" {
			sse, err := wiretest.SSEFromChunks(cur, true)
			if err != nil {
				t.Fatal(err)
			}
			msgs = append(msgs, sse)
			cur = nil
		}
	}
	return msgs
}

// renderRecording renders the tool calls of a recording's messages, each
// read by wire/anthropic from a body read as wrap says, one response after
// the other.
func renderRecording(msgs [][]byte, wrap func(io.Reader) io.Reader, opts ...Option) string {
	var out bytes.Buffer
	r := New(&out, opts...)
	resp := toolcall.New(toolcall.WithSinks(r.Sink))
	for _, m := range msgs {
		_ = anthropicstream.Read(context.Background(), wrap(bytes.NewReader(m)), resp) // a cut-off stream is shown, not returned
		resp.End()
		resp.Reset()
		r.Reset()
	}
	return out.String()
}

// replayRecording renders a recording's tool calls the way an SDK event
// loop drives a toolcall.Response, from the events decoded with
// encoding/json, with each call's argument text cut again as split says.
func replayRecording(t *testing.T, msgs [][]byte, split func([]byte) [][]byte, opts ...Option) string {
	t.Helper()
	var out bytes.Buffer
	r := New(&out, opts...)
	resp := toolcall.New(toolcall.WithSinks(r.Sink))
	for _, m := range msgs {
		args := map[int64][]byte{}
		var open []int64
		feed := func(i int64) {
			for _, c := range split(args[i]) {
				resp.Chunk(i, c)
			}
			delete(args, i)
		}
		sc := bufio.NewScanner(bytes.NewReader(m))
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			data, ok := strings.CutPrefix(sc.Text(), "data:")
			if !ok {
				continue
			}
			var ev testutil.AnthropicEvent
			if err := json.Unmarshal([]byte(data), &ev); err != nil {
				t.Fatalf("decoding %q: %v", data, err)
			}
			switch ev.Type {
			case "message_start": // calls given whole, continuing programmatic tool calls
				for i, b := range ev.Message.Content {
					switch b.Type {
					case "tool_use", "server_tool_use", "mcp_tool_use":
						resp.Start(fragment.Call{Index: int64(i), ID: b.ID, Name: b.Name}, b.Input)
						resp.Stop(int64(i))
					}
				}
			case "content_block_start":
				switch ev.ContentBlock.Type {
				case "tool_use", "server_tool_use", "mcp_tool_use":
					b := ev.ContentBlock
					resp.Start(fragment.Call{Index: ev.Index, ID: b.ID, Name: b.Name}, b.Input)
					args[ev.Index] = []byte{}
					open = append(open, ev.Index)
				}
			case "content_block_delta":
				if _, ok := args[ev.Index]; ok && ev.Delta.Type == "input_json_delta" {
					args[ev.Index] = append(args[ev.Index], ev.Delta.PartialJSON...)
				}
			case "content_block_stop":
				if _, ok := args[ev.Index]; ok {
					feed(ev.Index)
					resp.Stop(ev.Index)
				}
			}
		}
		for _, i := range open { // cut off before their stop
			if _, ok := args[i]; ok {
				feed(i)
			}
		}
		resp.End()
		resp.Reset()
		r.Reset()
	}
	return out.String()
}
