package aggregate_test

import (
	"crypto/sha256"
	"errors"
	"strings"
	"testing"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/aggregate"
	"github.com/argstream/argstream/internal/testutil"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/prop"
)

// TestPropertyDigest: WithDigest, any document cut anywhere gives the
// SHA-256 of the compact JSON the Aggregator builds without it.
func TestPropertyDigest(t *testing.T) {
	properties := gopter.NewProperties(testutil.PropertyParameters(300))
	properties.Property("the digest of the value", prop.ForAll(
		func(doc testutil.Doc, cuts []int) bool {
			whole := aggregate.New()
			digest := aggregate.New(aggregate.WithDigest())
			for _, agg := range []*aggregate.Aggregator{whole, digest} {
				if err := testutil.Feed(argstream.New(agg), testutil.SplitAt(doc.Text, testutil.Cuts(doc.Text, cuts))); err != nil {
					return false
				}
			}
			v, err := whole.Value()
			if err != nil {
				return false
			}
			d1, err1 := whole.Digest()
			d2, err2 := digest.Digest()
			_, noValue := digest.Value()
			return err1 == nil && err2 == nil && d1 == sha256.Sum256(v) && d2 == d1 && errors.Is(noValue, aggregate.ErrNoValue)
		},
		testutil.GenDoc(testutil.GenValue(3)), testutil.GenCuts()))
	properties.TestingRun(t)
}

// WithDigest, an Aggregator's memory does not grow with the value: a
// 1 MB string in 1 KiB chunks leaves it a few KiB.
func TestDigestMemory(t *testing.T) {
	doc := []byte(`{"path": "a", "content": "` + strings.Repeat("x", 1<<20) + `"}`)
	var grown int
	agg := aggregate.New(aggregate.WithDigest())
	s := argstream.New(agg)
	for _, c := range testutil.SplitEvery(doc, 1024) {
		if err := s.Feed(c); err != nil {
			t.Fatal(err)
		}
		grown = max(grown, aggregate.Held(agg))
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if grown > 8<<10 {
		t.Errorf("WithDigest held %d bytes of a 1 MB value", grown)
	}
	want := aggregate.New()
	testutil.Feed(argstream.New(want), [][]byte{doc})
	v, _ := want.Value()
	if d, err := agg.Digest(); err != nil || d != sha256.Sum256(v) {
		t.Errorf("digest %x, %v", d, err)
	}
}
