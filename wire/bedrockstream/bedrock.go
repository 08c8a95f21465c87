package bedrockstream

// This file is structured in the following way:
//
//   - ErrMalformed and Read, the loop over a body's messages;
//   - Reader, the step Read loops over: one message at a time, its frame
//     checked (frame.go) and its payload decoded (decode.go) before it is
//     checked against the stream so far and drives the Response.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire"
	"github.com/argstream/argstream/wire/internal/adapter"
)

// ErrMalformed is wrapped by the error of a message that is not what the
// event stream encoding and the ConverseStream API define, or that two
// readers of the stream (the AWS SDKs among them) could read differently:
// a CRC that does not match, lengths that do not add up, a header repeated,
// missing, of an unknown value type or a known name in another case, a
// payload that is not one JSON object or has a member repeated or named in
// another case, a union with two members, blocks started twice, deltas or
// stops for blocks that do not fit them, anything but metadata after
// messageStop. The whole response fails ([toolcall.Response.Fail]): no call
// of it is executable.
//
// It is [wire.ErrMalformed], the sentinel of every wire: [errors.Is] matches
// either.
var ErrMalformed = wire.ErrMalformed

// Read reads the event stream of a Bedrock ConverseStream response
// (application/vnd.amazon.eventstream) from body to its end and drives resp
// with its tool calls. It does not call resp.End: the caller does, to get
// the Results. See the package documentation for the messages read and the
// errors returned.
//
// The options are [wire.OnText] and [wire.OnThinking], called with each
// text delta and reasoning text delta: the content block's index and its
// text.
func Read(ctx context.Context, body io.Reader, resp *toolcall.Response, opts ...wire.Option) error {
	return NewReader(resp, opts...).ReadBody(ctx, body)
}

// ReadBody reads the messages of one response's body to its end, as
// [Read] reads them, into r's Response, with a message buffer that r keeps
// from body to body. A caller that reads many responses keeps r, and
// readies it for the next one with Reset: then a response costs no
// allocation but its calls', whatever its messages' sizes. body is not
// kept past the call.
func (r *Reader) ReadBody(ctx context.Context, body io.Reader) error {
	r.frames = frames{body: body, buf: r.frames.buf}
	err := r.read(ctx, &r.frames)
	r.frames.body = nil
	return err
}

// read reads the messages of f to the end of its body with r, as Read
// does.
func (r *Reader) read(ctx context.Context, f *frames) error {
	var fe *frameError // out of the loop: errors.As moves it to the heap
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		b, err := f.next()
		switch {
		case err == io.EOF:
			if r.done {
				return nil
			}
			return fmt.Errorf("bedrock: stream ended before messageStop, after %d messages (%d bytes): %w", r.n, f.off, io.ErrUnexpectedEOF)
		case errors.Is(err, io.ErrUnexpectedEOF) && r.done:
			// Bytes after the response (a newline a recording's editor
			// added): no message, but no cut of the response either.
			return fmt.Errorf("bedrock: after messageStop, bytes that are no whole message: message %d (byte %d) %w", r.n+1, f.off, err)
		case errors.Is(err, io.ErrUnexpectedEOF):
			return fmt.Errorf("bedrock: stream ended before messageStop: message %d (byte %d) %w", r.n+1, f.off, err)
		case errors.As(err, &fe):
			r.n++
			r.off = f.off
			r.err = r.fail(r.malformed(fe.err))
			return r.err
		case err != nil:
			return fmt.Errorf("bedrock: message %d (byte %d): %w", r.n+1, f.off, err)
		}
		if err := r.Message(b); err != nil {
			return err
		}
		f.off += int64(len(b))
	}
}

// A Reader reads the messages of one ConverseStream stream, one at a time,
// into a [toolcall.Response]: the step that [Read] loops over, for a caller
// that cuts the messages itself (a gateway that forwards them, a file that
// holds several responses one after the other). Give it every message of
// the stream, in order; [Reader.Done] says when messageStop has come, after
// which only a metadata event may.
//
// A Reader is for one goroutine. Its memory is reused from stream to stream
// with [Reader.Reset].
type Reader struct {
	cfg  adapter.Config
	resp *toolcall.Response
	dec  adapter.Decoder
	msg  message
	n    int64 // messages read
	off  int64 // the byte offset of the current message in the stream
	next int64 // the byte offset of the next message
	err  error // the first error: every later Message returns it

	begun, done, meta bool
	stop              []byte               // messageStop's stopReason
	blocks            map[int64]blockState // the blocks seen, by index
	touched           []int64              // the calls the last message concerned

	// The fields of the payload being read; byte slices are reused.
	index    int64
	hasIndex bool
	start    blockKind // contentBlockStart's start member
	id, name []byte    // start's toolUse
	toolType []byte    // and its type: server_tool_use for a call the provider runs
	delta    blockKind // contentBlockDelta's delta member
	str      []byte    // the delta's text or input
	hasStr   bool
	members  int // the non-null members of the union being read

	// layout is the layout of the last contentBlockDelta payload that
	// fastBlock read (fast.go), kept the fields of it that fastSlot does
	// not read again.
	layout adapter.Layout
	kept   deltaKept
	deltas int    // the contentBlockDelta payloads of the stream so far
	errMsg []byte // an exception's message
	frames frames // ReadBody's, its buffer kept
}

