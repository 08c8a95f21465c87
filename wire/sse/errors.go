package sse

import (
	"errors"
	"strconv"
)

// Categories of [Error]. Messages are not API: they may change. Compare with
// [errors.Is].
var (
	// ErrTruncated: the stream ended after a field line that no blank line
	// followed, in the middle of an event. The spec discards such an event
	// silently; the Reader does too, and says so, so that a caller can tell
	// a stream cut short from a clean end.
	ErrTruncated = errors.New("sse: stream ends in the middle of an event")
	// ErrEventTooLarge: an event is larger than the limit (WithMaxEventSize).
	ErrEventTooLarge = errors.New("sse: event too large")
	// ErrAmbiguous: the stream holds what the spec and the readers of the
	// official SDKs read differently, so that they would see other events:
	// a byte order mark at its start (the spec skips it, the SDKs' readers
	// keep it in the first field's name, and skip that field), a line ended
	// by a CR that no LF follows (the spec ends the line there, the SDKs'
	// readers, which split lines at LF, do not), or a block with an event
	// field and no data (the spec drops it, the SDKs' readers dispatch it:
	// an error to them).
	ErrAmbiguous = errors.New("sse: stream read differently by different readers")
)

// Error is what ended a stream, and where. An Error is immutable once
// returned, so several goroutines may read it.
type Error struct {
	// Offset is the byte offset in the stream (from its first byte, a BOM
	// included) of the problem: the first byte past the limit for
	// ErrEventTooLarge, the end of the stream for ErrTruncated, the bytes read
	// before a read error.
	Offset int64
	// Line is the line of that byte, from 1. CRLF, LF and CR each end a line.
	Line int64
	// Err is ErrTruncated, ErrEventTooLarge, ErrAmbiguous or the error of
	// the underlying reader.
	Err error
	// Limit is the limit exceeded, for ErrEventTooLarge.
	Limit int64
	// Detail says what is wrong, for people, when Err alone does not.
	Detail string
}

func (e *Error) Error() string {
	var b []byte
	switch e.Err {
	case ErrEventTooLarge:
		b = append(b, "sse: event larger than the limit of "...)
		b = strconv.AppendInt(b, e.Limit, 10)
		b = append(b, " bytes"...)
	case ErrTruncated:
		b = append(b, ErrTruncated.Error()...)
	case ErrAmbiguous:
		b = append(b, ErrAmbiguous.Error()...)
	default:
		b = append(b, "sse: reading the stream"...)
	}
	b = append(b, " at byte "...)
	b = strconv.AppendInt(b, e.Offset, 10)
	b = append(b, " (line "...)
	b = strconv.AppendInt(b, e.Line, 10)
	b = append(b, ')')
	if e.Detail != "" {
		b = append(b, ": "...)
		b = append(b, e.Detail...)
	}
	if e.Err != ErrEventTooLarge && e.Err != ErrTruncated && e.Err != ErrAmbiguous {
		b = append(b, ": "...)
		b = append(b, e.Err.Error()...)
	}
	return string(b)
}

// Unwrap returns [Error.Err].
func (e *Error) Unwrap() error { return e.Err }
