package wiretest

import (
	"math/rand/v2"
	"testing"

	"github.com/argstream/argstream/internal/testutil"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
)

// The tests of the adapters' fast paths, which read the common events by
// comparing bytes and must either decline an event or read it exactly as
// the token decoder does.

// MutateBytes changes up to two random bytes of data, most often none:
// each change replaces, deletes or inserts a byte that matters to JSON
// (quotes, backslashes, brackets, separators, digits, NUL, a byte that is
// not UTF-8). It returns the changed data.
func MutateBytes(rng *rand.Rand, data []byte) []byte {
	const alphabet = "\"\\{}[],: 09a\x00\xff"
	for range max(0, rng.IntN(6)-3) {
		if len(data) == 0 {
			break
		}
		i := rng.IntN(len(data))
		b := alphabet[rng.IntN(len(alphabet))]
		switch rng.IntN(3) {
		case 0:
			data[i] = b
		case 1:
			data = append(data[:i], data[i+1:]...)
		default:
			data = append(data[:i], append([]byte{b}, data[i:]...)...)
		}
	}
	return data
}

// FastPathProperty checks, on 2,000 seeds, that check reports no problem:
// check generates an event from rng, gives it to the fast path and to the
// token decoder, and reports whether the fast path took it and how the two
// differ. It fails t if the fast path took every event or none, since the
// generator then misses a side.
func FastPathProperty(t *testing.T, check func(rng *rand.Rand) (took bool, problem string)) {
	t.Helper()
	var took, declined int
	properties := gopter.NewProperties(testutil.PropertyParameters(2000))
	properties.Property("the fast path declines, or reads as the decoder", prop.ForAll(
		func(seed uint64) string {
			ok, problem := check(rand.New(rand.NewPCG(seed, 2)))
			if ok {
				took++
			} else {
				declined++
			}
			return problem
		},
		gen.UInt64(),
	))
	properties.TestingRun(t)
	t.Logf("the fast path took %d events, declined %d", took, declined)
	if took == 0 || declined == 0 {
		t.Errorf("the fast path took %d events, declined %d: the generator misses a side", took, declined)
	}
}
