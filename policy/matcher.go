package policy

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// The matcher keys of the rules file, in the order messages list them.
const (
	keyConst            = "const"
	keyEnum             = "enum"
	keyPattern          = "pattern"
	keyPrefix           = "prefix"
	keyMinimum          = "minimum"
	keyMaximum          = "maximum"
	keyExclusiveMinimum = "exclusive_minimum"
	keyExclusiveMaximum = "exclusive_maximum"
)

var matcherKeys = []string{keyConst, keyEnum, keyPattern, keyPrefix, keyMinimum, keyMaximum, keyExclusiveMinimum, keyExclusiveMaximum}

// Matcher is a rule's condition on the values its arg resolves to: one of
// the rules file's matcher keys with its operand as JSON text. The zero
// Matcher is no condition: a rule without one is a catch-all. Build one with
// [Const], [Enum], [Pattern], [Prefix], [Minimum], [Maximum],
// [ExclusiveMinimum] or [ExclusiveMaximum]; [New] checks it.
type Matcher struct {
	key     string
	operand jsontext.Value
	err     error // from building the operand, reported by New
}

// Const matches a value equal to v, a JSON value other than an array (see
// the package documentation, "Matchers", for equality).
func Const(v jsontext.Value) Matcher { return Matcher{key: keyConst, operand: bytes.Clone(v)} }

// Enum matches a value equal to one of vs.
func Enum(vs ...jsontext.Value) Matcher {
	b := []byte{'['}
	for i, v := range vs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, v...)
	}
	return Matcher{key: keyEnum, operand: append(b, ']')}
}

// Pattern matches a string that contains a match of the regular expression
// re, in Go's RE2 syntax (see the package documentation, "Patterns").
func Pattern(re string) Matcher { return stringMatcher(keyPattern, re) }

// Prefix matches a string that starts with p, or, on a parameter declared
// as a path ([WithPaths]), a path under p (see "Path styles").
func Prefix(p string) Matcher { return stringMatcher(keyPrefix, p) }

// Minimum matches a number >= n, where n is the text of a JSON number.
func Minimum(n string) Matcher { return Matcher{key: keyMinimum, operand: jsontext.Value(n)} }

// Maximum matches a number <= n, where n is the text of a JSON number.
func Maximum(n string) Matcher { return Matcher{key: keyMaximum, operand: jsontext.Value(n)} }

// ExclusiveMinimum matches a number > n, where n is the text of a JSON number.
func ExclusiveMinimum(n string) Matcher {
	return Matcher{key: keyExclusiveMinimum, operand: jsontext.Value(n)}
}

// ExclusiveMaximum matches a number < n, where n is the text of a JSON number.
func ExclusiveMaximum(n string) Matcher {
	return Matcher{key: keyExclusiveMaximum, operand: jsontext.Value(n)}
}

func stringMatcher(key, s string) Matcher {
	b, err := jsontext.AppendQuote(nil, s)
	if err != nil {
		err = fmt.Errorf("%q is not valid UTF-8", s)
	}
	return Matcher{key: key, operand: b, err: err}
}

// Key returns the matcher's key in the rules file, such as "prefix", or ""
// for no matcher.
func (m Matcher) Key() string { return m.key }

// Operand returns the matcher's operand as JSON text. It is m's memory.
func (m Matcher) Operand() jsontext.Value { return m.operand }

// String returns m as it reads in the rules file: "prefix": "src/".
func (m Matcher) String() string {
	if m.key == "" {
		return "no matcher"
	}
	return fmt.Sprintf("%q: %s", m.key, m.operand)
}

// matcher is a checked [Matcher], ready to match.
type matcher struct {
	key        string
	values     []value        // const: one value; enum: the alternatives
	re         *regexp.Regexp // pattern
	prefix     string         // prefix
	path       bool           // the values are file paths (see matchPath)
	permissive bool           // every reading must match, not any (see match)
	style      PathStyle      // the tool's path style, when path is set
	dirs       [2]filePath    // the prefix resolved in each style, when path is set
	canon      [][2]string    // const, enum: each value resolved in each style, when path is set
	readings   []readingBound // const, enum: each number's float64 reading
	bound      decimal        // minimum, maximum and their exclusive forms
	boundF     decimal        // the bound's float64 reading
	reading    readingBound   // compares a value's float64 reading with boundF
	lower      bool           // bound is a minimum
	strict     bool           // bound is exclusive
	src        Matcher        // for messages
}

