package keyfold

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/argstream/argstream/token"
)

// TestFoldRune checks, for every rune, that the rune that stands for it is
// equal to it under bytes.EqualFold and stands for every rune of its orbit:
// folds are equal exactly when bytes.EqualFold says so.
func TestFoldRune(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		m := foldRune(r)
		if !bytes.EqualFold(utf8.AppendRune(nil, r), utf8.AppendRune(nil, m)) {
			t.Fatalf("%U stands for %U, which bytes.EqualFold tells apart", r, m)
		}
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			if foldRune(f) != m {
				t.Fatalf("%U stands for %U, %U of its orbit for %U", r, m, f, foldRune(f))
			}
		}
	}
}

func TestAppendFold(t *testing.T) {
	var s Set
	for _, k := range []string{"path", "old_string", "PATH", "pAth", "a~1/{}", "é", "path\u212a", "", "\xff"} {
		if got, want := s.fold([]byte(k)), appendFold(nil, []byte(k)); !bytes.Equal(got, want) {
			t.Errorf("Set.fold(%q) = %q, appendFold %q", k, got, want)
		}
	}
	for _, tt := range []struct{ a, b string }{
		{"path", "PATH"}, {"k", "\u212a"}, {"ǅ", "ǆ"}, {"Ǆ", "ǆ"}, {"ſ", "S"}, {"ß", "ẞ"},
		{"Σίσυφος", "ΣΊΣΥΦΟΣ"}, {"σ", "ς"}, {"\xff", "\xfe"}, {"", ""},
	} {
		fa, fb := appendFold(nil, []byte(tt.a)), appendFold(nil, []byte(tt.b))
		if !bytes.Equal(fa, fb) || !strings.EqualFold(tt.a, tt.b) {
			t.Errorf("%q folds to %q, %q to %q (EqualFold %v)", tt.a, fa, tt.b, fb, strings.EqualFold(tt.a, tt.b))
		}
	}
	for _, tt := range []struct{ a, b string }{
		{"straße", "STRASSE"}, {"i", "İ"}, {"ı", "I"}, {"a", "ä"}, {"path", "path\x00"}, {"fi", "ﬁ"},
	} {
		if bytes.Equal(appendFold(nil, []byte(tt.a)), appendFold(nil, []byte(tt.b))) || strings.EqualFold(tt.a, tt.b) {
			t.Errorf("%q and %q fold alike", tt.a, tt.b)
		}
	}
}

// A step of a document's keys: "{" opens an object, "}" closes one, any
// other string is a key. A key that conflicts is marked "!" + the earlier
// key it equals + "=" + the key.
func run(s *Set, steps []string) []string {
	var out []string
	for _, st := range steps {
		switch st {
		case "{":
			s.Open()
		case "}":
			s.Close()
		default:
			if earlier, ok := s.Add([]byte(st)); !ok {
				out = append(out, "!"+string(earlier)+"="+st)
			}
		}
	}
	return out
}

