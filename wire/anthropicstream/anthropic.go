package anthropicstream

// This file is structured in the following way:
//
//   - ErrMalformed and Read, the loop over a body's events;
//   - Reader, the step Read loops over: one event at a time, each checked
//     against the stream so far (the order of blocks, the kind of each
//     delta) before it drives the Response;
//   - the decoding of an event's data into the Reader's reused fields: a
//     fast path for the deltas and the events without payload, in any
//     layout (wire/internal/adapter's Members and Layout), and the token
//     decoder for everything else.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire"
	"github.com/argstream/argstream/wire/internal/adapter"
	"github.com/argstream/argstream/wire/sse"
	"github.com/go-json-experiment/json/jsontext"
)

// ErrMalformed is wrapped by the error of an event that is not what the
// Messages API documents, or that two readers of the stream (the official
// SDKs among them) could read differently: data that is not a JSON object,
// a member repeated, of the wrong kind or of a name in another case, an
// event name that is not the data's type, blocks out of order, a delta for
// a block it does not fit, an event before message_start or after
// message_stop. The whole response fails ([toolcall.Response.Fail]): no call
// of it is executable.
//
// It is [wire.ErrMalformed], the sentinel of every wire: [errors.Is] matches
// either.
var ErrMalformed = wire.ErrMalformed

// Read reads the server-sent events of an Anthropic Messages streaming
// response from body to its end and drives resp with its tool calls. It
// does not call resp.End: the caller does, to get the Results. See the
// package documentation for the events read and the errors returned.
//
// The options are [wire.OnText] and [wire.OnThinking], called with each
// text_delta and thinking_delta: the content block's index and its text.
func Read(ctx context.Context, body io.Reader, resp *toolcall.Response, opts ...wire.Option) error {
	return NewReader(resp, opts...).ReadEvents(ctx, sse.NewReader(body))
}

// ReadEvents reads the events of one stream from events to its end, as
// [Read] reads them from a body, into r's Response. A caller that reads
// many responses keeps r and events, and readies both for the next one
// with their Reset: then a response costs no allocation but its calls'.
func (r *Reader) ReadEvents(ctx context.Context, events *sse.Reader) error {
	s := adapter.Stream{Name: "anthropic", Last: "message_stop", CompleteAtEOF: r.Ended, Malformed: ErrMalformed}
	return r.fail(adapter.Loop(ctx, events, s, func(ev sse.Event) (bool, error) {
		return false, r.Event(ev)
	}))
}

// A Reader reads the events of one Messages stream, one at a time, into a
// [toolcall.Response]: the step that [Read] loops over, for a caller that reads
// the events itself (a gateway that forwards them, a file that holds several
// responses one after the other). Give it every event of the stream, in
// order; [Reader.Done] says when message_stop has come, after which any event
// but a ping is malformed.
//
// A Reader is for one goroutine. Its memory is reused from stream to stream
// with [Reader.Reset].
type Reader struct {
	cfg  adapter.Config
	resp *toolcall.Response
	dec  adapter.Decoder
	// layout is the layout of the last event fastRead read, kept the
	// fields of that event that restore sets again.
	layout adapter.Layout
	kept   keptFields
	n      int64 // events read
	err    error // the first error: every later Event returns it

	begun, done bool        // message_start, message_stop came
	stopped     bool        // a message_delta with a stop_reason came
	blocks      []blockKind // each content block's kind, by index
	touched     []int64     // the calls the last event concerned

	// The fields of the event being read; byte slices are reused. typ,
	// deltaType and stop are read into own's memory, or set again from
	// kept's (not copied) by restore, for the events of the layout learned.
	typ       []byte
	evType    eventType // read from typ when needed, or kept
	index     int64
	hasIndex  bool
	blockType []byte
	id        []byte
	name      []byte
	input     []byte
	hasInput  bool // an "input" member
	deltaType []byte
	want      blockKind // the kind of block of deltaType, if hasWant
	hasWant   bool
	str       []byte // partial_json, text or thinking, unquoted
	hasStr    bool
	stop      []byte // message_delta's stop_reason
	errType   []byte
	errMsg    []byte
	content   []wholeBlock // message_start's content
	own       struct{ typ, deltaType, stop []byte }
}

