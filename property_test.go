package argstream_test

import (
	"fmt"
	"testing"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/token"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
)

// TestPropertyValidDocuments: random JSON of every kind, cut anywhere,
// aggregates to what a whole-document decode gives and yields the fragments
// a whole-document parse gives once string pieces are merged.
func TestPropertyValidDocuments(t *testing.T) {
	properties := gopter.NewProperties(testutil.PropertyParameters(250))
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

// TestPropertyMutatedDocuments: for any input, valid or not, argstream's
// verdict is jsontext's verdict on the whole input, and every chunking gives
// the same fragments, the same value or the same error (what and where).
func TestPropertyMutatedDocuments(t *testing.T) {
	properties := gopter.NewProperties(testutil.PropertyParameters(600))
	properties.Property("verdict and outcome do not depend on chunking", prop.ForAll(
		func(doc testutil.Doc, ms []testutil.Mutation, cuts []int) string {
			data := testutil.Mutate(doc.Text, ms)
			return checkChunkings(data, cuts, nil)
		},
		testutil.GenDoc(testutil.GenValue(3)), gen.SliceOfN(2, testutil.GenMutation(testutil.MutationBytes)), testutil.GenCuts()))
	properties.TestingRun(t)
}

// TestPropertyCutShort: a valid document cut short anywhere, in any
// chunking, delivers only what the whole document delivers (see
// testutil.CheckPrefix), with both tokenizers.
func TestPropertyCutShort(t *testing.T) {
	properties := gopter.NewProperties(testutil.PropertyParameters(400))
	properties.Property("a prefix invents nothing", prop.ForAll(
		func(doc testutil.Doc, at float64, cuts []int) string {
			prefix := doc.Text[:int(at*float64(len(doc.Text)))]
			for _, impl := range tokenizers {
				if err := testutil.CheckPrefix(doc.Text, testutil.SplitAt(prefix, testutil.Cuts(prefix, cuts)), impl.opt...); err != nil {
					return impl.name + ": " + err.Error()
				}
			}
			return ""
		},
		testutil.GenDoc(testutil.GenValue(3)), gen.Float64Range(0, 1), testutil.GenCuts()))
	properties.TestingRun(t)
}

// TestPropertyConfusableKeys: objects whose keys a tool runtime may confuse
// (equal under case folding, holding NUL), cut anywhere, get the verdict of
// testutil.ConfusableKey, an independent reference: the same category,
// offset and pointer. With token.WithConfusableKeys(true), jsontext's verdict
// and value.
func TestPropertyConfusableKeys(t *testing.T) {
	properties := gopter.NewProperties(testutil.PropertyParameters(400))
	allow := argstream.WithTokenOptions(token.WithConfusableKeys(true))
	properties.Property("keys a tool would confuse", prop.ForAll(
		func(doc testutil.Doc, cuts []int) string {
			data := doc.Text
			return checkChunkings(data, cuts, func(chunks [][]byte) string {
				allowed, err := testutil.Observe(chunks, allow)
				if err != nil {
					return fmt.Sprintf("%q in %d chunks, allowed: %v", data, len(chunks), err)
				}
				want, _ := testutil.Canonical(data)
				if valid := jsontext.Value(data).IsValid(); valid != (allowed.Err == "") || valid && allowed.Value != string(want) {
					return fmt.Sprintf("%q in %d chunks, allowed: %s %s, jsontext says valid = %v", data, len(chunks), allowed.Err, allowed.Value, valid)
				}
				return ""
			})
		},
		testutil.GenDoc(testutil.GenConfusableKeys(3)), testutil.GenCuts()))
	properties.TestingRun(t)
}

// checkChunkings checks data whole against the reference (CheckWhole), then
// cut at cuts and one byte at a time against the whole, and runs more on
// each chunking when it is not nil. It returns what is wrong, or "".
func checkChunkings(data []byte, cuts []int, more func(chunks [][]byte) string) string {
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
		if more != nil {
			if msg := more(chunks); msg != "" {
				return msg
			}
		}
	}
	return ""
}
