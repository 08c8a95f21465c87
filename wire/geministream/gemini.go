package geministream

// This file is structured in the following way:
//
//   - ErrMalformed and Read, the loop over a body's events;
//   - Reader, the step Read loops over: one event at a time, decoded and
//     checked whole (decode.go) before it drives the Response.

import (
	"context"
	"fmt"
	"io"

	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire"
	"github.com/argstream/argstream/wire/internal/adapter"
	"github.com/argstream/argstream/wire/sse"
)

// ErrMalformed is wrapped by the error of an event that is not what the
// Gemini API documents, or that two readers of the stream (the official
// SDKs among them) could read differently: data that is not one JSON
// object, a member repeated, of the wrong kind, or named in another case
// or spelling, an event name, a function call in a candidate other than
// 0, a function call without a name. The whole response fails
// ([toolcall.Response.Fail]): no call of it is executable.
//
// It is [wire.ErrMalformed], the sentinel of every wire: [errors.Is] matches
// either.
var ErrMalformed = wire.ErrMalformed

// Read reads the server-sent events of a Gemini API (or Vertex AI)
// streamGenerateContent response, requested with alt=sse, from body to its
// end, and drives resp with the function calls of candidate 0. It does not
// call resp.End: the caller does, to get the Results. See the package
// documentation for what is read and the errors returned.
//
// The options are [wire.OnText] and [wire.OnThinking], called with the text
// of each text part of candidate 0, thought parts going to OnThinking: the
// candidate's index (0) and the text.
func Read(ctx context.Context, body io.Reader, resp *toolcall.Response, opts ...wire.Option) error {
	return NewReader(resp, opts...).ReadEvents(ctx, sse.NewReader(body))
}

// ReadEvents reads the events of one stream from events to its end, as
// [Read] reads them from a body, into r's Response. A caller that reads
// many responses keeps r and events, and readies both for the next one
// with their Reset: then a response allocates only for its calls.
func (r *Reader) ReadEvents(ctx context.Context, events *sse.Reader) error {
	s := adapter.Stream{Name: "gemini", Last: "a finishReason", CompleteAtEOF: r.Ended, Malformed: ErrMalformed}
	return r.fail(adapter.Loop(ctx, events, s, func(ev sse.Event) (bool, error) {
		return false, r.Event(ev)
	}))
}

// A Reader reads the events of one streamGenerateContent stream, one at a
// time, into a [toolcall.Response]: the step that [Read] loops over, for a
// caller that reads the events itself (a gateway that forwards them, a file
// that holds several responses one after the other). Give it every event
// of the stream, in order; [Reader.Ended] says when candidate 0 has had its
// finishReason, after which a stream that ends is complete.
//
// A Reader is for one goroutine. Its memory is reused from stream to stream
// with [Reader.Reset].
type Reader struct {
	cfg  adapter.Config
	resp *toolcall.Response
	dec  adapter.Decoder
	n    int64 // events read
	err  error // the first error: every later Event returns it

	ended   bool    // candidate 0 had a finishReason, or the prompt was blocked
	finish  []byte  // candidate 0's finishReason, or the prompt's blockReason
	calls   int64   // the function calls so far: the next call's index
	touched []int64 // the calls the last event concerned
	// ids holds the id of every call that had one, so that two calls of
	// one id, which a functionResponse could not tell apart, are refused.
	ids map[string]struct{}

	// The fields of the event being read; byte slices are reused.
	hasError   bool // the data has an "error" member
	errCode    []byte
	errMessage []byte
	errStatus  []byte
	block      []byte    // promptFeedback's blockReason
	candPos    int       // the position in "candidates" of the candidate being read
	cur        candidate // the candidate being read
	chosen     candidate // candidate 0, if hasChosen
	hasChosen  bool
	scratch    []byte
	pargPos    int // the position of the partialArg being read

	// args builds the JSON text of the arguments of the call that streams
	// them, if any (args.open).
	args builder
}

// candidate is one element of a response's "candidates".
type candidate struct {
	index  int64
	finish []byte
	parts  []part // parts[:n] are this event's
	n      int
	calls  int // the function call parts among them
}

// part is one element of a candidate's content's "parts".
type part struct {
	kind     partKind
	thought  bool         // a text part that is thinking
	text     []byte       // a text part's text
	name, id []byte       // a function call's
	args     []byte       // a function call's args object, as it came; empty if none
	whole    []byte       // or, read by the fast path, that object in the event's data
	hasArgs  bool         // a function call with args (not null)
	partial  bool         // a function call with partialArgs (not null)
	more     bool         // a function call with willContinue true
	pargs    []partialArg // a function call's partialArgs: pargs[:np]
	np       int

	// Set by check, for a function call part:
	begins bool  // it begins a call (it has a name)
	ends   bool  // it ends its call: a whole call, or the last part of a streamed one
	index  int64 // its call's index
}

