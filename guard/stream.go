package guard

// This file is structured in the following way:
//
//   - Filter and stream: the body the client reads, which pulls the
//     upstream's blocks of server-sent events one at a time when the
//     client wants bytes;
//   - step: one block read, given to the wire's adapter (which drives the
//     toolcall.Response and so the policies), then forwarded as it came,
//     or held behind a call whose decision is pending, in order;
//   - the fates of the calls (fates.go): decided by the policy
//     (OnDecision), by the calls' errors, or at the end;
//   - the end: the records, and the closing or error events when the
//     gateway ends the client's stream itself.
//
// What is particular to a wire (how a blocked call is replaced, how a
// stream is closed) is in anthropic.go, chat.go and responses.go.

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/policy"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire"
	"github.com/argstream/argstream/wire/anthropicstream"
	"github.com/argstream/argstream/wire/geministream"
	"github.com/argstream/argstream/wire/openaistream"
	"github.com/argstream/argstream/wire/sse"
)

// stepper is a wire adapter's per-event step.
type stepper interface {
	Event(sse.Event) error
	EventCalls() []int64
}

// rewriter is what a wire does to the events of its stream.
type rewriter interface {
	// emit writes the block b for the client, rewritten for the calls'
	// fates if it must be.
	emit(s *stream, b *block) error
	// complete reports whether the upstream stream reached its end.
	complete() bool
	// canCancel reports whether the client's stream may be ended now with
	// closing events, nothing of it being left open that the gateway
	// cannot close.
	canCancel(s *stream) bool
	// closing writes the events that end the client's stream well-formed
	// when the gateway has cancelled the upstream.
	closing(s *stream)
	// failure writes the wire's error event, with msg.
	failure(s *stream, msg string)
}

// fate is what becomes of a call.
type fate uint8

const (
	fatePending fate = iota
	fateForward
	fateBlock
)

// callState is what the stream knows of one call.
type callState struct {
	call      fragment.Call
	fate      fate
	decision  policy.Decision
	decidedAt int64
	reason    string
	emitted   bool // some of its events reached the client
	cancelled bool // its block cancelled the upstream
	// awaitPaths: decided unattended, with ask blocked, by a policy that
	// declares paths: held until its arguments end, since a suspect path
	// among them makes it an ask.
	awaitPaths bool
}

// A block is one block of the upstream's events: an event, or a block
// that is no event (a comment), with its bytes as they came.
type block struct {
	raw     []byte
	data    []byte // the event's data, in raw; nil for a block that is no event
	typ     []byte // the event's type, in raw
	calls   []int64
	decided bool // every call it concerns has a fate
}

// Filter returns the body the client reads in place of body, a streaming
// response (server-sent events) of the wire k: its events are forwarded
// as they come, byte for byte, but for the events of a call whose decision
// is pending, held in order until it comes, and the events of a blocked
// call, replaced by a notice. cancel, if not nil, cancels the upstream
// request: the [Guard] calls it when it blocks the only call still
// streaming, and when the client closes the body early. The body returned
// reads body as the client reads it, so that a slow client slows the
// upstream down instead of filling memory; it closes body when it ends,
// and its Close closes body.
//
// Whatever the Guard cannot read, or refuses (an event two readers could
// read differently, arguments that fail after their call was forwarded, a
// stream cut short), ends the client's stream with the wire's error event,
// and the upstream is cancelled.
func (g *Guard) Filter(k wire.Kind, body io.ReadCloser, cancel func()) io.ReadCloser {
	s := &stream{g: g, kind: k, body: body, cancel: cancel, calls: make(map[int64]*callState)}
	s.rd = sse.NewReader(body, sse.WithRaw(), sse.WithMaxEventSize(g.cfg.MaxEventSize))
	opts := []toolcall.Option{
		toolcall.WithSinks(s.newSink),
		toolcall.OnDecision(s.decided),
		// The client gets the arguments; the gateway keeps of them only
		// what a restatement is compared with, so that an open stream's
		// memory does not grow with them.
		toolcall.WithDigestOnly(),
	}
	if g.cfg.Policy != nil {
		opts = append(opts, toolcall.WithPolicy(g.cfg.Policy))
	}
	if k == wire.OpenAIResponses {
		// Each call's arguments come again up to three times: the same
		// bytes are then compared by hash, not parsed again.
		opts = append(opts, toolcall.WithRestatements())
	}
	s.resp = toolcall.New(opts...)
	if g.cfg.OnStream != nil {
		g.cfg.OnStream(true)
	}
	switch k {
	case wire.Anthropic:
		r := anthropicstream.NewReader(s.resp)
		s.step, s.w = r, &anthropicRewriter{r: r}
	case wire.OpenAIChat:
		r := openaistream.NewChatReader(s.resp)
		s.step, s.w = r, &chatRewriter{r: r, index: map[int64]int64{}}
	case wire.OpenAIResponses:
		r := openaistream.NewResponsesReader(s.resp)
		s.step, s.w = r, &responsesRewriter{r: r}
	case wire.Gemini:
		r := geministream.NewReader(s.resp)
		s.step, s.w = r, &geminiRewriter{r: r}
	default:
		s.fatal = fmt.Errorf("guard: no wire %v to read", k)
	}
	return s
}

