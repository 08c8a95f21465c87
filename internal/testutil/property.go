package testutil

import (
	"os"
	"strconv"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
)

// Long reports whether ARGSTREAM_LONG=1 is set: the long runs, for a
// change to a parser or before a release. Plain go test ./... (and CI) runs
// counts that keep the whole command under a minute on a 2-core machine;
// under ARGSTREAM_LONG=1 property tests run 10 times as many cases
// ([PropertyParameters]) and the other randomized tests that ask Long run
// more inputs:
//
//	ARGSTREAM_LONG=1 go test ./...
func Long() bool { return os.Getenv("ARGSTREAM_LONG") == "1" }

// LongScale is how many times more cases [PropertyParameters] runs under
// ARGSTREAM_LONG=1 (see [Long]).
const LongScale = 10

// PropertyParameters runs n cases per property, [LongScale] times n under
// ARGSTREAM_LONG=1, or ARGSTREAM_PROPERTY_N cases when that is set, which
// picks the count of one run:
//
//	ARGSTREAM_PROPERTY_N=20000 go test -run Property ./policy/
func PropertyParameters(n int) *gopter.TestParameters {
	p := gopter.DefaultTestParameters()
	p.MinSuccessfulTests = n
	if Long() {
		p.MinSuccessfulTests = LongScale * n
	}
	if s := os.Getenv("ARGSTREAM_PROPERTY_N"); s != "" {
		if v, err := strconv.Atoi(s); err == nil {
			p.MinSuccessfulTests = v
		}
	}
	return p
}

// A Mutation changes a document at one byte position: the inputs that find
// off-by-one errors in a streaming parser sit next to valid ones.
type Mutation struct {
	Op  int // 0 insert, 1 replace, 2 delete, 3 truncate
	At  int // taken modulo the length of the document + 1
	Set byte
}

// MutationBytes are bytes that change the meaning of JSON around them: what
// a [Mutation] inserts or replaces by default.
const MutationBytes = "{}[],:\"\\ \t\n0123456789-+.eEtrufalsn\x00\x1f\x7f\xc3\xa9\xed\xa0\x80\xff/u"

// GenMutation generates Mutations that insert or replace one of set's bytes,
// [MutationBytes] or a set of one's own.
func GenMutation(set string) gopter.Gen {
	return gopter.CombineGens(gen.IntRange(0, 3), gen.IntRange(0, 1<<20), gen.IntRange(0, len(set)-1)).
		Map(func(v []any) Mutation {
			return Mutation{Op: v[0].(int), At: v[1].(int), Set: set[v[2].(int)]}
		})
}

// Apply returns a mutated copy of data.
func (m Mutation) Apply(data []byte) []byte {
	at := m.At % (len(data) + 1)
	out := append([]byte(nil), data[:at]...)
	switch m.Op {
	case 0:
		out = append(append(out, m.Set), data[at:]...)
	case 1:
		if at < len(data) {
			out = append(append(out, m.Set), data[at+1:]...)
		}
	case 2:
		if at < len(data) {
			out = append(out, data[at+1:]...)
		}
	}
	return out
}

// Mutate applies ms to data in turn.
func Mutate(data []byte, ms []Mutation) []byte {
	for _, m := range ms {
		data = m.Apply(data)
	}
	return data
}
