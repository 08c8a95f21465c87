package toolcall

import (
	"bytes"
	"crypto/sha256"
	"hash/maphash"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/aggregate"
	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/policy"
	"github.com/argstream/argstream/sink"
	"github.com/argstream/argstream/token"
)

// emptyObject is the arguments of a call made with no input.
var emptyObject = []byte("{}")

// call is one tool call of a response. It is the sink of its own Stream:
// Push hands each fragment, with the call's identity, to the user's sink,
// the aggregator and the policy evaluator, in that order.
type call struct {
	r      *Response
	index  int64
	ident  fragment.Call // the fragments' Call points here, so later identity reaches them
	stream *argstream.Stream
	agg    *aggregate.Aggregator
	user   sink.Sink // nil if none
	pol    *policy.Policy
	ev     *policy.Evaluator // nil if no policy applies
	prog   fragment.Progress // the fragment being handed on, with Call set

	lead        byte // the first byte of the arguments that is not white space, 0 before
	started     bool // a Start or Restate stated the call's identity
	placeholder bool // Start's input was {} before any argument bytes
	feeding     bool // in a call to the Stream
	rootDone    bool // the root value's Done went by: no more bytes needed
	decided     bool // the policy decision has been reported
	stopped     bool // the provider ended the arguments (Stop, StopAll, Restate)
	ended       bool // the Stream has ended (err is its error), or the call was declined outside a Feed
	declined    bool
	approved    bool
	afterStop   bool // argument bytes came after Stop
	lateName    bool // see ErrLateName
	bareClosed  bool // a restatement closed arguments that are a bare scalar
	err         error
	mismatch    *MismatchError // the first mismatch of a restatement
	refused     error          // Refuse's error
	// raw is a hash of the argument bytes fed, rawLen their length, if
	// hashing (the Response has seen restatements: Response.restates): a
	// restatement of the same bytes, as the Responses API restates its
	// arguments up to three times, is the same value, with no parse of
	// it. The hash's seed is random, each call's its own, so that
	// nobody can write other bytes of the same hash but by chance (1 in
	// 2^64).
	hashing bool
	raw     maphash.Hash
	rawLen  int
}

// Push implements [sink.Sink] for the call's Stream. As [sink.Multi] does, it
// hands the fragment to every sink even if one fails, and returns the first
// error; and [ErrDeclined] once the call is declined.
func (c *call) Push(p *fragment.Progress) error {
	c.prog = *p
	c.prog.Call = &c.ident
	var first error
	if c.user != nil {
		first = c.user.Push(&c.prog)
	}
	if err := c.agg.Push(&c.prog); err != nil && first == nil {
		first = err
	}
	if p.Kind == fragment.Done && len(p.Path) == 0 {
		// Before the decision is told: a call decided at its last byte
		// is no longer pending when a callback declines it.
		c.rootDone = true
	}
	if c.ev != nil {
		if err := c.ev.Push(&c.prog); err != nil && first == nil {
			first = err
		}
		c.reportDecision()
	}
	if c.declined && first == nil {
		first = ErrDeclined
	}
	return first
}

// End implements [sink.Sink] for the call's Stream.
func (c *call) End(err error) {
	if c.user != nil {
		c.user.End(err)
	}
	c.agg.End(err)
	if c.ev != nil {
		c.ev.End(err)
		c.reportDecision()
	}
}

// reportDecision tells [OnDecision] and [WithDeclineOnSkip] of a decision,
// once.
func (c *call) reportDecision() {
	if c.decided || !c.ev.Decision().Decided() {
		return
	}
	c.decided = true
	d := c.ev.Decision()
	cfg := &c.r.cfg
	if cfg.onDecision != nil {
		cfg.onDecision(c.r, c.ident, d, c.ev.DecidedAt())
	}
	if d.Mode == policy.Skip && cfg.declineOnSkip && !c.declined {
		only := c.r.decline(c)
		if cfg.onSkip != nil {
			cfg.onSkip(c.r, c.ident, only)
		}
	}
}

