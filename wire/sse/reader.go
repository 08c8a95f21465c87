package sse

// This file is structured in the following way:
//
//   - Event, Option and the limit;
//   - Reader: NewReader, Reset, Next, Event, Err, Events, Ready;
//   - the scanner: a byte-level state machine (scan) that keeps its state
//     between reads, so that no byte is looked at twice whatever the read
//     sizes (but a field value's, searched for its line end with the
//     vectorized bytes.IndexByte), and copies each field value once, into
//     the buffer it belongs to; but for the data of an event of one data
//     line that the read buffer holds whole with its blank line, the
//     common event, which it hands over from the read buffer, and for an
//     event line whole in the read buffer, whose value it borrows there
//     until the buffer is read into again.

import (
	"bytes"
	"errors"
	"io"
	"iter"
	"math"
)

// DefaultMaxEventSize is the limit on the size of one event when
// [WithMaxEventSize] is not given: 16 MiB, far above what an LLM provider sends
// in one event (the largest is the final summary of a response, which
// repeats its whole output), and small enough that a hostile or broken
// server cannot make a [Reader] hold an unbounded amount of memory.
const DefaultMaxEventSize = 16 << 20

// readSize is the size of the buffer a [Reader] reads into. The bytes read are
// scanned at once and copied into the event's buffers, so the read buffer
// never grows: an event of any size needs only the memory of its fields.
const readSize = 4096

// Done is the data of the event that ends an OpenAI Chat Completions stream:
// "data: [DONE]". The [Reader] gives it like any other event; [Event.IsDone]
// tells it.
const Done = "[DONE]"

// An Event is one event of the stream. Its slices are borrowed from the
// [Reader], as [bufio.Scanner.Bytes] is: they are valid until the next call of
// Next or Reset, which may overwrite them. [Event.Clone] makes a copy to keep.
type Event struct {
	// Type is the value of the event's "event" field: empty for the default
	// type, which the WHATWG spec names "message". Compare it with
	// string(ev.Type) == "content_block_delta", which does not allocate.
	Type []byte
	// Data is the values of the event's "data" fields, joined with "\n".
	// An event has at least one data field (a block without one is not an
	// event), but its Data may be empty ("data" or "data:" alone).
	Data []byte
	// ID is the stream's last event ID: the value of the last "id" field
	// read so far, in this event or in an earlier one, as the spec says; empty
	// if none. An "id" field whose value holds U+0000 is ignored.
	ID []byte
	// Raw, with WithRaw, is the bytes of the block as they came: from the
	// end of the block Next returned before (blank lines between blocks
	// included) to the blank line that ends this one, that line included.
	// The Raws of the blocks, and Reader.Rest at the end, are the stream.
	Raw []byte
}

// IsEvent reports whether ev is an event: with [WithRaw], Next also returns
// blocks that are not (comments, a retry or id line alone), with no
// [Event.Data].
func (ev Event) IsEvent() bool { return ev.Data != nil }

// IsDone reports whether ev is the end of an OpenAI Chat Completions stream:
// its data is exactly "[DONE]" ([Done]). The [Reader] itself gives no meaning
// to it, and reads on: the adapter stops.
func (ev Event) IsDone() bool { return string(ev.Data) == Done }

// Clone returns a copy of ev that owns its memory, to keep after the next
// call of Next.
func (ev Event) Clone() Event {
	return Event{Type: clone(ev.Type), Data: clone(ev.Data), ID: clone(ev.ID), Raw: clone(ev.Raw)}
}

func clone(b []byte) []byte {
	if b == nil {
		return nil
	}
	return append(make([]byte, 0, len(b)), b...)
}

// An Option configures a [Reader].
type Option func(*config)

type config struct {
	maxEventSize int64
	raw          bool
}

// WithRaw makes the [Reader] keep the bytes of what it reads, for a caller
// that forwards the stream as it came (a gateway): each [Event]'s Raw, and
// Rest at the end. Next then also returns at the end of every block of
// lines that is not an event (a keep-alive comment, a retry line), with a
// nil Data, so that the caller may forward it at once.
func WithRaw() Option {
	return func(c *config) { c.raw = true }
}

// WithMaxEventSize limits the size of one event to n bytes, counted in the
// stream: the lines of the event (its fields and the comments among them)
// with their line ends, not the blank line that ends it. Past the limit,
// Next returns false and Err reports [ErrEventTooLarge] at the offset of the
// first byte beyond it. The [Reader] never holds more than n bytes of an
// event. Values below 1 select [DefaultMaxEventSize].
func WithMaxEventSize(n int) Option {
	return func(c *config) {
		if n < 1 {
			n = DefaultMaxEventSize
		}
		c.maxEventSize = int64(n)
	}
}

