package policy

import (
	"bytes"
	"errors"
	"io"
	"slices"

	"github.com/argstream/argstream/token"
	"github.com/argstream/argstream/token/jsontoken"
	"github.com/go-json-experiment/json/jsontext"
)

// Evaluate decides from the parameters known so far: known maps the name of
// each top-level parameter whose value is complete to that value, and
// complete says the arguments have ended, so that a parameter not in known
// will never come. It is RFD D26's pure evaluator (its Phase 1:
// docs/design.md, "RFD D26's phases"), written to be obviously right on whole
// values, and the reference the streaming [Evaluator] is tested against:
//
//   - a catch-all decides;
//   - a rule whose parameter is known decides if the values its arg
//     resolves to match as its quantifier says (any one of them; or all of
//     them, and at least one), and is eliminated otherwise;
//   - a rule whose parameter is not known is eliminated if the arguments
//     are complete, and otherwise blocks: the result is the zero [Decision],
//     waiting, whatever the later rules say;
//   - when every rule is eliminated, the implicit [Ask] decides
//     ([ImplicitRule]).
//
// A value in known that is not valid JSON matches nothing. Evaluate returns
// the decision only: an [Unattended] decision on arguments with a suspect
// declared path does not let the call run unattended, which only an
// Evaluator's Verdict().Unattended() says.
func (p *Policy) Evaluate(known map[string]jsontext.Value, complete bool) Decision {
	for i := range p.rules {
		r := &p.rules[i]
		if r.catchAll() {
			return Decision{Mode: r.Mode, Rule: i}
		}
		text, ok := known[r.segs[0]]
		if !ok {
			if complete {
				continue
			}
			return Decision{}
		}
		v, err := parseValue(text)
		if err != nil {
			continue
		}
		matched, total := count(&v, r.segs[1:], r.m.match)
		if r.all && total > 0 && matched == total || !r.all && matched > 0 {
			return Decision{Mode: r.Mode, Rule: i}
		}
	}
	return Decision{Mode: Ask, Rule: ImplicitRule}
}

// EvaluateArgs decides on complete arguments, a JSON object:
// [Policy.Evaluate] with every member known and complete set. Arguments that
// are valid JSON but not an object have no parameters. The arguments are
// checked as a Stream checks them, with [jsontoken.New]'s defaults: invalid
// JSON, a duplicate key or keys a tool would confuse are an error (a
// [*token.SyntaxError]), never a decision. Like Evaluate, it does not look
// for suspect declared paths: to know whether the call may run unattended,
// feed the arguments to an Evaluator and ask its [Verdict].
func (p *Policy) EvaluateArgs(args jsontext.Value) (Decision, error) {
	check := jsontoken.New(token.HandlerFunc(func(token.Event) error { return nil }))
	if err := check.Feed(args); err != nil {
		return Decision{}, err
	}
	if err := check.Close(); err != nil {
		return Decision{}, err
	}
	d := jsontext.NewDecoder(bytes.NewReader(args))
	known := map[string]jsontext.Value{}
	if d.PeekKind() == '{' {
		if _, err := d.ReadToken(); err != nil {
			return Decision{}, err
		}
		for d.PeekKind() != '}' {
			tok, err := d.ReadToken()
			if err != nil {
				return Decision{}, err
			}
			name := tok.String() // before the next read voids tok
			v, err := d.ReadValue()
			if err != nil {
				return Decision{}, err
			}
			known[name] = bytes.Clone(v)
		}
		if _, err := d.ReadToken(); err != nil {
			return Decision{}, err
		}
	} else if _, err := d.ReadValue(); err != nil {
		return Decision{}, err
	}
	switch _, err := d.ReadToken(); {
	case err == nil:
		return Decision{}, errors.New("policy: more than one JSON value")
	case err != io.EOF:
		return Decision{}, err
	}
	return p.Evaluate(known, true), nil
}

// count returns how many of the values that the pointer tokens segs
// resolve to within v satisfy f, and how many there are. An array stands
// for each of its elements, wherever it is met, and is never itself a
// resolved value.
func count(v *value, segs []string, f func(*value) bool) (matched, total int) {
	switch {
	case v.kind == '[':
		for i := range v.items {
			m, t := count(&v.items[i], segs, f)
			matched, total = matched+m, total+t
		}
	case len(segs) == 0:
		if f(v) {
			return 1, 1
		}
		return 0, 1
	case v.kind == '{':
		if i := slices.Index(v.keys, segs[0]); i >= 0 {
			return count(&v.items[i], segs[1:], f)
		}
	}
	return matched, total
}