// stream is the body the client reads.
type stream struct {
	g      *Guard
	kind   wire.Kind
	body   io.ReadCloser
	cancel func()
	rd     *sse.Reader
	resp   *toolcall.Response
	step   stepper
	w      rewriter

	out   []byte // bytes for the client, out[off:] not read yet
	off   int
	lead  []byte   // the line ends that begin the block being emitted
	queue []*block // held, in order
	held  int      // the bytes of queue
	free  []*block

	calls    map[int64]*callState
	blocked  int  // calls blocked so far
	ended    bool // the upstream is read no further
	stopNow  bool // a block cancelled the upstream: end the client's stream
	fatal    error
	recorded bool

	// Close may come from another goroutine while Read waits on the
	// upstream, as http.Response bodies allow: mu guards these, and a Read
	// in progress finishes a Close that came during it.
	mu         sync.Mutex
	reading    bool // a Read is in progress
	closeReq   bool // Close came during it
	closed     bool
	bodyClosed bool
}

// Read reads the client's bytes, reading the upstream as it needs to. They
// are written into p itself when they fit: the stream keeps no buffer of
// its own for them (an open stream's memory is mostly its buffers).
func (s *stream) Read(p []byte) (int, error) {
	s.mu.Lock()
	if s.closed || s.closeReq {
		s.mu.Unlock()
		return 0, io.EOF
	}
	s.reading = true
	s.mu.Unlock()
	n, err := s.read(p)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reading = false
	if s.closeReq {
		s.finishClose()
		return n, io.EOF
	}
	return n, err
}

// read is Read, once it is known that no Close came.
func (s *stream) read(p []byte) (int, error) {
	if s.off < len(s.out) {
		// What did not fit the last read.
		n := copy(p, s.out[s.off:])
		if s.off += n; s.off == len(s.out) {
			s.out, s.off = nil, 0 // an overflow is not kept
		}
		return n, nil
	}
	s.out, s.off = p[:0:len(p)], 0
	for len(s.out) == 0 {
		if s.ended {
			s.out = nil
			return 0, io.EOF
		}
		s.next()
		// The events that came with it go out in the same write: one write
		// and flush for the client per read of the upstream, not per
		// event. Never waiting for more to do so.
		for !s.ended && len(s.out) < len(p) && s.rd.Ready() {
			s.next()
		}
	}
	if len(s.out) <= len(p) && &s.out[0] == &p[0] {
		n := len(s.out)
		s.out = nil // p is the caller's again
		return n, nil
	}
	// More than p holds: s.out has moved to an array of its own.
	n := copy(p, s.out)
	s.off = n
	return n, nil
}

// Close ends the stream: the upstream is cancelled if it was still read.
// It may be called while a Read waits on the upstream, from another
// goroutine: it then cancels the upstream and closes its body, which ends
// that Read, and the Read finishes the rest (the calls' records).
func (s *stream) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || s.closeReq {
		return nil
	}
	if s.reading {
		s.closeReq = true
		s.cancelUpstream()
		return s.closeBody()
	}
	return s.finishClose()
}

// finishClose closes the stream, with s.mu held and no Read in progress.
func (s *stream) finishClose() error {
	s.closed = true
	if !s.ended {
		s.ended = true
		s.cancelUpstream()
	}
	s.record()
	return s.closeBody()
}

func (s *stream) closeBody() error {
	if s.bodyClosed {
		return nil
	}
	s.bodyClosed = true
	return s.body.Close()
}

func (s *stream) cancelUpstream() {
	if s.cancel != nil {
		s.cancel()
	}
}

