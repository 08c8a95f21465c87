package policy

import (
	"fmt"

	"github.com/argstream/argstream/aggregate"
	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/sink"
	"github.com/go-json-experiment/json/jsontext"
)

// ErrSkip is what an [Evaluator] made with [WithStopOnSkip] returns from Push
// once it has decided [Skip]. It wraps [sink.ErrStop], so the stream stops
// parsing the call: errors.Is(err, sink.ErrStop) and errors.Is(err, ErrSkip)
// hold.
var ErrSkip = fmt.Errorf("policy: decided skip: %w", sink.ErrStop)

// Evaluator decides a policy on one tool call's arguments while they
// stream: it is a [sink.Sink]. It makes exactly the decision Evaluate makes on
// the complete arguments, as soon as the fragments received determine it,
// and never changes it afterwards:
//
//   - a rule with the quantifier [Any] matches the moment a value its arg
//     resolves to completes and matches, at any depth (the first matching
//     element of an array is enough);
//   - a rule with the quantifier [All] is eliminated the moment a value its
//     arg resolves to completes and does not match, and matches at the Done
//     of its top-level parameter if every value matched and there was one;
//   - a rule is eliminated when the Done of its top-level parameter arrives
//     without a match, and every rule still open is eliminated at the Done
//     of the whole arguments (the parameters that never came);
//   - the first rule that is neither matched nor eliminated blocks every
//     rule after it, and a catch-all decides when it is reached.
//
// It keeps only the values some open rule's arg can resolve to: a large
// "content" that no rule names passes through without being stored.
//
// Decided or not, it follows the values of the parameters declared in
// [WithPaths] to the end of the arguments, keeping only the string being
// completed, and [Evaluator.Verdict] names the first that is suspect in the
// policy's path style ([Verdict.SuspectPath]): such a call never runs
// unattended, whatever rule decided [Unattended], and whenever.
//
// A decision is about arguments that end up valid: if the stream then
// fails, Verdict says the call must not run, whatever was decided. And an
// Unattended decision is not yet permission to run without asking: only
// Verdict().Unattended() is, at the end of the arguments.
type Evaluator struct {
	p   *Policy
	cfg evaluatorConfig

	state    []ruleState
	hits     []bool     // an All rule had a matching value
	memo     []keyRef   // the key slices found equal to each rule's tokens (see keyIs)
	parser   parser     // decodes the values rules match
	memos    [][]keyRef // each rule's part of memo
	next     int        // the rules before next are eliminated
	decision Decision
	at       int64 // the offset at which decision became known
	last     int64 // the offset of the last fragment
	changed  bool  // a rule was matched or eliminated by the current fragment
	ended    bool
	err      error

	// The value being kept: the fragments at and under root go to agg,
	// with paths relative to root.
	agg       *aggregate.Aggregator
	capturing bool
	root      fragment.Path // owns its keys: see setRoot
	keys      []byte
	full      fragment.Path // scratch: root + a relative path
	frag      fragment.Fragment

	// The values of the declared paths (see watch).
	pmemo   []keyRef   // as memo, for the pointers of Policy.paths
	pmemos  [][]keyRef // each declared pointer's part of pmemo
	inPath  bool       // a string some declared pointer resolves to is open
	path    []byte     // that string's pieces so far
	suspect jsontext.Pointer
}

type ruleState uint8

const (
	open ruleState = iota
	matched
	eliminated
)

// EvaluatorOption configures an [Evaluator] ([Policy.Evaluator]). It is a type
// of its own, not an [Option], because an Evaluator is configured apart from
// its [Policy]: one Policy, built once with its Options, serves the Evaluators
// of many calls, each with its own callback. An EvaluatorOption only sets
// fields of the configuration it is given: one may configure several
// Evaluators, from several goroutines.
type EvaluatorOption func(*evaluatorConfig)

type evaluatorConfig struct {
	onDecision func(Decision, int64)
	stopOnSkip bool
}

// OnDecision calls fn once, the moment the decision is known, with the
// decision and the offset ([fragment.Progress.Offset]: the length of the
// argument prefix) that determined it. A policy that starts with a catch-all
// decides at offset 0, before any fragment: fn is then called by [Evaluator]
// (and by Reset).
//
// The decision is reported as it is made, and never changes, but it is not
// the verdict: an [Unattended] decision whose call turns out to have a suspect
// declared path ([Verdict.SuspectPath]), later in the stream, needs the
// user's approval after all. Use it to prepare; only Verdict().Unattended()
// at the end says the call may run without asking.
func OnDecision(fn func(d Decision, at int64)) EvaluatorOption {
	return func(c *evaluatorConfig) { c.onDecision = fn }
}

// WithStopOnSkip makes Push return [ErrSkip] once the decision is [Skip], so
// that the stream stops parsing a call that will not run and the caller can
// cancel it upstream. The arguments are then never checked to the end:
// [Verdict] reports them as not valid (Err is ErrSkip). Leave it off to
// validate the arguments whatever the decision.
func WithStopOnSkip() EvaluatorOption {
	return func(c *evaluatorConfig) { c.stopOnSkip = true }
}

