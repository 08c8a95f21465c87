package ollamasdk_test

import (
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/argstream/argstream/sdk/internal/check"
	"github.com/google/go-cmp/cmp"
)

// FuzzFeed: any body, served to an api.Client whose Chat callback is a
// Feeder, against Read on the same bytes. Whatever the bytes, nothing
// panics or hangs. When Read accepts the stream (whole, or cut between
// lines) and Chat reads it to its end without an error, the Feeder gives
// Read's outcomes (arguments JSON-equal) and Done says whether the done
// line came. The seeds are the fixtures, generated streams in every
// layout, and bodies where the SDK's decoding and Read's differ.
func FuzzFeed(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(testdata, "*.ndjson"))
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range 6 {
		b, _ := newGen(rng).stream(i == 5)
		f.Add(b)
	}
	const done = `{"message":{"role":"assistant"},"done":true}` + "\n"
	for _, args := range []string{
		`{"a":"\ud800"}`,                       // a lone surrogate: U+FFFD to encoding/json
		`{"a":1,"a":2}`,                        // a name repeated: Read refuses it
		`{"\u0061":1}`,                         // a name escaped
		`{"n":123456789012345678901234567890}`, // beyond float64's integers
		`{"n":1e400}`,                          // beyond float64
		`{"a":{"b":{"c":[[[{}]]]}}}`,
	} {
		f.Add([]byte(`{"message":{"role":"assistant","tool_calls":[{"function":{"name":"f","arguments":` + args + `}}]},"done":false}` + "\n" + done))
	}
	f.Add([]byte(done + done))                                            // a line after done
	f.Add([]byte(`{"Done":true,"message":{"role":"assistant"}}` + "\n"))  // a name in another case
	f.Add([]byte(`{"message":{"role":"assistant"},"done":false}` + "\n")) // cut
	f.Fuzz(func(t *testing.T, body []byte) {
		got, fd, chatErr := viaSDK(t, body, uint64(len(body)))
		want, readErr := viaRead(body)
		accepted := readErr == nil || errors.Is(readErr, io.ErrUnexpectedEOF)
		if !accepted || chatErr != nil {
			return
		}
		if fd.Done() != (readErr == nil) {
			t.Errorf("Done %v, Read returned %v", fd.Done(), readErr)
		}
		if d := cmp.Diff(check.Canonical(t, want), check.Canonical(t, got)); d != "" {
			t.Errorf("Feeder (+) and Read (-) differ on %q:\n%s", body, d)
		}
	})
}
