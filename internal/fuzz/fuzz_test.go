package fuzz

import (
	"testing"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/token"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
)

// FuzzChunking feeds any input in the chunks the fuzzer chooses and checks
// that argstream never panics or hangs, gives the same outcome (fragments,
// value or error with its offset and pointer) as the whole input fed at once
// and as one byte at a time, and agrees with a whole-document jsontext parse
// (and testutil.ConfusableKey); that a valid input cut short invents nothing
// (testutil.CheckPrefix); and that token.WithConfusableKeys(true) lets
// through exactly what jsontext accepts.
func FuzzChunking(f *testing.F) {
	for _, s := range seeds(f) {
		f.Add(s.data, s.cuts)
		if len(s.cuts) == 0 {
			f.Add(s.data, []byte{1})
			f.Add(s.data, []byte{7, 0, 3})
		}
	}
	f.Fuzz(func(t *testing.T, data, cuts []byte) {
		whole, err := testutil.Observe([][]byte{data})
		if err == nil {
			err = testutil.CheckWhole(data, whole)
		}
		if err != nil {
			t.Fatal(err)
		}
		chunks := chunksOf(data, cuts)
		got, err := testutil.Observe(chunks)
		if err != nil {
			t.Fatalf("%q in %d chunks: %v", data, len(chunks), err)
		}
		if diff := cmp.Diff(whole, got); diff != "" {
			t.Fatalf("%q in %d chunks differs from whole (-whole +chunked):\n%s", data, len(chunks), diff)
		}
		if testutil.ConfusableKey(data) != nil {
			allowed, err := testutil.Observe(chunks, argstream.WithTokenOptions(token.WithConfusableKeys(true)))
			if valid := jsontext.Value(data).IsValid(); err != nil || valid != (allowed.Err == "") {
				t.Fatalf("%q in %d chunks, confusable keys allowed: %v, %s; jsontext says valid = %v", data, len(chunks), err, allowed.Err, valid)
			}
		}
		if whole.Err == "" && len(data) > 0 {
			// Cut short where the first cut byte says.
			n := len(data) / 2
			if len(cuts) > 0 {
				n = len(data) * int(cuts[0]) / 256
			}
			if err := testutil.CheckPrefix(data, chunksOf(data[:n], cuts)); err != nil {
				t.Fatal(err)
			}
		}
	})
}