// Evaluator returns a streaming evaluator of p for one tool call.
func (p *Policy) Evaluator(opts ...EvaluatorOption) *Evaluator {
	e := &Evaluator{p: p, state: make([]ruleState, len(p.rules)), hits: make([]bool, len(p.rules))}
	n := 0
	for i := range p.rules {
		n += len(p.rules[i].segs)
	}
	e.memo, e.memos = make([]keyRef, n), make([][]keyRef, len(p.rules))
	n = 0
	for i := range p.rules {
		e.memos[i] = e.memo[n : n+len(p.rules[i].segs) : n+len(p.rules[i].segs)]
		n += len(p.rules[i].segs)
	}
	n = 0
	for _, segs := range p.paths {
		n += len(segs)
	}
	e.pmemo, e.pmemos = make([]keyRef, n), make([][]keyRef, len(p.paths))
	n = 0
	for i, segs := range p.paths {
		e.pmemos[i] = e.pmemo[n : n+len(segs) : n+len(segs)]
		n += len(segs)
	}
	for _, o := range opts {
		o(&e.cfg)
	}
	e.agg = aggregate.New(aggregate.OnValue(e.onValue))
	e.Reset()
	return e
}

// Reset prepares e for another tool call's arguments.
func (e *Evaluator) Reset() {
	clear(e.state)
	clear(e.hits)
	clear(e.memo)
	e.next, e.decision, e.at, e.last = 0, Decision{}, -1, 0
	e.ended, e.err, e.capturing = false, nil, false
	clear(e.pmemo)
	e.inPath, e.path, e.suspect = false, e.path[:0], ""
	e.agg.Reset()
	e.advance(0)
}

// Decision returns the decision, or the zero Decision (waiting) before it is
// known. Once known it never changes.
func (e *Evaluator) Decision() Decision { return e.decision }

// DecidedAt returns the offset at which the decision became known (see
// [OnDecision]), or -1 before.
func (e *Evaluator) DecidedAt() int64 { return e.at }

// Push consumes the next fragment. It implements [sink.Sink].
func (e *Evaluator) Push(p *fragment.Progress) error {
	if e.ended {
		return e.stop()
	}
	e.watch(p)
	if e.decision.Decided() {
		return e.stop()
	}
	e.last = p.Offset
	e.changed = false
	if e.capturing || e.startCapture(p.Path) {
		e.frag = p.Fragment
		e.frag.Path = p.Path[len(e.root):]
		if _, err := e.agg.Add(&e.frag); err != nil {
			return fmt.Errorf("policy: %w", err)
		}
		if p.Kind == fragment.Done && len(p.Path) == len(e.root) {
			e.capturing = false
			e.agg.Reset()
		}
	}
	if p.Kind == fragment.Done {
		if len(p.Path) > 0 && !p.Path[len(p.Path)-1].IsIndex() {
			// The member's key slice may now hold the next key.
			clear(e.memo)
		}
		switch {
		case len(p.Path) == 0:
			e.eliminateAll()
		case len(p.Path) == 1 && !p.Path[0].IsIndex():
			e.settle(p.Path[0].Key)
		}
	}
	if e.changed {
		e.advance(p.Offset)
	}
	return e.stop()
}

// End records how the stream ended. It implements [sink.Sink]. End(nil) after
// arguments whose root Done never came (a tokenizer that does not send it)
// still decides, as the end of the arguments.
func (e *Evaluator) End(err error) {
	if e.ended {
		return
	}
	e.ended, e.err = true, err
	if err == nil && !e.decision.Decided() {
		e.eliminateAll()
		e.advance(e.last)
	}
}

// stop is what [Evaluator.Push] returns once the fragment is handled.
func (e *Evaluator) stop() error {
	if e.cfg.stopOnSkip && e.decision.Mode == Skip {
		return ErrSkip
	}
	return nil
}

// watch follows the strings that the pointers declared in [WithPaths] resolve
// to, before and after the decision, and records the pointer of the first
// that is suspect in the policy's style. It keeps the pieces of the string
// being completed only, and only until one is found suspect: the work is
// linear in the length of those strings, and the buffer, kept across
// [Evaluator.Reset], stops growing once it holds the longest. Strings are
// leaves, so the Done that follows a string's pieces is the string's own. The
// empty string, which has no pieces, is never suspect.
func (e *Evaluator) watch(p *fragment.Progress) {
	if len(e.p.paths) == 0 || e.suspect != "" {
		return
	}
	switch p.Kind {
	case fragment.String:
		if !e.inPath {
			if !e.onPaths(p.Path) {
				return
			}
			e.inPath = true
		}
		e.path = append(e.path, p.Text...)
	case fragment.Done:
		if e.inPath {
			if resolvePath(string(e.path), e.p.style).suspect {
				e.suspect = p.Path.Pointer()
			}
			e.inPath, e.path = false, e.path[:0]
		}
		if len(p.Path) > 0 && !p.Path[len(p.Path)-1].IsIndex() {
			clear(e.pmemo) // as in Push
		}
	}
}

