package policy_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/policy"
	"github.com/argstream/argstream/sink"
	"github.com/go-json-experiment/json/jsontext"
)

// linearCase is a shape of arguments of size about n, and the rules file to
// evaluate on it, built for the keys the shape uses.
type linearCase struct {
	name  string
	n     int // small enough that 4n stays in the cache (see testutil.CheckLinear)
	doc   func(n int) string
	rules func(n int) string
	want  policy.Decision // on every size: the evaluator must not stop early
	// suspect is the verdict's SuspectPath: the declared paths are
	// followed to their end, before and after the decision.
	suspect jsontext.Pointer
}

// longKey is the key of n bytes the long-key shapes use.
func longKey(n int) string { return strings.Repeat("k", n) }

// manyKeys is the i-th of the keys of 250 bytes, alike but for their end.
func manyKeys(i int) string { return fmt.Sprintf("%s%08d", strings.Repeat("k", 242), i) }

// skipOn is a rules file that skips the call when a value at pointer
// contains "x", which none does, and asks otherwise: the rule stays open
// until that value is complete.
func skipOn(pointer string) string {
	return `{"run":[{"arg":"` + pointer + `","pattern":"x","mode":"skip"},{"mode":"ask"}]}`
}

// The long-key shapes of aggregate.TestLinear, with a rule that names the
// long key and one that names another parameter, and the long numbers.
//
// When these were written, three failed for defects of the evaluator, not
// of the test: both long numbers (parseDecimal read the exponent with
// big.Int.SetString, quadratic in its digits; ratios 12 to 18) and "long
// key, many elements/rule on it" (onValue matched every completed value's
// whole path against the rule's pointer, so each element under a key of n
// bytes compared n bytes; ratios 7.5 to 8). Fixed, the ratios are 3 to 5.
// The numbers stay under 32 KB at 4n: a value is parsed into fresh
// strings of its size, and larger allocations cost more per byte (page
// faults), which the ratio would count. TestDecimalLinear tests the number
// code alone at 250K and 1M digits.
var linearCases = []linearCase{
	{"long key, many elements/rule on it", 16000, // the elements' own cost hides a small n
		func(n int) string { return `{"` + longKey(n) + `":[` + strings.Repeat("0,", n) + `0]}` },
		func(n int) string { return skipOn("/" + longKey(n)) }, askAt(1), ""},
	{"long key, many elements/rule on another", 8000,
		func(n int) string { return `{"` + longKey(n) + `":[` + strings.Repeat("0,", n) + `0]}` },
		func(int) string { return skipOn("/other") }, askAt(1), ""},
	{"long key, long string/rule on it", 8000,
		func(n int) string { return `{"` + longKey(n) + `":"` + strings.Repeat("v", n) + `"}` },
		func(n int) string { return skipOn("/" + longKey(n)) }, askAt(1), ""},
	{"long key, long string/rule on another", 8000,
		func(n int) string { return `{"` + longKey(n) + `":"` + strings.Repeat("v", n) + `"}` },
		func(int) string { return skipOn("/other") }, askAt(1), ""},
	{"many long keys/rule on the last", 8000, manyKeysDoc,
		func(n int) string { return skipOn("/" + manyKeys(n/250-1)) }, askAt(1), ""},
	{"many long keys/rule on another", 8000, manyKeysDoc,
		func(int) string { return skipOn("/other") }, askAt(1), ""},
	// The exponent is what grows: 1e999...9, a number far above 100.
	{"long number/maximum", 6000,
		func(n int) string { return `{"n":1e` + strings.Repeat("9", n) + `}` },
		func(int) string {
			return `{"run":[{"arg":"/n","maximum":100,"mode":"unattended"},{"mode":"ask"}]}`
		}, askAt(1), ""},
	// The same number inside an object that a pattern rule captures whole.
	{"long number in an object/pattern", 6000,
		func(n int) string { return `{"o":{"x":1e` + strings.Repeat("9", n) + `}}` },
		func(int) string { return `{"run":[{"arg":"/o","pattern":"a","mode":"skip"},{"mode":"ask"}]}` },
		askAt(1), ""},
	// A path of n bytes, scanned to its last character for spellings a
	// tool may misread, and folded in Windows style.
	{"long path, lookalike at the end/posix", 8000, longPath,
		func(int) string { return pathRules("unattended", "src/", "posix") }, askAt(1), "/path"},
	{"long path, lookalike at the end/windows", 8000, longPath,
		func(int) string { return pathRules("unattended", "src/", "windows") }, askAt(1), "/path"},
	{"long path, lookalike at the end/restrictive", 8000, longPath,
		func(int) string { return pathRules("edit", "zzz/", "windows") },
		policy.Decision{Mode: policy.Edit, Rule: 0}, "/path"},
	// Declared paths followed after a catch-all has decided, at offset 0:
	// a long one, many short ones (the last of which is suspect), and many
	// under a long key, which is compared once (see keyIs).
	{"long path after the decision/posix", 8000, longPath,
		func(int) string { return catchAllPaths("/path", "posix") }, unattendedAt0, "/path"},
	{"long path after the decision/windows", 8000, longPath,
		func(int) string { return catchAllPaths("/path", "windows") }, unattendedAt0, "/path"},
	{"many paths after the decision", 16000, manyPaths,
		func(int) string { return catchAllPaths("/path", "windows") }, unattendedAt0, ""},
	{"long key, many paths after the decision", 16000,
		func(n int) string { return `{"` + longKey(n) + `":[` + strings.Repeat(`"a",`, n/4) + `"b"]}` },
		func(n int) string { return catchAllPaths("/"+longKey(n), "posix") }, unattendedAt0, ""},
}

