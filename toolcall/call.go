package toolcall

import (
	"github.com/argstream/argstream"
	"github.com/argstream/argstream/aggregate"
	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/policy"
	"github.com/argstream/argstream/sink"
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

	placeholder bool // Start's input was {} before any argument bytes
	feeding     bool // in a call to the Stream
	rootDone    bool // the root value's Done went by: no more bytes needed
	decided     bool // the policy decision has been reported
	stopped     bool
	ended       bool // the Stream has ended (err is its error), or the call was declined outside a Feed
	declined    bool
	afterStop   bool // argument bytes came after Stop
	lateName    bool // see ErrLateName
	err         error
}

// Push implements sink.Sink for the call's Stream. As sink.Multi does, it
// hands the fragment to every sink even if one fails, and returns the first
// error; and ErrDeclined once the call is declined.
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
	if c.ev != nil {
		if err := c.ev.Push(&c.prog); err != nil && first == nil {
			first = err
		}
		c.reportDecision()
	}
	if p.Kind == fragment.Done && len(p.Path) == 0 {
		c.rootDone = true
	}
	if c.declined && first == nil {
		first = ErrDeclined
	}
	return first
}

// End implements sink.Sink for the call's Stream.
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

// reportDecision tells OnDecision and DeclineOnSkip of a decision, once.
func (c *call) reportDecision() {
	if c.decided || !c.ev.Decision().Decided() {
		return
	}
	c.decided = true
	d := c.ev.Decision()
	cfg := &c.r.cfg
	if cfg.onDecision != nil {
		cfg.onDecision(c.ident, d, c.ev.DecidedAt())
	}
	if d.Mode == policy.Skip && cfg.declineOnSkip && !c.declined {
		only := c.r.decline(c)
		if cfg.onSkip != nil {
			cfg.onSkip(c.ident, only)
		}
	}
}

// identify fills in an id or a name still empty.
func (c *call) identify(id, name string) {
	if c.ident.ID == "" {
		c.ident.ID = id
	}
	if c.ident.Name == "" && name != "" {
		c.ident.Name = name
		c.lookupPolicy()
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
	c.feeding = true
	var err error
	if b != nil {
		err = c.stream.Feed(b)
	} else {
		_, err = c.stream.WriteString(s)
	}
	c.feeding = false
	if err != nil {
		c.ended, c.err = true, err
	}
}

// stop is the provider's end of the call.
func (c *call) stop() {
	if c.stopped || c.ended {
		c.stopped = true
		return
	}
	if c.placeholder && c.stream.Offset() == 0 {
		c.chunk(emptyObject, "") // called with no input
	}
	c.close()
	c.stopped = true
}

// close closes the Stream if it is still open.
func (c *call) close() {
	if c.ended {
		return
	}
	c.feeding = true
	err := c.stream.Close()
	c.feeding = false
	c.ended, c.err = true, err
}

// decline marks the call declined and ends its sinks, unless they have
// ended: if the call is being fed, Push returns ErrDeclined, and the Stream
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
func (c *call) pending() bool { return !c.ended && !c.declined && !c.rootDone }

func (c *call) result() Result {
	res := Result{Call: c.ident, Declined: c.declined}
	err := c.err
	switch {
	case err != nil:
	case c.afterStop:
		err = ErrAfterStop
	case c.lateName:
		err = ErrLateName
	}
	if err == nil {
		res.Arguments, err = c.agg.Value()
	}
	res.Err = err
	if c.ev != nil {
		res.Verdict = c.ev.Verdict()
	}
	res.Executable = err == nil && !c.declined && c.ident.Name != "" &&
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
