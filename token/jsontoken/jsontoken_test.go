package jsontoken_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/argstream/argstream/internal/testutil/tokentest"
)

// suite is the table tests that every JSON tokenizer passes (handrolled's
// tests run them too), on jsontoken.Tokenizer.
var suite = tokentest.Suite{New: tokentest.NewJSON}

// TestTables runs the suite: values in every context and chunking, errors
// (category, offset, pointer, events before them, message), limits, a
// number at the end of a chunk, eager events, a handler that stops, Feed
// after Close, and Reset.
func TestTables(t *testing.T) { suite.Run(t) }

// TestNoAllocs checks that feeding allocates nothing in steady state, also
// with an object of keys enough for the case-folded key set's hash table.
func TestNoAllocs(t *testing.T) {
	var many strings.Builder
	for i := range 40 {
		fmt.Fprintf(&many, `"Kéy\u00e9%d":{"a":[1]},`, i)
	}
	doc := []byte(`{"path":"src/lib.rs","patterns":[{"old":"a\nb \u00e9 😀","new":"x","n":-1.5e3,"ok":true,"z":null}],` +
		`"many":{` + many.String() + `"last":0},"content":"` + strings.Repeat(`line\t\"quoted\" é😀\n`, 50) + `"}`)
	suite.NoAllocs(t, doc, 16)
}