var unattendedAt0 = policy.Decision{Mode: policy.Unattended, Rule: 0}

// catchAllPaths is a rules file that runs every call unattended, with one
// declared path.
func catchAllPaths(pointer, style string) string {
	return `{"run":"unattended","paths":["` + pointer + `"],"path_style":"` + style + `"}`
}

// manyPaths is a path parameter of about n bytes: an array of short paths,
// none suspect.
func manyPaths(n int) string {
	return `{"path":[` + strings.Repeat(`"src/A.rs",`, n/11) + `"src/b.rs"]}`
}

// longPath is a path parameter of about n bytes under src/, of non-ASCII
// names, that ends with a lookalike of a backslash.
func longPath(n int) string {
	return `{"path":"src/` + strings.Repeat("éÉ/", n/5) + `\uff3c"}` // a JSON escape of ＼
}

// pathRules is a rules file with one prefix rule on the path parameter,
// then ask.
func pathRules(mode, prefix, style string) string {
	return `{"run":[{"arg":"/path","prefix":"` + prefix + `","mode":"` + mode + `"},{"mode":"ask"}],` +
		`"paths":["/path"],"path_style":"` + style + `"}`
}

func askAt(rule int) policy.Decision { return policy.Decision{Mode: policy.Ask, Rule: rule} }

// manyKeysDoc is an object of n/250 keys of 250 bytes (manyKeys), each
// with a few values under it.
func manyKeysDoc(n int) string {
	var b strings.Builder
	b.WriteByte('{')
	for i := range n / 250 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"%s":[1,"two",{"y":3}]`, manyKeys(i))
	}
	b.WriteByte('}')
	return b.String()
}

// TestLinear checks invariant 9 (docs/design.md, "Invariants": linear for
// every input) for the streaming evaluator: the time for each shape at 4n is
// at most 6 times the time at n, fed in 16-byte chunks and whole. The Stream
// and the Evaluator are reset and reused from run to run, so that what is
// timed is the work, not the growth of fresh buffers.
func TestLinear(t *testing.T) {
	for _, c := range linearCases {
		for _, size := range []int{16, 0} { // 0: whole
			name := fmt.Sprintf("%s/chunk=%d", c.name, size)
			if size == 0 {
				name = c.name + "/whole"
			}
			t.Run(name, func(t *testing.T) {
				testutil.CheckLinear(t, c.n, func(n int) func() {
					p, _, err := policy.Parse([]byte(c.rules(n)))
					if err != nil {
						t.Fatal(err)
					}
					doc := []byte(c.doc(n))
					chunks := [][]byte{doc}
					if size > 0 {
						chunks = testutil.SplitEvery(doc, size)
					}
					ev := p.Evaluator()
					s := argstream.New(sink.Multi(ev))
					return func() {
						ev.Reset()
						s.Reset(fragment.Call{})
						if err := testutil.Feed(s, chunks); err != nil {
							t.Fatal(err)
						}
						if v := ev.Verdict(); !v.Valid() || v.Decision != c.want || v.SuspectPath != c.suspect {
							t.Fatalf("verdict %+v, want %v, SuspectPath %q on valid arguments", v, c.want, c.suspect)
						}
					}
				})
			})
		}
	}
}