// identify takes the identity stated for the call: an id or name still
// empty is filled in; one that differs from the call's is a mismatch, as
// is a Server flag that differs from an earlier statement's (stated says
// id is a statement of the call's identity, not a Chunk's).
func (c *call) identify(id fragment.Call, stated bool) {
	switch {
	case id.ID != "" && c.ident.ID != "" && id.ID != c.ident.ID:
		c.fail(newMismatch(c.ident, "id", []byte(c.ident.ID), []byte(id.ID)))
	case id.Name != "" && c.ident.Name != "" && id.Name != c.ident.Name:
		c.fail(newMismatch(c.ident, "name", []byte(c.ident.Name), []byte(id.Name)))
	case stated && c.started && id.Server != c.ident.Server:
		c.fail(newMismatch(c.ident, "server", []byte(runner(c.ident.Server)), []byte(runner(id.Server))))
	}
	if stated && !c.started {
		c.started = true
		c.ident.Server = id.Server
	}
	if c.ident.ID == "" {
		c.ident.ID = id.ID
	}
	if c.ident.Name == "" && id.Name != "" {
		c.ident.Name = id.Name
		c.lookupPolicy()
	}
}

func runner(server bool) string {
	if server {
		return "the provider runs it"
	}
	return "the caller runs it"
}

// fail records a mismatch: the call will not be executable, whatever its
// arguments. Its Stream goes on, so that its sinks see the rest.
func (c *call) fail(m *MismatchError) {
	if c.mismatch == nil {
		c.mismatch = m
	}
}

// lookupPolicy installs the policy for the call's name, now known.
func (c *call) lookupPolicy() {
	if c.r.cfg.policyFor == nil {
		return
	}
	p := c.r.cfg.policyFor(c.ident.Name)
	if p == nil {
		return
	}
	if c.stream.Offset() > 0 || c.ended {
		c.lateName = true
		return
	}
	c.pol, c.ev = p, c.r.evaluator(p)
	c.reportDecision() // a leading catch-all decides at offset 0
}

// chunk feeds b, or s if b is nil.
func (c *call) chunk(b []byte, s string) {
	switch {
	case c.declined:
		return // discarded
	case c.stopped:
		c.afterStop = true
		return
	case c.ended:
		return // failed already: its error is recorded
	}
	if c.lead == 0 {
		c.lead = leadByte(b, s)
	}
	c.feeding = true
	var err error
	if b != nil {
		if c.hashing {
			c.raw.Write(b)
			c.rawLen += len(b)
		}
		err = c.stream.Feed(b)
	} else {
		if c.hashing {
			c.raw.WriteString(s)
			c.rawLen += len(s)
		}
		_, err = c.stream.WriteString(s)
	}
	c.feeding = false
	if err != nil {
		c.ended, c.err = true, err
	}
}

