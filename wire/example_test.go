package wire_test

import (
	"fmt"

	"github.com/argstream/argstream/wire"
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
