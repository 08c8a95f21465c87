package policy

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Rule is one entry of a policy: a condition and the mode it decides. A
// rule with an [Rule.Arg] and a [Rule.Match] holds when the values Arg
// resolves to match as its Quantifier says (by default: every value, and at
// least one, for [Unattended]; any value for the other modes); a rule with
// neither is a catch-all and always holds.
type Rule struct {
	// Arg is an RFC 6901 JSON pointer into the arguments, such as "/path"
	// or "/patterns/paths"; "" for a catch-all.
	Arg string
	// Match is the condition on Arg's values; the zero Matcher for a
	// catch-all.
	Match Matcher
	// Mode is what the rule decides.
	Mode Mode
	// Quantifier says how many of the values Arg resolves to must match.
	// The zero Quantifier is the mode's default: All for Unattended, Any
	// for Ask, Edit and Skip.
	Quantifier Quantifier
}

// Quantifier says how many of the values a rule's arg resolves to must
// match for the rule to hold. An arg resolves to several values when an
// array is met along its pointer ("/path" on ["a", "b"]).
type Quantifier uint8

// Quantifiers. The zero [Quantifier] is a rule's default (see [Rule]).
const (
	// All holds when every value matches and there is at least one: the
	// secure reading for a permissive rule (Unattended), which one
	// unexpected value must be enough to refuse.
	All Quantifier = iota + 1
	// Any holds when one value matches: the secure reading for a
	// restrictive rule (Ask, Edit, Skip), which one bad value must be
	// enough to trigger.
	Any
)

var quantifierNames = [...]string{All: "all", Any: "any"}

// String returns the quantifier's name as the rules file spells it, or
// "default" for the zero [Quantifier].
func (q Quantifier) String() string {
	if q == 0 {
		return "default"
	}
	if int(q) < len(quantifierNames) {
		return quantifierNames[q]
	}
	return fmt.Sprintf("Quantifier(%d)", uint8(q))
}

// ParseQuantifier returns the [Quantifier] named s: "all" or "any".
func ParseQuantifier(s string) (Quantifier, error) {
	switch s {
	case "all":
		return All, nil
	case "any":
		return Any, nil
	}
	return 0, fmt.Errorf("unknown quantifier %q (want all or any)", s)
}

// permissive reports whether mode lets a call run without a person: such a
// rule must hold for every value and under every reading of each value
// (see the package documentation, "Readings").
func permissive(m Mode) bool { return m == Unattended }

// Policy is a checked, ordered list of rules, closed by an implicit [Ask].
// It is immutable and safe for concurrent use; each tool call gets its own
// [Evaluator].
type Policy struct {
	rules []rule
	paths [][]string // the tokens of each pointer declared in WithPaths, once each
	style PathStyle  // how the tool resolves those paths (WithPathStyle)
}

// DeclaresPaths reports whether p declares parameters whose values are
// file paths ([WithPaths]): then a call's [Verdict] may find one suspect
// after its decision, which makes an [Unattended] decision an ask (see
// [Verdict.SuspectPath]). A gateway that must not let an ask through holds
// such a call until its arguments have ended.
func (p *Policy) DeclaresPaths() bool { return len(p.paths) > 0 }

// rule is a checked [Rule].
type rule struct {
	Rule
	segs []string // Arg's tokens; nil for a catch-all
	m    matcher
	all  bool // the quantifier is All (after applying the default)
}

func (r *rule) catchAll() bool { return r.segs == nil }

// quantifier returns r's quantifier, its mode's default applied.
func (r *Rule) quantifier() Quantifier {
	switch {
	case r.Quantifier != 0:
		return r.Quantifier
	case permissive(r.Mode):
		return All
	}
	return Any
}

// Option configures [New] and [Parse]. An Option only sets fields of the
// configuration it is given: one may configure several policies, from
// several goroutines.
type Option func(*config)

type config struct {
	paths        []string
	style        PathStyle
	patternLimit int
}