// A Reader reads the events of a server-sent-events stream, one at a time:
//
//	rd := sse.NewReader(body)
//	for rd.Next() {
//		ev := rd.Event() // borrowed until the next call of Next
//		...
//	}
//	if err := rd.Err(); err != nil { ... }
//
// or, the same, with [Reader.Events]:
//
//	for ev, err := range rd.Events() { ... }
//
// A Reader is for one goroutine: its methods must not be called
// concurrently. To stop a Reader from another goroutine, close the
// underlying reader (an HTTP response body): its next Read fails, and
// [Reader.Next] returns false with that error in [Reader.Err].
type Reader struct {
	rd      io.Reader
	max     int64
	buf     []byte // the read buffer; buf[pos:end] is not scanned yet
	pos     int
	end     int
	readErr error // the error of the last Read, handled once buf is scanned
	// cr is the index in buf of the first CR at or after the line
	// lineEnd last searched it from, or end if there is none; -1 when it
	// is to be searched (buf has been filled since). Streams have no CR,
	// so that one search per fill, not one per line, finds that.
	cr int

	// The scanner's state, kept between reads.
	state   uint8
	field   uint8 // the field whose value is being read
	name    [5]byte
	nameLen int  // len(name) + 1 once the name is longer than any known one
	bomN    int  // the bytes of a leading byte order mark seen so far
	skipLF  bool // a line ended at CR: an LF right after it belongs to it
	blankCR bool // ... and the line was blank
	pending bool // a field line came after the last blank line
	lines   bool // a line that is not blank came after the last blank line
	idNUL   bool // the "id" value being read holds U+0000

	keepRaw bool   // WithRaw
	raw     []byte // with keepRaw, the bytes read since the last block returned

	data     []byte // the data buffer: each data value followed by "\n"
	typ      []byte // the event type buffer: typBuf's memory, or an event line's value in buf
	typBuf   []byte
	typInBuf bool   // typ is in buf, copied into typBuf before buf is read into
	id       []byte // the last event ID
	idNext   []byte // the "id" value being read

	off     int64 // bytes of the stream scanned
	evStart int64 // offset where the current event begins
	line    int64 // the line being scanned, from 1

	ev   Event
	err  error
	done bool // the stream ended cleanly
}

// The scanner's states.
const (
	stBOM       uint8 = iota // at the start of the stream, maybe in a BOM
	stLineStart              // at the start of a line
	stName                   // in a field name
	stSpace                  // right after the colon: one space to skip
	stValue                  // in a field value or a comment
)

// The fields.
const (
	fOther uint8 = iota // retry, unknown fields and comments: ignored
	fData
	fEvent
	fID
)

var bom = [3]byte{0xEF, 0xBB, 0xBF}

// NewReader returns a [Reader] of the stream r.
func NewReader(r io.Reader, opts ...Option) *Reader {
	c := config{maxEventSize: DefaultMaxEventSize}
	for _, o := range opts {
		o(&c)
	}
	rd := &Reader{max: c.maxEventSize, keepRaw: c.raw, buf: make([]byte, readSize)}
	rd.Reset(r)
	return rd
}

// Reset makes the [Reader] read a new stream r, with the same options, and
// keeps the memory it has grown, so that reading stream after stream does
// not allocate.
func (r *Reader) Reset(rd io.Reader) {
	*r = Reader{
		rd:      rd,
		max:     r.max,
		keepRaw: r.keepRaw,
		raw:     r.raw[:0],
		buf:     r.buf,
		data:    r.data[:0],
		typBuf:  r.typBuf[:0],
		id:      r.id[:0],
		idNext:  r.idNext[:0],
		line:    1,
		cr:      -1,
	}
}

// Next reads the next event, which [Reader.Event] then returns. It returns
// false at the end of the stream or at the first error, which [Reader.Err]
// then returns; after that it keeps returning false.
func (r *Reader) Next() bool {
	if r.err != nil || r.done {
		return false
	}
	// The previous event is given up: its type buffer is reset, as the spec
	// does at dispatch.
	r.ev = Event{}
	r.data = r.data[:0]
	r.clearType()
	r.raw = r.raw[:0]
	for {
		if r.pos < r.end {
			start := r.pos
			got := r.scan()
			if r.keepRaw && r.err == nil {
				r.raw = append(r.raw, r.buf[start:r.pos]...)
				if int64(len(r.raw)) > 2*r.max {
					// Blank lines between blocks count toward no event's
					// size, but they are kept: bound them too.
					r.err = &Error{Offset: r.off, Line: r.line, Err: ErrEventTooLarge, Limit: 2 * r.max}
					return false
				}
				if got {
					r.ev.Raw = r.raw
				}
			}
			if got {
				return true
			}
			if r.err != nil {
				return false
			}
			continue
		}
		if r.readErr != nil {
			r.finish()
			return false
		}
		r.fill()
	}
}

