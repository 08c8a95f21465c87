package coherestream

import (
	"strconv"
	"testing"

	"github.com/argstream/argstream/internal/testutil/wiretest"
	"github.com/argstream/argstream/toolcall"
)

// synthetic is a stream of a tool plan and two calls whose arguments come
// in n rounds of three deltas each (an element of an array of objects, cut
// inside its string and between members, with escapes), and n rounds of
// thinking and text content, as Cohere streams them.
func synthetic(n int) []byte {
	var b []byte
	event := func(data string) { b = wiretest.AppendSSE(b, wiretest.SSEEvent{Type: typeOf(data), Data: data}) }
	event(startEv)
	event(`{"type":"content-start","index":0,"delta":{"message":{"content":{"type":"thinking","thinking":""}}}}`)
	for k := range n {
		event(`{"type":"content-delta","index":0,"delta":{"message":{"content":{"thinking":"step ` + strconv.Itoa(k) + ` \"q\"\n"}}}}`)
	}
	event(`{"type":"content-end","index":0}`)
	event(planEv)
	for c := range 2 {
		event(callStart(c, "c"+strconv.Itoa(c), "write", `{"items":[`))
		for k := range n {
			sep := ","
			if k == 0 {
				sep = ""
			}
			event(callDelta(c, sep+`{"text":"word `+strconv.Itoa(k)))
			event(callDelta(c, ` \"q\"\n é","n":`))
			event(callDelta(c, strconv.Itoa(k)+`}`))
		}
		event(callDelta(c, `]}`))
		event(callEnd(c))
	}
	event(`{"type":"content-start","index":1,"delta":{"message":{"content":{"type":"text","text":""}}}}`)
	for k := range n {
		event(`{"type":"content-delta","index":1,"delta":{"message":{"content":{"text":"word ` + strconv.Itoa(k) + `"}}}}`)
	}
	event(`{"type":"content-end","index":1}`)
	event(endCallEv)
	return b
}

// typeOf is the "type" of data, whose first member it is, or whose second
// after an "id".
func typeOf(data string) string {
	const key = `"type":"`
	for i := 0; i+len(key) < len(data); i++ {
		if data[i:i+len(key)] == key {
			j := i + len(key)
			k := j
			for k < len(data) && data[k] != '"' {
				k++
			}
			return data[j:k]
		}
	}
	return ""
}

// TestAllocs: Read allocates per stream and per call, never per event.
func TestAllocs(t *testing.T) {
	cohereAdapter.CheckAllocs(t, wiretest.SteadyStream{Stream: synthetic, Deltas: 8, Large: 2000, Runs: 10})
}

// TestReusedMemory: a Reader kept from response to response, with its SSE
// reader and Response, allocates next to nothing per response once warm,
// whatever its size, but the arguments of its calls, which the Response
// copies into their Results.
func TestReusedMemory(t *testing.T) {
	s := synthetic(5000)
	resp := toolcall.New()
	if err := Read(t.Context(), bytesReader(s), resp); err != nil {
		t.Fatal(err)
	}
	args := 0
	for _, r := range resp.End() {
		args += len(r.Arguments)
	}
	n := wiretest.CheckReusedMemory(t, "Cohere", s, NewReader(toolcall.New()), 64<<10+uint64(args))
	t.Logf("Cohere: %d bytes a response of %d bytes, whose arguments are %d bytes", n, len(s), args)
}

// BenchmarkRead: a stream of two calls in 3,000 argument deltas, and 2,000
// events of text and thinking.
//
//	go test -run '^$' -bench Read ./wire/coherestream
func BenchmarkRead(b *testing.B) {
	cohereAdapter.Bench(b, synthetic(1000))
}

// BenchmarkInFlight: the memory of each of 10,000 responses in flight,
// half read.
//
//	go test -run '^$' -bench InFlight -benchtime 1x -count 3 ./wire/coherestream
func BenchmarkInFlight(b *testing.B) {
	wiretest.BenchInFlight(b, synthetic(200), func(r *toolcall.Response) wiretest.Stepper { return NewReader(r) })
}
