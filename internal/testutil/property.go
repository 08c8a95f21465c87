package testutil

import (
	"os"
	"strconv"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
)

// PropertyParameters runs ARGSTREAM_PROPERTY_N cases (default n) per
// property: CI stays fast, and a longer local run is one variable away:
//
//	ARGSTREAM_PROPERTY_N=20000 go test -run Property ./policy/
func PropertyParameters(n int) *gopter.TestParameters {
	p := gopter.DefaultTestParameters()
	p.MinSuccessfulTests = n
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
// a Mutation inserts or replaces by default.
const MutationBytes = "{}[],:\"\\ \t\n0123456789-+.eEtrufalsn\x00\x1f\x7f\xc3\xa9\xed\xa0\x80\xff/u"

// GenMutation generates Mutations that insert or replace one of set's bytes,
// MutationBytes or a set of one's own.
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
