package fields_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/argstream/argstream/fields"
	"github.com/argstream/argstream/internal/testutil"
	"github.com/google/go-cmp/cmp"
)

// FuzzFields feeds any input whole and in the chunks the fuzzer chooses
// (cuts: chunk lengths, in turn) and checks that both give the same events,
// merged, and the same error; the invariants of check (OnEnd, UTF-8, a
// field ends only with the value the Aggregator completed); and, for a
// valid object, the reference events. Run it with
//
//	go test ./fields -run '^$' -fuzz FuzzFields -fuzztime 5m
func FuzzFields(f *testing.F) {
	examples, err := filepath.Glob("../testdata/examples/*.json")
	if err != nil || len(examples) == 0 {
		f.Fatalf("no examples: %v", err)
	}
	for _, name := range examples {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, []byte{1})
		f.Add(data, []byte{7, 0, 3})
	}
	for _, s := range []string{
		`{"pa\u0074h": "\ud83d\ude00", "o": {"a": [1, "x\n", {}], "b": ""}, "n": -1.5e3}`,
		`{"s": "a\udc00"}`, `{"n": 01}`, `[1, 2]`, `"x"`, `{}`, `{"a": {"b": [`, "{\"s\": \"\xc3\xa9\"}",
	} {
		f.Add([]byte(s), []byte{1})
		f.Add([]byte(s), []byte{2, 5})
	}
	f.Fuzz(func(t *testing.T, data, cuts []byte) {
		whole := observe([][]byte{data})
		if err := whole.check(); err != nil {
			t.Fatalf("%q: %v", data, err)
		}
		chunks := chunks(data, cuts)
		o := observe(chunks)
		if err := o.check(); err != nil {
			t.Fatalf("%q in %d chunks: %v", data, len(chunks), err)
		}
		if w, g := errText(whole.Err), errText(o.Err); w != g {
			t.Fatalf("%q: error %s whole, %s in %d chunks", data, w, g, len(chunks))
		}
		if diff := cmp.Diff(merge(whole.Events), merge(o.Events)); diff != "" {
			t.Fatalf("%q in %d chunks (-whole +chunked):\n%s", data, len(chunks), diff)
		}
		if !testutil.Valid(data) {
			if o.Err == nil {
				t.Fatalf("%q: invalid, accepted", data)
			}
			return
		}
		want, object, err := reference(data)
		switch {
		case err != nil:
			t.Fatalf("%q: reference: %v", data, err)
		case !object:
			if !errors.Is(o.Err, fields.ErrNotObject) || len(o.Events) != 0 {
				t.Fatalf("%q: not an object, error %v, events %v", data, o.Err, o.Events)
			}
		case o.Err != nil:
			t.Fatalf("%q: %v", data, o.Err)
		default:
			if diff := cmp.Diff(want, merge(o.Events)); diff != "" {
				t.Fatalf("%q (-reference +fields):\n%s", data, diff)
			}
		}
	})
}

// chunks cuts data into chunks of the lengths in cuts, taken in turn; no
// cuts is data whole.
func chunks(data, cuts []byte) [][]byte {
	if len(cuts) == 0 {
		return [][]byte{data}
	}
	var out [][]byte
	for i := 0; len(data) > 0; i++ {
		n := min(int(cuts[i%len(cuts)]), len(data))
		if n == 0 && i >= len(data)+len(cuts) {
			n = 1 // cuts of zeros only: still end
		}
		out = append(out, data[:n])
		data = data[n:]
	}
	return out
}

func errText(err error) string {
	if err == nil {
		return "none"
	}
	return err.Error()
}
