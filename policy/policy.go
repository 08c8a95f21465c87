package policy

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Rule is one entry of a policy: a condition and the mode it decides. A
// rule with an Arg and a Match holds when any value Arg resolves to
// matches; a rule with neither is a catch-all and always holds.
type Rule struct {
	// Arg is an RFC 6901 JSON pointer into the arguments, such as "/path"
	// or "/patterns/paths"; "" for a catch-all.
	Arg string
	// Match is the condition on Arg's values; the zero Matcher for a
	// catch-all.
	Match Matcher
	// Mode is what the rule decides.
	Mode Mode
}

// Policy is a checked, ordered list of rules, closed by an implicit Ask.
// It is immutable and safe for concurrent use; each tool call gets its own
// Evaluator.
type Policy struct {
	rules []rule
}

// rule is a checked Rule.
type rule struct {
	Rule
	segs []string // Arg's tokens; nil for a catch-all
	m    matcher
}

func (r *rule) catchAll() bool { return r.segs == nil }

// Option configures New.
type Option func(*options)

type options struct {
	paths []string
}

// Paths declares parameters, by JSON pointer, whose values are file paths:
// a prefix on them compares whole path components after lexical
// normalisation (see the package documentation, "Path prefixes").
func Paths(pointers ...string) Option {
	return func(o *options) { o.paths = append(o.paths, pointers...) }
}

// New checks rules and returns them as a Policy. Every problem found is an
// error (a *RuleError each, joined); warnings, such as a list without a
// final catch-all, come back separately and do not stop the policy.
func New(rules []Rule, opts ...Option) (*Policy, []Warning, error) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	return build(rules, o, nil, nil)
}

// build is New for rules of which some (broken) already failed to load,
// with errs their errors: they are not checked again, and the others are.
func build(rules []Rule, o options, broken []bool, errs []error) (*Policy, []Warning, error) {
	var warns []Warning
	isPath := map[string]bool{}
	for i, p := range o.paths {
		if _, err := parsePointer(p); err != nil {
			errs = append(errs, &RuleError{Rule: -1, Field: fmt.Sprintf("paths[%d]", i), Err: err})
			continue
		}
		isPath[p] = true
	}

	pol := &Policy{rules: make([]rule, len(rules))}
	ok := make([]bool, len(rules))
	for i, r := range rules {
		if broken != nil && broken[i] {
			continue
		}
		var rerrs []error
		pol.rules[i], rerrs = check(i, r, isPath[r.Arg])
		ok[i] = len(rerrs) == 0
		errs = append(errs, rerrs...)
		if ok[i] {
			warns = append(warns, indexWarnings(i, &pol.rules[i])...)
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
	for i, p := range o.paths {
		if isPath[p] && !slices.ContainsFunc(rules, func(r Rule) bool { return r.Arg == p }) {
			warns = append(warns, Warning{Rule: -1, Field: fmt.Sprintf("paths[%d]", i), Msg: fmt.Sprintf("%q is the \"arg\" of no rule", p)})
		}
	}
	if len(errs) > 0 {
		slices.SortStableFunc(errs, func(a, b error) int { return ruleOf(a) - ruleOf(b) })
		return nil, warns, errors.Join(errs...)
	}
	return pol, warns, nil
}

// check checks one rule on its own.
func check(i int, r Rule, isPath bool) (rule, []error) {
	c := rule{Rule: r}
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
	switch {
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
	if c.m, err = compile(r.Match, isPath); err != nil {
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
			if !ri.catchAll() && rj.Arg == ri.Arg && rj.m.covers(&ri.m) {
				errs = append(errs, &RuleError{Rule: i, Arg: ri.Arg, Field: ri.m.key,
					Err: fmt.Errorf("%s can never match: rule %d (%v) on the same arg comes first and matches every value it matches",
						ri.m.src.operand, j, rj.m.src)})
				break
			}
		}
	}
	return errs
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
