package wiretest

import (
	"encoding/json"

	"github.com/argstream/argstream/wire/sse"
)

// The tests' streams of well-formed events are written by sse.AppendEvent,
// the writer of the gateway's own events, so that what the tests feed the
// readers is framed as the spec and the SDKs read it alike. A test of an
// unusual framing (CRLF, a BOM, comments, a missing blank line, "data:"
// without its space) writes its bytes by hand, and FrameSSE varies the
// framing at random.

// SSE frames events as a server-sent-events stream: each one its "event:"
// line (none if its Type is empty), its data lines and a blank line. It
// panics on an event that sse.AppendEvent refuses (a type with a line end,
// data with a CR): a test's stream is written by hand, and such an event in
// it is a mistake of the test.
func SSE(events ...SSEEvent) string {
	return string(AppendSSE(nil, events...))
}

// AppendSSE is SSE appending to dst.
func AppendSSE(dst []byte, events ...SSEEvent) []byte {
	for _, ev := range events {
		var err error
		if dst, err = sse.AppendEvent(dst, ev.Type, []byte(ev.Data)); err != nil {
			panic(err)
		}
	}
	return dst
}

// DataSSE frames each data as an event of no type, as Chat Completions
// sends its chunks.
func DataSSE(data ...string) string {
	var b []byte
	for _, d := range data {
		b = AppendSSE(b, SSEEvent{Data: d})
	}
	return string(b)
}

// TypedSSE frames each data as an event named by its data's "type" member,
// as the Messages and Responses APIs send them. The type is decoded with
// encoding/json, as the SDKs decode it (the last of repeated members, a
// name in another case); data that is not a JSON object with a type gets
// no event line.
func TypedSSE(data ...string) string {
	var b []byte
	for _, d := range data {
		b = AppendSSE(b, typed(d))
	}
	return string(b)
}

// typed is the event of data named by its "type" member, as TypedSSE
// names it.
func typed(data string) SSEEvent {
	var v struct {
		Type string `json:"type"`
	}
	if json.Unmarshal([]byte(data), &v) != nil {
		return SSEEvent{Data: data}
	}
	return SSEEvent{Type: v.Type, Data: data}
}
