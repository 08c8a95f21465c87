package aggregate_test

import (
	"testing"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/aggregate"
	"github.com/argstream/argstream/internal/testutil"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/prop"
)

// TestPropertyOnText: any document cut anywhere, the pieces OnText gives,
// joined, are the value, with or without WithDigest; and every piece
// comes with the fragment that made it, so that the text given after
// each chunk is a prefix of the value.
func TestPropertyOnText(t *testing.T) {
	properties := gopter.NewProperties(testutil.PropertyParameters(300))
	properties.Property("the pieces are the value", prop.ForAll(
		func(doc testutil.Doc, cuts []int, digest bool) bool {
			var text []byte
			opts := []aggregate.Option{aggregate.OnText(func(b []byte) { text = append(text, b...) })}
			if digest {
				opts = append(opts, aggregate.WithDigest())
			}
			agg, whole := aggregate.New(opts...), aggregate.New()
			if err := testutil.Feed(argstream.New(whole), [][]byte{doc.Text}); err != nil {
				return false
			}
			want, err := whole.Value()
			if err != nil {
				return false
			}
			s := argstream.New(agg)
			for _, c := range testutil.SplitAt(doc.Text, testutil.Cuts(doc.Text, cuts)) {
				if s.Feed(c) != nil || len(text) > len(want) || string(want[:len(text)]) != string(text) {
					return false
				}
			}
			return s.Close() == nil && string(text) == string(want)
		},
		testutil.GenDoc(testutil.GenValue(3)), testutil.GenCuts(), gopter.Gen(func(p *gopter.GenParameters) *gopter.GenResult {
			return gopter.NewGenResult(p.NextBool(), gopter.NoShrinker)
		})))
	properties.TestingRun(t)
}
