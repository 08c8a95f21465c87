// Package sse reads server-sent events (the WHATWG HTML "event stream"
// format, text/event-stream) from a byte stream: the body of an LLM
// provider's streaming HTTP response, which the provider adapters of
// package wire read through it.
//
// # Calls
//
// A [Reader] is used as [bufio.Scanner] is:
//
//	reading = NewReader { Next→true Event } Next→false Err .
//
//	rd := sse.NewReader(resp.Body)
//	for rd.Next() {
//		ev := rd.Event()
//		if ev.IsDone() { // OpenAI Chat Completions: "data: [DONE]"
//			break
//		}
//		handle(string(ev.Type), ev.Data)
//	}
//	if err := rd.Err(); err != nil {
//		// errors.Is(err, sse.ErrTruncated): the stream was cut mid-event.
//	}
//
// [Reader.Events] is the same loop as a range over a sequence, which yields
// the error, if any, last:
//
//	for ev, err := range rd.Events() {
//		if err != nil {
//			return err
//		}
//		handle(string(ev.Type), ev.Data)
//	}
//
// # What it reads
//
// The format of the spec, with two exceptions: lines end at CRLF or LF (a
// CR at the end of one read and an LF at the start of the next are one line
// end), and a CR that no LF follows, a UTF-8 byte order mark at the start
// of the stream, or a block with an event field and no data, is an error,
// [ErrAmbiguous]. The spec ends a line at
// a lone CR and skips a leading BOM, but the readers of the official SDKs,
// which split lines at LF with bufio.Scanner, do neither: they would read
// other events from the same bytes, and what argstream reads must be what
// they read. Otherwise: a line starting with ":" is a
// comment and skipped; a line "name: value" sets a field, one space after
// the colon being removed, and a line without a colon is a field with an
// empty value; the fields are "event" (the type), "data" (several data lines
// are joined with "\n") and "id"; "retry" and unknown fields are ignored. A
// blank line dispatches the event, if it has at least one data line: a block
// of only "event:" or "id:" lines is not an event. Bytes are given as they
// are: the Reader does not check UTF-8 (the JSON decoder of the data does).
//
// At the end of the input, an event without its blank line is not
// dispatched, as the spec says; Err then returns [ErrTruncated], so that a
// stream cut mid-event is not taken for a complete one. "[DONE]" has no
// meaning for the Reader: [Event.IsDone] tells an adapter it has come.
//
// # Memory
//
// An [Event] borrows the Reader's memory: its Type, Data and ID are valid
// until the next call of Next (or Reset, or the next iteration over
// Events), as [bufio.Scanner.Bytes] is; Clone copies one to keep. Once its
// buffers have grown to the largest event, a Reader reads event after event
// without allocating.
//
// One event may take at most [DefaultMaxEventSize] bytes (16 MiB), or the
// limit set with [WithMaxEventSize]: past it Err returns [ErrEventTooLarge] at
// the byte offset of the excess, so that a hostile server cannot make the
// Reader hold memory without bound. Every error is an [*Error] with the byte
// offset and the line of the problem.
//
// # Time
//
// Each byte is examined once, whatever the sizes of the reads: an event
// split across a thousand reads is not rescanned from its start on each.
//
// # Cancellation and concurrency
//
// A Reader has no [context.Context]: cancellation belongs to its caller, which
// closes the underlying reader (the HTTP response body, as net/http does
// when the request's context ends). The next Read then fails, and Next
// returns false with that error, wrapped in an *Error, in Err.
//
// A Reader is for one goroutine at a time. Errors are immutable and may be
// shared.
package sse
