package coherestream

// This file is structured in the following way:
//
//   - ErrMalformed and Read, the loop over a body's events;
//   - Reader, the step Read loops over: one event at a time, decoded and
//     checked whole (decode.go) and against the stream so far (the state
//     of each call) before it drives the Response.

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire"
	"github.com/argstream/argstream/wire/internal/adapter"
	"github.com/argstream/argstream/wire/sse"
)

// ErrMalformed is wrapped by the error of an event that is not what
// Cohere's v2 chat API documents, or that two readers of the stream (the
// official SDKs among them) could read differently: data that is not one
// JSON object, a member repeated or named in another case, an event name
// that is not the data's type, a tool call's delta before its start or
// after its end, a second start of one index. The whole response fails
// ([toolcall.Response.Fail]): no call of it is executable.
//
// It is [wire.ErrMalformed], the sentinel of every wire: [errors.Is] matches
// either.
var ErrMalformed = wire.ErrMalformed

// MaxSkip is how far ahead of the calls started so far a tool-call-start's
// index may be: Cohere numbers its calls 0, 1, 2..., and the Reader keeps
// the state of every index up to the highest started, so an index far
// ahead is malformed rather than memory spent on the indexes between.
const MaxSkip = 16

// Read reads the server-sent events of a Cohere v2 chat response (POST
// /v2/chat with "stream": true) from body to its end, and drives resp with
// its tool calls. It does not call resp.End: the caller does, to get the
// Results. See the package documentation for what is read and the errors
// returned.
//
// The options are [wire.OnText] and [wire.OnThinking]: OnText is called
// with the text of content-start and content-delta events, with the
// content's index; OnThinking with their thinking (reasoning models), with
// the content's index, and with the tool plan of tool-plan-delta events,
// at index 0.
func Read(ctx context.Context, body io.Reader, resp *toolcall.Response, opts ...wire.Option) error {
	return NewReader(resp, opts...).ReadEvents(ctx, sse.NewReader(body))
}

// ReadEvents reads the events of one stream from events to its end, as
// [Read] reads them from a body, into r's Response. A caller that reads
// many responses keeps r and events, and readies both for the next one
// with their Reset: then a response allocates only for its calls.
func (r *Reader) ReadEvents(ctx context.Context, events *sse.Reader) error {
	s := adapter.Stream{Name: "cohere", Last: "message-end", CompleteAtEOF: r.Ended, Malformed: ErrMalformed}
	return r.fail(adapter.Loop(ctx, events, s, func(ev sse.Event) (bool, error) {
		return false, r.Event(ev)
	}))
}

// A Reader reads the events of one Cohere v2 chat stream, one at a time,
// into a [toolcall.Response]: the step that [Read] loops over, for a caller
// that reads the events itself (a gateway that forwards them, a file that
// holds several responses one after the other). Give it every event of the
// stream, in order; [Reader.Ended] says when message-end has come, after
// which a stream that ends is complete.
//
// A Reader is for one goroutine. Its memory is reused from stream to stream
// with [Reader.Reset].
type Reader struct {
	cfg  adapter.Config
	resp *toolcall.Response
	dec  adapter.Decoder
	f    fields
	n    int64 // events read
	err  error // the first error: every later Event returns it

	begun   bool   // an event other than message-start came
	started bool   // message-start came
	ended   bool   // message-end came
	finish  []byte // message-end's finish_reason
	// calls holds the state of each tool call index up to the highest
	// started: calls[i] is a callState.
	calls   []callState
	open    int     // the calls started and not ended
	touched []int64 // the calls the last event concerned
	// ids holds the id of every call, so that two calls of one id, which a
	// tool message could not tell apart, are refused.
	ids map[string]struct{}
}

// callState is what the stream said of one tool call index.
type callState uint8

const (
	callNone    callState = iota // never started
	callStarted                  // started, no arguments yet
	callArgs                     // started, and some argument bytes came
	callEnded                    // tool-call-end came
)

// NewReader returns a [Reader] of one stream into resp, with [Read]'s options.
func NewReader(resp *toolcall.Response, opts ...wire.Option) *Reader {
	return &Reader{cfg: adapter.NewConfig(opts), resp: resp}
}

// Reset readies r for the next stream, into resp, keeping its memory and
// its options.
func (r *Reader) Reset(resp *toolcall.Response) {
	r.resp, r.n, r.err = resp, 0, nil
	r.begun, r.started, r.ended, r.finish = false, false, false, r.finish[:0]
	r.calls, r.open = r.calls[:0], 0
	r.touched = r.touched[:0]
	clear(r.ids)
}

// Ended reports whether the response has ended: message-end has come. A
// stream whose body ends after that is complete.
func (r *Reader) Ended() bool { return r.ended }

// FinishReason returns message-end's finish_reason ("COMPLETE",
// "TOOL_CALL", "MAX_TOKENS", "STOP_SEQUENCE"...); "" before
// [Reader.Ended].
func (r *Reader) FinishReason() string { return string(r.finish) }

