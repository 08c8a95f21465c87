package fields_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/argstream/argstream/fields"
	"github.com/argstream/argstream/internal/testutil"
	"github.com/google/go-cmp/cmp"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
)

// genArguments generates tool-call arguments: an object of random members
// (any value nested up to 3 deep), and now and then a value that is not an
// object.
func genArguments() gopter.Gen {
	return gopter.CombineGens(testutil.GenValue(3), gen.IntRange(0, 9)).Map(func(v []any) testutil.Node {
		n := v[0].(testutil.Node)
		if n.Kind == '{' || v[1].(int) == 0 {
			return n
		}
		return testutil.Node{Kind: '{', Keys: []string{"value", "n"}, Items: []testutil.Node{n, {Kind: '0', Text: "1"}}}
	})
}

// TestPropertyChunking: for random arguments cut at random places, the
// events merged are the whole document's, computed from a jsontext parse
// (reference): each string field's text is its decoded string, each other
// field's its compact JSON. Arguments that are not an object give no
// events and ErrNotObject.
func TestPropertyChunking(t *testing.T) {
	properties := gopter.NewProperties(testutil.PropertyParameters(200))
	properties.Property("merged events are the whole document's", prop.ForAll(
		func(doc testutil.Doc, cuts []int) string {
			chunks := testutil.SplitAt(doc.Text, testutil.Cuts(doc.Text, cuts))
			o := observe(chunks)
			if err := o.check(); err != nil {
				return err.Error()
			}
			want, object, err := reference(doc.Text)
			switch {
			case err != nil:
				return fmt.Sprintf("reference: %v", err)
			case !object:
				if !errors.Is(o.Err, fields.ErrNotObject) || len(o.Events) != 0 {
					return fmt.Sprintf("not an object: error %v, events %v", o.Err, o.Events)
				}
				return ""
			case o.Err != nil:
				return fmt.Sprintf("error %v", o.Err)
			}
			if diff := cmp.Diff(want, merge(o.Events)); diff != "" {
				return fmt.Sprintf("%d chunks (-reference +fields):\n%s", len(chunks), diff)
			}
			return ""
		},
		testutil.GenDoc(genArguments()), testutil.GenCuts(),
	))
	properties.TestingRun(t)
}

// TestPropertyInvalid: for mutated arguments, valid or not, every chunking
// gives the events and error of the whole input; every field that ended
// holds the complete value the Aggregator built (so a value not complete
// never ends: check); OnEnd gets the stream's error.
func TestPropertyInvalid(t *testing.T) {
	properties := gopter.NewProperties(testutil.PropertyParameters(200))
	properties.Property("chunking-invariant and never ending an incomplete value", prop.ForAll(
		func(doc testutil.Doc, ms []testutil.Mutation, cuts []int) string {
			data := testutil.Mutate(doc.Text, ms)
			whole := observe(chunksOf(string(data)))
			if err := whole.check(); err != nil {
				return fmt.Sprintf("%q whole: %v", data, err)
			}
			chunks := testutil.SplitAt(data, testutil.Cuts(data, cuts))
			o := observe(chunks)
			if err := o.check(); err != nil {
				return fmt.Sprintf("%q in %d chunks: %v", data, len(chunks), err)
			}
			if fmt.Sprint(o.Err) != fmt.Sprint(whole.Err) {
				return fmt.Sprintf("%q: error %v in %d chunks, %v whole", data, o.Err, len(chunks), whole.Err)
			}
			if diff := cmp.Diff(merge(whole.Events), merge(o.Events)); diff != "" {
				return fmt.Sprintf("%q in %d chunks (-whole +chunked):\n%s", data, len(chunks), diff)
			}
			if (o.Err == nil) != testutil.Valid(data) && !errors.Is(o.Err, fields.ErrNotObject) {
				return fmt.Sprintf("%q: error %v, valid = %v", data, o.Err, testutil.Valid(data))
			}
			return ""
		},
		testutil.GenDoc(genArguments()), gen.SliceOfN(2, testutil.GenMutation(testutil.MutationBytes)), testutil.GenCuts(),
	))
	properties.TestingRun(t)
}

// TestPropertyCutShort: arguments cut short anywhere give a prefix of the
// whole's events, merged, the last Delta possibly shorter, and an error:
// nothing invented, no End that the bytes do not determine.
func TestPropertyCutShort(t *testing.T) {
	properties := gopter.NewProperties(testutil.PropertyParameters(200))
	properties.Property("a prefix invents nothing", prop.ForAll(
		func(doc testutil.Doc, at int, cuts []int) string {
			want, object, err := reference(doc.Text)
			if err != nil || !object {
				return ""
			}
			prefix := doc.Text[:at%(len(doc.Text)+1)]
			o := observe(testutil.SplitAt(prefix, testutil.Cuts(prefix, cuts)))
			if err := o.check(); err != nil {
				return err.Error()
			}
			if o.Err == nil {
				if !testutil.Valid(prefix) {
					return fmt.Sprintf("%q of %q accepted", prefix, doc.Text)
				}
				return "" // the whole document, less trailing space
			}
			got := merge(o.Events)
			if len(got) > len(want) {
				return fmt.Sprintf("%q: %d events, the whole has %d", prefix, len(got), len(want))
			}
			for i := range got {
				g, w := got[i], want[i]
				if i == len(got)-1 && g.Kind == fields.Delta && w.Kind == fields.Delta && g.Key == w.Key &&
					strings.HasPrefix(w.Text, g.Text) {
					continue
				}
				if g != w {
					return fmt.Sprintf("%q of %q: event %d is %v, the whole's is %v", prefix, doc.Text, i, g, w)
				}
			}
			return ""
		},
		testutil.GenDoc(genArguments()), gen.IntRange(0, 1<<20), testutil.GenCuts(),
	))
	properties.TestingRun(t)
}
