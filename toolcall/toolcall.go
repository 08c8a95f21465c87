package toolcall

// This file is structured in the following way:
//
//   - Response, its options and its methods: what a provider adapter or an
//     SDK event loop calls (Start, Chunk, Stop, Decline, End, Reset);
//   - call: one tool call, which is also the sink its Stream feeds, fanning
//     each fragment out to the user's sink, the aggregator and the policy
//     evaluator with the call's identity.

import (
	"cmp"
	"errors"
	"math"
	"slices"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/aggregate"
	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/internal/jsonwire"
	"github.com/argstream/argstream/policy"
	"github.com/argstream/argstream/sink"
	"github.com/go-json-experiment/json/jsontext"
)

var (
	// ErrDeclined is a declined call's error: Decline, or a skip decision
	// with DeclineOnSkip, cut its arguments short. It wraps sink.ErrStop
	// (errors.Is holds for both), which is also what the call's sinks get
	// in End.
	ErrDeclined error = declined{}
	// ErrEnded is returned by Start, Chunk and Stop after End, until Reset.
	ErrEnded = errors.New("toolcall: the response has ended")
	// ErrIndex is returned for a call index that is negative or beyond the
	// range of int (fragment.Call.Index), which only a 32-bit platform has.
	ErrIndex = errors.New("toolcall: call index out of range")
	// ErrAfterStop is a call's error when argument bytes came for it after
	// its Stop: the arguments its Stop closed are not all there was.
	ErrAfterStop = errors.New("toolcall: argument bytes after the call's Stop")
	// ErrLateName is a call's error when its tool name became known only
	// after its argument bytes had begun and a policy applies to that name:
	// the policy did not see the whole arguments, so the call may not run.
	ErrLateName = errors.New("toolcall: tool name known only after the arguments began; its policy did not see them")
)

// Result is what became of one tool call at the end of a response.
//
// Arguments is memory of the Response, valid until its Reset; a Result is
// otherwise a plain value.
type Result struct {
	// Call is the call's identity: the first non-empty id and name given,
	// and the provider's index.
	Call fragment.Call
	// Arguments is the complete arguments as compact JSON, nil if Err is
	// set. Valid until Reset.
	Arguments jsontext.Value
	// Err is nil if the arguments ended complete and valid. Otherwise:
	// a *token.SyntaxError (errors.Is with token.ErrTruncated for a call cut
	// off, by max_tokens or by the end of the response, or that never got
	// any argument bytes), ErrDeclined, ErrAfterStop, ErrLateName, or what
	// a sink returned.
	Err error
	// Verdict is the policy evaluator's verdict, the zero Verdict if no
	// policy applied to the call.
	Verdict policy.Verdict
	// Declined says the call was declined: by Decline, or by a skip
	// decision with DeclineOnSkip.
	Declined bool
	// Executable says the call may run: it has a name, its arguments are
	// complete and valid, it was not declined, and if a policy applied, its
	// Verdict is Executable (so not Skip; Ask still needs the user's yes and
	// Edit the user's edit). Without a policy it says only that the call is
	// complete, valid and not declined.
	Executable bool
}

// declined is ErrDeclined: its message says the call was declined, not
// how (sink.ErrStop's "sink: stop" would read as a failure).
type declined struct{}

func (declined) Error() string { return "toolcall: call declined" }
func (declined) Unwrap() error { return sink.ErrStop }

// Option configures a Response. An Option is not changed by use.
type Option func(*config)

type config struct {
	newSink       func(fragment.Call) sink.Sink
	policyFor     func(name string) *policy.Policy
	onDecision    func(c fragment.Call, d policy.Decision, at int64)
	declineOnSkip bool
	onSkip        func(c fragment.Call, onlyPending bool)
	stream        []argstream.Option
}

// WithSinks makes newSink build each call's sink, at the call's start (so a
// renderer learns of a call when it begins), with the identity known then.
// The sink gets the call's fragments, each with the call's identity, then
// End once. It may return nil for a call it does not want. Later
// identity (an id or name that comes after the start) reaches the sink in
// the fragments' Call.
func WithSinks(newSink func(c fragment.Call) sink.Sink) Option {
	return func(cfg *config) { cfg.newSink = newSink }
}

// WithPolicy looks up each call's policy by tool name, when the name is
// known (at the call's start, normally). A nil *Policy means none: the call
// is then executable when its arguments are complete and valid. A policy
// whose first rule is a catch-all decides at the call's start; any other is
// evaluated on the call's fragments while they stream. Evaluators are
// pooled per *Policy: return the same *Policy for the same tool.
func WithPolicy(policyFor func(name string) *policy.Policy) Option {
	return func(cfg *config) { cfg.policyFor = policyFor }
}

