package wiretest

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/argstream/argstream/internal/testutil"
	"github.com/google/go-cmp/cmp"
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

// CheckFastCase checks data with check, as FastPathProperty does, and
// that the fast path took it if took, or declined it.
func CheckFastCase(t *testing.T, data string, took bool, check func(data []byte) (took bool, problem string)) {
	t.Helper()
	got, problem := check([]byte(data))
	if problem != "" {
		t.Error(problem)
	}
	if got != took {
		t.Errorf("%q: the fast path took it: %v, want %v", data, got, took)
	}
}

// FuzzFastPath fuzzes check, as FastPathProperty calls it, seeded with 50
// data of gen, drawn from a fixed seed.
func FuzzFastPath(f *testing.F, gen func(*rand.Rand) []byte, check func(data []byte) (took bool, problem string)) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 50 {
		f.Add(gen(rng))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, problem := check(data); problem != "" {
			t.Error(problem)
		}
	})
}

// Draw draws the parts of an event's data, for the generators of the fast
// paths' tests.
type Draw struct{ *rand.Rand }

// Pick is one of s.
func (d Draw) Pick(s ...string) string { return s[d.IntN(len(s))] }

// Rare is usual, or, one time in 16, one of others.
func (d Draw) Rare(usual string, others ...string) string {
	if d.IntN(16) != 0 {
		return usual
	}
	return d.Pick(others...)
}

// Object is a JSON object of members ("name":value, as JSON text) in a
// random order, one time in 12 one of them twice.
func (d Draw) Object(members ...string) string {
	d.Shuffle(len(members), func(i, j int) { members[i], members[j] = members[j], members[i] })
	if len(members) > 0 && d.IntN(12) == 0 {
		members = append(members, members[d.IntN(len(members))])
	}
	return "{" + strings.Join(members, ",") + "}"
}

// Some is members, each kept with probability 3/4.
func (d Draw) Some(members ...string) []string {
	var kept []string
	for _, m := range members {
		if d.IntN(4) != 0 {
			kept = append(kept, m)
		}
	}
	return kept
}

// Chars is the text of a JSON string of fewer than n characters, mostly
// valid (escapes and non-ASCII among them), sometimes not: a quote or a
// backslash alone, a lone surrogate, bytes that are not UTF-8, a control
// byte, a bad escape.
func (d Draw) Chars(n int) string {
	var b strings.Builder
	for range d.IntN(n) {
		b.WriteString(d.Rare(d.Pick("a", "é", `\"`, `\\`, `\n`, `\u00e9`, `\ud83d\ude00`, " ", "{", "}", `\/`),
			`"`, `\`, `\ud800`, `\udc00`, "\xff", "\xed\xa0\x80", "\x01", "\x7f", `\x`, `\u00`))
	}
	return b.String()
}

// FastVsSlowOn is [FastVsSlow] with each of parse, slow and fast run on a
// zero R of its own, and parsed returning the fields it read.
func FastVsSlowOn[R, P any](data []byte, parse, slow func(*R, []byte) error, fast func(*R, []byte) bool, parsed func(*R) P) (took bool, problem string) {
	return FastVsSlow(data,
		func(data []byte) (P, error) {
			var r R
			err := parse(&r, data)
			return parsed(&r), err
		},
		func(data []byte) (P, error) {
			var r R
			err := slow(&r, data)
			return parsed(&r), err
		},
		func(data []byte) (P, bool) {
			var r R
			ok := fast(&r, data)
			return parsed(&r), ok
		})
}

// FastVsSlow checks an adapter's reading of one event's data, each of the
// three functions on a reader of its own, each returning the fields it
// read: parse (the fast path, and the token decoder if it declines) must
// end as slow (the token decoder alone) does, with an error or none, and
// read the same fields; fast (the fast path alone) may decline, and must
// otherwise read the same fields, of data slow does not reject. It
// reports whether the fast path took data.
func FastVsSlow[P any](data []byte, parse, slow func([]byte) (P, error), fast func([]byte) (P, bool)) (took bool, problem string) {
	gotParse, errParse := parse(data)
	gotSlow, errSlow := slow(data)
	if (errParse == nil) != (errSlow == nil) {
		return false, fmt.Sprintf("%q: parse: %v, the decoder: %v", data, errParse, errSlow)
	}
	if diff := cmp.Diff(gotSlow, gotParse); errSlow == nil && diff != "" {
		return false, fmt.Sprintf("%q: parse read otherwise than the decoder (-decoder +parse):\n%s", data, diff)
	}
	gotFast, took := fast(data)
	switch {
	case !took:
		return false, ""
	case errSlow != nil:
		return true, fmt.Sprintf("%q: the fast path took it, the decoder rejects it: %v", data, errSlow)
	}
	if diff := cmp.Diff(gotSlow, gotFast); diff != "" {
		return true, fmt.Sprintf("%q: the fast path read otherwise than the decoder (-decoder +fast):\n%s", data, diff)
	}
	return true, ""
}
