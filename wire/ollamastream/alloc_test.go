package ollamastream

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/argstream/argstream/internal/testutil/wiretest"
	"github.com/argstream/argstream/toolcall"
)

// steady is a stream of n lines of thinking and n of text, then two whole
// calls and the done line.
func steady(n int) []byte {
	var b []byte
	line := func(s string) { b = append(append(b, s...), '\n') }
	for k := range n {
		line(head + `"","thinking":"step ` + strconv.Itoa(k) + ` \"q\"\n"},"done":false}`)
		line(textLine(`word ` + strconv.Itoa(k) + ` `))
	}
	line(head + `"","tool_calls":[{"id":"call_0","function":{"index":0,"name":"write","arguments":{"text":"a\nb","n":1}}},{"id":"call_1","function":{"index":1,"name":"read","arguments":{"path":"/tmp/x"}}}]},"done":false}`)
	line(doneLine)
	return b
}

// TestAllocs: Read allocates per stream and per call, never per line.
func TestAllocs(t *testing.T) {
	adapterRead.CheckAllocs(t, wiretest.SteadyStream{Stream: steady, Deltas: 2, Large: 2000, Runs: 10})
}

// TestReaderAllocs: a warm Reader reads a line of text, or of a call
// (whose id and name are the call's own strings), without allocating but
// for those strings.
func TestReaderAllocs(t *testing.T) {
	resp := toolcall.New()
	r := NewReader(resp)
	text := []byte(textLine(`some \"text\" \u00e9`))
	call := []byte(head + `"","tool_calls":[{"id":"","function":{"index":0,"name":"","arguments":{"a":[1,2,{"b":"c"}]}}}]},"done":false}`)
	r.Line(text)
	if n := testing.AllocsPerRun(100, func() {
		if err := r.Line(text); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("%v allocations per text line, want 0", n)
	}
	run := func() {
		resp.Reset()
		r.Reset(resp)
		for range 10 {
			if err := r.Line(call); err != nil {
				t.Fatal(err)
			}
		}
		resp.End()
	}
	run()
	if n := testing.AllocsPerRun(20, run); n != 0 {
		t.Errorf("%v allocations per response of 10 calls with empty id and name, want 0", n)
	}
}

// TestReusedMemory: a Reader (with its line buffer, ReadBody) and a
// Response kept from response to response allocate next to nothing per
// response once warm, whatever its size.
func TestReusedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("large stream")
	}
	stream := steady(50000)
	per := wiretest.CheckReusedBody(t, "Ollama", stream, NewReader(toolcall.New()), 4096)
	t.Logf("a stream of %d bytes allocates %d bytes with a reused reader", len(stream), per)
}

func BenchmarkRead(b *testing.B) {
	adapterRead.Bench(b, steady(1000))
}

// BenchmarkInFlight measures the memory of 10,000 responses in flight, as
// wiretest.BenchInFlight does for the SSE wires: for each, a Reader, its
// line reader and its Response, fed the first half of a stream's lines,
// all kept at once. It reports the heap each holds ("B/response").
func BenchmarkInFlight(b *testing.B) {
	stream := steady(100)
	half := stream[:bytes.LastIndexByte(stream[:len(stream)/2], '\n')+1]
	wiretest.BenchHeld(b, 10000, func() any {
		resp := toolcall.New()
		r, lr := NewReader(resp), new(lineReader)
		lr.reset(bytes.NewReader(half))
		for {
			line, _, err := lr.next()
			if err != nil {
				break
			}
			if err := r.Line(line); err != nil {
				b.Fatal(err)
			}
		}
		return []any{resp, r, lr}
	})
}

// TestReadBodyReused: a Reader kept from body to body with Reset reads
// each recording, a long stream, a stream with an error line, a malformed
// one and each cut short as Read does, one after the other.
func TestReadBodyReused(t *testing.T) {
	var streams [][]byte
	for _, file := range []string{"cloud_web_search.ndjson", "cloud_text_no_eol.ndjson", "api_md_tools.ndjson"} {
		s, err := os.ReadFile(filepath.Join("testdata", file))
		if err != nil {
			t.Fatal(err)
		}
		streams = append(streams, s)
	}
	streams = append(streams, steady(2000),
		[]byte(textLine("a")+"\n"+`{"error":"model runner has unexpectedly stopped"}`+"\n"),
		[]byte(head+`"","tool_calls":[{"function":{"name":"f","arguments":{"a":1,"a":2}}}]},"done":false}`+"\n"+doneLine+"\n"))
	for _, s := range streams[:len(streams):len(streams)] {
		streams = append(streams, s[:len(s)*2/3])
	}
	adapterRead.CheckReadBody(t, NewReader(toolcall.New()), streams)
}
