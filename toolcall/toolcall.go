package toolcall

// This file is structured in the following way:
//
//   - Response, its options and its methods: what a provider adapter or an
//     SDK event loop calls (Start, Chunk, Stop, Decline, End, Reset) (its
//     errors are errors.go's);
//   - call: one tool call, which is also the sink its Stream feeds, fanning
//     each fragment out to the user's sink, the aggregator and the policy
//     evaluator with the call's identity.

import (
	"cmp"
	"slices"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/aggregate"
	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/policy"
	"github.com/argstream/argstream/sink"
	"github.com/go-json-experiment/json/jsontext"
)

// DefaultMaxCalls is the number of calls a [Response] takes in one response
// when [WithMaxCalls] does not say otherwise. Each call costs a few KiB.
const DefaultMaxCalls = 1024

// Result is what became of one tool call at the end of a response.
//
// [Result.Arguments] is memory of the [Response], valid until its Reset; a
// Result is otherwise a plain value.
type Result struct {
	// Call is the call's identity: its id, name and whether the provider
	// runs it, as its first statement gave them, and the provider's index.
	Call fragment.Call
	// Arguments is the complete arguments as compact JSON, nil unless they
	// ended complete and valid, in a response that did not Fail. A call
	// not executable for another reason than its arguments (not approved, a
	// skip, run by the provider) has them. Valid until Reset.
	Arguments jsontext.Value
	// Err is nil if the arguments ended complete and valid and the call
	// was not refused on the way (a skip decision, a call the provider runs
	// or one without a name are not errors: see Executable). Otherwise: a *token.SyntaxError (errors.Is
	// with token.ErrTruncated for a call cut off, by max_tokens or by the
	// end of the response, or that never got any argument bytes),
	// ErrDeclined, ErrAfterStop, ErrLateName, a *MismatchError,
	// ErrNotApproved, the error given to Fail, or what a sink returned.
	Err error
	// Verdict is the policy evaluator's verdict, the zero Verdict if no
	// policy applied to the call.
	Verdict policy.Verdict
	// Declined says the call was declined: by Decline, or by a skip
	// decision with WithDeclineOnSkip.
	Declined bool
	// Approved says Approve was called for the call.
	Approved bool
	// Size is the length of the argument text the call received.
	Size int64
	// Executable says the caller may run the call: it has a name, the
	// provider does not run it (Call.Server), its arguments are complete and
	// valid, it was not declined, the response did not fail, and, if a
	// policy applied, its Verdict is executable and either
	// Verdict.Unattended() (decided Unattended, no suspect declared path)
	// or approved. Without a policy it says only that the call is the
	// caller's, complete, valid and not declined.
	Executable bool
}

// Option configures a [Response]. An Option is not changed by use.
type Option func(*config)

