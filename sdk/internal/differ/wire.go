package differ

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
)

// Wire is what the differential test of one provider wire needs: how to
// make valid streams, the classes of mutations, and the two sides of the
// comparison.
type Wire struct {
	Name string
	// Malformed is the adapter's ErrMalformed.
	Malformed error
	// Valid returns a valid stream of generated calls.
	Valid func(r *rand.Rand) *Stream
	// Recordings are valid streams too: a case starts from one of them one
	// time in four.
	Recordings []*Stream
	// Mutations are the classes: Mutations() and the wire's own.
	Mutations []Mutation
	// Argstream reads a body with the raw adapter into a new Response and
	// ends it.
	Argstream func(body []byte) Argstream
	// Readings reads a body through the official SDK, as its users do.
	Readings func(body []byte) []Reading
}

// Case is one stream of a mutation class.
type Case struct {
	Class string
	Note  string // what the mutation did
	Seed  uint64
	Body  []byte
}

// Case makes the stream of class m for seed: a valid stream (generated, or
// a recording), mutated. It reports false if the mutation found nothing
// to change.
func (w *Wire) Case(m Mutation, seed uint64) (Case, bool) {
	h := fnv.New64a()
	h.Write([]byte(w.Name + "/" + m.Class))
	r := rand.New(rand.NewPCG(seed, h.Sum64()))
	var s *Stream
	if len(w.Recordings) > 0 && r.IntN(4) == 0 {
		s = pick(r, w.Recordings).Clone()
	} else {
		s = w.Valid(r)
	}
	note, ok := m.Apply(r, s)
	return Case{Class: m.Class, Note: note, Seed: seed, Body: s.Bytes()}, ok
}

// Check reads c both ways and checks the property (see Check). Its error
// is a *Divergence.
func (w *Wire) Check(c Case) error {
	a := w.Argstream(c.Body)
	rs := w.Readings(c.Body)
	if err := Check(w.Malformed, a, rs); err != nil {
		return &Divergence{Wire: w.Name, Case: c, Argstream: a, Readings: rs, Err: err}
	}
	return nil
}

// Divergence is a stream on which the property fails.
type Divergence struct {
	Wire      string
	Case      Case
	Argstream Argstream
	Readings  []Reading
	Err       error
}

func (d *Divergence) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s, class %s", d.Wire, d.Case.Class)
	if d.Case.Note != "" {
		fmt.Fprintf(&b, " (%s)", d.Case.Note)
	}
	fmt.Fprintf(&b, ", seed %d: %v\n  stream: %s\n  %v", d.Case.Seed, d.Err, shorten(string(d.Case.Body), 900), d.Argstream)
	for _, r := range d.Readings {
		b.WriteString("\n  " + r.String())
	}
	return b.String()
}

// Seed returns the base seed of the generated cases: DIFFER_SEED if set
// (a number, or "random"), else 1, so that CI checks the same streams.
func Seed(t testing.TB) uint64 {
	s := os.Getenv("DIFFER_SEED")
	switch s {
	case "":
		return 1
	case "random":
		seed := rand.Uint64()
		t.Logf("DIFFER_SEED=%d", seed)
		return seed
	}
	seed, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		t.Fatalf("DIFFER_SEED=%q: %v", s, err)
	}
	return seed
}

// Test checks n cases of every class, a subtest per class, reporting the
// first three divergences of each in full.
func (w *Wire) Test(t *testing.T, n int) {
	base := Seed(t)
	for _, m := range w.Mutations {
		t.Run(m.Class, func(t *testing.T) {
			failed, ran := 0, 0
			for i := range uint64(n) {
				c, ok := w.Case(m, base+i)
				if !ok {
					continue
				}
				ran++
				if err := w.Check(c); err != nil {
					failed++
					if failed <= 3 {
						t.Error(err)
					}
				}
			}
			if failed > 0 {
				t.Errorf("%d of %d streams of class %s diverge (DIFFER_SEED=%d)", failed, ran, m.Class, base)
			}
		})
	}
}

// Seeds returns k cases of every class, for the seed corpus of a fuzz
// target.
func (w *Wire) Seeds(k int) []Case {
	var cs []Case
	for _, m := range w.Mutations {
		got := 0
		for i := uint64(1); got < k && i <= uint64(4*k); i++ {
			if c, ok := w.Case(m, i); ok {
				cs = append(cs, c)
				got++
			}
		}
	}
	return cs
}