// OnDecision calls fn once for each call whose policy decides, the moment
// it decides, with the offset in the call's arguments (0 at the start). It
// is called from Start or Chunk (or Stop, End); fn may call Decline, and no
// other method of the Response. A decision is never permission to run:
// only Result.Executable is.
func OnDecision(fn func(c fragment.Call, d policy.Decision, at int64)) Option {
	return func(cfg *config) { cfg.onDecision = fn }
}

// DeclineOnSkip declines each call the moment its policy decides Skip, as
// Decline does: its remaining chunks are discarded, its sinks end with
// ErrDeclined. fn, if not nil, is then called with whether it was the only
// call still pending: if so, cancel the response (its context) and stop
// paying for its tokens. fn may call Decline, and no other method.
func DeclineOnSkip(fn func(c fragment.Call, onlyPending bool)) Option {
	return func(cfg *config) { cfg.declineOnSkip, cfg.onSkip = true, fn }
}

// WithStreamOptions configures each call's argstream.Stream: limits, or
// another tokenizer. argstream.WithCall is overridden by the call's
// identity.
func WithStreamOptions(opts ...argstream.Option) Option {
	return func(cfg *config) { cfg.stream = append(cfg.stream, opts...) }
}

// Response holds the tool calls of one provider response, keyed by the
// provider's index. See the package documentation for the order of calls.
//
// A Response is for one goroutine: its methods, and the sinks and callbacks
// they call, run on the caller's goroutine, one at a time. Separate
// Responses may run in separate goroutines and share Options.
type Response struct {
	cfg     config
	calls   []*call         // in start order; sorted by index at End
	byIndex map[int64]*call // the calls of this response
	last    *call           // the call of the last lookup
	free    []*call         // calls of earlier responses, for reuse
	evals   map[*policy.Policy][]*policy.Evaluator
	results []Result
	ended   bool
}

// maxPooledPolicies bounds the evaluator pool's keys, in case a policy
// lookup returns a new *Policy for each call.
const maxPooledPolicies = 256

// New returns an empty Response.
func New(opts ...Option) *Response {
	r := &Response{byIndex: make(map[int64]*call), evals: make(map[*policy.Policy][]*policy.Evaluator)}
	for _, o := range opts {
		o(&r.cfg)
	}
	return r
}

// Start announces the call at index, with its id, its tool name and, if the
// provider sends it there, its input (Anthropic's content_block_start
// "input"; nil if none).
//
// The first Start of an index, or its first Chunk, opens the call: its sink
// is made and, once its name is known, its policy looked up. A later Start
// only fills in an id or a name still empty: the first non-empty ones win,
// later different ones are ignored.
//
// A non-empty input is argument text, parsed through the call's Stream like
// a Chunk, so that it is validated and streamed like any other, with one
// exception: an input that is an empty object ({}, white space allowed)
// before any argument bytes is taken as Anthropic sends it, a placeholder:
// the deltas that follow are the arguments, and if none come before the
// call's Stop the call was made with no input and its arguments are {}.
//
// Start returns ErrIndex or ErrEnded; a call's own errors are in its
// Result, never returned here, so that one call's failure does not stop
// the loop that feeds the others.
func (r *Response) Start(index int64, id, name string, input []byte) error {
	c, err := r.open(index, id, name)
	if err != nil || len(input) == 0 {
		return err
	}
	if c.stream.Offset() == 0 && !c.placeholder && jsonwire.IsEmptyObject(input) {
		c.placeholder = true
		return nil
	}
	c.chunk(input, "")
	return nil
}

// Chunk feeds the next piece of the arguments of the call at index, opening
// an unnamed call if the index was never started. The chunks of a declined
// call, or of one whose arguments already failed, are discarded. It returns
// ErrIndex or ErrEnded; a call's own errors are in its Result.
func (r *Response) Chunk(index int64, b []byte) error {
	c, err := r.open(index, "", "")
	if err == nil && len(b) > 0 {
		c.chunk(b, "")
	}
	return err
}

// ChunkString is Chunk for the string deltas of the SDKs: it does not
// allocate (see argstream.Stream.WriteString).
func (r *Response) ChunkString(index int64, s string) error {
	c, err := r.open(index, "", "")
	if err == nil && len(s) > 0 {
		c.chunk(nil, s)
	}
	return err
}

// Stop ends the arguments of the call at index: the provider's per-call end
// (Anthropic's content_block_stop; OpenAI Chat has none, and End closes its
// calls). A Stop of an index never started is ignored, so that a loop may
// call it for every content block, text included; a second Stop does
// nothing. It returns ErrIndex or ErrEnded.
func (r *Response) Stop(index int64) error {
	if err := r.check(index); err != nil {
		return err
	}
	if c := r.lookup(index); c != nil {
		c.stop()
	}
	return nil
}