// isBound reports whether key is one of the numeric matchers.
func isBound(key string) bool {
	return key == keyMinimum || key == keyMaximum || key == keyExclusiveMinimum || key == keyExclusiveMaximum
}

// compile checks m's operand and prepares it. isPath says the rule's arg is
// declared a path: its values are strings, so only string matchers fit.
// permissive says the rule is permissive ([Unattended]): it must hold under
// every reading of a value, not just one.
func compile(m Matcher, isPath, permissive bool, o *config) (matcher, error) {
	if m.err != nil {
		return matcher{}, m.err
	}
	c := matcher{key: m.key, src: m, path: isPath, permissive: permissive, style: o.style}
	v, err := parseValue(m.operand)
	switch {
	case err != nil && isBound(m.key):
		return c, fmt.Errorf("must be a JSON number, got %s", m.operand)
	case err != nil:
		return c, fmt.Errorf("%s is not one JSON value: %v", m.operand, err)
	}
	switch m.key {
	case keyConst:
		c.values = []value{v}
	case keyEnum:
		if v.kind != '[' {
			return c, fmt.Errorf("must be an array of the values to match, got %s", v.describe(m.operand))
		}
		if len(v.items) == 0 {
			return c, errors.New("[] can never match: list at least one value")
		}
		c.values = v.items
	case keyPattern, keyPrefix:
		if v.kind != '"' {
			return c, fmt.Errorf("must be a string, got %s", v.describe(m.operand))
		}
		if m.key == keyPrefix {
			c.prefix = v.str
			if isPath {
				c.dirs = [2]filePath{resolvePath(v.str, POSIX), resolvePath(v.str, Windows)}
			}
			return c, nil
		}
		c.re, err = compilePattern(v.str, o.patternLimit)
		return c, err
	case keyMinimum, keyMaximum, keyExclusiveMinimum, keyExclusiveMaximum:
		if v.kind != '0' {
			return c, fmt.Errorf("must be a JSON number, got %s", v.describe(m.operand))
		}
		if isPath {
			return c, errors.New("a bound never matches a parameter declared in \"paths\": its values are strings")
		}
		c.bound, c.boundF = v.num, v.num.floatReading()
		c.reading = newReadingBound(c.boundF)
		c.lower = m.key == keyMinimum || m.key == keyExclusiveMinimum
		c.strict = m.key == keyExclusiveMinimum || m.key == keyExclusiveMaximum
		return c, nil
	default:
		return c, fmt.Errorf("unknown matcher (want one of %s)", strings.Join(matcherKeys, ", "))
	}
	for i := range c.values {
		switch {
		case c.values[i].kind == '[':
			// Arrays along a pointer stand for their elements, so the
			// values a pointer resolves to are never arrays.
			return c, errors.New("an array can never match: an array at the pointer stands for each of its elements")
		case isPath && c.values[i].kind != '"':
			return c, errors.New("only strings can match a parameter declared in \"paths\"")
		case isPath:
			s := c.values[i].str
			c.canon = append(c.canon, [2]string{resolvePath(s, POSIX).String(), resolvePath(s, Windows).String()})
		}
		var r readingBound
		if c.values[i].kind == '0' {
			r = newReadingBound(c.values[i].num.floatReading())
		}
		c.readings = append(c.readings, r)
	}
	return c, nil
}

// match reports whether v satisfies m. Only JSON numbers satisfy a bound
// and only JSON strings a pattern or prefix: "1" is not a number here.
//
// A value can have more than one reading: a number is an exact decimal and
// the float64 a tool will likely read it as (99.99999999999999999 is 100.0
// for Python and Go), compared with the float64 of the operand; a path is
// what was written and what a POSIX or a Windows tool resolves it to. A
// permissive matcher holds only if every reading matches; a restrictive one
// if any does. A number text longer than strconvExact bytes, which some Go
// versions' [strconv.ParseFloat] misread, has no reading a rule can rely on:
// it never satisfies a permissive matcher and always satisfies a
// restrictive numeric one.
func (m *matcher) match(v *value) bool {
	if m.path {
		return m.matchPath(v)
	}
	switch m.key {
	case keyConst, keyEnum:
		for i := range m.values {
			w := &m.values[i]
			switch {
			case v.kind != '0' || w.kind != '0':
				if v.equal(w) {
					return true
				}
			case m.permissive:
				if !v.long && v.num.cmp(w.num) == 0 {
					return true
				}
			case v.long || v.num.cmp(w.num) == 0 || m.readings[i].cmpReading(v.num) == 0:
				return true
			}
		}
		return false
	case keyPattern:
		return v.kind == '"' && m.re.MatchString(v.str)
	case keyPrefix:
		return v.kind == '"' && strings.HasPrefix(v.str, m.prefix)
	}
	if v.kind != '0' {
		return false
	}
	exact, float := m.holds(v.num.cmp(m.bound)), m.holds(m.reading.cmpReading(v.num))
	if m.permissive {
		return exact && float && !v.long
	}
	return exact || float || v.long
}

