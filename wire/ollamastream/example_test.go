package ollamastream_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire"
	"github.com/argstream/argstream/wire/ollamastream"
)

func Example() {
	// The body of a POST /api/chat with "stream": true.
	body := strings.NewReader(`{"model":"qwen3","created_at":"2025-07-07T20:22:19Z","message":{"role":"assistant","content":"","thinking":"The user wants the weather."},"done":false}
{"model":"qwen3","created_at":"2025-07-07T20:22:19Z","message":{"role":"assistant","content":"Let me check."},"done":false}
{"model":"qwen3","created_at":"2025-07-07T20:22:20Z","message":{"role":"assistant","content":"","tool_calls":[{"id":"call_x1y2z3w4","function":{"index":0,"name":"get_weather","arguments":{"city":"Paris"}}}]},"done":false}
{"model":"qwen3","created_at":"2025-07-07T20:22:20Z","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","total_duration":182242375}
`)
	resp := toolcall.New()
	err := ollamastream.Read(context.Background(), body, resp,
		wire.OnThinking(func(_ int64, b []byte) { fmt.Printf("thinking: %s\n", b) }),
		wire.OnText(func(_ int64, b []byte) { fmt.Printf("text: %s\n", b) }))
	if err != nil {
		fmt.Println(err)
	}
	for _, r := range resp.End() {
		fmt.Println(r.Call.Index, r.Call.ID, r.Call.Name, string(r.Arguments), r.Executable)
	}
	// Output:
	// thinking: The user wants the weather.
	// text: Let me check.
	// 0 call_x1y2z3w4 get_weather {"city":"Paris"} true
}

// A server that reads many responses keeps a Reader and a Response, resets
// both, and reads each body with ReadBody, which keeps its line buffer.
func ExampleReader_ReadBody() {
	bodies := []string{
		`{"model":"qwen3","message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"read_file","arguments":{"path":"go.mod"}}}]},"done":false}
{"model":"qwen3","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop"}
`,
		`{"model":"qwen3","message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"list","arguments":{"dir":"src"}}}]},"done":false}
`, // cut before its done line
	}
	resp := toolcall.New()
	r := ollamastream.NewReader(resp)
	for _, body := range bodies {
		resp.Reset()
		r.Reset(resp)
		err := r.ReadBody(context.Background(), strings.NewReader(body))
		for _, res := range resp.End() {
			fmt.Println(res.Call.Name, string(res.Arguments), err == nil)
		}
	}
	// Output:
	// read_file {"path":"go.mod"} true
	// list {"dir":"src"} false
}