// Event returns the event that the last call of [Reader.Next] read: the zero
// Event if it returned false. Its memory is borrowed (see Event).
func (r *Reader) Event() Event { return r.ev }

// Rest returns, with [WithRaw], the bytes read after the last block that
// [Reader.Next] returned: at the end of the stream, blank lines, or the lines
// of a block that did not end (a comment, or an event cut off, which
// [Reader.Err] reports). They are borrowed as an Event is.
func (r *Reader) Rest() []byte { return r.raw }

// Err returns the error that ended the stream, nil if it ended cleanly: at
// the end of the input, after the blank line of its last event. It is an
// [*Error]: a stream that ends in the middle of an event ([ErrTruncated]), an
// event over the limit ([ErrEventTooLarge]), or the error of the underlying
// reader, which [errors.Is] and [errors.As] find through it.
func (r *Reader) Err() error { return r.err }

// Events returns the rest of the stream as a sequence, for code that
// prefers a loop to [Reader.Next], [Reader.Event] and [Reader.Err]:
//
//	for ev, err := range rd.Events() {
//		if err != nil {
//			return err // Err's error: an *Error with its offset and line
//		}
//		handle(string(ev.Type), ev.Data)
//	}
//
// Each iteration is one call of Next, and yields the [Event] it read with a
// nil error. The Event is borrowed as [Reader.Event]'s is: it is valid until
// the next iteration (or, after a break, until the next call of Next or
// [Reader.Reset]); keep a Clone. If the stream ends in an error, that error
// comes last, once, with the zero Event; a clean end yields nothing more.
// Breaking out of the loop stops reading: the [Reader] then stands after the
// event last yielded, and Next, or another range over Events, goes on from
// there. Ranging over a Reader that has ended yields its error again, if any.
func (r *Reader) Events() iter.Seq2[Event, error] {
	return func(yield func(Event, error) bool) {
		for r.Next() {
			if !yield(r.ev, nil) {
				return
			}
		}
		if r.err != nil {
			yield(Event{}, r.err)
		}
	}
}

// Ready reports whether Next can return without reading from the
// underlying reader: a whole block of lines is buffered (a blank line ends
// it), or the stream has ended. With WithRaw, under which Next returns at
// the end of every block, that is exact; without it, Next may still read,
// past a block that is no event. A gateway asks it to forward the events
// that arrived together in one write, never waiting for more to do so.
func (r *Reader) Ready() bool {
	if r.err != nil || r.done || r.readErr != nil && r.pos == r.end {
		return true
	}
	b := r.buf[r.pos:r.end]
	// Next returns at a line's start: skip the blank lines before the
	// block (and the LF of a line that ended at a CR).
	i := 0
	for i < len(b) && (b[i] == '\n' || b[i] == '\r') {
		i++
	}
	b = b[i:]
	return bytes.Contains(b, []byte("\n\n")) || bytes.Contains(b, []byte("\n\r\n"))
}

// fill reads the next bytes into buf.
func (r *Reader) fill() {
	r.ownType()
	for empty := 0; ; empty++ {
		n, err := r.rd.Read(r.buf)
		if n < 0 || n > len(r.buf) {
			n, err = 0, errBadReadCount
		}
		r.pos, r.end, r.cr = 0, n, -1
		if err != nil {
			r.readErr = err
			return
		}
		if n > 0 {
			return
		}
		if empty == 100 {
			r.readErr = io.ErrNoProgress
			return
		}
	}
}

var errBadReadCount = errors.New("sse: the underlying reader returned an impossible count")

// finish ends the stream once readErr is reached.
func (r *Reader) finish() {
	switch {
	case r.readErr != io.EOF:
		r.err = &Error{Offset: r.off, Line: r.line, Err: r.readErr}
	case r.pending:
		// The spec discards the unfinished event silently; the caller is told.
		r.err = &Error{Offset: r.off, Line: r.line, Err: ErrTruncated}
	default:
		r.done = true
	}
}

// tooLarge stops the stream at the first byte past the limit, on line line.
func (r *Reader) tooLarge(line int64) {
	r.err = &Error{Offset: r.evStart + r.max, Line: line, Err: ErrEventTooLarge, Limit: r.max}
}

