package caret_test

import (
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/token"
	"github.com/argstream/argstream/token/caret"
)

// FuzzCaret feeds any input, whole and cut in two where the fuzzer says,
// without and with a schema, and checks that the tokenizer never panics,
// that both give the same outcome (fragments, aggregate or error with its
// offset, pointer and message), and that an accepted block's aggregate is
// valid JSON, and that an error's line and column are those of its offset.
// Seeds: the caret design's examples (see TestDesignExamples) and the tests'
// edge cases and errors.
func FuzzCaret(f *testing.F) {
	for _, tc := range designExamples {
		f.Add([]byte(tc.block), uint(len(tc.block)/2))
	}
	for _, tc := range valueCases {
		f.Add([]byte(tc.block), uint(len(tc.block)/3))
	}
	for _, tc := range typedCases {
		f.Add([]byte(tc.block), uint(len(tc.block)/3))
	}
	for _, tc := range errorCases {
		in, off, _, _ := place(f, tc.block)
		f.Add([]byte(in), uint(off))
	}
	typed := caret.Typed(tools)
	f.Fuzz(func(t *testing.T, data []byte, cut uint) {
		at := int(cut % uint(len(data)+1))
		for _, nf := range []token.NewFunc{untyped, typed} {
			opt := argstream.WithTokenizer(nf)
			whole, err := testutil.Observe([][]byte{data}, opt)
			if err != nil {
				t.Fatalf("%q: %v", data, err)
			}
			if whole.Err == "" && !jsontext.Value(whole.Value).IsValid() {
				t.Fatalf("%q: accepted, but the aggregate %q is not valid JSON", data, whole.Value)
			}
			if msg := checkLocation(data, nf); msg != "" {
				t.Fatal(msg)
			}
			got, err := testutil.Observe([][]byte{data[:at], data[at:]}, opt)
			if err != nil {
				t.Fatalf("%q cut at %d: %v", data, at, err)
			}
			if diff := cmp.Diff(whole, got); diff != "" {
				t.Fatalf("%q cut at %d differs from whole (-whole +cut):\n%s", data, at, diff)
			}
		}
	})
}