// leadByte returns the first byte of b, or of s if b is nil, that is not
// JSON white space, or 0.
func leadByte(b []byte, s string) byte {
	if b == nil {
		for i := 0; i < len(s); i++ {
			if !isSpace(s[i]) {
				return s[i]
			}
		}
		return 0
	}
	for _, x := range b {
		if !isSpace(x) {
			return x
		}
	}
	return 0
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

// bareScalar reports whether the arguments are a number or a literal not
// yet ended: only the end of the input ends one, and a provider that cut
// the response may have cut its last digits.
func (c *call) bareScalar() bool {
	if c.rootDone || c.ended {
		return false
	}
	switch l := c.lead; {
	case l == '-' || l >= '0' && l <= '9', l == 't', l == 'f', l == 'n':
		return true
	}
	return false
}

// stop is the provider's end of the call. A bare scalar is closed at End,
// when the response is known to be complete or not.
func (c *call) stop() {
	if c.stopped || c.ended {
		c.stopped = true
		return
	}
	if c.placeholder && c.stream.Offset() == 0 {
		c.chunk(emptyObject, "") // called with no input
	}
	c.stopped = true
	if !c.bareScalar() {
		c.closeStream()
	}
}

// restate compares args, a restatement of the call's arguments, with what
// streamed, or takes them as the input if nothing streamed.
func (c *call) restate(args []byte) {
	if c.declined || c.mismatch != nil {
		return
	}
	if c.stream.Offset() == 0 && !c.stopped && !c.ended {
		c.placeholder = false // a restatement's {} is the arguments
		c.chunk(args, "")
		return
	}
	if c.bareScalar() {
		c.bareClosed = true // its End may yet say the response was cut
	}
	c.closeStream() // a restatement says the arguments have ended
	if c.err != nil {
		return // failed already: nothing to compare
	}
	if c.hashing && len(args) == c.rawLen && c.raw.Sum64() == maphash.Bytes(c.raw.Seed(), args) {
		return // the bytes that streamed
	}
	if c.r.cfg.digestOnly {
		streamed, err := c.agg.Digest()
		if err != nil {
			return
		}
		restated, err := c.r.parseRestated(args)
		if err != nil || sha256.Sum256(restated) != streamed {
			c.fail(newMismatch(c.ident, "arguments", nil, args))
		}
		if len(restated) > 64<<10 {
			// Not kept for the next restatement: what the Response
			// holds stays small whatever the arguments.
			c.r.restated, c.r.restatedAgg = nil, nil
		}
		return
	}
	streamed, err := c.agg.Value()
	if err != nil {
		return
	}
	restated, err := c.r.parseRestated(args)
	if err != nil || !bytes.Equal(streamed, restated) {
		c.fail(newMismatch(c.ident, "arguments", streamed, args))
	}
}

// cut ends the call as cut off before its end mark, unless the
// provider stopped it or it ended already.
func (c *call) cut() {
	if c.stopped || c.ended {
		return
	}
	c.cutStream()
}

// cutStream ends the Stream as cut off (Stream.Cut).
func (c *call) cutStream() {
	c.feeding = true
	c.err = c.stream.Cut()
	c.feeding = false
	c.ended = true
}

// close ends the call at the end of the response: a call the provider
// did not finish, or finished in a response it cut short, whose arguments
// are a bare scalar is cut off ([token.ErrTruncated]); any other is closed.
func (c *call) close() {
	if c.ended {
		return
	}
	if c.bareScalar() && (!c.stopped || c.r.incomplete) {
		c.cutStream()
		return
	}
	c.closeStream()
}

// closeStream closes the Stream if it is still open.
func (c *call) closeStream() {
	if c.ended {
		return
	}
	c.feeding = true
	err := c.stream.Close()
	c.feeding = false
	c.ended, c.err = true, err
}

// decline marks the call declined and ends its sinks, unless they have
// ended: if the call is being fed, Push returns [ErrDeclined], and the Stream
// ends them.
func (c *call) decline() {
	if c.declined {
		return
	}
	c.declined = true
	if c.ended || c.feeding {
		return
	}
	c.ended, c.err = true, ErrDeclined
	c.End(ErrDeclined)
}

// pending reports whether the call still needs argument bytes.
func (c *call) pending() bool {
	return !c.ended && !c.declined && !c.rootDone && !(c.stopped && c.bareScalar())
}

func (c *call) result() Result {
	res := Result{Call: c.ident, Declined: c.declined, Approved: c.approved, Size: c.stream.Offset()}
	err := c.err
	if c.refused != nil {
		err = c.refused
	}
	switch {
	case err != nil:
	case c.afterStop:
		err = ErrAfterStop
	case c.lateName:
		err = ErrLateName
	case c.mismatch != nil:
		err = c.mismatch
	}
	if err == nil && c.r.failed != nil {
		err = c.r.failed // the arguments of a stream read two ways are no one's
	}
	if err == nil && c.bareClosed && c.r.incomplete {
		err = &token.SyntaxError{Offset: c.stream.Offset(), Err: token.ErrTruncated,
			Detail: "a bare scalar in a response the provider cut short"}
	}
	if err == nil && c.r.cfg.digestOnly {
		_, err = c.agg.Digest()
	} else if err == nil {
		res.Arguments, err = c.agg.Value()
	}
	if c.ev != nil {
		res.Verdict = c.ev.Verdict()
	}
	if err == nil && c.ev != nil && res.Verdict.Executable() && !res.Verdict.Unattended() && !c.approved {
		// Ask, Edit, and Unattended with a suspect declared path: see
		// policy.Verdict.Unattended.
		err = ErrNotApproved
	}
	res.Err = err
	res.Executable = err == nil && !c.declined && c.ident.Name != "" && !c.ident.Server &&
		(c.ev == nil || res.Verdict.Executable())
	return res
}

// release forgets the call's response, keeping its memory.
func (c *call) release() {
	if c.ev != nil {
		c.r.putEvaluator(c.pol, c.ev)
	}
	*c = call{r: c.r, stream: c.stream, agg: c.agg}
}
