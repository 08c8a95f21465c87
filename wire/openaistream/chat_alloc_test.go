package openaistream

import (
	"strconv"
	"testing"

	"github.com/argstream/argstream/internal/testutil/wiretest"
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

// TestChatAllocs: ReadChat allocates per stream and per call, never per
// delta.
func TestChatAllocs(t *testing.T) {
	chatAdapter.CheckAllocs(t, wiretest.SteadyStream{Stream: chatSynthetic, Deltas: 3, Large: 20000, Runs: 20})
}

func BenchmarkReadChat(b *testing.B) {
	chatAdapter.Bench(b, chatSynthetic(1000))
}
