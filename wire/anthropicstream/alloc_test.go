package anthropicstream

import (
	"strconv"
	"testing"

	"github.com/argstream/argstream/internal/testutil/wiretest"
)

// synthetic is a stream of one text block and two tool calls, interleaved,
// with n argument deltas each (with escapes), and n text deltas.
func synthetic(n int) []byte {
	var b []byte
	event := func(data string) { b = append(b, ev(data)...) }
	event(`{"type":"message_start","message":{"id":"msg_1","content":[]}}`)
	event(`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
	for _, i := range []string{"1", "2"} {
		event(`{"type":"content_block_start","index":` + i + `,"content_block":{"type":"tool_use","id":"toolu_` + i + `","name":"write","input":{}}}`)
		event(`{"type":"content_block_delta","index":` + i + `,"delta":{"type":"input_json_delta","partial_json":"{\"text\": \""}}`)
	}
	for k := range n {
		event(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"word "}}`)
		for _, i := range []string{"1", "2"} {
			event(`{"type":"content_block_delta","index":` + i + `,"delta":{"type":"input_json_delta","partial_json":"line ` + strconv.Itoa(k) + ` \\\"q\\\"\\n"}}`)
		}
		if k%100 == 0 {
			b = wiretest.AppendSSE(b, wiretest.SSEEvent{Type: "ping", Data: `{"type": "ping"}`})
		}
	}
	for _, i := range []string{"1", "2"} {
		event(`{"type":"content_block_delta","index":` + i + `,"delta":{"type":"input_json_delta","partial_json":"\"}"}}`)
		event(`{"type":"content_block_stop","index":` + i + `}`)
	}
	event(`{"type":"content_block_stop","index":0}`)
	event(`{"type":"message_stop"}`)
	return b
}

// TestAllocs: Read allocates per stream and per call, never per delta.
func TestAllocs(t *testing.T) {
	anthropicAdapter.CheckAllocs(t, wiretest.SteadyStream{Stream: synthetic, Deltas: 3, Large: 20000, Runs: 20})
}

func BenchmarkRead(b *testing.B) {
	anthropicAdapter.Bench(b, synthetic(1000))
}