// blockKind is what a content block is, for the deltas that may come for
// it.
type blockKind uint8

const (
	blockOther    blockKind = iota // a block of a type to come: its deltas are ignored
	blockText                      // text: text_delta
	blockThinking                  // thinking: thinking_delta
	blockCall                      // tool_use, server_tool_use, mcp_tool_use: input_json_delta
)

func kindOf(typ []byte) blockKind {
	switch string(typ) {
	case "text":
		return blockText
	case "thinking":
		return blockThinking
	case "tool_use", "server_tool_use", "mcp_tool_use":
		return blockCall
	}
	return blockOther
}

// wholeBlock is a block of message_start's content.
type wholeBlock struct {
	kind               blockKind
	typ, id, name, in  string
	hasInput, isServer bool
}

// NewReader returns a [Reader] of one stream into resp, with [Read]'s options.
func NewReader(resp *toolcall.Response, opts ...wire.Option) *Reader {
	return &Reader{cfg: adapter.NewConfig(opts), resp: resp}
}

// Reset readies r for the next stream, into resp, keeping its memory and
// its options.
func (r *Reader) Reset(resp *toolcall.Response) {
	r.resp, r.n, r.err = resp, 0, nil
	r.begun, r.done, r.stopped = false, false, false
	r.touched = r.touched[:0]
	r.blocks = r.blocks[:0]
}

// Done reports whether message_stop has come.
func (r *Reader) Done() bool { return r.done }

// Ended reports whether the message has ended: message_stop has come, or a
// message_delta with a stop_reason, after which only message_stop may. A
// stream whose body ends after that, even in an event cut off (which the
// SDKs drop, as the SSE spec does), is complete, as a Chat Completions
// stream is after its finish_reason.
func (r *Reader) Ended() bool { return r.done || r.stopped }

// Event reads one event of the stream and drives the Response with it. It
// returns a *[wire.ProviderError] for an error event, an error wrapping
// [ErrMalformed] (having failed the Response) for a malformed one, and the
// Response's own errors ([toolcall.ErrTooManyCalls], [toolcall.ErrEnded]).
// After an error, Event returns it again without reading anything.
func (r *Reader) Event(ev sse.Event) error {
	if r.err != nil {
		return r.err
	}
	r.n++
	r.touched = r.touched[:0]
	r.err = r.fail(r.event(ev))
	return r.err
}

// EventCalls returns the indexes of the calls the last event concerned:
// started, fed, stopped. It is borrowed until the next [Reader.Event].
func (r *Reader) EventCalls() []int64 { return r.touched }

// fail fails the Response for a malformed stream, and returns err.
func (r *Reader) fail(err error) error {
	return adapter.FailMalformed(r.resp, err, ErrMalformed)
}

func (r *Reader) event(ev sse.Event) error {
	if err := r.parse(ev.Data); err != nil {
		if string(ev.Type) == "error" {
			return &wire.ProviderError{Wire: wire.Anthropic, Message: string(ev.Data)}
		}
		return err
	}
	// Both official SDKs skip an event without a name; the SDKs of other
	// providers' formats read the data's type alone: the two must agree.
	if !bytes.Equal(ev.Type, r.typ) {
		return r.malformed(fmt.Errorf("an event named %q holds data of type %q", ev.Type, r.typ))
	}
	if r.evType == evUnread {
		r.evType = eventTypeOf(r.typ)
	}
	if r.evType == evPing {
		// Both SDKs skip a ping unread, but a reader that goes by the
		// data's type reads it too: its data is checked as any event's,
		// and it may come anywhere.
		return nil
	}
	if r.evType == evError {
		return r.providerError()
	}
	if r.done {
		return r.malformed(fmt.Errorf("a %s event after message_stop", r.typ))
	}
	if !r.begun && r.evType != evMessageStart {
		return r.malformed(fmt.Errorf("a %s event before message_start", r.typ))
	}
	switch r.evType {
	case evMessageStart:
		return r.messageStart()
	case evBlockStart:
		return r.blockStart()
	case evBlockDelta:
		return r.blockDelta()
	case evBlockStop:
		kind, err := r.block()
		if err != nil {
			return err
		}
		if kind == blockCall {
			r.touched = append(r.touched, r.index)
		}
		return r.resp.Stop(r.index)
	case evMessageDelta:
		r.stopped = r.stopped || len(r.stop) > 0
		switch string(r.stop) {
		case "max_tokens", "model_context_window_exceeded":
			r.resp.Incomplete()
		}
	case evMessageStop:
		r.done = true
	}
	return nil // event types to come
}

