package aggregate_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/aggregate"
	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/internal/testutil"
)

// The shapes that once made the aggregator quadratic, or could: each takes
// a size n and returns a document about n bytes long, or a few times that.
var linearShapes = []struct {
	name string
	n    int // small enough that 4n stays in the cache (see testutil.CheckLinear)
	doc  func(n int) []byte
}{
	// Every fragment of the array is under a key of n bytes.
	{"long key, many elements", 8000, func(n int) []byte {
		return []byte(`{"` + strings.Repeat("k", n) + `":[` + strings.Repeat("0,", n) + `0]}`)
	}},
	// Every piece of the string is under a key of n bytes.
	{"long key, long string", 8000, func(n int) []byte {
		return []byte(`{"` + strings.Repeat("k", n) + `":"` + strings.Repeat("v", n) + `"}`)
	}},
	// n/250 keys of 250 bytes that differ only at their end, each with a
	// few fragments under it.
	{"many long keys", 8000, func(n int) []byte {
		var b strings.Builder
		b.WriteByte('{')
		prefix := strings.Repeat("k", 242)
		for i := range n / 250 {
			fmt.Fprintf(&b, `"%s%08d":[1,"two",{"x":3}],`, prefix, i)
		}
		b.WriteString(`"last":0}`)
		return []byte(b.String())
	}},
	// n elements at depth 500, under keys of 100 bytes.
	{"deep path", 1000, func(n int) []byte {
		key := `"` + strings.Repeat("k", 100) + `"`
		var b strings.Builder
		for range 250 {
			b.WriteString(`{` + key + `:[`)
		}
		b.WriteString(strings.Repeat("0,", n) + "0")
		for range 250 {
			b.WriteString(`]}`)
		}
		return []byte(b.String())
	}},
}

// TestLinear checks invariant 9 (docs/design.md, "Invariants": linear for
// every input) for the aggregator behind a Stream: the time for each shape at
// 4n is at most 6 times the time at n, fed in 16-byte chunks and whole. The
// Stream and the Aggregator are reset and reused from run to run, as a caller
// that streams many calls does, so that what is timed is the parsing, not the
// growth of fresh buffers (whose cost per byte jumps where the allocator
// hands large objects out of the heap, at 32 KB).
func TestLinear(t *testing.T) {
	for _, shape := range linearShapes {
		for _, size := range []int{16, 0} { // 0: whole
			name := fmt.Sprintf("%s/chunk=%d", shape.name, size)
			if size == 0 {
				name = shape.name + "/whole"
			}
			t.Run(name, func(t *testing.T) {
				testutil.CheckLinear(t, shape.n, func(n int) func() {
					doc := shape.doc(n)
					chunks := [][]byte{doc}
					if size > 0 {
						chunks = testutil.SplitEvery(doc, size)
					}
					agg := aggregate.New()
					s := argstream.New(agg)
					return func() {
						agg.Reset()
						s.Reset(fragment.Call{})
						if err := testutil.Feed(s, chunks); err != nil {
							t.Fatal(err)
						}
						if _, err := agg.Value(); err != nil {
							t.Fatal(err)
						}
					}
				})
			})
		}
	}
}
