package argstream_test

import (
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/argstream/argstream/internal/testutil"
	"github.com/google/go-cmp/cmp"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
)

// propertyParameters runs ARGSTREAM_PROPERTY_N cases (default n) per
// property: CI stays fast, and a longer local run is one variable away.
func propertyParameters(n int) *gopter.TestParameters {
	p := gopter.DefaultTestParameters()
	p.MinSuccessfulTests = n
	if s := os.Getenv("ARGSTREAM_PROPERTY_N"); s != "" {
		if v, err := strconv.Atoi(s); err == nil {
			p.MinSuccessfulTests = v
		}
	}
	return p
}

// TestPropertyValidDocuments: random JSON of every kind, cut anywhere,
// aggregates to what a whole-document decode gives and yields the fragments
// a whole-document parse gives once string pieces are merged.
func TestPropertyValidDocuments(t *testing.T) {
	properties := gopter.NewProperties(propertyParameters(250))
	check := func(doc testutil.Doc, cuts []int) string {
		if !testutil.Valid(doc.Text) {
			return fmt.Sprintf("generator made invalid JSON: %q", doc.Text)
		}
		got, err := testutil.Observe(testutil.SplitAt(doc.Text, testutil.Cuts(doc.Text, cuts)))
		if err == nil {
			err = testutil.CheckWhole(doc.Text, got)
		}
		if err != nil {
			return err.Error()
		}
		return ""
	}
	for name, g := range map[string]gopter.Gen{
		"shallow": testutil.GenDoc(testutil.GenValue(3)),
		"deep":    testutil.GenDoc(testutil.GenDeep(40)),
	} {
		properties.Property(name, prop.ForAll(func(doc testutil.Doc, cuts []int) string {
			return check(doc, cuts)
		}, g, testutil.GenCuts()))
	}
	properties.TestingRun(t)
}

// mutation changes one byte position of a document: the inputs that find
// off-by-one errors in a streaming parser sit next to valid ones.
type mutation struct {
	Op  int // 0 insert, 1 replace, 2 delete, 3 truncate
	At  int
	Set byte
}

// interesting are bytes that change the meaning of JSON around them.
const interesting = "{}[],:\"\\ \t\n0123456789-+.eEtrufalsn\x00\x1f\x7f\xc3\xa9\xed\xa0\x80\xff/u"

func genMutation() gopter.Gen {
	return gopter.CombineGens(gen.IntRange(0, 3), gen.IntRange(0, 1<<20), gen.IntRange(0, len(interesting)-1)).
		Map(func(v []any) mutation {
			return mutation{Op: v[0].(int), At: v[1].(int), Set: interesting[v[2].(int)]}
		})
}

func (m mutation) apply(data []byte) []byte {
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

// TestPropertyMutatedDocuments: for any input, valid or not, argstream's
// verdict is jsontext's verdict on the whole input, and every chunking gives
// the same fragments, the same value or the same error (what and where).
func TestPropertyMutatedDocuments(t *testing.T) {
	properties := gopter.NewProperties(propertyParameters(600))
	properties.Property("verdict and outcome do not depend on chunking", prop.ForAll(
		func(doc testutil.Doc, ms []mutation, cuts []int) string {
			data := doc.Text
			for _, m := range ms {
				data = m.apply(data)
			}
			whole, err := testutil.Observe([][]byte{data})
			if err == nil {
				err = testutil.CheckWhole(data, whole)
			}
			if err != nil {
				return "whole: " + err.Error()
			}
			for _, chunks := range [][][]byte{testutil.SplitAt(data, testutil.Cuts(data, cuts)), testutil.SplitEvery(data, 1)} {
				got, err := testutil.Observe(chunks)
				if err != nil {
					return fmt.Sprintf("%q in %d chunks: %v", data, len(chunks), err)
				}
				if diff := cmp.Diff(whole, got); diff != "" {
					return fmt.Sprintf("%q in %d chunks differs from whole (-whole +chunked):\n%s", data, len(chunks), diff)
				}
			}
			return ""
		},
		testutil.GenDoc(testutil.GenValue(3)), gen.SliceOfN(2, genMutation()), testutil.GenCuts()))
	properties.TestingRun(t)
}
