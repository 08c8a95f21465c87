package ollamastream

import (
	"bytes"
	"context"
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

// TestReusedMemory: a Reader, a line reader and a Response kept from
// response to response allocate next to nothing per response once warm,
// whatever its size.
func TestReusedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("large stream")
	}
	stream := steady(50000)
	per := checkReusedMemory(t, stream, 4096)
	t.Logf("a stream of %d bytes allocates %d bytes with a reused reader", len(stream), per)
}

// checkReusedMemory is wiretest.CheckReusedMemory for lines: it reads
// stream again and again with one Reader, one lineReader and one
// Response, each reset between streams, and fails t if a stream allocates
// more than max bytes once they are warm. It returns the bytes a stream
// allocated.
func checkReusedMemory(t *testing.T, stream []byte, max uint64) uint64 {
	resp := toolcall.New()
	r := NewReader(resp)
	var lr lineReader
	var br bytes.Reader
	per := wiretest.AllocatedPerRun(func() {
		resp.Reset()
		r.Reset(resp)
		br.Reset(stream)
		lr.reset(&br)
		if err := r.readAll(context.Background(), &lr); err != nil {
			t.Fatal(err)
		}
		if res := resp.End(); len(res) != 2 || !res[0].Executable || !res[1].Executable {
			t.Fatalf("results %+v", res)
		}
	})
	if per > max {
		t.Errorf("a stream of %d bytes allocates %d bytes with a reused reader, want at most %d", len(stream), per, max)
	}
	return per
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
