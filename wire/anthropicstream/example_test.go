package anthropicstream_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire"
	"github.com/argstream/argstream/wire/anthropicstream"
	"github.com/argstream/argstream/wire/sse"
)

func Example() {
	body := strings.NewReader(`event: message_start
data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[]}}

event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Checking."}}

event: content_block_stop
data: {"type":"content_block_stop","index":0}

event: content_block_start
data: {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{}}}

event: ping
data: {"type":"ping"}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"city\": \"Pa"}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"ris\"}"}}

event: content_block_stop
data: {"type":"content_block_stop","index":1}

event: message_stop
data: {"type":"message_stop"}

`)
	resp := toolcall.New()
	err := anthropicstream.Read(context.Background(), body, resp,
		wire.OnText(func(index int64, text []byte) { fmt.Printf("text %d: %s\n", index, text) }))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range resp.End() {
		fmt.Println(r.Call.Name, string(r.Arguments), r.Executable)
	}
	// Output:
	// text 0: Checking.
	// get_weather {"city":"Paris"} true
}

// A server that reads many responses keeps one Reader, its SSE reader and
// its Response, and readies them for each response with Reset: their
// buffers, grown to the largest event, serve every response after.
func ExampleReader_ReadEvents() {
	bodies := []string{
		"event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[]}}\n\n" +
			"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"ls\",\"input\":{}}}\n\n" +
			"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"dir\\\":\\\"src\\\"}\"}}\n\n" +
			"event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n" +
			"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
		"event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[]}}\n\n" +
			"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_2\",\"name\":\"rm\",\"input\":{}}}\n\n" +
			"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"path\\\":\"}}\n\n",
	}
	resp := toolcall.New()
	r := anthropicstream.NewReader(resp)
	events := sse.NewReader(nil)
	for _, body := range bodies {
		resp.Reset()
		r.Reset(resp)
		events.Reset(strings.NewReader(body))
		err := r.ReadEvents(context.Background(), events)
		for _, res := range resp.End() {
			fmt.Println(res.Call.Name, string(res.Arguments), res.Executable)
		}
		fmt.Println("error:", err)
	}
	// Output:
	// ls {"dir":"src"} true
	// error: <nil>
	// rm  false
	// error: anthropic: stream ended before message_stop: unexpected EOF
}
