package policy

import (
	"errors"
	"fmt"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// file is the rules file. Fields stay raw JSON so that a value of the wrong
// type is reported by the rule and field it belongs to.
type file struct {
	Run       jsontext.Value `json:"run"`
	Paths     jsontext.Value `json:"paths"`
	PathStyle jsontext.Value `json:"path_style"`
}

// ruleJSON is one rule of the rules file.
type ruleJSON struct {
	Arg              jsontext.Value `json:"arg"`
	Mode             jsontext.Value `json:"mode"`
	Quantifier       jsontext.Value `json:"quantifier"`
	Const            jsontext.Value `json:"const"`
	Enum             jsontext.Value `json:"enum"`
	Pattern          jsontext.Value `json:"pattern"`
	Prefix           jsontext.Value `json:"prefix"`
	Minimum          jsontext.Value `json:"minimum"`
	Maximum          jsontext.Value `json:"maximum"`
	ExclusiveMinimum jsontext.Value `json:"exclusive_minimum"`
	ExclusiveMaximum jsontext.Value `json:"exclusive_maximum"`
}

// Parse reads a rules file and checks it as [New] does:
//
//	{"run": [RULE, ...], "paths": ["/path", ...], "path_style": "posix"}
//	{"run": "MODE"}
//
// where RULE is {"arg": POINTER, MATCHER: OPERAND, "mode": MODE} with one
// MATCHER among const, enum, pattern, prefix, minimum, maximum,
// exclusive_minimum and exclusive_maximum, and optionally "quantifier":
// "all" or "any" (see [Rule.Quantifier]), or {"mode": MODE} for a catch-all;
// a bare MODE is one catch-all rule. "paths" (optional) declares the
// parameters whose values are file paths (see [WithPaths]), and
// "path_style" (optional, "posix" or "windows") how the tool resolves them
// (see [WithPathStyle]). Unknown keys, duplicate keys and invalid JSON are
// errors. opts apply as in New ([WithPatternLimit]); the file's "paths" and
// "path_style" are added to them.
func Parse(data []byte, opts ...Option) (*Policy, []Warning, error) {
	var f file
	if err := json.Unmarshal(data, &f, json.RejectUnknownMembers(true)); err != nil {
		return nil, nil, &RuleError{Rule: -1, Err: jsonError(err, `"run", "paths" and "path_style"`)}
	}
	var rules []Rule
	var broken []bool
	var errs []error
	switch f.Run.Kind() {
	case 0:
		return nil, nil, &RuleError{Rule: -1, Field: "run", Err: errors.New(`missing: give a list of rules, or a mode for every call`)}
	case '"':
		var s string
		if err := json.Unmarshal(f.Run, &s); err != nil {
			return nil, nil, &RuleError{Rule: -1, Field: "run", Err: err}
		}
		m, err := ParseMode(s)
		if err != nil {
			return nil, nil, &RuleError{Rule: -1, Field: "run", Err: err}
		}
		rules = []Rule{{Mode: m}}
	case '[':
		var raw []jsontext.Value
		if err := json.Unmarshal(f.Run, &raw); err != nil {
			return nil, nil, &RuleError{Rule: -1, Field: "run", Err: err}
		}
		rules = make([]Rule, len(raw))
		broken = make([]bool, len(raw))
		for i, r := range raw {
			var rerrs []error
			rules[i], rerrs, broken[i] = parseRule(i, r)
			errs = append(errs, rerrs...)
		}
	default:
		return nil, nil, &RuleError{Rule: -1, Field: "run", Err: fmt.Errorf("must be a list of rules or a mode, got %s", f.Run)}
	}
	o := newConfig(opts)
	if f.Paths != nil {
		var paths []string
		if err := json.Unmarshal(f.Paths, &paths); err != nil {
			errs = append(errs, &RuleError{Rule: -1, Field: "paths", Err: errors.New("must be a list of JSON pointers (strings)")})
		}
		o.paths = append(o.paths, paths...)
	}
	if f.PathStyle != nil {
		var s string
		err := json.Unmarshal(f.PathStyle, &s)
		if err == nil {
			o.style, err = ParsePathStyle(s)
		}
		if err != nil {
			errs = append(errs, &RuleError{Rule: -1, Field: "path_style", Err: fmt.Errorf(`must be "posix" or "windows", got %s`, f.PathStyle)})
		}
	}
	return build(rules, o, broken, errs)
}

// parseRule reads one rule of the file into a [Rule] for [New] to check.
//
// It returns the rule, its errors, and whether they leave it too broken for
// New to check the rest of it.
func parseRule(i int, text jsontext.Value) (Rule, []error, bool) {
	var rj ruleJSON
	if text.Kind() != '{' {
		return Rule{}, []error{&RuleError{Rule: i, Err: fmt.Errorf(`must be an object such as {"arg": "/path", "prefix": "src/", "mode": "ask"}, got %s`, text)}}, true
	}
	if err := json.Unmarshal(text, &rj, json.RejectUnknownMembers(true)); err != nil {
		return Rule{}, []error{&RuleError{Rule: i, Err: jsonError(err, `"arg", "mode", "quantifier" and one matcher (`+strings.Join(matcherKeys, ", ")+`)`)}}, true
	}
	var r Rule
	var errs []error
	broken := false
	fail := func(field string, err error) {
		errs = append(errs, &RuleError{Rule: i, Arg: r.Arg, Field: field, Err: err})
		broken = true
	}
	if rj.Arg != nil {
		if err := json.Unmarshal(rj.Arg, &r.Arg); err != nil {
			fail("arg", fmt.Errorf("must be a JSON pointer (a string), got %s", rj.Arg))
		} else if r.Arg == "" {
			_, err := parsePointer("")
			fail("arg", err)
		}
	}
	if rj.Quantifier != nil {
		var s string
		err := json.Unmarshal(rj.Quantifier, &s)
		if err == nil {
			r.Quantifier, err = ParseQuantifier(s)
		}
		if err != nil {
			fail("quantifier", fmt.Errorf(`must be "all" or "any", got %s`, rj.Quantifier))
		}
	}
	var keys []string
	for _, m := range []struct {
		key     string
		operand jsontext.Value
	}{
		{keyConst, rj.Const}, {keyEnum, rj.Enum}, {keyPattern, rj.Pattern}, {keyPrefix, rj.Prefix},
		{keyMinimum, rj.Minimum}, {keyMaximum, rj.Maximum},
		{keyExclusiveMinimum, rj.ExclusiveMinimum}, {keyExclusiveMaximum, rj.ExclusiveMaximum},
	} {
		if m.operand != nil {
			keys = append(keys, fmt.Sprintf("%q", m.key))
			r.Match = Matcher{key: m.key, operand: m.operand}
		}
	}
	if len(keys) > 1 {
		fail("", fmt.Errorf("%s: a rule has one matcher; write one rule per condition", strings.Join(keys, " and ")))
	}
	// A bad mode is reported here and replaced, so that New still checks
	// the rest of the rule without reporting the mode again.
	modeErr := errors.New("missing (want ask, unattended, edit or skip)")
	if rj.Mode != nil {
		var s string
		if err := json.Unmarshal(rj.Mode, &s); err != nil {
			modeErr = fmt.Errorf("must be a string (ask, unattended, edit or skip), got %s", rj.Mode)
		} else {
			r.Mode, modeErr = ParseMode(s)
		}
	}
	if modeErr != nil {
		r.Mode = Ask
		errs = append(errs, &RuleError{Rule: i, Arg: r.Arg, Field: "mode", Err: modeErr})
	}
	return r, errs, broken
}

// jsonError rewrites json's unknown-member error to name the key and what
// is allowed instead.
func jsonError(err error, allowed string) error {
	var se *json.SemanticError
	if errors.Is(err, json.ErrUnknownName) && errors.As(err, &se) {
		name := strings.TrimPrefix(string(se.JSONPointer), "/")
		name = strings.ReplaceAll(strings.ReplaceAll(name, "~1", "/"), "~0", "~")
		return fmt.Errorf("unknown key %q (allowed: %s)", name, allowed)
	}
	return err
}