// scan scans buf[pos:end], and returns true when it dispatches an event.
// Each byte is looked at once; the bytes of a field value are copied, in one
// append per read, into the buffer they belong to, but for the one data
// line of an event that buf holds whole, and an event line whole in buf,
// which the event borrows from buf.
func (r *Reader) scan() bool {
	i, ok := r.scanAt(r.buf[:r.end], r.pos)
	r.pos = i
	return ok
}

// scanAt is scan from b[i:], b being buf[:end], returning where it
// stopped: i is a local of its own (a deferred store of it to r.pos would
// keep it in memory through the loop).
func (r *Reader) scanAt(b []byte, i int) (int, bool) {
	for i < len(b) {
		c := b[i]
		if r.skipLF {
			r.skipLF = false
			if c != '\n' {
				r.err = &Error{Offset: r.off - 1, Line: r.line - 1, Err: ErrAmbiguous, Detail: "a line ends with a CR that no LF follows"}
				return i, false
			}
			{
				i++
				r.off++
				if r.blankCR {
					r.evStart = r.off // the blank line's line end is no one's
				} else if r.off-r.evStart > r.max {
					r.tooLarge(r.line - 1)
					return i, false
				}
				continue
			}
		}
		switch r.state {
		case stBOM:
			if c == bom[r.bomN] {
				i++
				r.off++
				r.bomN++
				r.pending = true
				if r.bomN == len(bom) {
					r.err = &Error{Offset: 0, Line: 1, Err: ErrAmbiguous, Detail: "the stream begins with a byte order mark"}
					return i, false
				}
				continue
			}
			if r.bomN == 0 {
				r.state = stLineStart
				continue
			}
			// Not a BOM: the bytes seen so far begin a field name that no
			// field has.
			if r.off-r.evStart > r.max {
				r.tooLarge(r.line)
				return i, false
			}
			r.state, r.nameLen = stName, len(r.name)+1
			continue // c in stName

		case stLineStart:
			if n, field := knownField(b[i:]); n > 0 {
				// "data: " or "event: " whole in buf: the states stName
				// and stSpace, and startField, would come to the same,
				// byte by byte.
				i += n
				r.off += int64(n)
				r.pending, r.lines = true, true
				r.field = field
				if field == fEvent {
					r.clearType()
				}
				r.state = stValue
				break
			}
			i++
			r.off++
			switch c {
			case '\r', '\n':
				// A blank line: dispatch the event, if it has data.
				r.line++
				r.skipLF, r.blankCR = c == '\r', true
				r.evStart, r.pending = r.off, false
				lines := r.lines
				r.lines = false
				if len(r.data) > 0 {
					r.ev.Type, r.ev.Data, r.ev.ID = r.typ, r.data[:len(r.data)-1], r.id
					return i, true
				}
				if len(r.typ) > 0 {
					// The spec drops it; the SDKs' readers dispatch it with
					// empty data (an error to them, for "error").
					r.err = &Error{Offset: r.off - 1, Line: r.line - 1, Err: ErrAmbiguous, Detail: "an event field with no data"}
					return i, false
				}
				r.clearType()
				if lines && r.keepRaw {
					r.ev = Event{ID: r.id} // a block that is no event
					return i, true
				}
				continue
			case ':':
				r.state, r.field, r.lines = stValue, fOther, true // a comment
			default:
				r.state, r.pending, r.lines = stName, true, true
				r.name[0], r.nameLen = c, 1
			}

		case stName:
			i++
			r.off++
			switch c {
			case ':':
				r.startField()
				r.state = stSpace
			case '\r', '\n':
				// A field with no colon: its value is empty.
				r.startField()
				if r.off-r.evStart > r.max {
					r.tooLarge(r.line)
					return i, false
				}
				r.endLine(c)
				continue
			default:
				if r.nameLen < len(r.name) {
					r.name[r.nameLen] = c
					r.nameLen++
				} else {
					r.nameLen = len(r.name) + 1
				}
			}

		case stSpace:
			r.state = stValue
			if c != ' ' {
				continue // c in stValue
			}
			i++
			r.off++

		case stValue:
			j := r.lineEnd(b, i)
			if room := r.max - (r.off - r.evStart); int64(j-i) > room {
				r.tooLarge(r.line)
				return i, false
			}
			if r.field == fData && len(r.data) == 0 && j+1 < len(b) && b[j] == '\n' && b[j+1] == '\n' &&
				r.off+int64(j-i)+1-r.evStart <= r.max {
				// The event's one data line and the blank line that
				// ends it, LF each, are in buf: the data is dispatched
				// from buf, not copied (buf changes only in the next
				// Next; its capacity ends with it, so that an append
				// to it copies). The state as the steps below leave
				// it: the line read, then the blank line.
				r.off += int64(j-i) + 2
				r.line += 2
				r.state, r.field = stLineStart, fOther
				r.blankCR, r.evStart, r.pending, r.lines = true, r.off, false, false
				r.ev.Type, r.ev.Data, r.ev.ID = r.typ, b[i:j:j], r.id
				i = j + 2
				return i, true
			}
			if r.field == fEvent && len(r.typ) == 0 && j < len(b) {
				// An event line whole in buf: its value is borrowed
				// from buf, as the data line above, until buf is read
				// into again (fill).
				r.typ, r.typInBuf = b[i:j:j], true
			} else {
				r.appendValue(b[i:j])
			}
			r.off += int64(j - i)
			i = j
			if i == len(b) {
				return i, false
			}
			c = b[i]
			i++
			r.off++
			if r.off-r.evStart > r.max {
				r.tooLarge(r.line)
				return i, false
			}
			r.endLine(c)
			continue
		}
		if r.off-r.evStart > r.max {
			r.tooLarge(r.line)
			return i, false
		}
	}
	return i, false
}

