package wire_test

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire"
	"github.com/argstream/argstream/wire/anthropicstream"
	"github.com/argstream/argstream/wire/openaistream"
	"github.com/argstream/argstream/wire/sse"
)

func Example() {
	// From the request: Claude Code's path, with its query string.
	fmt.Println(wire.OfPath("/v1/messages?beta=true"))
	// From the response, when the path says nothing.
	ev := sse.Event{Data: []byte(`{"id":"chatcmpl-1","object":"chat.completion.chunk","choices":[]}`)}
	fmt.Println(wire.OfEvent(ev))
	// Output:
	// anthropic
	// openai-chat
}

// One list of options serves the readers of every wire, and one type holds
// the errors their providers send.
func ExampleOption() {
	opts := []wire.Option{
		wire.OnText(func(index int64, text []byte) { fmt.Printf("text %d: %s\n", index, text) }),
	}
	anthropic := "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"content\":[]}}\n\n" +
		"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n" +
		"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Hello\"}}\n\n" +
		"event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n"
	chat := "data: {\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"}}]}\n\n" +
		"data: {\"error\":{\"type\":\"server_error\",\"message\":\"The server had an error\"}}\n\n"

	errs := []error{
		anthropicstream.Read(context.Background(), strings.NewReader(anthropic), toolcall.New(), opts...),
		openaistream.ReadChat(context.Background(), strings.NewReader(chat), toolcall.New(), opts...),
	}
	for _, err := range errs {
		var pe *wire.ProviderError
		if errors.As(err, &pe) {
			fmt.Println(pe.Wire, pe.Type, pe.Message)
		}
	}
	// Output:
	// text 0: Hello
	// text 0: Hi
	// anthropic overloaded_error Overloaded
	// openai-chat server_error The server had an error
}