// WithPaths declares parameters, by JSON pointer, whose values are file
// paths: a prefix on them compares whole path components after lexical
// resolution in the tool's style (see [WithPathStyle] and the package
// documentation, "Path styles"). Given more than once, it appends.
func WithPaths(pointers ...string) Option {
	return func(c *config) { c.paths = append(c.paths, pointers...) }
}

// WithPathStyle sets how the values of the parameters declared with
// [WithPaths] are resolved: [POSIX] (the default) or [Windows] (see the package
// documentation, "Path styles"). Choose the style of the system the tool
// runs on.
func WithPathStyle(style PathStyle) Option {
	return func(c *config) { c.style = style }
}

// WithPatternLimit sets the largest compiled size, in instructions, of a
// pattern, instead of [DefaultMaxPatternSize]. Matching costs time
// proportional to the size for each byte of the value, so a larger limit
// lets the arguments cost more.
func WithPatternLimit(instructions int) Option {
	return func(c *config) { c.patternLimit = instructions }
}

// New checks rules and returns them as a [Policy]. Every problem found is an
// error (a [*RuleError] each, joined); warnings, such as a list without a
// final catch-all, come back separately and do not stop the policy.
func New(rules []Rule, opts ...Option) (*Policy, []Warning, error) {
	return build(rules, newConfig(opts), nil, nil)
}

func newConfig(opts []Option) config {
	c := config{patternLimit: DefaultMaxPatternSize}
	for _, o := range opts {
		o(&c)
	}
	return c
}

// build is [New] for rules of which some (broken) already failed to load,
// with errs their errors: they are not checked again, and the others are.
func build(rules []Rule, o config, broken []bool, errs []error) (*Policy, []Warning, error) {
	var warns []Warning
	if o.style != POSIX && o.style != Windows {
		errs = append(errs, &RuleError{Rule: -1, Field: "path_style", Err: fmt.Errorf("unknown path style %v (want posix or windows)", o.style)})
	}
	pol := &Policy{rules: make([]rule, len(rules)), style: o.style}
	isPath := map[string]bool{}
	for i, p := range o.paths {
		segs, err := parsePointer(p)
		if err != nil {
			errs = append(errs, &RuleError{Rule: -1, Field: fmt.Sprintf("paths[%d]", i), Err: err})
			continue
		}
		if !isPath[p] {
			pol.paths = append(pol.paths, segs)
		}
		isPath[p] = true
	}

	ok := make([]bool, len(rules))
	for i, r := range rules {
		if broken != nil && broken[i] {
			continue
		}
		var rerrs []error
		pol.rules[i], rerrs = check(i, r, isPath[r.Arg], &o)
		ok[i] = len(rerrs) == 0
		errs = append(errs, rerrs...)
		if ok[i] {
			warns = append(warns, indexWarnings(i, &pol.rules[i])...)
			if r.Quantifier == Any && permissive(r.Mode) {
				warns = append(warns, Warning{Rule: i, Arg: r.Arg, Field: "quantifier",
					Msg: `"any" on an "unattended" rule runs the call without asking when one value matches, whatever the others are; the default, "all", needs every value to match`})
			}
		}
	}
	errs = append(errs, unreachable(pol.rules, ok)...)

	switch {
	case len(rules) == 0:
		warns = append(warns, Warning{Rule: -1, Field: "run", Msg: `no rules: every call gets the implicit "ask"`})
	case rules[len(rules)-1].Arg != "" || rules[len(rules)-1].Match.key != "":
		warns = append(warns, Warning{Rule: -1, Field: "run",
			Msg: `no final catch-all: a call that matches no rule gets the implicit "ask"; end the list with {"mode": ...} to say what you mean`})
	}
	if len(errs) > 0 {
		slices.SortStableFunc(errs, func(a, b error) int { return ruleOf(a) - ruleOf(b) })
		return nil, warns, errors.Join(errs...)
	}
	return pol, warns, nil
}