// Decline declines the call at index, as a user who answers no while its
// arguments stream (RFD D26): its remaining chunks are discarded, its sinks
// end with ErrDeclined if they had not ended, and it will not be
// executable. It reports whether it was the only call still pending (open,
// with its arguments not yet complete): the caller should then cancel the
// response (its context) and stop paying for tokens, and otherwise keep the
// stream going for the other calls. Calls the provider has not started yet
// are not known: cancelling loses them. Declining an index never started
// does nothing and reports false.
//
// Decline may be called from a sink or from OnDecision and DeclineOnSkip's
// callbacks, for any call.
func (r *Response) Decline(index int64) (onlyPending bool) {
	c := r.lookup(index)
	if c == nil {
		return false
	}
	return r.decline(c)
}

// Pending returns the number of calls still pending: open, with their
// arguments not yet complete, and not declined.
func (r *Response) Pending() int {
	n := 0
	for _, c := range r.calls {
		if c.pending() {
			n++
		}
	}
	return n
}

// End ends the response: every call still open is closed, so a call cut
// off ends with an error for which errors.Is(err, token.ErrTruncated)
// holds. It returns every call's Result, in index order. The results and
// their Arguments are memory of the Response, valid until Reset. Calling
// End again returns the same results.
func (r *Response) End() []Result {
	if r.ended {
		return r.results
	}
	r.ended = true
	for _, c := range r.calls {
		c.close()
	}
	slices.SortFunc(r.calls, func(a, b *call) int { return cmp.Compare(a.index, b.index) })
	r.results = r.results[:0]
	for _, c := range r.calls {
		r.results = append(r.results, c.result())
	}
	return r.results
}

// Reset prepares r for the next response, keeping its memory (Streams,
// aggregators, evaluators) so that a reused Response does not allocate in
// steady state. The calls of the response before are forgotten without
// being closed: call End first to get their results. Results returned
// before are overwritten.
func (r *Response) Reset() {
	for _, c := range r.calls {
		c.release()
		r.free = append(r.free, c)
	}
	clear(r.calls)
	r.calls = r.calls[:0]
	clear(r.byIndex)
	clear(r.results)
	r.results = r.results[:0]
	r.last, r.ended = nil, false
}

func (r *Response) check(index int64) error {
	switch {
	case r.ended:
		return ErrEnded
	case index < 0 || uint64(index) > math.MaxInt:
		return ErrIndex
	}
	return nil
}

func (r *Response) lookup(index int64) *call {
	if r.last != nil && r.last.index == index {
		return r.last
	}
	c := r.byIndex[index]
	if c != nil {
		r.last = c
	}
	return c
}

// open returns the call at index, opening it if it is new, and fills in its
// identity.
func (r *Response) open(index int64, id, name string) (*call, error) {
	if err := r.check(index); err != nil {
		return nil, err
	}
	if c := r.lookup(index); c != nil {
		c.identify(id, name)
		return c, nil
	}
	var c *call
	if n := len(r.free); n > 0 {
		c, r.free[n-1] = r.free[n-1], nil
		r.free = r.free[:n-1]
	} else {
		c = &call{r: r, agg: aggregate.New()}
		c.stream = argstream.New(c, r.cfg.stream...)
	}
	c.index = index
	c.ident = fragment.Call{ID: id, Name: name, Index: int(index)}
	c.stream.Reset(c.ident)
	c.agg.Reset()
	r.calls = append(r.calls, c)
	r.byIndex[index] = c
	r.last = c
	if r.cfg.newSink != nil {
		c.user = r.cfg.newSink(c.ident)
	}
	if name != "" {
		c.lookupPolicy()
	}
	return c, nil
}

func (r *Response) evaluator(p *policy.Policy) *policy.Evaluator {
	if pool := r.evals[p]; len(pool) > 0 {
		e := pool[len(pool)-1]
		pool[len(pool)-1] = nil
		r.evals[p] = pool[:len(pool)-1]
		e.Reset()
		return e
	}
	return p.Evaluator()
}

func (r *Response) putEvaluator(p *policy.Policy, e *policy.Evaluator) {
	if _, ok := r.evals[p]; ok || len(r.evals) < maxPooledPolicies {
		r.evals[p] = append(r.evals[p], e)
	}
}

func (r *Response) decline(c *call) (onlyPending bool) {
	was := c.pending()
	c.decline()
	if !was {
		return false
	}
	for _, o := range r.calls {
		if o != c && o.pending() {
			return false
		}
	}
	return true
}
