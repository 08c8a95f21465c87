package anthropicstream_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire"
	"github.com/argstream/argstream/wire/anthropicstream"
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