// EventCalls returns the indexes of the calls the last event concerned:
// the call a tool-call-start, -delta or -end event started, fed or
// stopped. It is borrowed until the next [Reader.Event].
func (r *Reader) EventCalls() []int64 { return r.touched }

// Event reads one event of the stream and drives the Response with it. It
// returns a *[wire.ProviderError] for a message-end that reports an error,
// an error wrapping [ErrMalformed] (having failed the Response) for a
// malformed event, and the Response's own errors
// ([toolcall.ErrTooManyCalls], [toolcall.ErrEnded]). After an error, Event
// returns it again without reading anything.
func (r *Reader) Event(ev sse.Event) error {
	if r.err != nil {
		return r.err
	}
	r.n++
	r.touched = r.touched[:0]
	r.err = r.fail(r.event(ev))
	return r.err
}

// fail fails the Response for a malformed stream, and returns err.
func (r *Reader) fail(err error) error {
	return adapter.FailMalformed(r.resp, err, ErrMalformed)
}

// malformed wraps err, found in the current event.
func (r *Reader) malformed(err error) error {
	return fmt.Errorf("cohere: %w: event %d: %w", ErrMalformed, r.n, err)
}

// event handles one event: its data is decoded and checked whole before
// anything is done with it.
func (r *Reader) event(ev sse.Event) error {
	if r.ended {
		if ev.IsDone() {
			// Cohere ends its streams with data [DONE] (the Python SDK's
			// issue 730 quotes it), where cohere-go stops.
			return nil
		}
		return r.malformed(errors.New("an event after message-end"))
	}
	if err := r.parse(ev.Data); err != nil {
		return err
	}
	f := &r.f
	typ := f.typ.text
	switch {
	case !f.typ.ok || len(typ) == 0:
		return r.malformed(errors.New("/type is missing: the SDKs tell an event by it"))
	case len(ev.Type) > 0 && string(ev.Type) != string(typ):
		// Readers that go by the event field and readers that go by the
		// data (cohere-go, the Vercel AI SDK) would read another event.
		return r.malformed(fmt.Errorf("the event is named %q and its /type is %q", ev.Type, typ))
	}
	if string(typ) == "message-start" {
		return r.messageStart()
	}
	r.begun = true
	switch string(typ) {
	case "content-start", "content-delta":
		return r.content()
	case "tool-plan-delta":
		if f.toolPlan.ok && len(f.toolPlan.text) > 0 && r.cfg.OnThinking != nil {
			r.cfg.OnThinking(0, f.toolPlan.text)
		}
		return nil
	case "tool-call-start":
		return r.callStart()
	case "tool-call-delta":
		return r.callDelta()
	case "tool-call-end":
		return r.callEnd()
	case "message-end":
		return r.messageEnd()
	}
	// content-end, citation-start, citation-end, debug, and types to
	// come: checked (one JSON object), and ignored, as the SDKs do.
	return nil
}

// messageStart checks a message-start: first, once, with nothing in its
// message (a call or text in it would be one that streams to no event).
func (r *Reader) messageStart() error {
	f := &r.f
	switch {
	case r.started:
		return r.malformed(errors.New("a second message-start"))
	case r.begun:
		return r.malformed(errors.New("message-start after other events"))
	case f.callsItems > 0 || f.callsKind == '{':
		return r.malformed(errors.New("/delta/message/tool_calls of message-start is not empty"))
	case f.contentItems > 0 || f.contentKind == '{':
		return r.malformed(errors.New("/delta/message/content of message-start is not empty"))
	case len(f.toolPlan.text) > 0:
		return r.malformed(errors.New("/delta/message/tool_plan of message-start is not empty"))
	}
	r.started = true
	return nil
}

// content gives a content-start's or content-delta's text or thinking to
// the callbacks: one of the two, since a reader that goes by content-start's
// type would drop the other.
func (r *Reader) content() error {
	f := &r.f
	if f.contentKind == '[' {
		return r.malformed(fmt.Errorf("/delta/message/content of %s is an array, not an object", f.typ.text))
	}
	if f.text.ok && f.thinking.ok && len(f.text.text)+len(f.thinking.text) > 0 {
		return r.malformed(errors.New("/delta/message/content has both text and thinking"))
	}
	if len(f.text.text) > 0 && r.cfg.OnText != nil {
		r.cfg.OnText(f.index, f.text.text)
	}
	if len(f.thinking.text) > 0 && r.cfg.OnThinking != nil {
		r.cfg.OnThinking(f.index, f.thinking.text)
	}
	return nil
}

// callIndex checks the "index" of a tool-call event, which every one must
// have, and returns it.
func (r *Reader) callIndex() (int64, error) {
	if !r.f.hasIndex {
		return 0, r.malformed(fmt.Errorf("%s has no /index", r.f.typ.text))
	}
	return r.f.index, nil
}

// state returns the state of call i.
func (r *Reader) state(i int64) callState {
	if i < int64(len(r.calls)) {
		return r.calls[i]
	}
	return callNone
}

