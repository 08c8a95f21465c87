package anthropicstream

import (
	"bytes"
	"context"
	"strconv"
	"testing"

	"github.com/argstream/argstream/internal/testutil/wiretest"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire"
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

func allocsPerStream(t *testing.T, stream []byte) float64 {
	resp := toolcall.New()
	var br bytes.Reader
	var textBytes int
	onText := wire.OnText(func(_ int64, b []byte) { textBytes += len(b) })
	run := func() {
		resp.Reset()
		br.Reset(stream)
		if err := Read(context.Background(), &br, resp, onText); err != nil {
			t.Fatal(err)
		}
		for _, r := range resp.End() {
			if !r.Executable {
				t.Fatalf("call %+v", r)
			}
		}
	}
	run() // warm the Response's pools
	return testing.AllocsPerRun(20, run)
}

// TestAllocs: Read allocates per stream and per call, never per delta.
func TestAllocs(t *testing.T) {
	if testing.Short() {
		t.Skip("long stream")
	}
	const small, large = 10, 20000
	a := allocsPerStream(t, synthetic(small))
	b := allocsPerStream(t, synthetic(large))
	perDelta := (b - a) / (3 * (large - small))
	t.Logf("allocations per stream: %v with %d deltas, %v with %d; per delta %.6f", a, 3*small, b, 3*large, perDelta)
	if perDelta > 0.001 {
		t.Errorf("%.6f allocations per delta, want 0", perDelta)
	}
}

func BenchmarkRead(b *testing.B) {
	stream := synthetic(1000)
	resp := toolcall.New()
	var br bytes.Reader
	b.SetBytes(int64(len(stream)))
	b.ReportAllocs()
	for b.Loop() {
		resp.Reset()
		br.Reset(stream)
		if err := Read(context.Background(), &br, resp); err != nil {
			b.Fatal(err)
		}
		resp.End()
	}
}