// eventType is the type of an event's data, read from its bytes once: by
// eventTypeOf, or set again with the layout's kept fields.
type eventType uint8

const (
	evUnread eventType = iota // not read from the type yet
	evOther                   // a type to come
	evPing
	evError
	evMessageStart
	evBlockStart
	evBlockDelta
	evBlockStop
	evMessageDelta
	evMessageStop
)

func eventTypeOf(typ []byte) eventType {
	switch string(typ) {
	case "ping":
		return evPing
	case "error":
		return evError
	case "message_start":
		return evMessageStart
	case "content_block_start":
		return evBlockStart
	case "content_block_delta":
		return evBlockDelta
	case "content_block_stop":
		return evBlockStop
	case "message_delta":
		return evMessageDelta
	case "message_stop":
		return evMessageStop
	}
	return evOther
}

// messageStart starts the stream. Its message's content is empty but when
// a response continues a container's programmatic tool calls: then the
// tool calls the code made come whole in it, with no content_block events,
// and each is a call, started and stopped at its position.
func (r *Reader) messageStart() error {
	if r.begun {
		return r.malformed(errors.New("a second message_start"))
	}
	r.begun = true
	for i, b := range r.content {
		r.blocks = append(r.blocks, b.kind)
		if b.kind != blockCall {
			continue
		}
		var in []byte
		if b.hasInput {
			if b.in[0] != '{' {
				return r.malformed(fmt.Errorf("/message/content/%d/input is %s, not an object", i, b.in))
			}
			in = []byte(b.in)
		}
		c := fragment.Call{Index: int64(i), ID: b.id, Name: b.name, Server: b.isServer}
		r.touched = append(r.touched, c.Index)
		if err := r.resp.Start(c, in); err != nil {
			return err
		}
		if err := r.resp.Stop(int64(i)); err != nil {
			return err
		}
	}
	return nil
}

// blockStart starts the next content block, which must come at the next
// index: a block started twice, or out of order, is read differently by
// the SDKs (anthropic-sdk-go fails, others append it).
func (r *Reader) blockStart() error {
	if !r.hasIndex {
		return r.malformed(errNoIndex)
	}
	if r.index != int64(len(r.blocks)) {
		return r.malformed(fmt.Errorf("content_block_start at index %d, where the next block is %d", r.index, len(r.blocks)))
	}
	kind := kindOf(r.blockType)
	r.blocks = append(r.blocks, kind)
	if kind != blockCall {
		return nil
	}
	var in []byte
	if r.hasInput {
		// A null or another kind would be appended to by some SDKs and
		// replaced by others.
		if r.input[0] != '{' {
			return r.malformed(fmt.Errorf("/content_block/input is %s, not an object", r.input))
		}
		in = r.input
	}
	r.touched = append(r.touched, r.index)
	return r.resp.Start(r.call(r.index), in)
}

// block returns the kind of the block of the event's index, which must
// have started.
func (r *Reader) block() (blockKind, error) {
	switch {
	case !r.hasIndex:
		return 0, r.malformed(errNoIndex)
	case r.index >= int64(len(r.blocks)):
		return 0, r.malformed(fmt.Errorf("an event for block %d, which has not started", r.index))
	}
	return r.blocks[r.index], nil
}

