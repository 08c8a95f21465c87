package anthropicstream

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/argstream/argstream/internal/testutil/wiretest"
)

// mutate applies 1 to 4 random edits to a copy of b: a byte changed, bytes
// deleted, inserted (from the stream itself or structural bytes) or
// duplicated, or the stream cut.
func mutate(rng *rand.Rand, b []byte) []byte {
	out := bytes.Clone(b)
	const special = "{}[]\":,\\\n\r 0-9eu"
	for range 1 + rng.IntN(4) {
		if len(out) == 0 {
			break
		}
		i := rng.IntN(len(out))
		switch rng.IntN(6) {
		case 0:
			out[i] = byte(rng.IntN(256))
		case 1:
			out[i] = special[rng.IntN(len(special))]
		case 2:
			j := min(len(out), i+1+rng.IntN(40))
			out = append(out[:i], out[j:]...)
		case 3:
			j := min(len(out), i+1+rng.IntN(200))
			seg := bytes.Clone(out[i:j])
			k := rng.IntN(len(out) + 1)
			out = append(out[:k], append(seg, out[k:]...)...)
		case 4:
			out = out[:i]
		case 5:
			out = append(out[:i], append([]byte{special[rng.IntN(len(special))]}, out[i:]...)...)
		}
	}
	return out
}

// TestMutations: random mutations of the recordings never make Read panic,
// and give consistent Results. Most of them end with an error or with
// calls; the others lost their tool events to the mutation (an event type
// mangled into an unknown one is ignored, as Read must).
func TestMutations(t *testing.T) {
	var streams [][]byte
	for _, rec := range recordings {
		streams = append(streams, readRecording(t, rec.file))
	}
	anthropicAdapter.CheckMutations(t, streams, mutate, 10)
}

func FuzzRead(f *testing.F) {
	var seeds [][]byte
	for _, rec := range recordings {
		seeds = append(seeds, readRecording(f, rec.file))
	}
	seeds = append(seeds, []byte(noArgs), []byte(errorMidStream), synthetic(3))
	for _, tc := range hostileCases() {
		seeds = append(seeds, []byte(tc.stream))
	}
	anthropicAdapter.Fuzz(f, wiretest.Streams(seeds...))
}