// next reads one block of the upstream and does what it says, or ends.
func (s *stream) next() {
	if s.fatal != nil {
		s.fail(s.fatal.Error())
		return
	}
	if !s.rd.Next() {
		s.upstreamEnd()
		return
	}
	ev := s.rd.Event()
	b := s.newBlock(ev)
	if ev.IsEvent() {
		if err := s.step.Event(ev); err != nil {
			s.eventError(b, err)
			return
		}
		b.calls = append(b.calls[:0], s.step.EventCalls()...)
		if t, ok := s.step.(interface{ EventType() []byte }); ok && len(b.typ) == 0 {
			b.typ = append(b.typ, t.EventType()...) // an event with no "event" field
		}
		s.checkCalls(b.calls)
		if cr, ok := s.w.(*chatRewriter); ok && cr.r.OtherCalls() {
			s.fail("a chunk has tool calls in a choice other than the first, which the gateway does not judge")
			return
		}
		if cr, ok := s.w.(*chatRewriter); ok && cr.r.Custom() {
			s.fail("a custom tool's call, whose input the SDKs read otherwise (openai-go not at all, the JavaScript SDK only its last delta)")
			return
		}
		if cr, ok := s.w.(*chatRewriter); ok && cr.r.Indexless() {
			s.fail("a tool call without an index, which the SDKs number otherwise (openai-go puts every one at index 0)")
			return
		}
		if rr, ok := s.step.(*openaistream.ResponsesReader); ok && rr.OtherCalls() {
			s.fail("an output item is a call whose input the gateway does not read (a shell's, a patch's, a computer's), which it does not judge")
			return
		}
	}
	s.place(b)
	s.flush()
	if s.held > s.g.cfg.MaxHeld {
		s.blockHeld()
	}
	if s.stopNow && !s.ended {
		s.stopUpstream()
	}
}

// newBlock copies ev into a block, which may be held past the next read.
func (s *stream) newBlock(ev sse.Event) *block {
	var b *block
	if n := len(s.free); n > 0 {
		b, s.free = s.free[n-1], s.free[:n-1]
	} else {
		b = new(block)
	}
	b.raw = append(b.raw[:0], ev.Raw...)
	b.data, b.typ, b.calls, b.decided = nil, nil, b.calls[:0], false
	if ev.IsEvent() {
		// Data and Type are slices of Raw only where no field was
		// joined: keep copies of them, next to the raw bytes.
		start := len(b.raw)
		b.raw = append(b.raw, ev.Data...)
		b.raw = append(b.raw, ev.Type...)
		b.data = b.raw[start : start+len(ev.Data) : start+len(ev.Data)]
		b.typ = b.raw[start+len(ev.Data):]
		b.raw = b.raw[:start]
	}
	return b
}

// place forwards b, or holds it: behind a held block, or because a call
// it concerns is pending.
func (s *stream) place(b *block) {
	if len(s.queue) == 0 && s.settled(b) {
		s.emit(b)
		return
	}
	s.queue = append(s.queue, b)
	s.held += len(b.raw)
}

// settled reports whether every call b concerns has its fate.
func (s *stream) settled(b *block) bool {
	if b.decided {
		return true
	}
	for _, i := range b.calls {
		if c := s.calls[i]; c == nil || c.fate == fatePending {
			return false
		}
	}
	b.decided = true
	return true
}

// flush forwards the held blocks at the front of the queue whose calls
// have their fates.
func (s *stream) flush() {
	n := 0
	for n < len(s.queue) && s.settled(s.queue[n]) {
		s.emit(s.queue[n])
		s.held -= len(s.queue[n].raw)
		n++
	}
	if n > 0 {
		clear(s.queue[:n])
		s.queue = slices.Delete(s.queue, 0, n)
	}
}

func (s *stream) emit(b *block) {
	if s.fatal == nil {
		for _, i := range b.calls {
			if c := s.calls[i]; c != nil && c.fate == fateForward {
				c.emitted = true
			}
		}
		s.lead = leadingBlank(b.raw)
		if err := s.w.emit(s, b); err != nil {
			s.fatal = err
		}
		s.out = append(s.out, s.lead...)
		s.lead = nil
	}
	s.free = append(s.free, b)
}

// leadingBlank returns the line ends that begin raw: the blank lines
// between the block and the one before it, and the LF of a CRLF that ended
// the block before when the two came in separate reads.
func leadingBlank(raw []byte) []byte {
	i := 0
	for i < len(raw) && (raw[i] == '\n' || raw[i] == '\r') {
		i++
	}
	return raw[:i]
}

