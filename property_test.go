package argstream_test

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/aggregate"
	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/sink"
	"github.com/argstream/argstream/token"
	"github.com/go-json-experiment/json/jsontext"
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

// outcome is everything a stream delivers, in a comparable form.
type outcome struct {
	Fragments []string // merged, in RFD notation
	Value     string   // the aggregate, if accepted
	Values    []string // every OnValue completion: pointer=value
	Err       string   // category, offset and pointer of the error
}

// runDoc feeds chunks through the full pipeline and checks the invariants
// that hold for any input and any chunking: End exactly once with the
// stream's error, offsets that never go back or past the input.
func runDoc(chunks [][]byte) (outcome, error) {
	var out outcome
	rec := &testutil.Recorder{}
	agg := aggregate.New(aggregate.OnValue(func(p fragment.Path, v jsontext.Value) error {
		out.Values = append(out.Values, string(p.Pointer())+"="+string(v))
		return nil
	}))
	err := testutil.Feed(argstream.New(sink.Multi(rec, agg)), chunks)
	total := 0
	for _, c := range chunks {
		total += len(c)
	}
	if rec.Ends != 1 || rec.Err != err {
		return out, fmt.Errorf("End called %d times with %v; stream returned %v", rec.Ends, rec.Err, err)
	}
	for i, off := range rec.Offsets {
		if off < 0 || off > int64(total) || i > 0 && off < rec.Offsets[i-1] {
			return out, fmt.Errorf("fragment %d at offset %d after %v (input %d bytes)", i, off, rec.Offsets[:i], total)
		}
	}
	out.Fragments = testutil.Texts(testutil.Merge(rec.Fragments))
	if err != nil {
		var se *token.SyntaxError
		if !errors.As(err, &se) {
			return out, fmt.Errorf("error %v (%T) is not a *token.SyntaxError", err, err)
		}
		if se.Offset < 0 || se.Offset > int64(total) {
			return out, fmt.Errorf("error offset %d outside the %d input bytes", se.Offset, total)
		}
		out.Err = fmt.Sprintf("%v at %d in %q", se.Err, se.Offset, se.Pointer)
		return out, nil
	}
	v, verr := agg.Value()
	if verr != nil {
		return out, fmt.Errorf("accepted, but the aggregator says %v", verr)
	}
	out.Value = string(v)
	return out, nil
}

// TestPropertyValidDocuments: random JSON of every kind, cut anywhere,
// aggregates to what a whole-document decode gives and yields the fragments
// a whole-document parse gives once string pieces are merged.
func TestPropertyValidDocuments(t *testing.T) {
	properties := gopter.NewProperties(propertyParameters(250))
	check := func(doc testutil.Doc, cuts []int) string {
		got, err := runDoc(testutil.SplitAt(doc.Text, testutil.Cuts(doc.Text, cuts)))
		if err != nil {
			return err.Error()
		}
		want, err := testutil.Canonical(doc.Text)
		if err != nil {
			return "generator made invalid JSON: " + err.Error()
		}
		if diff := cmp.Diff(string(want), got.Value); diff != "" || got.Err != "" {
			return fmt.Sprintf("aggregate (-want +got), error %q:\n%s", got.Err, diff)
		}
		ref, err := testutil.ReferenceFragments(doc.Text)
		if err != nil {
			return err.Error()
		}
		if diff := cmp.Diff(testutil.Texts(ref), got.Fragments); diff != "" {
			return "fragments (-whole-document +streamed):\n" + diff
		}
		if n := len(got.Values); n == 0 || got.Values[n-1] != "="+got.Value {
			return fmt.Sprintf("last OnValue %v is not the whole value", got.Values)
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
			whole, err := runDoc([][]byte{data})
			if err != nil {
				return "whole: " + err.Error()
			}
			if accepted, want := whole.Err == "", testutil.Valid(data); accepted != want {
				return fmt.Sprintf("%q: accepted = %v (%s), jsontext says %v", data, accepted, whole.Err, want)
			}
			for _, chunks := range [][][]byte{testutil.SplitAt(data, testutil.Cuts(data, cuts)), testutil.SplitEvery(data, 1)} {
				got, err := runDoc(chunks)
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
