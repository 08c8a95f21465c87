package openaistream

import (
	"bytes"
	"testing"

	"github.com/argstream/argstream/internal/testutil/wiretest"
	"github.com/argstream/argstream/toolcall"
)

// TestReusedMemory: a ChatReader or ResponsesReader kept from response to
// response, with its SSE reader and Response, allocates next to nothing
// per response once warm, whatever its size: the responses here hold two
// calls of 84 KB of arguments each (3.5 and 4.6 MB of events), and the
// Responses one restates them three times (done events, final output).
func TestReusedMemory(t *testing.T) {
	const max = 64 << 10
	n := wiretest.CheckReusedMemory(t, "Responses", responsesSynthetic(5000, true), NewResponsesReader(toolcall.New()), max)
	t.Logf("Responses: %d bytes a response", n)
	n = wiretest.CheckReusedMemory(t, "Chat", chatSynthetic(5000), NewChatReader(toolcall.New()), max)
	t.Logf("Chat: %d bytes a response", n)
}

// BenchmarkInFlight: the memory of each of 10,000 responses in flight,
// half read: a Responses and a Chat stream of text and two calls of about 3 KB
// of arguments each.
//
//	go test -run '^$' -bench InFlight -benchtime 1x -count 3 ./wire/...
func BenchmarkInFlight(b *testing.B) {
	b.Run("responses", func(b *testing.B) {
		wiretest.BenchInFlight(b, responsesSynthetic(200, true), func(r *toolcall.Response) wiretest.Stepper { return NewResponsesReader(r) })
	})
	b.Run("chat", func(b *testing.B) {
		wiretest.BenchInFlight(b, chatSynthetic(200), func(r *toolcall.Response) wiretest.Stepper { return NewChatReader(r) })
	})
}

// BenchmarkReadResponsesNew: the Responses stream of TestReusedMemory read
// by ReadResponses, whose reader and buffers are new each time (the
// Response reused): what a reader kept from response to response saves.
//
//	go test -run '^$' -bench ReadResponsesNew -benchmem ./wire/openaistream
func BenchmarkReadResponsesNew(b *testing.B) {
	stream := responsesSynthetic(5000, true)
	resp := toolcall.New()
	b.SetBytes(int64(len(stream)))
	b.ReportAllocs()
	for range b.N {
		resp.Reset()
		if err := ReadResponses(b.Context(), bytes.NewReader(stream), resp); err != nil {
			b.Fatal(err)
		}
	}
}
