package jsonwire

import (
	"regexp"
	"testing"
)

var numberRE = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

// TestNumberGrammar checks Num against the RFC 8259 grammar on every string of
// up to four bytes over the number alphabet.
func TestNumberGrammar(t *testing.T) {
	alphabet := []byte("-+.eE019x")
	var walk func(prefix []byte)
	walk = func(prefix []byte) {
		n, ok := NumStart, true
		for _, c := range prefix {
			if n, ok = n.Step(c); !ok {
				break
			}
		}
		if want := numberRE.Match(prefix); ok && n.Complete() != want || !ok && want {
			t.Errorf("%q: accepted %v, complete %v; grammar says %v", prefix, ok, n.Complete(), want)
		}
		// An accepted prefix must be able to become a number.
		if ok && !n.Complete() {
			if m, ok := n.Step('1'); !ok || !m.Complete() {
				t.Errorf("%q is accepted but %q is not a number", prefix, append(prefix[:len(prefix):len(prefix)], '1'))
			}
		}
		if len(prefix) < 4 {
			for _, c := range alphabet {
				walk(append(prefix[:len(prefix):len(prefix)], c))
			}
		}
	}
	walk(nil)
}