func (r *Reader) blockDelta() error {
	kind, err := r.block()
	if err != nil || !r.hasStr {
		return err
	}
	if !r.hasWant {
		r.want, r.hasWant = deltaKindOf(r.deltaType), true
	}
	want := r.want
	if want == blockOther {
		return nil // signatures, citations, deltas to come
	}
	if kind != want {
		return r.malformed(fmt.Errorf("a %s for block %d, which is not of its kind", r.deltaType, r.index))
	}
	switch want {
	case blockCall:
		r.touched = append(r.touched, r.index)
		return r.resp.Chunk(r.index, r.str)
	case blockText:
		if r.cfg.OnText != nil {
			r.cfg.OnText(r.index, r.str)
		}
	case blockThinking:
		if r.cfg.OnThinking != nil {
			r.cfg.OnThinking(r.index, r.str)
		}
	}
	return nil
}

// deltaKindOf returns the kind of block that a delta of type typ is for,
// blockOther for the types of deltas it ignores.
func deltaKindOf(typ []byte) blockKind {
	switch string(typ) {
	case "input_json_delta":
		return blockCall
	case "text_delta":
		return blockText
	case "thinking_delta":
		return blockThinking
	}
	return blockOther
}

// call is the identity of the tool block just read, at index.
func (r *Reader) call(index int64) fragment.Call {
	return fragment.Call{Index: index, ID: string(r.id), Name: string(r.name), Server: string(r.blockType) != "tool_use"}
}

func (r *Reader) providerError() error {
	return &wire.ProviderError{Wire: wire.Anthropic, Type: string(r.errType), Message: string(r.errMsg)}
}

var errNoIndex = errors.New("no index")

// malformed wraps err, found in the data of the current event.
func (r *Reader) malformed(err error) error {
	return fmt.Errorf("anthropic: %w: event %d: %w", ErrMalformed, r.n, err)
}

// parse decodes the fields of one event's data into r.
func (r *Reader) parse(data []byte) error {
	r.reset()
	if r.fastDelta(data) {
		return nil
	}
	r.reset() // of what fastDelta read before it declined
	return r.parseSlow(data)
}

// reset empties the fields of the event, keeping their memory.
func (r *Reader) reset() {
	r.typ, r.evType = r.own.typ[:0], evUnread
	r.index, r.hasIndex = 0, false
	r.blockType, r.id, r.name, r.input, r.hasInput = r.blockType[:0], r.id[:0], r.name[:0], r.input[:0], false
	r.deltaType, r.hasWant, r.str, r.hasStr, r.stop = r.own.deltaType[:0], false, r.str[:0], false, r.own.stop[:0]
	r.errType, r.errMsg = r.errType[:0], r.errMsg[:0]
	r.content = r.content[:0]
}

// The member names of the objects an event's data holds.
var (
	rootNames  = adapter.Names{"type", "index", "content_block", "message", "delta", "error"}
	blockNames = adapter.Names{"type", "id", "name", "input"}
	msgNames   = adapter.Names{"content"}
	deltaNames = adapter.Names{"type", "partial_json", "text", "thinking", "stop_reason"}
	errNames   = adapter.Names{"type", "message"}
)

// parseSlow decodes data token by token with r.dec; parse has reset r's
// fields.
func (r *Reader) parseSlow(data []byte) error {
	r.dec.Reset(data)
	if err := r.dec.Root(rootNames, r.field); err != nil {
		return r.malformed(err)
	}
	if len(r.typ) == 0 {
		return r.malformed(errors.New("no type"))
	}
	return nil
}

