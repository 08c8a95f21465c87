package geministream

import (
	"strconv"
	"testing"

	"github.com/argstream/argstream/internal/testutil/wiretest"
	"github.com/argstream/argstream/toolcall"
)

// synthetic is a stream of two whole calls, with ids, followed by n rounds
// of three events: a thought part, a text part (with escapes), and both
// with usage metadata, as Gemini streams a long answer; then the
// finishReason.
func synthetic(n int) []byte {
	var b []byte
	event := func(data string) { b = wiretest.AppendSSE(b, wiretest.SSEEvent{Data: data}) }
	event(`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"id":"c1","name":"write","args":{"path":"a.txt","text":"line \"q\"\n","n":[1,2.5,true,null]}},"thoughtSignature":"c2lnbmF0dXJl"},{"functionCall":{"id":"c2","name":"read","args":{"path":"b.txt"}}}]},"index":0}],"modelVersion":"gemini-2.5-flash","responseId":"r1"}`)
	for k := range n {
		s := strconv.Itoa(k)
		event(`{"candidates":[{"content":{"role":"model","parts":[{"text":"thinking ` + s + `","thought":true}]},"index":0}],"modelVersion":"gemini-2.5-flash","responseId":"r1"}`)
		event(`{"candidates":[{"content":{"role":"model","parts":[{"text":"word ` + s + ` \"q\"\n\u00e9"}]},"index":0}],"modelVersion":"gemini-2.5-flash","responseId":"r1"}`)
		event(`{"candidates":[{"content":{"role":"model","parts":[{"text":"more","thought":true},{"text":" and more"}]},"index":0}],"usageMetadata":{"promptTokenCount":29,"candidatesTokenCount":` + s + `,"totalTokenCount":89},"modelVersion":"gemini-2.5-flash","responseId":"r1"}`)
	}
	event(`{"candidates":[{"content":{"role":"model","parts":[{"text":""}]},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":29,"candidatesTokenCount":15,"totalTokenCount":89},"modelVersion":"gemini-2.5-flash","responseId":"r1"}`)
	return b
}

// TestAllocs: Read allocates per stream and per call, never per event.
func TestAllocs(t *testing.T) {
	geminiAdapter.CheckAllocs(t, wiretest.SteadyStream{Stream: synthetic, Deltas: 3, Large: 20000, Runs: 20})
}

// TestReusedMemory: a Reader kept from response to response, with its SSE
// reader and Response, allocates next to nothing per response once warm,
// whatever its size.
func TestReusedMemory(t *testing.T) {
	s := synthetic(5000)
	n := wiretest.CheckReusedMemory(t, "Gemini", s, NewReader(toolcall.New()), 64<<10)
	t.Logf("Gemini: %d bytes a response of %d bytes", n, len(s))
}

// BenchmarkRead: a stream of two calls and 3,000 events of text and
// thinking.
//
//	go test -run '^$' -bench Read ./wire/geministream
func BenchmarkRead(b *testing.B) {
	geminiAdapter.Bench(b, synthetic(1000))
}

// BenchmarkInFlight: the memory of each of 10,000 responses in flight,
// half read.
//
//	go test -run '^$' -bench InFlight -benchtime 1x -count 3 ./wire/geministream
func BenchmarkInFlight(b *testing.B) {
	wiretest.BenchInFlight(b, synthetic(200), func(r *toolcall.Response) wiretest.Stepper { return NewReader(r) })
}
