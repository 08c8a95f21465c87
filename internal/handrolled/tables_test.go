package handrolled_test

// jsontoken.Tokenizer's own table tests (internal/testutil/tokentest), run on
// handrolled.Tokenizer: the same expectations, written down, not derived
// from jsontoken.Tokenizer. Each input and chunking of the value and error tables is
// also checked against jsontoken.Tokenizer directly.

import (
	"testing"

	"github.com/argstream/argstream/internal/handrolled"
	"github.com/argstream/argstream/internal/handrolled/handrolledtest"
	"github.com/argstream/argstream/internal/testutil/tokentest"
)

var suite = tokentest.Suite{
	New: handrolled.NewFunc,
	Check: func(chunks [][]byte) string {
		if d := handrolledtest.Diff(chunks); d != "" {
			return "differs from jsontoken.Tokenizer:\n" + d
		}
		return ""
	},
}

// TestTables runs the suite: values in every context and chunking, errors
// (category, offset, pointer, events before them, message), limits, a
// number at the end of a chunk, eager events, a handler that stops, Feed
// after Close, and Reset.
func TestTables(t *testing.T) { suite.Run(t) }