// blockKind is what a content block is, for the deltas that may come for
// it, and what a start or delta member is.
type blockKind uint8

const (
	blockNone      blockKind = iota // no member
	blockOther                      // a member of a kind to come: ignored
	blockText                       // text
	blockReasoning                  // reasoningContent
	blockCall                       // toolUse
)

func (k blockKind) String() string {
	return [...]string{"none", "other", "text", "reasoningContent", "toolUse"}[k]
}

// blockState is a block's kind and whether its contentBlockStop came.
type blockState struct {
	kind    blockKind
	started bool // by a contentBlockStart, not by its first delta
	stopped bool
}

// NewReader returns a [Reader] of one stream into resp, with [Read]'s options.
func NewReader(resp *toolcall.Response, opts ...wire.Option) *Reader {
	return &Reader{cfg: adapter.NewConfig(opts), resp: resp, blocks: make(map[int64]blockState)}
}

// Reset readies r for the next stream, into resp, keeping its memory and
// its options.
func (r *Reader) Reset(resp *toolcall.Response) {
	r.resp, r.n, r.off, r.next, r.err = resp, 0, 0, 0, nil
	r.begun, r.done, r.meta = false, false, false
	r.stop = r.stop[:0]
	clear(r.blocks)
	r.touched = r.touched[:0]
}

// Done reports whether messageStop has come: a stream whose body ends after
// it is complete.
func (r *Reader) Done() bool { return r.done }

// StopReason returns messageStop's stopReason ("end_turn", "tool_use",
// "max_tokens"...), or "" before [Reader.Done].
func (r *Reader) StopReason() string { return string(r.stop) }

// EventCalls returns the indexes of the calls the last message concerned:
// started, fed, stopped. It is borrowed until the next [Reader.Message].
func (r *Reader) EventCalls() []int64 { return r.touched }

// Message reads one message of the stream, msg, whole (from its prelude to
// its message CRC, as the body holds it), and drives the Response with it.
// It returns a *[wire.ProviderError] for an exception or error message, an
// error wrapping [ErrMalformed] (having failed the Response) for a
// malformed message, and the Response's own errors
// ([toolcall.ErrTooManyCalls], [toolcall.ErrEnded]). After an error,
// Message returns it again without reading anything. msg is not kept.
func (r *Reader) Message(msg []byte) error {
	if r.err != nil {
		return r.err
	}
	r.n++
	r.off, r.next = r.next, r.next+int64(len(msg))
	r.touched = r.touched[:0]
	r.err = r.fail(r.message(msg))
	return r.err
}

// fail fails the Response for a malformed stream, and returns err.
func (r *Reader) fail(err error) error {
	return adapter.FailMalformed(r.resp, err, ErrMalformed)
}

// malformed wraps err, found in the current message.
func (r *Reader) malformed(err error) error {
	return fmt.Errorf("bedrock: %w: message %d (byte %d): %w", ErrMalformed, r.n, r.off, err)
}

// The event types of ConverseStream.
var eventTypes = [...]string{"messageStart", "contentBlockStart", "contentBlockDelta", "contentBlockStop", "messageStop", "metadata"}

func (r *Reader) message(b []byte) error {
	m := &r.msg
	if err := decode(b, m); err != nil {
		return r.malformed(err)
	}
	mt, ok := m.header(0)
	if !ok {
		return r.malformed(errors.New("no :message-type header"))
	}
	if ct, ok := m.header(2); ok && string(ct) != "application/json" && string(mt) != "error" {
		return r.malformed(fmt.Errorf(":content-type is %q, not application/json", ct))
	}
	switch string(mt) {
	case "event":
	case "exception":
		typ, ok := m.header(3)
		if !ok {
			return r.malformed(errors.New("an exception without an :exception-type header"))
		}
		return r.exception(typ, m.payload)
	case "error":
		code, _ := m.header(4)
		text, _ := m.header(5)
		return &wire.ProviderError{Wire: wire.Bedrock, Type: string(code), Message: string(text)}
	default:
		return r.malformed(fmt.Errorf(":message-type is %q, not event, exception or error", mt))
	}
	et, ok := m.header(1)
	if !ok {
		return r.malformed(errors.New("an event without an :event-type header"))
	}
	known := ""
	for _, e := range eventTypes {
		if string(et) == e {
			known = e
			break
		}
	}
	for _, e := range eventTypes {
		// aws-sdk-go-v2 matches event types under case folding: a
		// "ContentBlockDelta" would be read by some SDKs and not others.
		if known == "" && strings.EqualFold(string(et), e) {
			return r.malformed(fmt.Errorf(":event-type %q is %s in another case", et, e))
		}
	}
	if err := r.parse(known, m.payload); err != nil {
		return r.malformed(err)
	}
	if r.done && known != "metadata" {
		return r.malformed(fmt.Errorf("a %s event after messageStop", et))
	}
	if !r.begun && known != "messageStart" {
		if known == "" {
			return nil // event types to come
		}
		return r.malformed(fmt.Errorf("a %s event before messageStart", known))
	}
	switch known {
	case "messageStart":
		if r.begun {
			return r.malformed(errors.New("a second messageStart"))
		}
		r.begun = true
	case "contentBlockStart":
		return r.blockStart()
	case "contentBlockDelta":
		return r.blockDelta()
	case "contentBlockStop":
		return r.blockStop()
	case "messageStop":
		r.done = true
		if string(r.stop) == "max_tokens" {
			r.resp.Incomplete()
		}
	case "metadata":
		if r.meta {
			return r.malformed(errors.New("a second metadata event"))
		}
		r.meta = true
	}
	return nil // event types to come
}

