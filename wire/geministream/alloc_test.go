package geministream

import (
	"bytes"
	"context"
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

// streamedSynthetic is a stream of two calls that stream their arguments
// (Vertex AI's partialArgs): the first in n rounds of three events, each
// round an element of an array, an object of a string in two parts and a
// number; the second in one event. Then the finishReason.
func streamedSynthetic(n int) []byte {
	var b []byte
	event := func(data string) { b = wiretest.AppendSSE(b, wiretest.SSEEvent{Data: data}) }
	event(parts(`{"functionCall":{"id":"s1","name":"write","willContinue":true}}`))
	for k := range n {
		s := strconv.Itoa(k)
		event(cont(`{"jsonPath":"$.items[` + s + `].text","stringValue":"word ` + s + ` \"q\"","willContinue":true}`))
		event(cont(`{"jsonPath":"$.items[` + s + `].text","stringValue":" and more\n"}`))
		event(cont(`{"jsonPath":"$.items[` + s + `].n","numberValue":` + s + `}`))
	}
	event(parts(`{"functionCall":{}}`))
	event(parts(`{"functionCall":{"id":"s2","name":"read","partialArgs":[{"jsonPath":"$.path","stringValue":"b.txt"}]}}`))
	event(`{"candidates":[{"content":{"role":"model","parts":[{"text":""}]},"finishReason":"STOP"}]}`)
	return b
}

// TestAllocs: Read allocates per stream and per call, never per event,
// whether the calls come whole or stream their arguments.
func TestAllocs(t *testing.T) {
	geminiAdapter.CheckAllocs(t, wiretest.SteadyStream{Stream: synthetic, Deltas: 3, Large: 2000, Runs: 10})
	geminiAdapter.CheckAllocs(t, wiretest.SteadyStream{Name: "streamed", Stream: streamedSynthetic, Deltas: 3, Large: 2000, Runs: 10})
}

// TestReusedMemory: a Reader kept from response to response, with its SSE
// reader and Response, allocates next to nothing per response once warm,
// whatever its size.
func TestReusedMemory(t *testing.T) {
	s := synthetic(5000)
	n := wiretest.CheckReusedMemory(t, "Gemini", s, NewReader(toolcall.New()), 64<<10)
	t.Logf("Gemini: %d bytes a response of %d bytes", n, len(s))
	// A call whose arguments stream is one call with large arguments,
	// which the Response copies into its Result (a Result's arguments
	// are the caller's): their size is allowed on top.
	s = streamedSynthetic(5000)
	resp := toolcall.New()
	if err := Read(context.Background(), bytes.NewReader(s), resp); err != nil {
		t.Fatal(err)
	}
	args := 0
	for _, r := range resp.End() {
		args += len(r.Arguments)
	}
	n = wiretest.CheckReusedMemory(t, "Gemini, streamed", s, NewReader(toolcall.New()), 64<<10+uint64(args))
	t.Logf("Gemini, streamed: %d bytes a response of %d bytes, whose arguments are %d bytes", n, len(s), args)
}

// BenchmarkReadStreamed: a stream of two calls that stream their
// arguments, the first in 3,000 events.
//
//	go test -run '^$' -bench ReadStreamed ./wire/geministream
func BenchmarkReadStreamed(b *testing.B) {
	geminiAdapter.Bench(b, streamedSynthetic(1000))
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
