package testutil

import (
	"regexp"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/leanovate/gopter"
)

// TestGenerators: the generators make what they say, and of every kind.
func TestGenerators(t *testing.T) {
	p := gopter.DefaultGenParameters()
	number := regexp.MustCompile(numberPattern)
	var fractions, exponents, negative, long int
	for range 2000 {
		n := randNumber(p)
		if !number.MatchString(n) || !jsontext.Value(n).IsValid() {
			t.Fatalf("randNumber gave %q", n)
		}
		for _, c := range n {
			switch c {
			case '.':
				fractions++
			case 'e', 'E':
				exponents++
			case '-':
				negative++
			}
		}
		if len(n) > 12 {
			long++
		}
	}
	if fractions < 500 || exponents < 500 || negative < 500 || long == 0 {
		t.Errorf("numbers: %d fractions, %d exponents, %d negative, %d long of 2000", fractions, exponents, negative, long)
	}

	kinds := map[byte]int{}
	for range 2000 {
		v, ok := GenDoc(GenValue(3))(p).Retrieve()
		if !ok {
			t.Fatal("GenDoc gave no document")
		}
		doc := v.(Doc)
		if !Valid(doc.Text) {
			t.Fatalf("GenDoc gave invalid JSON %q", doc.Text)
		}
		kinds[doc.Value.Kind]++
	}
	for _, k := range []byte(`ntf0"[{`) {
		if kinds[k] == 0 {
			t.Errorf("no value of kind %c in 2000: %v", k, kinds)
		}
	}

	deepest := 0
	for range 500 {
		v, _ := GenDeep(40)(p).Retrieve()
		d := 0
		for n := v.(Node); n.Kind == '[' || n.Kind == '{'; n = n.Items[0] {
			d++
		}
		if d < 1 || d > 40 {
			t.Fatalf("GenDeep(40) gave depth %d", d)
		}
		deepest = max(deepest, d)
	}
	if deepest < 30 {
		t.Errorf("GenDeep(40) never went past depth %d", deepest)
	}
}
