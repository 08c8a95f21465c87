package anthropicstream

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire/sse"
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

// readChecked reads stream into a fresh Response and checks the Results are
// consistent: a call with no error has valid JSON arguments, and only such
// a call can be executable.
func readChecked(t testing.TB, stream []byte) (results []toolcall.Result, err error) {
	t.Helper()
	resp := toolcall.New()
	err = Read(context.Background(), bytes.NewReader(stream), resp)
	results = resp.End()
	refused := errors.Is(err, ErrMalformed) || errors.Is(err, sse.ErrAmbiguous)
	for _, r := range results {
		switch {
		case refused && (r.Executable || r.Arguments != nil):
			t.Fatalf("call %+v executable or with arguments after %v\nstream %q", r.Call, err, stream)
		case r.Err == nil && !json.Valid(r.Arguments):
			t.Fatalf("call %+v: no error but arguments %q are not valid JSON\nstream %q", r.Call, r.Arguments, stream)
		case r.Err != nil && (r.Executable || r.Arguments != nil):
			t.Fatalf("call %+v: error %v but executable %v, arguments %q", r.Call, r.Err, r.Executable, r.Arguments)
		}
	}
	return results, err
}

// TestMutations: random mutations of the recordings never make Read panic,
// and give consistent Results. Most of them end with an error or with
// calls; the others lost their tool events to the mutation (an event type
// mangled into an unknown one is ignored, as Read must).
func TestMutations(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 300
	}
	rng := rand.New(rand.NewPCG(12, 34))
	var errs, calls, neither int
	for _, rec := range recordings {
		stream := readRecording(t, rec.file)
		for range n / len(recordings) {
			m := mutate(rng, stream)
			res, err := readChecked(t, m)
			switch {
			case err != nil:
				errs++
			case len(res) > 0:
				calls++
			default:
				neither++
			}
		}
	}
	t.Logf("mutations: %d errors, %d with calls and no error, %d with neither", errs, calls, neither)
	if neither > (errs+calls)/10 {
		t.Errorf("%d mutations gave neither an error nor a call", neither)
	}
}

func FuzzRead(f *testing.F) {
	for _, rec := range recordings {
		f.Add(readRecording(f, rec.file))
	}
	f.Add([]byte(noArgs))
	f.Add([]byte(errorMidStream))
	f.Add(synthetic(3))
	for _, tc := range hostileCases() {
		f.Add([]byte(tc.stream))
	}
	f.Fuzz(func(t *testing.T, stream []byte) {
		readChecked(t, stream)
	})
}