func TestAdd(t *testing.T) {
	many := make([]string, 40)
	for i := range many {
		many[i] = fmt.Sprintf("key%02d", i)
	}
	cat := slices.Concat[[]string]
	tests := []struct {
		name  string
		steps []string
		want  []string
	}{
		{"case", []string{"{", "path", "PATH"}, []string{"!path=PATH"}},
		{"exact", []string{"{", "path", "path"}, []string{"!path=path"}},
		{"distinct", []string{"{", "path", "paths", "", "pat", "}"}, nil},
		{"kelvin", []string{"{", "k", "\u212a"}, []string{"!k=\u212a"}},
		{"titlecase", []string{"{", "ǅ", "ǆ"}, []string{"!ǅ=ǆ"}},
		{"sharp s", []string{"{", "straße", "STRASSE", "STRAẞE"}, []string{"!straße=STRAẞE"}},
		{"nested", []string{"{", "a", "{", "A", "}", "b", "B"}, []string{"!b=B"}},
		{"closed", []string{"{", "a", "{", "p", "}", "P", "}"}, nil},
		{"siblings", []string{"{", "a", "}", "{", "A", "}"}, nil},
		{"many", cat([]string{"{"}, many, []string{"KEY39", "kEy00", "Key17"}), []string{"!key39=KEY39", "!key00=kEy00", "!key17=Key17"}},
		{"many nested", cat([]string{"{"}, many[:20], []string{"{"}, many, []string{"}", "KEY05", "key20"}), []string{"!key05=KEY05"}},
	}
	var s Set
	for _, tt := range tests {
		s.Reset()
		if got := run(&s, tt.steps); strings.Join(got, " ") != strings.Join(tt.want, " ") {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestAddRandom compares Set with bytes.EqualFold on every earlier key, on
// random objects of up to 200 keys drawn from spellings that fold alike,
// nested at random.
func TestAddRandom(t *testing.T) {
	spellings := []string{"k", "K", "\u212a", "s", "S", "ſ", "ǅ", "ǆ", "Ǆ", "σ", "ς", "Σ", "ß", "ẞ", "ss", "é", "É", "x", ""}
	rng := rand.New(rand.NewPCG(1, 2))
	var s Set
	for range 2000 {
		s.Reset()
		type obj struct{ keys []string }
		stack := []obj{{}}
		s.Open()
		for range rng.IntN(400) {
			switch r := rng.IntN(20); {
			case r == 0 && len(stack) < 5:
				stack = append(stack, obj{})
				s.Open()
			case r == 1 && len(stack) > 1:
				stack = stack[:len(stack)-1]
				s.Close()
			default:
				var b strings.Builder
				for range 1 + rng.IntN(3) {
					b.WriteString(spellings[rng.IntN(len(spellings))])
				}
				k := b.String()
				top := &stack[len(stack)-1]
				want, found := "", false
				for _, e := range top.keys {
					if strings.EqualFold(e, k) {
						want, found = e, true
					}
				}
				earlier, ok := s.Add([]byte(k))
				if ok == found || string(earlier) != want {
					t.Fatalf("%q after %q: %q, %v", k, top.keys, earlier, ok)
				}
				if ok {
					top.keys = append(top.keys, k)
				}
			}
		}
	}
}

// TestLinear checks that the work per key is bounded, whatever the number
// of keys and their likeness: n keys of 100 bytes that differ only at the
// end, in every case.
func TestLinear(t *testing.T) {
	for _, n := range []int{10, 100, 10000, 100000} {
		var s Set
		s.Open()
		total := 0
		for i := range n {
			k := fmt.Sprintf("%0100d", i)
			if i%2 == 1 {
				k = "ǅ" + strings.ToUpper(fmt.Sprintf("x%098x", i))
			}
			total += len(k)
			if _, ok := s.Add([]byte(k)); !ok {
				t.Fatalf("%q is new", k)
			}
		}
		s.Close()
		extra := float64(s.Work()-int64(total)) / float64(n)
		t.Logf("%d keys: %.1f units of work per key beyond one per byte", n, extra)
		if extra > 30 {
			t.Errorf("%d keys: %.1f units of work per key beyond one per byte, want at most 30", n, extra)
		}
	}
}

// TestNoAllocs checks that a Set reset for each document allocates nothing
// once it has grown.
func TestNoAllocs(t *testing.T) {
	keys := make([][]byte, 100)
	for i := range keys {
		keys[i] = []byte(fmt.Sprintf("Key é %d", i))
	}
	var s Set
	doc := func() {
		s.Reset()
		s.Open()
		for i, k := range keys {
			s.Add(k)
			if i%10 == 0 {
				s.Open()
				for _, k := range keys[:20] {
					s.Add(k)
				}
				s.Close()
			}
		}
		s.Close()
	}
	doc()
	if n := testing.AllocsPerRun(20, doc); n != 0 {
		t.Errorf("%v allocations per document, want 0", n)
	}
}

// TestExact: in the exact mode only equal keys are one, NUL is accepted,
// and Check reports exact duplicates only, in small objects and in hashed
// ones; Reset keeps the mode.
func TestExact(t *testing.T) {
	var s Set
	s.SetExact(true)
	for round := range 2 {
		s.Open()
		for i := range 40 {
			for _, k := range []string{fmt.Sprintf("k%d", i), fmt.Sprintf("K%d", i), fmt.Sprintf("k%d\x00", i)} {
				if e := s.Check([]byte(k), 7); e != nil {
					t.Fatalf("round %d: %q: %v", round, k, e.Err)
				}
			}
			if e := s.Check([]byte(fmt.Sprintf("K%d", i)), 9); e == nil || e.Err != token.ErrDuplicateKey || e.Offset != 9 {
				t.Fatalf("round %d: second K%d: %+v", round, i, e)
			}
		}
		s.Close()
		s.Reset()
	}
}

// TestLast checks that Last gives each open object's latest key, nil for an
// object without keys, and that a refused key does not count.
func TestLast(t *testing.T) {
	var s Set
	s.Open()
	if k := s.Last(0); k != nil {
		t.Errorf("empty object: %q", k)
	}
	s.Add([]byte("a"))
	s.Add([]byte("b"))
	s.Open()
	s.Open()
	s.Add([]byte("c"))
	s.Add([]byte("B")) // no repeat here: another object
	s.Add([]byte("C")) // refused
	for i, want := range []string{"b", "", "B"} {
		if got := s.Last(i); string(got) != want || want == "" && got != nil {
			t.Errorf("Last(%d) = %q, want %q", i, got, want)
		}
	}
	s.Close()
	s.Add([]byte("d"))
	if got := s.Last(1); string(got) != "d" {
		t.Errorf("Last(1) after a close = %q, want d", got)
	}
}

// TestFingerprints checks the keys that the fingerprints of small objects
// must tell apart or match: lengths around 8 and 16 bytes, folds that differ
// only in the middle of a long key, and keys whose folds are shorter or
// longer than themselves.
func TestFingerprints(t *testing.T) {
	long := strings.Repeat("x", 20)
	tests := [][]string{
		{"{", "abcdefgh", "abcdefgH", "abcdefg"},
		{"{", "abcdefghijklmnop", "abcdefghijklmnoP", "abcdefghXjklmnop"},
		{"{", long + "a" + long, long + "b" + long, long + "A" + long},
		{"{", "\u212aey", "key", "KEY"},
		{"{", "a\x00", "a", "A\x00"},
	}
	wants := []string{"!abcdefgh=abcdefgH", "!abcdefghijklmnop=abcdefghijklmnoP",
		"!" + long + "a" + long + "=" + long + "A" + long, "!\u212aey=key !\u212aey=KEY", "!a\x00=A\x00"}
	var s Set
	for i, steps := range tests {
		s.Reset()
		if got := strings.Join(run(&s, steps), " "); got != wants[i] {
			t.Errorf("%q: %q, want %q", steps[1:], got, wants[i])
		}
	}
}