// fastDelta reads data, for parse, as parseSlow would, if it is an event
// whose members the fast path reads: of the layout learned from the event
// before (adapter.Layout), or else read by fastRead, whose layout it then
// learns. It reports false on anything else: then parse resets r's fields
// and parseSlow reads data, and its answer is the answer. When it reports
// true, r holds what parseSlow would have read.
func (r *Reader) fastDelta(data []byte) bool {
	r.restore()
	if r.layout.Match(data, func(id uint8, i int) int { return r.fastSlot(id, data, i) }) {
		return true
	}
	r.reset() // of what Match read before it stopped
	r.layout.Begin()
	if !r.fastRead(data) {
		r.layout.Forget()
		return false
	}
	if r.layout.Learn(data) {
		r.kept = keptFields{append(r.kept.typ[:0], r.typ...), append(r.kept.deltaType[:0], r.deltaType...),
			append(r.kept.stop[:0], r.stop...), r.index, r.hasIndex, eventTypeOf(r.typ), deltaKindOf(r.deltaType), true}
	}
	return true
}

// restore sets the fields that fastSlot reads as adapter.Restored values
// as the event whose layout r.layout learned had them, for Match, which
// reads those that are slots over them (or, before any layout is learned,
// as reset leaves them). The memory of typ, deltaType and stop is kept's,
// not copied: fastSlot reads them, if they are slots, into own's.
func (r *Reader) restore() {
	r.typ, r.evType = r.kept.typ, r.kept.evType
	r.index, r.hasIndex = r.kept.index, r.kept.hasIndex
	r.deltaType, r.want, r.hasWant = r.kept.deltaType, r.kept.want, r.kept.hasWant
	r.stop = r.kept.stop
}

// keptFields are the fields of the event whose layout r.layout learned that
// restore sets again (adapter.Restored).
type keptFields struct {
	typ, deltaType, stop []byte
	index                int64
	hasIndex             bool
	// What the event's type and delta type are, read from them once.
	evType  eventType
	want    blockKind
	hasWant bool
}

// fastRead reads data with the adapters' shared byte scanner
// ([adapter.Members]: members in any order, white space between tokens,
// escapes in strings, members of any kind it does not know skipped), if it
// is an object of "type" (a string), "index" (an index of up to 15 digits)
// and "delta" (an object of "type", one of "partial_json", "text" and
// "thinking", and "stop_reason"; other members skipped), as
// content_block_delta, content_block_stop, message_delta and message_stop
// have them, each value read by fastSlot. It reports false on anything
// else: content_block, message or error, a repeated member, a value of
// another kind, and what adapter.Members declines.
func (r *Reader) fastRead(data []byte) bool {
	ok := adapter.FastRoot(data, rootNames, func(name []byte, i int) int {
		switch string(name) {
		case "type":
			return r.fastSlot(slotType, data, i)
		case "index":
			return r.fastSlot(slotIndex, data, i)
		case "delta":
			// Read as deltaField reads it.
			return adapter.Members(data, i, deltaNames, func(name []byte, i int) int {
				switch string(name) {
				case "type":
					return r.fastSlot(slotDeltaType, data, i)
				case "partial_json", "text", "thinking":
					return r.fastSlot(slotStr, data, i)
				case "stop_reason":
					return r.fastSlot(slotStop, data, i)
				}
				return r.fastSlot(slotSkip, data, i)
			})
		case "content_block", "message", "error":
			return -1
		}
		return r.fastSlot(slotSkip, data, i)
	})
	return ok && len(r.typ) > 0
}

// The values of an event that fastSlot reads.
const (
	slotSkip      uint8 = iota // a member's value that is not read
	slotType                   // the event's type
	slotIndex                  // its index
	slotDeltaType              // its delta's type
	slotStr                    // its delta's partial_json, text or thinking
	slotStop                   // its delta's stop_reason
)