// holds reports whether a bound holds for a value that compares c (-1, 0,
// +1) with it.
func (m *matcher) holds(c int) bool {
	if !m.lower {
		c = -c
	}
	return c > 0 || c == 0 && !m.strict
}

// matchPath is match on a parameter declared in "paths". A permissive
// matcher holds if the value resolved in the tool's style matches (and the
// value as written, for a pattern); a restrictive one if the value as
// written, its POSIX resolution or its Windows resolution matches. A value
// whose resolution in the tool's style is in doubt (suspect) may name any
// file: it never satisfies a permissive matcher and always satisfies a
// restrictive one, as a number with no reading to rely on does.
func (m *matcher) matchPath(v *value) bool {
	if v.kind != '"' {
		return false
	}
	if m.permissive {
		r := resolvePath(v.str, m.style)
		return !r.suspect && m.permits(v.str, r)
	}
	posix, windows := resolvePath(v.str, POSIX), resolvePath(v.str, Windows)
	return [2]filePath{posix, windows}[m.style].suspect || m.guards(v.str, posix, windows)
}

// permits is a permissive matchPath on the string s, given its resolution
// r in the tool's style, without the suspect rule.
func (m *matcher) permits(s string, r filePath) bool {
	switch m.key {
	case keyPrefix:
		return r.under(m.dirs[m.style])
	case keyPattern:
		return m.re.MatchString(s) && m.re.MatchString(r.String())
	}
	rs := r.String()
	for i := range m.canon {
		if m.canon[i][m.style] == rs {
			return true
		}
	}
	return false
}

// guards is a restrictive matchPath on the string s, given its resolutions,
// without the suspect rule: whether s as written or resolved in either
// style matches.
func (m *matcher) guards(s string, posix, windows filePath) bool {
	switch m.key {
	case keyPrefix:
		return posix.under(m.dirs[POSIX]) || windows.under(m.dirs[Windows])
	case keyPattern:
		return m.re.MatchString(s) || m.re.MatchString(posix.String()) || m.re.MatchString(windows.String())
	}
	ps, ws := posix.String(), windows.String()
	for i := range m.values {
		if s == m.values[i].str || ps == m.canon[i][POSIX] || ws == m.canon[i][Windows] {
			return true
		}
	}
	return false
}

// matchOperand is match for covers, on a value of another matcher's const
// or enum. A restrictive path matcher takes every suspect value as
// matching, but a suspect const ("src/a." in Windows style) also matches
// values that are not suspect ("src/a"): only its readings count.
func (m *matcher) matchOperand(v *value) bool {
	if !m.path || m.permissive || v.kind != '"' {
		return m.match(v)
	}
	return m.guards(v.str, resolvePath(v.str, POSIX), resolvePath(v.str, Windows))
}

// covers reports whether m matches every value n matches, so that n on the
// same arg after m can never decide. It may say false when it cannot tell
// (two different patterns).
func (m *matcher) covers(n *matcher) bool {
	switch n.key {
	case keyConst, keyEnum:
		for i := range n.values {
			if !m.matchOperand(&n.values[i]) {
				return false
			}
		}
		return true
	case keyPattern:
		return m.key == keyPattern && m.re.String() == n.re.String()
	case keyPrefix:
		switch {
		case m.key != keyPrefix || m.path != n.path:
			return false
		case m.path:
			return m.dirs[POSIX].covers(n.dirs[POSIX]) && m.dirs[Windows].covers(n.dirs[Windows])
		}
		return strings.HasPrefix(n.prefix, m.prefix)
	}
	if !isBound(m.key) || m.lower != n.lower {
		return false
	}
	// Both bound the same side: n's range lies within m's when n's bound is
	// at least as tight, strictly tighter if only m excludes its bound.
	c := n.bound.cmp(m.bound)
	if !m.lower {
		c = -c
	}
	return c > 0 || c == 0 && (!m.strict || n.strict)
}
