package handrolled

import (
	"fmt"
	"strings"
	"testing"

	"github.com/argstream/argstream/token"
)

var nop = token.HandlerFunc(func(token.Event) error { return nil })

// work feeds in, cut into chunks of size bytes, and returns the units of
// work the tokenizer counted: state machine steps, bytes copied into its
// buffers, and the key set's (internal/keyfold) key bytes folded, hashes
// compared, hash probes and hash slots cleared.
func work(t *testing.T, in []byte, size int) int64 {
	t.Helper()
	tok := New(nop)
	for i := 0; i < len(in); i += size {
		if err := tok.Feed(in[i:min(i+size, len(in))]); err != nil {
			t.Fatal(err)
		}
	}
	if err := tok.Close(); err != nil {
		t.Fatal(err)
	}
	return tok.work + tok.keys.Work()
}

// doc builds a document of about n times the size of its repeated parts:
// long strings, long keys and long numbers (which are split across
// chunks), many small scalars, and an object of n keys.
func doc(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"content":"`)
	b.WriteString(strings.Repeat(`fn main() {\n    println!(\"héllo\");\n}\n`, n))
	b.WriteString(`","` + strings.Repeat("long key é ", n) + `":` + strings.Repeat("9", n) + `.` + strings.Repeat("1", n))
	b.WriteString(`,"n":[`)
	for i := range n {
		fmt.Fprintf(&b, `%d,true,null,"s",{},[-1.5e3],`, i)
	}
	b.WriteString(`0],"keys":{`)
	for i := range n {
		fmt.Fprintf(&b, `"key%07d":%d,`, i, i)
	}
	b.WriteString(`"last":{"a":1}}}`)
	return []byte(b.String())
}

// TestLinear checks that the work done is proportional to the input, with
// a small constant, whatever the chunking: nothing is rescanned, and the
// duplicate-key check costs a bounded amount per key.
func TestLinear(t *testing.T) {
	small, large := doc(2000), doc(8000)
	for _, size := range []int{1, 3, 16, 1024, len(large)} {
		ws, wl := work(t, small, size), work(t, large, size)
		perByte := float64(wl) / float64(len(large))
		growth := (float64(wl) / float64(ws)) / (float64(len(large)) / float64(len(small)))
		t.Logf("chunks of %d: %.2f units per byte, growth %.3f", size, perByte, growth)
		if perByte > 4 {
			t.Errorf("chunks of %d: %.2f units of work per input byte, want at most 4", size, perByte)
		}
		if growth > 1.1 {
			t.Errorf("chunks of %d: work grows %.2f times faster than the input", size, growth)
		}
	}
}

// TestLinearKeys checks the duplicate check on objects of many keys that
// look alike: same length, same prefix, escaped and not.
func TestLinearKeys(t *testing.T) {
	for _, n := range []int{10, 100, 10000, 100000} {
		var b strings.Builder
		b.WriteByte('{')
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			if i%2 == 0 {
				fmt.Fprintf(&b, `"%0100d":0`, i)
			} else {
				fmt.Fprintf(&b, `"\u0030%099d":0`, i) // "0" escaped
			}
		}
		b.WriteByte('}')
		in := []byte(b.String())
		// The case-folded key set folds each key's 100 decoded bytes once.
		w := work(t, in, 16) - int64(100*n)
		// Beyond the bytes of each key (copied once into the key buffer):
		// at most linearKeys comparisons per key while the object is small,
		// then a few hash probes per key, inserts again on each growth, and
		// the table cleared at the end.
		extra := float64(w-int64(len(in))) / float64(n)
		t.Logf("%d keys: %.1f units of work per key beyond one per byte", n, extra)
		if extra > 30 {
			t.Errorf("%d keys: %.1f units of work per key beyond one per byte, want at most 30", n, extra)
		}
	}
}