// touch records that the event concerns call i.
func (r *Reader) touch(i int64) { r.touched = append(r.touched, i) }

// callStart starts a call: a new index, its id, type "function", a name,
// and its first arguments if any.
func (r *Reader) callStart() error {
	f := &r.f
	i, err := r.callIndex()
	if err != nil {
		return err
	}
	switch {
	case r.state(i) != callNone:
		return r.malformed(fmt.Errorf("tool-call-start of call %d, started before", i))
	case i >= int64(len(r.calls))+MaxSkip:
		return r.malformed(fmt.Errorf("/index %d is more than %d ahead of the %d calls so far", i, MaxSkip, len(r.calls)))
	case f.callsKind != '{':
		return r.malformed(errors.New("/delta/message/tool_calls of tool-call-start is not an object"))
	case f.callType.ok && string(f.callType.text) != "function":
		return r.malformed(fmt.Errorf("%s is %q, not \"function\"", where("type"), f.callType.text))
	case !f.hasFunc || len(f.name.text) == 0:
		return r.malformed(fmt.Errorf("%s is missing or empty", where("function/name")))
	}
	if f.callID.ok && len(f.callID.text) > 0 {
		if _, dup := r.ids[string(f.callID.text)]; dup {
			return r.malformed(fmt.Errorf("%s %q is an earlier call's", where("id"), f.callID.text))
		}
	}
	for int64(len(r.calls)) <= i {
		r.calls = append(r.calls, callNone)
	}
	c := fragment.Call{Index: i, Name: string(f.name.text)}
	if len(f.callID.text) > 0 {
		c.ID = string(f.callID.text)
		if r.ids == nil {
			r.ids = map[string]struct{}{}
		}
		r.ids[c.ID] = struct{}{}
	}
	r.calls[i] = callStarted
	r.open++
	r.touch(i)
	// The arguments go as a Chunk, not as Start's input: "{}" there is
	// arguments like any other, where Start would take it for Anthropic's
	// placeholder; the SDKs append the deltas to it.
	if err := r.resp.Start(c, nil); err != nil {
		return err
	}
	return r.chunk(i)
}

// chunk feeds call i the arguments of the event, if any.
func (r *Reader) chunk(i int64) error {
	if len(r.f.args.text) == 0 {
		return nil
	}
	r.calls[i] = callArgs
	return r.resp.Chunk(i, r.f.args.text)
}

// callDelta feeds a started call the next piece of its arguments.
func (r *Reader) callDelta() error {
	f := &r.f
	i, err := r.callIndex()
	if err != nil {
		return err
	}
	switch s := r.state(i); {
	case s == callNone:
		return r.malformed(fmt.Errorf("tool-call-delta of call %d, never started", i))
	case s == callEnded:
		return r.malformed(fmt.Errorf("tool-call-delta of call %d after its tool-call-end", i))
	case f.callsKind != '{':
		return r.malformed(errors.New("/delta/message/tool_calls of tool-call-delta is not an object"))
	case len(f.callID.text) > 0 || len(f.name.text) > 0:
		// The SDKs read no id or name in a delta; a reader that merges
		// them (as Chat Completions' readers do) would see another call.
		return r.malformed(fmt.Errorf("tool-call-delta of call %d names an id or a function", i))
	}
	r.touch(i)
	return r.chunk(i)
}

// callEnd stops a started call; one that had no arguments at all gets {}
// (a function of no parameters: the SDKs give it an empty string, which
// the Vercel AI SDK reads as {}).
func (r *Reader) callEnd() error {
	i, err := r.callIndex()
	if err != nil {
		return err
	}
	switch r.state(i) {
	case callNone:
		return r.malformed(fmt.Errorf("tool-call-end of call %d, never started", i))
	case callEnded:
		return r.malformed(fmt.Errorf("a second tool-call-end of call %d", i))
	case callStarted:
		if err := r.resp.Chunk(i, emptyArgs); err != nil {
			return err
		}
	}
	r.calls[i] = callEnded
	r.open--
	r.touch(i)
	return r.resp.Stop(i)
}

// emptyArgs are the arguments of a call that had none.
var emptyArgs = []byte("{}")

// messageEnd ends the response: an error it reports is a ProviderError;
// MAX_TOKENS leaves the calls still open truncated; any other finish
// reason with a call still open is malformed.
func (r *Reader) messageEnd() error {
	f := &r.f
	if string(f.finish.text) == "ERROR" || len(f.errMsg.text) > 0 {
		return &wire.ProviderError{Wire: wire.Cohere, Type: string(f.finish.text), Message: string(f.errMsg.text)}
	}
	if r.open > 0 && string(f.finish.text) != "MAX_TOKENS" {
		return r.malformed(fmt.Errorf("message-end (finish_reason %q) while %d calls have had no tool-call-end", f.finish.text, r.open))
	}
	r.ended = true
	r.finish = append(r.finish[:0], f.finish.text...)
	if string(f.finish.text) == "MAX_TOKENS" {
		r.resp.Incomplete()
	}
	return nil
}
