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

// TestScan checks Scan against Step, from every state, on every string of
// up to five bytes over the number alphabet and a byte that ends numbers.
func TestScan(t *testing.T) {
	alphabet := []byte("-+.eE09 ")
	var walk func(b []byte)
	walk = func(b []byte) {
		for start := NumStart; start <= NumExpDigit; start++ {
			n, k := start, 0
			for ; k < len(b); k++ {
				next, ok := n.Step(b[k])
				if !ok {
					break
				}
				n = next
			}
			if gotK, gotN := start.Scan(b); gotK != k || gotN != n {
				t.Errorf("Scan(%q) from %d = %d, %d; Step says %d, %d", b, start, gotK, gotN, k, n)
			}
		}
		if len(b) < 5 {
			for _, c := range alphabet {
				walk(append(b[:len(b):len(b)], c))
			}
		}
	}
	walk(nil)
	if k, n := Num(200).Scan([]byte("1")); k != 0 || n != 200 {
		t.Errorf("Scan from a state outside the grammar: %d, %d", k, n)
	}
}