// knownField returns the length of the "data: " or "event: " that b begins
// with, and its field; or 0.
func knownField(b []byte) (int, uint8) {
	if len(b) >= 6 && string(b[:6]) == "data: " {
		return 6, fData
	}
	if len(b) >= 7 && string(b[:7]) == "event: " {
		return 7, fEvent
	}
	return 0, fOther
}

// lineEnd returns the index of the first CR or LF in b[i:], b being
// buf[:end], or len(b). Streams end their lines with LF, so it looks for
// the LF with the vectorized [bytes.IndexByte], before the next CR, which
// it looks for only once it has passed the one it found before.
func (r *Reader) lineEnd(b []byte, i int) int {
	if r.cr < i {
		r.cr = len(b)
		if n := bytes.IndexByte(b[i:], '\r'); n >= 0 {
			r.cr = i + n
		}
	}
	if n := bytes.IndexByte(b[i:r.cr], '\n'); n >= 0 {
		return i + n
	}
	return r.cr
}

// startField chooses the field whose name has just ended.
func (r *Reader) startField() {
	r.field = fOther
	if r.nameLen <= len(r.name) {
		switch string(r.name[:r.nameLen]) {
		case "data":
			r.field = fData
		case "event":
			r.field = fEvent
			r.clearType()
		case "id":
			r.field = fID
			r.idNext, r.idNUL = r.idNext[:0], false
		}
	}
}

// appendValue adds v, a piece of the value being read, to its field.
func (r *Reader) appendValue(v []byte) {
	switch r.field {
	case fData:
		r.data = append(r.grow(r.data, len(v)), v...)
	case fEvent:
		r.ownType()
		r.typBuf = append(r.typ, v...)
		r.typ = r.typBuf
	case fID:
		r.idNext = append(r.idNext, v...)
		for _, c := range v {
			if c == 0 {
				r.idNUL = true
			}
		}
	}
}

// clearType empties the event type buffer.
func (r *Reader) clearType() { r.typ, r.typInBuf = r.typBuf[:0], false }

// ownType copies the event type into typBuf if it is in buf.
func (r *Reader) ownType() {
	if r.typInBuf {
		r.typBuf = append(r.typBuf[:0], r.typ...)
		r.typ, r.typInBuf = r.typBuf, false
	}
}

// grow returns b with room for n more bytes. When it must grow, it at
// least doubles, as bytes.Buffer does (but never past the event size
// limit): append grows a large slice by a quarter at a time, which copies
// an event of one long data line (a whole tool call's arguments) some
// twenty times over as it is read, 4 KiB at a time.
func (r *Reader) grow(b []byte, n int) []byte {
	if cap(b)-len(b) >= n {
		return b
	}
	c := max(len(b)+n, min(2*cap(b), int(min(r.max+1, math.MaxInt32))))
	nb := make([]byte, len(b), c)
	copy(nb, b)
	return nb
}

// endLine ends a field or comment line at the line end c.
func (r *Reader) endLine(c byte) {
	switch r.field {
	case fData:
		r.data = append(r.data, '\n')
	case fID:
		if !r.idNUL {
			r.id, r.idNext = r.idNext, r.id
		}
	}
	r.field = fOther
	r.line++
	r.state = stLineStart
	r.skipLF, r.blankCR = c == '\r', false
}