// exception returns the error of an exception message.
func (r *Reader) exception(typ, payload []byte) error {
	if err := r.parse("exception", payload); err != nil {
		// Its payload is not what an exception's is: the payload is its
		// message, as it came.
		return &wire.ProviderError{Wire: wire.Bedrock, Type: string(typ), Message: string(payload)}
	}
	return &wire.ProviderError{Wire: wire.Bedrock, Type: string(typ), Message: string(r.errMsg)}
}

var errNoIndex = errors.New("no contentBlockIndex")

func (r *Reader) blockStart() error {
	if !r.hasIndex {
		return r.malformed(errNoIndex)
	}
	if _, seen := r.blocks[r.index]; seen {
		return r.malformed(fmt.Errorf("contentBlockStart for block %d, which has begun", r.index))
	}
	kind := r.start
	if kind == blockNone {
		kind = blockOther
	}
	r.blocks[r.index] = blockState{kind: kind, started: true}
	if kind != blockCall {
		return nil
	}
	if len(r.id) == 0 || len(r.name) == 0 {
		return r.malformed(fmt.Errorf("block %d's toolUse has no toolUseId or no name", r.index))
	}
	r.touched = append(r.touched, r.index)
	c := fragment.Call{Index: r.index, ID: string(r.id), Name: string(r.name), Server: string(r.toolType) == "server_tool_use"}
	return r.resp.Start(c, noInput)
}

// noInput is the input of a call when it starts: Bedrock states none, and
// a call whose input has no delta was made with no input, its arguments
// {} (as Converse, which does not stream, writes it, and as clients of
// the stream read it). It is Start's placeholder: the deltas replace it.
var noInput = []byte("{}")

func (r *Reader) blockDelta() error {
	if !r.hasIndex {
		return r.malformed(errNoIndex)
	}
	if r.delta == blockNone || r.delta == blockOther && !r.hasStr {
		// No member (the SDKs read a nil delta), or one of a kind to come
		// (citations...): ignored, as the block's kind is not known.
		if b, seen := r.blocks[r.index]; seen && b.stopped {
			return r.malformed(fmt.Errorf("a delta for block %d, which has stopped", r.index))
		}
		return nil
	}
	b, seen := r.blocks[r.index]
	switch {
	case seen && b.stopped:
		return r.malformed(fmt.Errorf("a %s delta for block %d, which has stopped", r.delta, r.index))
	case !seen && r.delta == blockCall:
		return r.malformed(fmt.Errorf("a toolUse delta for block %d, which has not started", r.index))
	case !seen:
		// Text and reasoning blocks have no contentBlockStart: their
		// first delta begins them.
		b = blockState{kind: r.delta}
		r.blocks[r.index] = b
	case b.kind != r.delta:
		return r.malformed(fmt.Errorf("a %s delta for block %d, a block of kind %s", r.delta, r.index, b.kind))
	}
	if !r.hasStr {
		return nil // a reasoning signature, redacted reasoning
	}
	switch r.delta {
	case blockCall:
		r.touched = append(r.touched, r.index)
		return r.resp.Chunk(r.index, r.str)
	case blockText:
		if r.cfg.OnText != nil {
			r.cfg.OnText(r.index, r.str)
		}
	case blockReasoning:
		if r.cfg.OnThinking != nil {
			r.cfg.OnThinking(r.index, r.str)
		}
	}
	return nil
}

func (r *Reader) blockStop() error {
	if !r.hasIndex {
		return r.malformed(errNoIndex)
	}
	b, seen := r.blocks[r.index]
	switch {
	case !seen:
		return r.malformed(fmt.Errorf("contentBlockStop for block %d, which has not begun", r.index))
	case b.stopped:
		return r.malformed(fmt.Errorf("a second contentBlockStop for block %d", r.index))
	}
	b.stopped = true
	r.blocks[r.index] = b
	if b.kind != blockCall {
		return nil
	}
	r.touched = append(r.touched, r.index)
	return r.resp.Stop(r.index)
}