type partKind uint8

const (
	partOther partKind = iota // inline data, code, a thought signature alone...
	partText
	partCall
)

// NewReader returns a [Reader] of one stream into resp, with [Read]'s options.
func NewReader(resp *toolcall.Response, opts ...wire.Option) *Reader {
	return &Reader{cfg: adapter.NewConfig(opts), resp: resp}
}

// Reset readies r for the next stream, into resp, keeping its memory and
// its options.
func (r *Reader) Reset(resp *toolcall.Response) {
	r.resp, r.n, r.err = resp, 0, nil
	r.ended, r.finish, r.calls = false, r.finish[:0], 0
	r.touched = r.touched[:0]
	clear(r.ids)
	r.args.reset()
}

// Ended reports whether the response has ended: candidate 0 has had a
// finishReason, or promptFeedback a blockReason. A stream whose body ends
// after that is complete: Gemini sends nothing like [DONE].
func (r *Reader) Ended() bool { return r.ended }

// FinishReason returns candidate 0's finishReason ("STOP", "MAX_TOKENS",
// "SAFETY"...), or promptFeedback's blockReason for a prompt blocked
// before any candidate; "" before [Reader.Ended].
func (r *Reader) FinishReason() string { return string(r.finish) }

// Event reads one event of the stream and drives the Response with it. It
// returns a *[wire.ProviderError] for an error object, an error wrapping
// [ErrMalformed] (having failed the Response) for a malformed event, and
// the Response's own errors ([toolcall.ErrTooManyCalls],
// [toolcall.ErrEnded]). After an error, Event returns it again without
// reading anything.
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
// each call of it was started, fed its arguments and stopped, or, for a
// call that streams its arguments, any of those. It is
// borrowed until the next [Reader.Event].
func (r *Reader) EventCalls() []int64 { return r.touched }

// fail fails the Response for a malformed stream, and returns err.
func (r *Reader) fail(err error) error {
	return adapter.FailMalformed(r.resp, err, ErrMalformed)
}

// malformed wraps err, found in the current event.
func (r *Reader) malformed(err error) error {
	return fmt.Errorf("gemini: %w: event %d: %w", ErrMalformed, r.n, err)
}

// event handles one event: its data is decoded and checked whole before
// anything is done with it.
func (r *Reader) event(ev sse.Event) error {
	if len(ev.Type) != 0 {
		// Gemini sends data-only events; google.golang.org/genai fails on
		// an "event:" line, other readers skip the field.
		return r.malformed(fmt.Errorf("an event named %q (Gemini's events have no name)", ev.Type))
	}
	if err := r.parse(ev.Data); err != nil {
		return err
	}
	if r.hasError {
		return &wire.ProviderError{Wire: wire.Gemini, Type: string(r.errStatus), Code: string(r.errCode), Message: string(r.errMessage)}
	}
	if len(r.block) > 0 && !r.ended {
		if r.args.open {
			return r.malformed(fmt.Errorf("/promptFeedback/blockReason %s while call %d streams its arguments", r.block, r.args.index))
		}
		r.ended = true
		r.finish = append(r.finish[:0], r.block...)
	}
	if !r.hasChosen {
		return nil
	}
	c := &r.chosen
	if err := r.check(c); err != nil {
		return err
	}
	for i := range c.parts[:c.n] {
		p := &c.parts[i]
		switch p.kind {
		case partText:
			if len(p.text) == 0 {
				continue
			}
			if p.thought && r.cfg.OnThinking != nil {
				r.cfg.OnThinking(c.index, p.text)
			} else if !p.thought && r.cfg.OnText != nil {
				r.cfg.OnText(c.index, p.text)
			}
		case partCall:
			if err := r.call(p); err != nil {
				return err
			}
		}
	}
	if len(c.finish) > 0 && !r.ended {
		r.ended = true
		r.finish = append(r.finish[:0], c.finish...)
		if string(c.finish) == "MAX_TOKENS" {
			r.resp.Incomplete()
		}
	}
	return nil
}

