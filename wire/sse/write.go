package sse

import (
	"bytes"
	"errors"
)

// ErrUnframable is the error of [AppendEvent] given what no event can
// carry as it is: a type with a CR or an LF (a line end would end the
// field), or data with a CR (the spec ends a line at a lone CR, the SDKs'
// readers do not).
var ErrUnframable = errors.New("sse: an event type with a line end, or data with a CR")

// AppendEvent appends to dst an event of type typ (no "event" field if typ
// is empty) and data, framed as the spec and the SDKs' readers read it
// alike: the event line, one "data: " line per line of data (data's LFs
// split it, and a [Reader] joins the lines with LF again), and the blank
// line that dispatches it. A Reader reads the bytes appended as one [Event]
// with that Type and Data. With [ErrUnframable], dst is returned unchanged.
//
// It is the writer of the gateway's own events (package guard) and of the
// tests' streams; what the gateway forwards untouched goes out as it came
// ([Event.Raw]).
func AppendEvent(dst []byte, typ string, data []byte) ([]byte, error) {
	if bytes.ContainsAny([]byte(typ), "\r\n") || bytes.IndexByte(data, '\r') >= 0 {
		return dst, ErrUnframable
	}
	if typ != "" {
		dst = append(dst, "event: "...)
		dst = append(dst, typ...)
		dst = append(dst, '\n')
	}
	for {
		line, rest, more := bytes.Cut(data, []byte("\n"))
		dst = append(dst, "data: "...)
		dst = append(dst, line...)
		dst = append(dst, '\n')
		if !more {
			break
		}
		data = rest
	}
	return append(dst, '\n'), nil
}