// check checks one rule on its own.
func check(i int, r Rule, isPath bool, o *config) (rule, []error) {
	c := rule{Rule: r, all: r.quantifier() == All}
	var errs []error
	fail := func(field string, err error) {
		errs = append(errs, &RuleError{Rule: i, Arg: r.Arg, Field: field, Err: err})
	}
	switch {
	case r.Mode == 0:
		fail("mode", errors.New("missing (want ask, unattended, edit or skip)"))
	case !r.Mode.valid():
		fail("mode", fmt.Errorf("unknown mode %v (want ask, unattended, edit or skip)", r.Mode))
	}
	if r.Quantifier > Any {
		fail("quantifier", fmt.Errorf("unknown quantifier %v (want all or any)", r.Quantifier))
	}
	switch {
	case r.Arg == "" && r.Match.key == "" && r.Quantifier != 0:
		fail("quantifier", errors.New(`a catch-all has no values to quantify: give an "arg" and a matcher, or drop "quantifier"`))
		return c, errs
	case r.Arg == "" && r.Match.key == "":
		return c, errs // a catch-all
	case r.Arg == "":
		fail(r.Match.key, errors.New(`a matcher needs an "arg" to apply to (a rule without "arg" is a catch-all and has no matcher)`))
		return c, errs
	}
	segs, err := parsePointer(r.Arg)
	if err != nil {
		fail("arg", err)
	}
	c.segs = segs
	if c.segs == nil {
		c.segs = []string{} // never nil: nil means catch-all
	}
	if r.Match.key == "" {
		fail("", fmt.Errorf("no matcher: give one of %s (a rule without \"arg\" is a catch-all)", strings.Join(matcherKeys, ", ")))
		return c, errs
	}
	if c.m, err = compile(r.Match, isPath, permissive(r.Mode), o); err != nil {
		fail(r.Match.key, err)
	}
	return c, errs
}

// unreachable reports each rule that an earlier rule makes impossible to
// reach: a catch-all before it, or a rule on the same arg that matches
// every value it matches. Rules with errors of their own are left out.
func unreachable(rules []rule, ok []bool) []error {
	var errs []error
	for i := range rules {
		if !ok[i] {
			continue
		}
		ri := &rules[i]
		for j := range i {
			rj := &rules[j]
			if !ok[j] {
				continue
			}
			if rj.catchAll() {
				errs = append(errs, &RuleError{Rule: i, Arg: ri.Arg,
					Err: fmt.Errorf("can never match: rule %d is a catch-all and decides every call first", j)})
				break
			}
			if !ri.catchAll() && rj.Arg == ri.Arg && rj.covers(ri) {
				errs = append(errs, &RuleError{Rule: i, Arg: ri.Arg, Field: ri.m.key,
					Err: fmt.Errorf("%s can never match: rule %d (%v) on the same arg comes first and matches every value it matches",
						ri.m.src.operand, j, rj.m.src)})
				break
			}
		}
	}
	return errs
}

// covers reports whether r holds whenever n holds, so that n after r can
// never decide. Besides the matchers, the quantifiers and the readings
// must agree: a rule that needs every value (or every reading) does not
// cover one that is content with any.
func (r *rule) covers(n *rule) bool {
	if r.all && !n.all || r.m.permissive && !n.m.permissive {
		return false
	}
	return r.m.covers(&n.m)
}

// indexWarnings warns about pointer tokens that look like array indexes:
// along a pointer an array stands for every element, so "/patterns/0/paths"
// looks for a key "0", not the first element.
func indexWarnings(i int, r *rule) []Warning {
	var warns []Warning
	for k, s := range r.segs {
		if k > 0 && s != "" && strings.Trim(s, "0123456789") == "" {
			warns = append(warns, Warning{Rule: i, Arg: r.Arg, Field: "arg",
				Msg: fmt.Sprintf("token %q names the object key %q: an array along a pointer stands for each of its elements, so pointers do not select an index", s, s)})
		}
	}
	return warns
}

// ruleOf returns the rule an error is about, -1 if none.
func ruleOf(err error) int {
	var re *RuleError
	if errors.As(err, &re) {
		return re.Rule
	}
	return -1
}
