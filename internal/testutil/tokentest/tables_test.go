package tokentest

import (
	"testing"

	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/token"
)

// TestReference checks testutil.ConfusableKey, the reference of the fuzz
// and property tests, against the literal expectations of the tables.
func TestReference(t *testing.T) {
	n := 0
	for _, tt := range Errors {
		k := testutil.ConfusableKey([]byte(tt.In))
		if tt.Cat != token.ErrCaseFoldedKey && tt.Cat != token.ErrNULInKey {
			if k != nil {
				t.Errorf("%q: %v, want none", tt.In, k)
			}
			continue
		}
		n++
		if k == nil || k.Cat != tt.Cat || k.Offset != tt.Offset || k.Pointer != tt.Pointer {
			t.Errorf("%q: %+v, want %v at %d in %q", tt.In, k, tt.Cat, tt.Offset, tt.Pointer)
		}
	}
	for _, c := range Contexts {
		for _, tt := range Values {
			if in := c.Pre + tt.In + c.Post; testutil.ConfusableKey([]byte(in)) != nil || !testutil.Valid([]byte(in)) {
				t.Errorf("%q: a confusable key, or not valid", in)
			}
		}
	}
	if n == 0 {
		t.Fatal("no confusable keys in Errors")
	}
}
