package fuzz

import (
	"errors"
	"testing"

	"github.com/argstream/argstream/internal/handrolled/handrolledtest"
	"github.com/argstream/argstream/token"
)

// FuzzHandrolled feeds any input, in chunks and with limits the fuzzer
// chooses, to the hand-written tokenizer and to jsontoken.Tokenizer, and checks that
// neither panics and that both report the same events (kind, data, offset)
// and end the same way (the same error: category, offset, pointer and
// message; the same answers to Feed and Close after the end). An input
// rejected for a key a tool runtime would confuse is compared again with
// token.WithConfusableKeys(true).
//
// The seeds are every file under ../../testdata, whole, byte by byte and in
// small chunks, and each recorded provider stream cut where its deltas were.
//
//	go test ./fuzz -run '^$' -fuzz FuzzHandrolled -fuzztime 5m
func FuzzHandrolled(f *testing.F) {
	for _, s := range seeds(f) {
		f.Add(s.data, s.cuts, uint16(0))
		if len(s.cuts) == 0 {
			f.Add(s.data, []byte{1}, uint16(0))
			f.Add(s.data, []byte{7, 0, 3}, uint16(4|40<<5))
		}
	}
	f.Fuzz(func(t *testing.T, data, cuts []byte, limits uint16) {
		var opts []token.Option
		if depth := int(limits & 0x1f); depth != 0 {
			opts = append(opts, token.WithMaxDepth(depth))
		}
		if size := int64(limits >> 5); size != 0 {
			opts = append(opts, token.WithMaxSize(size))
		}
		chunks := chunksOf(data, cuts)
		if d := handrolledtest.Diff(chunks, opts...); d != "" {
			t.Fatalf("%q in %d chunks (limits %#x):\n%s", data, len(chunks), limits, d)
		}
		if err := handrolledtest.Reference(chunks, opts...).Err; errors.Is(err, token.ErrCaseFoldedKey) || errors.Is(err, token.ErrNULInKey) {
			if d := handrolledtest.Diff(chunks, append(opts, token.WithConfusableKeys(true))...); d != "" {
				t.Fatalf("%q in %d chunks (limits %#x), confusable keys allowed:\n%s", data, len(chunks), limits, d)
			}
		}
	})
}
