package policy

import (
	"bytes"
	"errors"
	"io"
	"slices"

	"github.com/go-json-experiment/json/jsontext"
)

// Evaluate decides from the parameters known so far: known maps the name of
// each top-level parameter whose value is complete to that value, and
// complete says the arguments have ended, so that a parameter not in known
// will never come. It is RFD D26's pure evaluator, written to be obviously
// right on whole values, and the reference the streaming Evaluator is
// tested against:
//
//   - a catch-all decides;
//   - a rule whose parameter is known decides if any value its arg resolves
//     to matches, and is eliminated otherwise;
//   - a rule whose parameter is not known is eliminated if the arguments
//     are complete, and otherwise blocks: the result is the zero Decision,
//     waiting, whatever the later rules say;
//   - when every rule is eliminated, the implicit Ask decides (ImplicitRule).
//
// A value in known that is not valid JSON matches nothing.
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
		if v, err := parseValue(text); err == nil && resolve(&v, r.segs[1:], r.m.match) {
			return Decision{Mode: r.Mode, Rule: i}
		}
	}
	return Decision{Mode: Ask, Rule: ImplicitRule}
}

// EvaluateArgs decides on complete arguments, a JSON object: Evaluate with
// every member known and complete set. Arguments that are valid JSON but not
// an object have no parameters.
func (p *Policy) EvaluateArgs(args jsontext.Value) (Decision, error) {
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

// resolve reports whether f holds for any value that the pointer tokens
// segs resolve to within v: an array stands for each of its elements,
// wherever it is met, and is never itself a resolved value.
func resolve(v *value, segs []string, f func(*value) bool) bool {
	switch {
	case v.kind == '[':
		for i := range v.items {
			if resolve(&v.items[i], segs, f) {
				return true
			}
		}
		return false
	case len(segs) == 0:
		return f(v)
	case v.kind == '{':
		if i := slices.Index(v.keys, segs[0]); i >= 0 {
			return resolve(&v.items[i], segs[1:], f)
		}
	}
	return false
}