// write adds the bytes of a block, raw, for the client.
func (s *stream) write(raw []byte) {
	s.lead = nil // they begin raw
	s.out = append(s.out, raw...)
}

// writeEvent adds an event for the client, of type typ ("" for none) and
// data data, a JSON object on one line. The line ends that began the block
// it stands for go first, so that a CRLF cut by a read stays whole.
func (s *stream) writeEvent(typ string, data []byte) {
	s.out = append(s.out, s.lead...)
	s.lead = nil
	var err error
	if s.out, err = sse.AppendEvent(s.out, typ, data); err != nil {
		// The gateway's own types and compact JSON have no line end.
		panic("guard: an event of its own that SSE cannot frame: " + err.Error())
	}
}

// The end.

// stopUpstream ends the client's stream after a block that left no call
// streaming: the upstream is cancelled, the held events go out, and the
// wire's closing events end the stream.
func (s *stream) stopUpstream() {
	s.ended = true
	s.cancelUpstream()
	s.resolvePending("the response was cut short when another call was blocked")
	s.flush()
	if s.fatal != nil {
		s.w.failure(s, s.fatal.Error())
	} else {
		s.w.closing(s)
	}
	s.record()
}

// upstreamEnd handles the end of the upstream: cleanly, or not.
func (s *stream) upstreamEnd() {
	err := s.rd.Err()
	if errors.Is(err, sse.ErrTruncated) && s.w.complete() {
		// An event cut off after the response's end: the SDKs' readers,
		// as the spec, drop an event that no blank line ended. So does
		// the client, given the bytes as they came.
		err = nil
	}
	if err == nil && !s.w.complete() {
		err = errors.New("the upstream stream ended before its end")
	}
	if err != nil {
		s.fail("the upstream response failed: " + err.Error())
		return
	}
	s.ended = true
	s.resolvePending("its decision never came")
	s.flush()
	if s.fatal != nil {
		s.w.failure(s, s.fatal.Error())
	} else if len(s.queue) == 0 {
		s.write(s.rd.Rest()) // blank lines, a last comment, an event cut off
	}
	s.record()
}

// resolvePending blocks every call still pending.
func (s *stream) resolvePending(reason string) {
	for _, cs := range s.calls {
		if cs.fate == fatePending {
			s.blockCall(cs, reason)
		}
	}
}

// eventError handles an error of the adapter: a provider's error event
// goes to the client as it came, after what was held (its calls'
// fates settled: what was pending is blocked); anything else ends the
// client's stream with the wire's error event.
func (s *stream) eventError(b *block, err error) {
	var pe *wire.ProviderError
	if errors.As(err, &pe) {
		s.ended = true
		s.cancelUpstream()
		s.resolvePending("the provider ended the response with an error")
		s.flush()
		if s.fatal == nil {
			s.write(b.raw)
		}
		s.record()
		return
	}
	s.fail("the gateway could not read the upstream response: " + err.Error())
}

// fail ends the client's stream with the wire's error event: what was
// held is dropped, and the upstream cancelled.
func (s *stream) fail(msg string) {
	s.ended = true
	s.cancelUpstream()
	for _, cs := range s.calls {
		if cs.fate == fatePending {
			cs.fate, cs.reason = fateBlock, "the response failed"
			s.blocked++
		}
	}
	s.queue, s.held = s.queue[:0], 0
	if s.w != nil {
		s.w.failure(s, "argstream gateway: "+msg)
	}
	s.record()
}

// record reports each call's [Record], once.
func (s *stream) record() {
	if s.recorded {
		return
	}
	s.recorded = true
	if s.g.cfg.OnStream != nil {
		s.g.cfg.OnStream(false)
	}
	results := s.resp.End()
	if s.g.cfg.OnCall == nil {
		return
	}
	now := time.Now()
	for _, r := range results {
		cs := s.calls[r.Call.Index]
		if cs == nil {
			continue
		}
		rec := Record{Time: now, Wire: s.kind, Call: r.Call, Decision: cs.decision, DecidedAt: cs.decidedAt,
			Action: Forwarded, Reason: cs.reason, ArgumentBytes: r.Size, UpstreamCancelled: cs.cancelled}
		if cs.fate != fateForward {
			rec.Action = Blocked
		}
		s.g.cfg.OnCall(rec)
	}
}