// fastSlot reads the value id at data[i:] into r as parseSlow reads it,
// records it for the layout, and returns the index of the byte after it,
// or -1 where parseSlow would fail or the fast path does not read it. The
// values it reads but the string are adapter.Restored: read over what
// restore set, with the kinds taken of them read again.
func (r *Reader) fastSlot(id uint8, data []byte, i int) (j int) {
	kind := adapter.Restored
	switch id {
	case slotType:
		r.own.typ, j = adapter.Unquote(r.own.typ, data, i)
		if r.typ, r.evType = r.own.typ, evUnread; len(r.typ) == 0 {
			j = -1 // parseSlow's error: no type
		}
	case slotIndex:
		j = adapter.ReadIndex(data, i, &r.index, &r.hasIndex)
	case slotDeltaType:
		r.own.deltaType, j = adapter.Unquote(r.own.deltaType, data, i)
		r.deltaType, r.hasWant = r.own.deltaType, false
	case slotStr:
		if r.hasStr {
			return -1 // parseSlow's error: two of them
		}
		r.str, j = adapter.Unquote(r.str, data, i)
		r.hasStr, kind = true, adapter.Read
	case slotStop:
		r.own.stop, _, j = adapter.NullableString(r.own.stop, data, i)
		r.stop = r.own.stop
	default:
		j, kind = adapter.Skip(data, i), adapter.Skipped
	}
	return r.layout.Record(id, kind, i, j)
}

func (r *Reader) field(key []byte) (err error) {
	switch string(key) {
	case "type":
		r.own.typ, err = r.dec.String(r.own.typ)
		r.typ = r.own.typ
	case "index":
		r.index, err = r.dec.Index()
		r.hasIndex = err == nil
	case "content_block":
		err = r.dec.Object(blockNames, r.blockField)
	case "message":
		err = r.dec.Object(msgNames, r.messageField)
	case "delta":
		err = r.dec.Object(deltaNames, r.deltaField)
	case "error":
		err = r.dec.Object(errNames, r.errorField)
	default:
		err = r.dec.Skip()
	}
	return err
}

// messageField reads the content of message_start's message, which is
// kept whole (it comes once per stream) for messageStart.
func (r *Reader) messageField(key []byte) error {
	if string(key) != "content" {
		return r.dec.Skip()
	}
	return r.dec.Array(func(int) error {
		r.blockType, r.id, r.name, r.input, r.hasInput = r.blockType[:0], r.id[:0], r.name[:0], r.input[:0], false
		if err := r.dec.Object(blockNames, r.blockField); err != nil {
			return err
		}
		r.content = append(r.content, wholeBlock{kind: kindOf(r.blockType), typ: string(r.blockType),
			id: string(r.id), name: string(r.name), in: string(r.input), hasInput: r.hasInput,
			isServer: string(r.blockType) != "tool_use"})
		return nil
	})
}

func (r *Reader) blockField(key []byte) (err error) {
	switch string(key) {
	case "type":
		r.blockType, err = r.dec.String(r.blockType)
	case "id":
		r.id, err = r.dec.String(r.id)
	case "name":
		r.name, err = r.dec.String(r.name)
	case "input":
		var v jsontext.Value
		if v, err = r.dec.Value(); err == nil {
			r.input, r.hasInput = append(r.input[:0], v...), true
		}
	default:
		err = r.dec.Skip()
	}
	return err
}

func (r *Reader) deltaField(key []byte) (err error) {
	switch string(key) {
	case "type":
		r.own.deltaType, err = r.dec.String(r.own.deltaType)
		r.deltaType = r.own.deltaType
	case "partial_json", "text", "thinking":
		if r.hasStr {
			return fmt.Errorf("/delta holds two of partial_json, text and thinking")
		}
		r.str, err = r.dec.String(r.str)
		r.hasStr = err == nil
	case "stop_reason":
		r.own.stop, _, err = r.dec.NullableString(r.own.stop)
		r.stop = r.own.stop
	default:
		err = r.dec.Skip()
	}
	return err
}

func (r *Reader) errorField(key []byte) (err error) {
	switch string(key) {
	case "type":
		r.errType, err = r.dec.String(r.errType)
	case "message":
		r.errMsg, err = r.dec.String(r.errMsg)
	default:
		err = r.dec.Skip()
	}
	return err
}