// onPaths reports whether a value some pointer declared in [WithPaths] resolves
// to can be at path.
func (e *Evaluator) onPaths(path fragment.Path) bool {
	for i, segs := range e.p.paths {
		if onPointer(segs, path, e.pmemos[i]) {
			return true
		}
	}
	return false
}

// startCapture reports whether a value some open rule's arg resolves to is
// at or above path, and if so starts keeping it: root becomes the shortest
// such prefix of path, so that nested candidates (an array and its
// elements, an object and its members) are kept once, together.
func (e *Evaluator) startCapture(path fragment.Path) bool {
	best := -1
	for i := e.next; i < len(e.p.rules); i++ {
		r := &e.p.rules[i]
		if e.state[i] != open || r.catchAll() {
			continue
		}
		if l := pointerPrefix(r.segs, path, e.memos[i]); l > 0 && (best < 0 || l < best) {
			best = l
		}
	}
	if best < 0 {
		return false
	}
	e.setRoot(path[:best])
	e.capturing = true
	return true
}

// setRoot copies path into root, keys included: the fragment's own path is
// borrowed for the duration of [Evaluator.Push] only.
func (e *Evaluator) setRoot(path fragment.Path) {
	clear(e.memo) // it may hold root's keys, which change here
	e.keys = e.keys[:0]
	for _, s := range path {
		e.keys = append(e.keys, s.Key...)
	}
	e.root = e.root[:0]
	at := 0
	for _, s := range path {
		if s.IsIndex() {
			e.root = append(e.root, s)
			continue
		}
		e.root = append(e.root, fragment.Segment{Key: e.keys[at : at+len(s.Key) : at+len(s.Key)], Index: -1})
		at += len(s.Key)
	}
}

// onValue receives each value that completes at or under root, with its
// path relative to root, and matches it against the open rules whose arg
// resolves to it.
func (e *Evaluator) onValue(rel fragment.Path, text jsontext.Value) error {
	if len(text) > 0 && text[0] == '[' {
		return nil // an array stands for its elements, which came before
	}
	e.full = append(append(e.full[:0], e.root...), rel...)
	var v value
	parsed := false
	for i := e.next; i < len(e.p.rules); i++ {
		r := &e.p.rules[i]
		if e.state[i] != open || r.catchAll() || !onPointer(r.segs, e.full, e.memos[i]) {
			continue
		}
		if !parsed {
			var err error
			if v, err = e.parser.parse(text); err != nil {
				return err
			}
			parsed = true
		}
		switch ok := r.m.match(&v); {
		case ok && r.all:
			e.hits[i] = true
		case ok:
			e.state[i] = matched
			e.changed = true
		case r.all:
			e.state[i] = eliminated
			e.changed = true
		}
	}
	return nil
}

// settle settles the open rules on the top-level parameter key, whose value
// is complete: every value they could resolve to has been matched. An [All]
// rule still open matches if it had a value (every one matched, or it
// would have been eliminated); the others are eliminated.
func (e *Evaluator) settle(key []byte) {
	for i := e.next; i < len(e.p.rules); i++ {
		r := &e.p.rules[i]
		if e.state[i] == open && !r.catchAll() && r.segs[0] == string(key) {
			e.state[i] = eliminated
			if r.all && e.hits[i] {
				e.state[i] = matched
			}
			e.changed = true
		}
	}
}

// eliminateAll eliminates every open rule: the arguments are complete, and
// a rule still open never had its parameter settled (it never came, or the
// tokenizer sent no Done for it, in which case its values are not known
// to be all there).
func (e *Evaluator) eliminateAll() {
	for i := e.next; i < len(e.p.rules); i++ {
		if e.state[i] == open && !e.p.rules[i].catchAll() {
			e.state[i] = eliminated
		}
	}
	e.changed = true
}

// advance moves past eliminated rules and decides if it reaches a matched
// rule, a catch-all, or the end of the list. Each rule is passed once per
// call's arguments, so the work is linear in the number of rules.
func (e *Evaluator) advance(at int64) {
	for ; e.next < len(e.p.rules); e.next++ {
		r := &e.p.rules[e.next]
		switch {
		case r.catchAll() || e.state[e.next] == matched:
			e.decide(Decision{Mode: r.Mode, Rule: e.next}, at)
			return
		case e.state[e.next] == open:
			return
		}
	}
	e.decide(Decision{Mode: Ask, Rule: ImplicitRule}, at)
}

func (e *Evaluator) decide(d Decision, at int64) {
	e.decision, e.at = d, at
	e.capturing = false
	if e.cfg.onDecision != nil {
		e.cfg.onDecision(d, at)
	}
}