type config struct {
	newSink       func(fragment.Call) sink.Sink
	policyFor     func(name string) *policy.Policy
	onDecision    func(r *Response, c fragment.Call, d policy.Decision, at int64)
	declineOnSkip bool
	onSkip        func(r *Response, c fragment.Call, onlyPending bool)
	stream        []argstream.Option
	maxCalls      int
	digestOnly    bool
	restated      bool // WithRestatements
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
// it decides, with the [Response], the call and the offset in the call's
// arguments (0 at the start). It is called from Start, Chunk, Stop,
// Restate or End; fn may call r.Decline and r.Approve, and no other method
// of the Response. A decision is never permission to run: only
// [Result.Executable] is, and an Ask or Edit decision needs r.Approve. So
// may an Unattended one: if a declared path turns out suspect, later in
// the arguments ([policy.Verdict.SuspectPath]), the [Result] ends with
// [ErrNotApproved], and the user's answer can come after End.
func OnDecision(fn func(r *Response, c fragment.Call, d policy.Decision, at int64)) Option {
	return func(cfg *config) { cfg.onDecision = fn }
}

// WithDeclineOnSkip declines each call the moment its policy decides Skip,
// as [Response.Decline] does: its remaining chunks are discarded, its sinks
// end with [ErrDeclined]. fn, if not nil, is then called with whether it
// was the only call still pending: if so, cancel the response (its context)
// and stop paying for its tokens. fn may call r.Decline and r.Approve, and
// no other method.
func WithDeclineOnSkip(fn func(r *Response, c fragment.Call, onlyPending bool)) Option {
	return func(cfg *config) { cfg.declineOnSkip, cfg.onSkip = true, fn }
}

// WithStreamOptions configures each call's [argstream.Stream]: limits, or
// another tokenizer. [argstream.WithCall] is overridden by the call's
// identity.
func WithStreamOptions(opts ...argstream.Option) Option {
	return func(cfg *config) { cfg.stream = append(cfg.stream, opts...) }
}

// WithMaxCalls sets the number of calls one response may open (n > 0);
// the method that would open one more returns [ErrTooManyCalls]. The default
// is [DefaultMaxCalls].
func WithMaxCalls(n int) Option {
	return func(cfg *config) { cfg.maxCalls = n }
}

// WithRestatements says that the wire restates each call's arguments after
// they have streamed, as the Responses API does up to three times (the done
// event, the output item, the final response): each call then hashes its
// argument bytes from the first call on, so that a restatement of the same
// bytes is not parsed again. Without it, a Response learns this at its
// first restatement, and the calls opened after it hash. The hash is
// seeded at random for each call: a restatement of other bytes is parsed
// and compared, as without it.
func WithRestatements() Option {
	return func(cfg *config) { cfg.restated = true }
}

// WithDigestOnly keeps of each call's arguments only their SHA-256, not
// the arguments: a Result's Arguments is nil (the call's Size, Verdict and
// Err are as without it), a restatement is compared with what streamed by
// digest, and a MismatchError names no streamed value. The memory of a
// call then does not grow with its arguments. For a gateway, which
// forwards the arguments and needs not keep them.
func WithDigestOnly() Option {
	return func(cfg *config) { cfg.digestOnly = true }
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

	incomplete bool  // the provider did not finish the response (Incomplete)
	failed     error // the response failed (Fail)

	// restated parses a restatement's arguments, to compare them with
	// what streamed; made at the first restatement that needs it.
	restated    *argstream.Stream
	restatedAgg *aggregate.Aggregator
	// restates: a restatement has come, in this response or one before
	// it (the wire restates its calls, as the Responses API does): from
	// then on each new call hashes its argument bytes (call.raw), so that
	// a restatement of the same bytes needs no parse.
	restates bool
}

// maxPooledPolicies bounds the evaluator pool's keys, in case a policy
// lookup returns a new *Policy for each call.
const maxPooledPolicies = 256

// New returns an empty [Response].
func New(opts ...Option) *Response {
	r := &Response{byIndex: make(map[int64]*call), evals: make(map[*policy.Policy][]*policy.Evaluator)}
	for _, o := range opts {
		o(&r.cfg)
	}
	if r.cfg.maxCalls <= 0 {
		r.cfg.maxCalls = DefaultMaxCalls
	}
	return r
}

// Start announces the call c.Index, with its id, its tool name, whether
// the provider runs it (c.Server) and, if the provider sends it there, its
// input (Anthropic's content_block_start "input"; nil if none).
//
// The first Start of an index, or its first [Response.Chunk], opens the call:
// its sink is made and, once its name is known, its policy looked up. A later
// Start (or a Chunk's) fills in an id or a name still empty; an id or a name
// that differs from the one the call has makes the call fail with a
// [*MismatchError], as does a Server that differs from the first Start's.
//
// A non-empty input is argument text, parsed through the call's Stream like
// a Chunk, so that it is validated and streamed like any other, with one
// exception: an input that is exactly {} before any argument bytes is taken
// as Anthropic sends it, a placeholder: the deltas that follow are the
// arguments, and if none come before the call's Stop the call was made with
// no input and its arguments are {}. Only {} is: anthropic-sdk-go replaces
// those two bytes with the first delta and appends the deltas to any other
// input, so that "{ }" followed by deltas is no valid input to it, and none
// here (the deltas are bytes after the input's end).
//
// Start returns [ErrIndex], [ErrTooManyCalls] or [ErrEnded]; a call's own
// errors are in its [Result], never returned here, so that one call's failure
// does not stop the loop that feeds the others.
func (r *Response) Start(c fragment.Call, input []byte) error {
	cl, err := r.open(c, true)
	if err != nil || len(input) == 0 {
		return err
	}
	if cl.stream.Offset() == 0 && !cl.placeholder && string(input) == "{}" {
		cl.placeholder = true
		return nil
	}
	cl.chunk(input, "")
	return nil
}

// Chunk feeds the next piece of the arguments of the call at index, opening
// an unnamed call if the index was never started. The chunks of a declined
// call, or of one whose arguments already failed, are discarded. It returns
// [ErrIndex], [ErrTooManyCalls] or [ErrEnded]; a call's own errors are in its
// [Result].
func (r *Response) Chunk(index int64, b []byte) error {
	c, err := r.feeding(index)
	if err == nil && len(b) > 0 {
		c.chunk(b, "")
	}
	return err
}

// ChunkString is [Response.Chunk] for the string deltas of the SDKs: it does
// not allocate (see [argstream.Stream.WriteString]).
func (r *Response) ChunkString(index int64, s string) error {
	c, err := r.feeding(index)
	if err == nil && len(s) > 0 {
		c.chunk(nil, s)
	}
	return err
}

// Stop ends the arguments of the call at index: the provider's per-call end
// (Anthropic's content_block_stop; a Chat Completions finish_reason ends
// them all: [Response.StopAll]). A Stop of an index never started is ignored,
// so that a loop may call it for every content block, text included; a second
// Stop does nothing. It returns [ErrIndex] or [ErrEnded].
//
// A call whose arguments are a bare number or literal (12, true) is closed
// only at [Response.End]: if the response turns out [Response.Incomplete],
// the provider may have cut it (12 of 123), and it ends truncated.
func (r *Response) Stop(index int64) error {
	if err := r.check(index); err != nil {
		return err
	}
	if c := r.lookup(index); c != nil {
		c.stop()
	}
	return nil
}

// Cut ends the call index as cut off: its text ended before the mark
// that ends it (a call written in an assistant's text, package dialect,
// whose closing marker never came). Its arguments end truncated
// ([token.ErrTruncated]), even if they were a complete JSON value, since
// what followed them is unknown. A call already stopped or ended is left
// as it is. Cut returns [ErrEnded] after [Response.End].
func (r *Response) Cut(index int64) error {
	if err := r.check(index); err != nil {
		return err
	}
	if c := r.lookup(index); c != nil {
		c.cut()
	}
	return nil
}

// Refuse fails the call index with err: the reader of the stream found
// the call malformed where its arguments cannot show it (in package
// dialect, a head that names no tool). The call is not executable, err is
// its Result's error, and what comes for it afterwards is discarded.
// Refuse opens the call if the index is new, and returns what Start
// returns.
func (r *Response) Refuse(index int64, err error) error {
	c, oerr := r.open(fragment.Call{Index: index}, false)
	if oerr != nil {
		return oerr
	}
	if c.refused == nil {
		c.refused = err
	}
	if !c.ended && !c.feeding {
		c.cutStream()
	}
	return nil
}

// StopAll stops every call opened so far, as [Response.Stop] does: the
// provider said the response's calls are complete (a Chat Completions
// finish_reason of tool_calls or stop). It returns [ErrEnded] after
// [Response.End].
func (r *Response) StopAll() error {
	if r.ended {
		return ErrEnded
	}
	for _, c := range r.calls {
		c.stop()
	}
	return nil
}

// Restate is a second statement of the call c.Index by the provider: the
// Responses API's function_call_arguments.done and output_item.done, the
// output of response.completed. Its identity is compared as a later
// [Response.Start]'s is. Its arguments, if not nil, are compared with the
// arguments that streamed: they must be the same JSON value, written the same
// (the same members in the same order, the same number text; white space and
// the spelling of string escapes aside), or the call fails with a
// [*MismatchError]; a call that streamed no argument bytes takes them as its
// input, parsed like any other. Restate then stops the call, as
// [Response.Stop] does. A restatement of a declined call, or of one that
// failed already, changes nothing. Restate opens the call if the index is
// new, and returns what Start returns.
//
// Comparing costs one parse of args; nothing is kept per delta for it.
func (r *Response) Restate(c fragment.Call, args []byte) error {
	cl, err := r.open(c, true)
	if err != nil {
		return err
	}
	if args != nil {
		cl.restate(args)
	}
	cl.stop()
	r.restates = true
	return nil
}

// Incomplete records that the provider did not finish the response:
// Anthropic's stop_reason max_tokens, Chat Completions' finish_reason
// length, the Responses API's response.incomplete. At [Response.End], a call
// whose arguments are a bare number or literal then ends truncated even if it
// was stopped, since its last digits may be missing; the other calls are
// what they are (a call cut off mid-object is truncated anyway).
func (r *Response) Incomplete() { r.incomplete = true }

// Fail fails the whole response with err: the stream could not be read
// with certainty (an event that two readers could read differently), so
// no call of it may run. Every call's [Result] has err as its error (unless
// it already had one) and is not executable. The first Fail's err is kept.
func (r *Response) Fail(err error) {
	if r.failed == nil && err != nil {
		r.failed = err
	}
	if r.ended {
		r.recompute()
	}
}

// Decline declines the call at index, as a user who answers no while its
// arguments stream (RFD D26's Phase 3: docs/design.md, "RFD D26's phases"):
// its remaining chunks are discarded, its sinks end with [ErrDeclined] if
// they had not ended, and it will not be executable. It reports whether it
// was the only call still pending (open, with its arguments not yet
// complete): the caller should then cancel the response (its context) and
// stop paying for tokens, and otherwise keep the stream going for the other
// calls. Calls the provider has not started yet are not known: cancelling
// loses them. Declining an index never started does nothing and reports
// false.
//
// Decline may be called from a sink or from the callbacks of [OnDecision] and
// [WithDeclineOnSkip], for any call, and after [Response.End], until
// [Response.Reset] (the Results returned by End are updated).
func (r *Response) Decline(index int64) (onlyPending bool) {
	c := r.lookup(index)
	if c == nil {
		return false
	}
	only := r.decline(c)
	if r.ended {
		r.recompute()
	}
	return only
}

// Approve records that the user approved the call at index: a call whose
// policy decides Ask or Edit, or Unattended with a suspect declared path,
// is executable only once approved. It may come before the decision, from
// a sink or a callback, or after [Response.End], until [Response.Reset] (the
// Results returned by End are updated). Approval changes nothing else: a call
// declined, skipped, failed or run by the provider stays not executable. It
// reports whether the index is a call of the response.
func (r *Response) Approve(index int64) bool {
	c := r.lookup(index)
	if c == nil {
		return false
	}
	c.approved = true
	if r.ended {
		r.recompute()
	}
	return true
}

// Err returns the error the call at index has met so far, while the
// response streams: its arguments' error (as soon as the bytes show it),
// [ErrDeclined], [ErrAfterStop], [ErrLateName], a [*MismatchError], or the
// error given to [Response.Fail]; nil while there is none, and for an index
// never started. A call that is not in error yet may still fail: only
// [Response.End]'s Results are final. A gateway asks it of the calls an event
// concerned, to stop a call it has begun to forward.
func (r *Response) Err(index int64) error {
	c := r.lookup(index)
	switch {
	case c == nil:
		return nil
	case c.err != nil:
		return c.err
	case c.declined:
		return ErrDeclined
	case c.afterStop:
		return ErrAfterStop
	case c.lateName:
		return ErrLateName
	case c.mismatch != nil:
		return c.mismatch
	}
	return r.failed
}

// Verdict returns the policy verdict of the call at index so far, while
// the response streams: the zero Verdict for an index never started or a
// call no policy applies to. Only [Response.End]'s Results are final.
func (r *Response) Verdict(index int64) policy.Verdict {
	if c := r.lookup(index); c != nil && c.ev != nil {
		return c.ev.Verdict()
	}
	return policy.Verdict{}
}

// Call returns the identity of the call at index so far (its id and name,
// the first ones given, and whether the provider runs it), and whether the
// index was started. A feeder from an SDK's decoded chunks asks it to
// follow the SDK's own accumulation (openaisdk.FeedChat appends a repeated
// name, as the SDK does).
func (r *Response) Call(index int64) (fragment.Call, bool) {
	if c := r.lookup(index); c != nil {
		return c.ident, true
	}
	return fragment.Call{}, false
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
// holds. It returns every call's [Result], in index order. The results and
// their Arguments are memory of the [Response], valid until [Response.Reset];
// [Response.Approve], [Response.Decline] and [Response.Fail] after End update
// them. Calling End again returns the same results.
func (r *Response) End() []Result {
	if r.ended {
		return r.results
	}
	r.ended = true
	for _, c := range r.calls {
		c.close()
	}
	slices.SortFunc(r.calls, func(a, b *call) int { return cmp.Compare(a.index, b.index) })
	r.recompute()
	return r.results
}

// recompute makes the results again, after [Response.End].
func (r *Response) recompute() {
	r.results = r.results[:0]
	for _, c := range r.calls {
		r.results = append(r.results, c.result())
	}
}

// Reset prepares r for the next response, keeping its memory (Streams,
// aggregators, evaluators) so that a reused [Response] does not allocate in
// steady state. The calls of the response before are forgotten without
// being closed: call [Response.End] first to get their results. Results
// returned before are overwritten.
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
	r.incomplete, r.failed = false, nil
}

func (r *Response) check(index int64) error {
	switch {
	case r.ended:
		return ErrEnded
	case index < 0:
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

// feeding returns the call at index for a chunk, as open does with an
// identity of the index alone. The deltas of one call come in a row: the
// call looked up last is taken at once, as open would take it (its checks
// pass, and such an identity changes nothing).
func (r *Response) feeding(index int64) (*call, error) {
	if c := r.last; c != nil && c.index == index && !r.ended {
		return c, nil
	}
	return r.open(fragment.Call{Index: index}, false)
}

// open returns the call at id.Index, opening it if it is new, and takes
// the identity id (stated by a [Response.Start] or a [Response.Restate], or
// not, by a [Response.Chunk]).
func (r *Response) open(id fragment.Call, stated bool) (*call, error) {
	index := id.Index
	if err := r.check(index); err != nil {
		return nil, err
	}
	if c := r.lookup(index); c != nil {
		c.identify(id, stated)
		return c, nil
	}
	if len(r.calls) >= r.cfg.maxCalls {
		return nil, ErrTooManyCalls
	}
	var c *call
	if n := len(r.free); n > 0 {
		c, r.free[n-1] = r.free[n-1], nil
		r.free = r.free[:n-1]
	} else {
		var opts []aggregate.Option
		if r.cfg.digestOnly {
			opts = append(opts, aggregate.WithDigest())
		}
		c = &call{r: r, agg: aggregate.New(opts...)}
		c.stream = argstream.New(c, r.cfg.stream...)
	}
	c.index, c.ident, c.started = index, id, stated
	c.hashing = r.restates || r.cfg.restated
	c.stream.Reset(c.ident)
	c.agg.Reset()
	r.calls = append(r.calls, c)
	r.byIndex[index] = c
	r.last = c
	if r.cfg.newSink != nil {
		c.user = r.cfg.newSink(c.ident)
	}
	if id.Name != "" {
		c.lookupPolicy()
	}
	return c, nil
}

// parseRestated parses args, a restatement's arguments, with r's own
// Stream and aggregator, and returns their compact JSON, valid until the
// next call, or an error.
func (r *Response) parseRestated(args []byte) (jsontext.Value, error) {
	if r.restated == nil {
		r.restatedAgg = aggregate.New()
		r.restated = argstream.New(r.restatedAgg, r.cfg.stream...)
	}
	r.restated.Reset(fragment.Call{})
	r.restatedAgg.Reset()
	if err := r.restated.Feed(args); err != nil {
		return nil, err
	}
	if err := r.restated.Close(); err != nil {
		return nil, err
	}
	return r.restatedAgg.Value()
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
