package handrolled_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/internal/handrolled"
	"github.com/argstream/argstream/internal/handrolled/handrolledtest"
	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/token"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
)

// object writes an object with the given keys (JSON string bodies), each
// with the value v.
func object(keys []string, v string) string {
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"` + k + `":` + v)
	}
	b.WriteByte('}')
	return b.String()
}

func names(prefix string, n int) []string {
	ks := make([]string, n)
	for i := range ks {
		ks[i] = fmt.Sprintf("%s%05d", prefix, i)
	}
	return ks
}

// TestDuplicateKeys checks the key set in both of its modes (few keys, many
// keys), with escapes, and across nesting: a key repeats only within its own
// object.
func TestDuplicateKeys(t *testing.T) {
	many := names("k", 1000)
	tests := []struct {
		name    string
		in      string
		ok      bool
		offset  int64
		pointer jsontext.Pointer
	}{
		{"few distinct", object(names("k", 16), "1"), true, 0, ""},
		{"few duplicate", `{"a":1,"b":2,"a":3}`, false, 13, "/a"},
		{"escaped duplicate", `{"a/b":1,"a\/b":2}`, false, 9, "/a~1b"},
		{"escaped duplicate 2", `{"~é":1,"\u007e\u00e9":2}`, false, 9, "/~0é"},
		{"surrogate duplicate", `{"😀":1,"\ud83d\ude00":2}`, false, 10, "/😀"},
		{"prefix is no duplicate", `{"ab":1,"a":2,"abc":3,"":4}`, true, 0, ""},
		{"empty duplicate", `{"":1,"x":2,"":3}`, false, 12, "/"},
		{"many distinct", object(many, "1"), true, 0, ""},
		{"many, repeat of the first", object(append(many[:len(many):len(many)], "k00000"), "1"), false, int64(len(object(many, "1"))), "/k00000"},
		{"many, repeat of the 17th", object(append(many[:20:20], "k00016"), "1"), false, int64(len(object(many[:20], "1"))), "/k00016"},
		{"many, escaped repeat", object(append(many[:100:100], `\u006b00099`), "1"), false, int64(len(object(many[:100], "1"))), "/k00099"},
		{"nested sets", `{"o":` + object(many[:40], object(many[:30], "[]")) + `,"k00001":1}`, true, 0, ""},
		{"nested sets, outer repeat", `{"o":1,"p":` + object(many[:40], object(many[:30], "[]")) + `,"o":1}`, false, int64(len(`{"o":1,"p":`+object(many[:40], object(many[:30], "[]")))) + 1, "/o"},
		{"nested sets, inner repeat", `[` + object(many[:40], object(append(many[:30:30], "k00003"), "0")), false, 1 + int64(len(`{"k00000":`+object(many[:30], "0"))), "/0/k00000/k00003"},
	}
	for _, tt := range tests {
		in := []byte(tt.in)
		for _, chunks := range [][][]byte{{in}, testutil.SplitEvery(in, 1), testutil.SplitEvery(in, 7)} {
			if d := handrolledtest.Diff(chunks); d != "" {
				t.Errorf("%s in %d chunks differs from jsontoken.Tokenizer:\n%s", tt.name, len(chunks), d)
			}
			r := handrolledtest.Handrolled(chunks)
			var se *token.SyntaxError
			switch {
			case tt.ok && r.Err != nil:
				t.Errorf("%s: %v", tt.name, r.Err)
			case !tt.ok && (!errors.As(r.Err, &se) || !errors.Is(r.Err, token.ErrDuplicateKey) || se.Offset != tt.offset || se.Pointer != tt.pointer):
				t.Errorf("%s: got %v, want a duplicate key at %d (%q)", tt.name, r.Err, tt.offset, tt.pointer)
			}
		}
	}
}

// TestReuse checks that a tokenizer reset in the middle of anything, even a
// large object, starts afresh.
func TestReuse(t *testing.T) {
	first := []byte(`[{"a":1},` + object(names("k", 50), `"x"`)[:300])
	second := []byte(object(names("k", 50), "2"))
	var got []token.Event
	h := token.HandlerFunc(func(e token.Event) error {
		got = append(got, token.Event{Kind: e.Kind, Data: append([]byte(nil), e.Data...), Offset: e.Offset})
		return nil
	})
	tok := handrolled.New(h)
	for _, c := range testutil.SplitEvery(first, 5) {
		if err := tok.Feed(c); err != nil {
			t.Fatal(err)
		}
	}
	got = nil
	tok.Reset(h)
	for _, c := range testutil.SplitEvery(second, 5) {
		if err := tok.Feed(c); err != nil {
			t.Fatal(err)
		}
	}
	if err := tok.Close(); err != nil {
		t.Fatal(err)
	}
	want := handrolledtest.Reference(testutil.SplitEvery(second, 5))
	if d := cmp.Diff(want.Events, got); d != "" || tok.Offset() != int64(len(second)) {
		t.Errorf("after Reset, offset %d, events (-want +got):\n%s", tok.Offset(), d)
	}
}

// TestDataIsCapped checks that a handler that appends to the borrowed Data
// of an event cannot overwrite the input still to read or the keys kept for
// the duplicate check.
func TestDataIsCapped(t *testing.T) {
	in := []byte(`{"a":12,"b":"xy","c":[true],"a":0}`)
	var kinds []token.Kind
	tok := handrolled.New(token.HandlerFunc(func(e token.Event) error {
		kinds = append(kinds, e.Kind)
		_ = append(e.Data, "XXXXXXXXXXXXXXXX"...)
		return nil
	}))
	err := tok.Feed(in)
	if !errors.Is(err, token.ErrDuplicateKey) || len(kinds) != 11 {
		t.Fatalf("got %v after %v, want a duplicate key after 11 events", err, kinds)
	}
}

// TestWithArgstream runs the whole pipeline on handrolled through
// argstream.WithTokenizer: the same fragments and verdict as the default.
func TestWithArgstream(t *testing.T) {
	inputs := []string{
		`{"path":"src/main.rs","content":"fn main() {}\n","n":[1,2.5e3,true,null,{}],"e":""}`,
		`{"path":"a","path":"b"}`,
		`[1,2`,
		`{"deep":[[[[1]]]]}`,
	}
	for _, in := range inputs {
		for _, chunks := range [][][]byte{{[]byte(in)}, testutil.SplitEvery([]byte(in), 1)} {
			want, werr := testutil.Run(chunks, argstream.WithTokenOptions(token.WithMaxDepth(4)))
			got, gerr := testutil.Run(chunks, argstream.WithTokenOptions(token.WithMaxDepth(4)), argstream.WithTokenizer(handrolled.NewFunc))
			if d := handrolledtest.DiffError(werr, gerr); d != "" {
				t.Errorf("%q: %s", in, d)
			}
			if d := cmp.Diff(testutil.Texts(want.Fragments), testutil.Texts(got.Fragments)); d != "" || !cmp.Equal(want.Offsets, got.Offsets) || want.Ends != got.Ends {
				t.Errorf("%q in %d chunks: fragments (-default +handrolled):\n%s", in, len(chunks), d)
			}
		}
	}
}

// TestNoAllocs checks that feeding allocates nothing in steady state, at
// 16-byte chunks and byte by byte, on a document with every kind of token,
// escapes, split runes, and an object large enough for a hash set.
func TestNoAllocs(t *testing.T) {
	doc := []byte(`{"path":"src/lib.rs","patterns":[{"old":"a\nb \u00e9 😀","new":"x","n":-1.5e3,"ok":true,"z":null}],` +
		`"many":` + object(names("k", 40), `{"a":[1,"\ud83d\ude00"]}`) + `,"content":"` +
		strings.Repeat(`line\t\"quoted\" é😀\n`, 50) + `"}`)
	suite.NoAllocs(t, doc, 16, 1, 1024)
}

// TestDeep checks nesting to the hard limit and past the default one.
func TestDeep(t *testing.T) {
	for _, depth := range []int{token.DefaultMaxDepth, token.DefaultMaxDepth + 1, token.HardMaxDepth} {
		open, end := strings.Repeat(`{"a":[`, depth/2), strings.Repeat(`]}`, depth/2)
		if depth%2 == 1 {
			open, end = open+"[", "]"+end
		}
		in := []byte(open + end)
		for _, opts := range [][]token.Option{nil, {token.WithMaxDepth(token.HardMaxDepth)}} {
			if d := handrolledtest.Diff([][]byte{in}, opts...); d != "" {
				t.Errorf("depth %d: %s", depth, d)
			}
		}
	}
}

// TestHandlerStops refuses each event in turn: both tokenizers stop at it
// and keep returning the handler's error.
func TestHandlerStops(t *testing.T) {
	inputs := []string{
		`{"path":"src/main.rs","content":"fn main() {}\n\u00e9","n":[1,2.5e3,true,false,null,{},[]],"":""}`,
		`"plain" `, `"esc\n"`, `12`, `[1,2`, `{"a":1,"a":2}`, `[tru]`,
	}
	for _, in := range inputs {
		n := len(handrolledtest.Reference([][]byte{[]byte(in)}).Events)
		for _, chunks := range [][][]byte{{[]byte(in)}, testutil.SplitEvery([]byte(in), 1), testutil.SplitEvery([]byte(in), 5)} {
			for stop := 0; stop <= n; stop++ {
				if d := handrolledtest.DiffStop(chunks, stop); d != "" {
					t.Errorf("%q in %d chunks, event %d refused:\n%s", in, len(chunks), stop, d)
				}
			}
		}
	}
}
