package handrolled_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/argstream/argstream/internal/handrolled/handrolledtest"
	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/token"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
)

// mutations are testutil's with more bytes that a hand-written lexer must
// handle: the start of a 4-byte UTF-8 sequence, x (a bad escape) and the
// hex digits of surrogates.
var mutations = testutil.GenMutation(testutil.MutationBytes + "\xf0\x9fxDd")

// genKeyHeavy generates objects with up to 60 keys drawn from a small set,
// spelled in several ways, so that duplicates (after decoding escapes) are
// frequent and objects outgrow the linear key check; values are sometimes
// objects of their own, where the same keys are no duplicates. Some keys
// are equal to others under case folding, some hold NUL.
func genKeyHeavy() gopter.Gen {
	spellings := func(i int) []string {
		name := fmt.Sprintf("k%d", i)
		return []string{name, `\u006b` + name[1:], `k\u00` + fmt.Sprintf("%x", name[1]) + name[2:]}
	}
	var keys []string
	for i := range 40 {
		keys = append(keys, spellings(i)...)
	}
	keys = append(keys, "", "~", "/", "~1", "a/b", "é", `\u00e9`, `\ud83d\ude00`, "😀", `\/`,
		"K1", `\u004b2`, "\u212a3", `\u212A4`, "É", `\u00c9`, "ǅ", "ǆ", `\u01c4`, `k5\u0000`, `\u0000`)
	return gopter.CombineGens(gen.SliceOfN(60, gen.IntRange(0, len(keys)-1)), gen.SliceOfN(60, gen.IntRange(0, 4)), gen.IntRange(0, 60)).
		Map(func(v []any) string {
			names, kinds, n := v[0].([]int), v[1].([]int), v[2].(int)
			var b strings.Builder
			b.WriteByte('{')
			for i := range n {
				if i > 0 {
					b.WriteByte(',')
				}
				// The spellings are JSON string bodies already.
				b.WriteString(`"` + keys[names[i]] + `":`)
				switch kinds[i] {
				case 0:
					b.WriteString(`{"k1":1,"k1x":[]}`)
				case 1:
					b.WriteString(`[{"k2":null}]`)
				default:
					b.WriteString(strconv.Itoa(i))
				}
			}
			b.WriteByte('}')
			return b.String()
		})
}

// agree checks both tokenizers on data, cut at cuts and byte by byte.
func agree(data []byte, cuts []int, opts ...token.Option) string {
	for _, chunks := range [][][]byte{{data}, testutil.SplitAt(data, testutil.Cuts(data, cuts)), testutil.SplitEvery(data, 1)} {
		if d := handrolledtest.Diff(chunks, opts...); d != "" {
			return fmt.Sprintf("%q in %d chunks:\n%s", data, len(chunks), d)
		}
	}
	return ""
}

// TestPropertyAgree: on random documents, valid and mutated, cut anywhere,
// handrolled and jsontoken.Tokenizer report the same events and the same error.
func TestPropertyAgree(t *testing.T) {
	t.Parallel()
	n := 300
	if testing.Short() {
		n /= 5
	}
	properties := gopter.NewProperties(testutil.PropertyParameters(n))
	for name, g := range map[string]gopter.Gen{
		"shallow": testutil.GenDoc(testutil.GenValue(3)),
		"deep":    testutil.GenDoc(testutil.GenDeep(40)),
	} {
		properties.Property(name+" valid", prop.ForAll(func(doc testutil.Doc, cuts []int) string {
			return agree(doc.Text, cuts)
		}, g, testutil.GenCuts()))
		properties.Property(name+" mutated", prop.ForAll(func(doc testutil.Doc, ms []testutil.Mutation, cuts []int) string {
			return agree(testutil.Mutate(doc.Text, ms), cuts)
		}, g, gen.SliceOfN(3, mutations), testutil.GenCuts()))
	}
	properties.Property("limits", prop.ForAll(func(doc testutil.Doc, ms []testutil.Mutation, cuts []int, depth int, size int) string {
		data := testutil.Mutate(doc.Text, ms)
		return agree(data, cuts, token.WithMaxDepth(depth), token.WithMaxSize(int64(size%(len(data)+2))))
	}, testutil.GenDoc(testutil.GenDeep(12)), gen.SliceOfN(1, mutations), testutil.GenCuts(), gen.IntRange(1, 14), gen.IntRange(1, 1<<20)))
	properties.Property("keys", prop.ForAll(func(doc string, ms []testutil.Mutation, cuts []int) string {
		return agree(testutil.Mutate([]byte(doc), ms), cuts)
	}, genKeyHeavy(), gen.SliceOfN(1, mutations), testutil.GenCuts()))
	properties.Property("keys, confusable allowed", prop.ForAll(func(doc string, ms []testutil.Mutation, cuts []int) string {
		return agree(testutil.Mutate([]byte(doc), ms), cuts, token.WithConfusableKeys(true))
	}, genKeyHeavy(), gen.SliceOfN(1, mutations), testutil.GenCuts()))
	properties.TestingRun(t)
}
