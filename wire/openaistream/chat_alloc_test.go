package openaistream

import (
	"bytes"
	"context"
	"strconv"
	"testing"

	"github.com/argstream/argstream/internal/testutil/wiretest"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire"
)

// chatSynthetic is a stream of text and two tool calls, interleaved, with
// n argument deltas each (with escapes) and n text deltas. The second call
// has its id, type and name repeated in every delta, as some servers send
// them.
func chatSynthetic(n int) []byte {
	var b []byte
	chunk := func(data string) { b = wiretest.AppendSSE(b, wiretest.SSEEvent{Data: data}) }
	const head = `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":`
	const tail = `,"logprobs":null,"finish_reason":null}],"usage":null}`
	chunk(head + `{"role":"assistant","content":"","refusal":null}` + tail)
	chunk(head + `{"tool_calls":[{"index":0,"id":"call_0","type":"function","function":{"name":"write","arguments":""}}]}` + tail)
	chunk(head + `{"tool_calls":[{"index":0,"function":{"arguments":"{\"text\": \""}}]}` + tail)
	chunk(head + `{"tool_calls":[{"index":1,"id":"call_1","type":"function","function":{"name":"write","arguments":"{\"text\": \""}}]}` + tail)
	for k := range n {
		chunk(head + `{"content":"word "}` + tail)
		line := `line ` + strconv.Itoa(k) + ` \\\"q\\\"\\n`
		chunk(head + `{"tool_calls":[{"index":0,"function":{"arguments":"` + line + `"}}]}` + tail)
		chunk(head + `{"tool_calls":[{"index":1,"id":"call_1","type":"function","function":{"arguments":"` + line + `"}}]}` + tail)
		if k%100 == 0 {
			b = append(b, ": keep-alive\n\n"...)
		}
	}
	chunk(head + `{"tool_calls":[{"index":0,"function":{"arguments":"\"}"}},{"index":1,"function":{"arguments":"\"}"}}]}` + tail)
	chunk(`{"id":"chatcmpl-1","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`)
	chunk(`{"id":"chatcmpl-1","choices":[],"usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}}`)
	chunk(chatDoneData)
	return b
}

func chatAllocsPerStream(t *testing.T, stream []byte) float64 {
	resp := toolcall.New()
	var br bytes.Reader
	var textBytes int
	onText := wire.OnText(func(_ int64, b []byte) { textBytes += len(b) })
	run := func() {
		resp.Reset()
		br.Reset(stream)
		if err := ReadChat(context.Background(), &br, resp, onText); err != nil {
			t.Fatal(err)
		}
		res := resp.End()
		if len(res) != 2 {
			t.Fatalf("%d calls", len(res))
		}
		for _, r := range res {
			if !r.Executable {
				t.Fatalf("call %+v", r)
			}
		}
	}
	run() // warm the Response's pools
	return testing.AllocsPerRun(20, run)
}

// TestChatAllocs: ReadChat allocates per stream and per call, never per
// delta.
func TestChatAllocs(t *testing.T) {
	if testing.Short() {
		t.Skip("long stream")
	}
	if testing.CoverMode() != "" {
		t.Skip("coverage instrumentation allocates")
	}
	const small, large = 10, 20000
	a := chatAllocsPerStream(t, chatSynthetic(small))
	b := chatAllocsPerStream(t, chatSynthetic(large))
	perDelta := (b - a) / (3 * (large - small))
	t.Logf("allocations per stream: %v with %d deltas, %v with %d; per delta %.6f", a, 3*small, b, 3*large, perDelta)
	if perDelta > 0.001 {
		t.Errorf("%.6f allocations per delta, want 0", perDelta)
	}
}

func BenchmarkReadChat(b *testing.B) {
	stream := chatSynthetic(1000)
	resp := toolcall.New()
	var br bytes.Reader
	b.SetBytes(int64(len(stream)))
	b.ReportAllocs()
	for b.Loop() {
		resp.Reset()
		br.Reset(stream)
		if err := ReadChat(context.Background(), &br, resp); err != nil {
			b.Fatal(err)
		}
		resp.End()
	}
}
