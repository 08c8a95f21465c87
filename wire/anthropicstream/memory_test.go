package anthropicstream

import (
	"testing"

	"github.com/argstream/argstream/internal/testutil/wiretest"
	"github.com/argstream/argstream/toolcall"
)

// TestReusedMemory: a Reader kept from response to response, with its SSE
// reader and Response, allocates next to nothing per response once warm,
// whatever its size (here two calls of 84 KB of arguments each).
func TestReusedMemory(t *testing.T) {
	n := wiretest.CheckReusedMemory(t, "Anthropic", synthetic(5000), NewReader(toolcall.New()), 64<<10)
	t.Logf("Anthropic: %d bytes a response", n)
}

// BenchmarkInFlight: the memory of each of 10,000 responses in flight,
// half read: a stream of text and two calls of about 3 KB of arguments each.
//
//	go test -run '^$' -bench InFlight -benchtime 1x -count 3 ./wire/...
func BenchmarkInFlight(b *testing.B) {
	wiretest.BenchInFlight(b, synthetic(200), func(r *toolcall.Response) wiretest.Stepper { return NewReader(r) })
}