// check refuses what candidate 0's parts may not be, before any of them
// drives the Response, and writes the JSON text of the streamed arguments
// of each function call part that has them into its args, with the call's
// index.
func (r *Reader) check(c *candidate) error {
	next := r.calls
	for i := range c.parts[:c.n] {
		p := &c.parts[i]
		if r.ended && (p.kind == partCall || p.kind == partText && len(p.text) > 0) {
			return r.malformed(fmt.Errorf("/candidates/0/content/parts/%d: content after the finishReason %s", i, r.finish))
		}
		if p.kind != partCall {
			continue
		}
		streamed := p.partial || p.more
		p.begins, p.ends = len(p.name) > 0, false
		switch {
		case p.begins && r.args.open:
			return r.malformed(fmt.Errorf("/candidates/0/content/parts/%d/functionCall begins a call while call %d streams its arguments", i, r.args.index))
		case !p.begins && !r.args.open && p.partial:
			return r.malformed(fmt.Errorf("/candidates/0/content/parts/%d/functionCall has partialArgs for no call: it has no name, and no call streams its arguments", i))
		case !p.begins && !r.args.open:
			return r.malformed(fmt.Errorf("/candidates/0/content/parts/%d/functionCall has no name", i))
		case p.hasArgs && streamed:
			return r.malformed(fmt.Errorf("/candidates/0/content/parts/%d/functionCall has args, and streams its arguments (partialArgs, willContinue)", i))
		case p.hasArgs && !p.begins:
			return r.malformed(fmt.Errorf("/candidates/0/content/parts/%d/functionCall has args, in call %d that streams its arguments", i, r.args.index))
		}
		if !p.begins {
			p.index = r.args.index
			if len(p.id) > 0 && string(p.id) != string(r.args.id) {
				return r.malformed(fmt.Errorf("/candidates/0/content/parts/%d/functionCall/id %q is not that of call %d, whose arguments it continues", i, p.id, r.args.index))
			}
		} else {
			p.index = next
			next++
			if len(p.id) > 0 {
				if _, dup := r.ids[string(p.id)]; dup {
					return r.malformed(fmt.Errorf("/candidates/0/content/parts/%d/functionCall/id %q is an earlier call's", i, p.id))
				}
				for j := range c.parts[:i] {
					if q := &c.parts[j]; q.kind == partCall && q.begins && string(q.id) == string(p.id) {
						return r.malformed(fmt.Errorf("/candidates/0/content/parts/%d/functionCall/id %q is part %d's", i, p.id, j))
					}
				}
			}
			if !streamed {
				p.ends = true
				continue
			}
			r.args.reset()
			r.args.open, r.args.index = true, p.index
			r.args.id = append(r.args.id[:0], p.id...)
		}
		p.args = p.args[:0]
		for k := range p.pargs[:p.np] {
			var err error
			if p.args, err = r.args.add(p.args, &p.pargs[k]); err != nil {
				return r.malformed(fmt.Errorf("/candidates/0/content/parts/%d/functionCall/partialArgs/%d%w", i, k, err))
			}
		}
		if !p.more {
			var err error
			if p.args, err = r.args.end(p.args); err != nil {
				return r.malformed(fmt.Errorf("/candidates/0/content/parts/%d/functionCall %w", i, err))
			}
			p.ends = true
		}
	}
	if len(c.finish) > 0 && !r.ended && r.args.open && string(c.finish) != "MAX_TOKENS" {
		return r.malformed(fmt.Errorf("/candidates/0/finishReason %s while call %d streams its arguments", c.finish, r.args.index))
	}
	return nil
}

// call drives the Response with one function call part: a whole call at
// the next index (Start, Chunk, Stop); or the beginning, the continuation
// or the end of a call that streams its arguments, with the JSON text that
// check wrote.
func (r *Reader) call(p *part) error {
	i := p.index
	if len(r.touched) == 0 || r.touched[len(r.touched)-1] != i {
		r.touched = append(r.touched, i)
	}
	args := p.args
	if p.whole != nil {
		args = p.whole
	}
	if p.begins {
		r.calls++
		c := fragment.Call{Index: i, Name: string(p.name)}
		if len(p.id) > 0 {
			c.ID = string(p.id)
			if r.ids == nil {
				r.ids = map[string]struct{}{}
			}
			r.ids[c.ID] = struct{}{}
		}
		if err := r.resp.Start(c, nil); err != nil {
			return err
		}
		if !p.partial && !p.more && len(args) == 0 {
			args = emptyArgs
		}
	}
	if len(args) > 0 {
		if err := r.resp.Chunk(i, args); err != nil {
			return err
		}
	}
	if p.ends {
		return r.resp.Stop(i)
	}
	return nil
}

// emptyArgs are the arguments of a function call without args: the SDKs
// give it an empty map, or none, and the tool is called with no argument.
var emptyArgs = []byte("{}")
