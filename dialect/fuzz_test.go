package dialect

import (
	"math/rand/v2"
	"testing"

	"github.com/argstream/argstream/internal/testutil"
	gocmp "github.com/google/go-cmp/cmp"
)

// FuzzReader: no input, in no syntax and no chunking, makes the Reader
// panic, lose or add a byte, frame otherwise than the reference framing,
// or depend on the chunking.
//
//	go test -fuzz FuzzReader ./dialect/
func FuzzReader(f *testing.F) {
	for _, c := range framingCases() {
		f.Add([]byte(c.in), uint8(c.syntax), uint64(len(c.in)))
	}
	for _, s := range []Syntax{Caret, XML, Qwen} {
		f.Add([]byte("a\r\n^^^f\r\n<tool:f><tool_call><function=f></tool_call></tool:f>\r\n^^^\r\n"), uint8(s), uint64(3))
	}
	harnesses := map[Syntax]*harness{}
	f.Fuzz(func(t *testing.T, in []byte, syntax uint8, seed uint64) {
		s := Syntax(1 + syntax%3)
		h := harnesses[s]
		if h == nil {
			h = newHarness(s)
			harnesses[s] = h
		}
		whole := h.run([][]byte{in})
		checkConsistent(t, in, whole)
		if msg := againstReference(s, string(in), whole); msg != "" {
			t.Fatal(msg)
		}
		chunks := testutil.SplitRandom(in, rand.New(rand.NewPCG(seed, seed>>32)), 1+int(seed%17))
		split := h.run(chunks)
		checkConsistent(t, in, split)
		if diff := gocmp.Diff(whole, split, gocmp.AllowUnexported(outcome{})); diff != "" {
			t.Fatalf("%d chunks: (-one chunk +chunks)\n%s", len(chunks), diff)
		}
	})
}
