package sse_test

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/argstream/argstream/wire/sse"
)

// An OpenAI Chat Completions stream, read event by event: the data of each
// is a JSON chunk, until "[DONE]".
func Example() {
	body := strings.NewReader(": OPENROUTER PROCESSING\n\n" +
		"data: {\"choices\":[{\"delta\":{\"content\":\"Hel\"}}]}\n\n" +
		"data: {\"choices\":[{\"delta\":{\"content\":\"lo\"}}]}\r\n\r\n" +
		"data: [DONE]\n\n")
	rd := sse.NewReader(body)
	for rd.Next() {
		ev := rd.Event() // borrowed: valid until the next call of Next
		if ev.IsDone() {
			fmt.Println("done")
			break
		}
		fmt.Printf("%s\n", ev.Data)
	}
	if err := rd.Err(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// {"choices":[{"delta":{"content":"Hel"}}]}
	// {"choices":[{"delta":{"content":"lo"}}]}
	// done
}

// An Anthropic Messages stream names its events; one cut in the middle of
// an event ends in ErrTruncated, at the byte where it stopped.
func Example_truncated() {
	body := strings.NewReader("event: message_start\ndata: {\"type\":\"message_start\"}\n\n" +
		"event: content_block_delta\ndata: {\"type\":\"content_bl")
	rd := sse.NewReader(body)
	for rd.Next() {
		ev := rd.Event()
		switch string(ev.Type) { // no allocation
		case "message_start":
			fmt.Println("start")
		case "content_block_delta":
			fmt.Println("delta")
		}
	}
	err := rd.Err()
	fmt.Println(errors.Is(err, sse.ErrTruncated))
	fmt.Println(err)
	// Output:
	// start
	// true
	// sse: stream ends in the middle of an event at byte 105 (line 5)
}

// A limit on the size of one event keeps a hostile server from making the
// Reader hold memory without bound.
func ExampleWithMaxEventSize() {
	body := strings.NewReader("data: " + strings.Repeat("x", 100) + "\n\n")
	rd := sse.NewReader(body, sse.WithMaxEventSize(64))
	for rd.Next() {
		fmt.Println("never")
	}
	var e *sse.Error
	if errors.As(rd.Err(), &e) {
		fmt.Println(e.Err == sse.ErrEventTooLarge, e.Offset, e.Line)
		fmt.Println(e)
	}
	// Output:
	// true 64 1
	// sse: event larger than the limit of 64 bytes at byte 64 (line 1)
}

// AppendEvent frames an event for a client: a gateway's own events, or a
// test's stream.
func ExampleAppendEvent() {
	var stream []byte
	stream, _ = sse.AppendEvent(stream, "message_stop", []byte(`{"type":"message_stop"}`))
	stream, _ = sse.AppendEvent(stream, "", []byte("two\nlines"))
	fmt.Printf("%s", stream)

	rd := sse.NewReader(bytes.NewReader(stream))
	for rd.Next() {
		fmt.Printf("read %q %q\n", rd.Event().Type, rd.Event().Data)
	}
	// Output:
	// event: message_stop
	// data: {"type":"message_stop"}
	//
	// data: two
	// data: lines
	//
	// read "message_stop" "{\"type\":\"message_stop\"}"
	// read "" "two\nlines"
}

// Events is the loop over a stream's events as a range: the error, if
// any, comes last.
func ExampleReader_Events() {
	body := strings.NewReader("event: message_start\ndata: {\"type\":\"message_start\"}\n\n" +
		"event: ping\ndata: {\"type\":\"ping\"}\n\n" +
		"event: content_block_delta\ndata: {\"type\":\"content_bl")
	rd := sse.NewReader(body)
	for ev, err := range rd.Events() {
		if err != nil {
			fmt.Println(err) // nothing follows an error
			return
		}
		fmt.Printf("%s\n", ev.Type) // borrowed: valid until the next iteration
	}
	// Output:
	// message_start
	// ping
	// sse: stream ends in the middle of an event at byte 140 (line 8)
}
