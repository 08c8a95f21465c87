package handrolled_test

// The tests below are token.JSON's own (token/json_test.go), run on
// handrolled.Tokenizer: the same expectations, written down, not derived
// from token.JSON. Each input is also checked against token.JSON directly.

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/argstream/argstream/internal/handrolled"
	"github.com/argstream/argstream/internal/handrolled/handrolledtest"
	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/token"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
)

// run feeds chunks to a JSON tokenizer and returns its events in a compact
// notation, string data merged per string:
//
//	{ } [ ]   K"key"   S"data"   null true false   N<text>
func run(chunks [][]byte, opts ...token.Option) ([]string, error) {
	var out []string
	var str []byte
	h := token.HandlerFunc(func(e token.Event) error {
		switch e.Kind {
		case token.BeginObject:
			out = append(out, "{")
		case token.EndObject:
			out = append(out, "}")
		case token.BeginArray:
			out = append(out, "[")
		case token.EndArray:
			out = append(out, "]")
		case token.Key:
			out = append(out, "K"+fmt.Sprintf("%q", e.Data))
		case token.BeginString:
			str = str[:0]
		case token.StringData:
			if len(e.Data) == 0 {
				return errors.New("empty StringData")
			}
			str = append(str, e.Data...)
		case token.EndString:
			out = append(out, "S"+fmt.Sprintf("%q", str))
		case token.Null:
			out = append(out, "null")
		case token.True:
			out = append(out, "true")
		case token.False:
			out = append(out, "false")
		case token.Number:
			out = append(out, "N"+string(e.Data))
		}
		return nil
	})
	t := handrolled.New(h, opts...)
	for _, c := range chunks {
		if err := t.Feed(c); err != nil {
			return out, err
		}
	}
	return out, t.Close()
}

// splits returns ways to feed in: whole, byte by byte, and cut once at
// every offset with an empty chunk in the cut.
func splits(in string) [][][]byte {
	b := []byte(in)
	all := [][][]byte{{b}, testutil.SplitEvery(b, 1)}
	for i := 0; i <= len(b); i++ {
		all = append(all, [][]byte{b[:i], {}, b[i:]})
	}
	return all
}

// contexts wrap a value in every kind of parent; want wraps its events.
var contexts = []struct {
	name        string
	pre, post   string
	wpre, wpost []string
}{
	{"root", "", "", nil, nil},
	{"array", "[", "]", []string{"["}, []string{"]"}},
	{"array-last", "[0, ", "]", []string{"[", "N0"}, []string{"]"}},
	{"object", `{"k":`, "}", []string{"{", `K"k"`}, []string{"}"}},
	{"object-mid", `{"a": 1, "k" : `, `, "z": null}`, []string{"{", `K"a"`, "N1", `K"k"`}, []string{`K"z"`, "null", "}"}},
	{"deep", `[{"a":[{"b":`, "}]}]", []string{"[", "{", `K"a"`, "[", "{", `K"b"`}, []string{"}", "]", "}", "]"}},
}

func TestValues(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{`null`, []string{"null"}},
		{`true`, []string{"true"}},
		{`false`, []string{"false"}},
		{`0`, []string{"N0"}},
		{`-0`, []string{"N-0"}},
		{`12`, []string{"N12"}},
		{`-2.5e3`, []string{"N-2.5e3"}},
		{`1E+10`, []string{"N1E+10"}},
		{`0.000001e-0009`, []string{"N0.000001e-0009"}},
		{`123456789012345678901234567890`, []string{"N123456789012345678901234567890"}},
		{`""`, []string{`S""`}},
		{`"abc"`, []string{`S"abc"`}},
		{`"a\"b\\c\/d\b\f\n\r\t"`, []string{`S"a\"b\\c/d\b\f\n\r\t"`}},
		{`"\u00e9\u00C9é"`, []string{`S"éÉé"`}},
		{`"\ud83d\ude00😀"`, []string{`S"😀😀"`}},
		{`"\u0000"`, []string{`S"\x00"`}},
		{`"1"`, []string{`S"1"`}},
		{`[]`, []string{"[", "]"}},
		{`{}`, []string{"{", "}"}},
		{`[[], {}, ""]`, []string{"[", "[", "]", "{", "}", `S""`, "]"}},
		{` [ 1 , 2 ] `, []string{"[", "N1", "N2", "]"}},
		{"{\"\u00e9\\u00e9\":\n\t1}", []string{"{", `K"éé"`, "N1", "}"}},
		{`{"":0,"a\/b":1}`, []string{"{", `K""`, "N0", `K"a/b"`, "N1", "}"}},
		{`[true,false,null,"x",-1]`, []string{"[", "true", "false", "null", `S"x"`, "N-1", "]"}},
	}
	for _, c := range contexts {
		for _, tt := range tests {
			in := c.pre + tt.in + c.post
			want := append(append(append([]string(nil), c.wpre...), tt.want...), c.wpost...)
			for _, chunks := range splits(in) {
				if d := handrolledtest.Diff(chunks); d != "" {
					t.Errorf("%q in %d chunks differs from token.JSON:\n%s", in, len(chunks), d)
				}
				got, err := run(chunks)
				if err != nil || !cmp.Equal(got, want) {
					t.Errorf("%s: %q in %d chunks: err %v, diff (-want +got):\n%s", c.name, in, len(chunks), err, cmp.Diff(want, got))
					break
				}
			}
		}
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		in      string
		cat     error
		offset  int64
		pointer jsontext.Pointer
		before  []string // events before the error
	}{
		{``, token.ErrTruncated, 0, "", nil},
		{`   `, token.ErrTruncated, 3, "", nil},
		{`[1,2`, token.ErrTruncated, 4, "/1", []string{"[", "N1", "N2"}},
		{`{"a":"xx`, token.ErrTruncated, 8, "/a", []string{"{", `K"a"`}},
		{`{"a`, token.ErrTruncated, 3, "", []string{"{"}},
		{`{"a":`, token.ErrTruncated, 5, "/a", []string{"{", `K"a"`}},
		{`"\u00`, token.ErrTruncated, 5, "", nil},
		{`-`, token.ErrTruncated, 1, "", nil},
		{`1.`, token.ErrTruncated, 2, "", nil},
		{`tru`, token.ErrTruncated, 3, "", nil},
		{`{"a":1}x`, token.ErrTrailingData, 7, "", []string{"{", `K"a"`, "N1", "}"}},
		{`1 2`, token.ErrTrailingData, 2, "", []string{"N1"}},
		{`"a" "b"`, token.ErrTrailingData, 4, "", []string{`S"a"`}},
		{`{"a":1,"a":2}`, token.ErrDuplicateKey, 7, "/a", []string{"{", `K"a"`, "N1"}},
		{`{"a":1,"\u0061":2}`, token.ErrDuplicateKey, 7, "/a", []string{"{", `K"a"`, "N1"}},
		{`{"x":{"a":[],"b":1,"a":2}}`, token.ErrDuplicateKey, 19, "/x/a", []string{"{", `K"x"`, "{", `K"a"`, "[", "]", `K"b"`, "N1"}},
		{"\"ab\xff\"", token.ErrInvalidUTF8, 3, "", nil},
		{"{\"k\xc3(\":1}", token.ErrInvalidUTF8, 3, "", []string{"{"}},
		{`"ab\x"`, token.ErrInvalidEscape, 3, "", nil},
		{`["\ud800"]`, token.ErrInvalidEscape, 2, "/0", []string{"["}},
		{`{"k":"\udc00"}`, token.ErrInvalidEscape, 6, "/k", []string{"{", `K"k"`}},
		{"\"a\nb\"", token.ErrSyntax, 2, "", nil},
		{`[1,]`, token.ErrSyntax, 3, "/1", []string{"[", "N1"}},
		{`{"a":}`, token.ErrSyntax, 5, "/a", []string{"{", `K"a"`}},
		{`[1 2]`, token.ErrSyntax, 3, "", []string{"[", "N1"}},
		{`[01]`, token.ErrSyntax, 2, "", []string{"[", "N0"}},
		{`[-]`, token.ErrSyntax, 2, "/0", []string{"["}},
		{`[1.e3]`, token.ErrSyntax, 3, "/0", []string{"["}},
		{`{"a" 1}`, token.ErrSyntax, 5, "/a", []string{"{", `K"a"`}},
		{`{"a":1,}`, token.ErrSyntax, 7, "", []string{"{", `K"a"`, "N1"}},
		{`{1:2}`, token.ErrSyntax, 1, "", []string{"{"}},
		{`{null:null}`, token.ErrSyntax, 1, "", []string{"{"}},
		{`{"x":{t`, token.ErrSyntax, 6, "/x", []string{"{", `K"x"`, "{"}},
		{`{"a":1,-1:2}`, token.ErrSyntax, 7, "", []string{"{", `K"a"`, "N1"}},
		{`{"a":1 "b":2}`, token.ErrSyntax, 7, "", []string{"{", `K"a"`, "N1"}},
		{`[}`, token.ErrSyntax, 1, "/0", []string{"["}},
		{`{"a",1}`, token.ErrSyntax, 4, "/a", []string{"{", `K"a"`}},
		{`[tru]`, token.ErrSyntax, 4, "/0", []string{"["}},
		{`nul`, token.ErrTruncated, 3, "", nil},
		{`[nulL]`, token.ErrSyntax, 4, "/0", []string{"["}},
		{`[x]`, token.ErrSyntax, 1, "/0", []string{"["}},
		{"\ufeff{}", token.ErrSyntax, 0, "", nil},
		{`[,1]`, token.ErrSyntax, 1, "", []string{"["}},
		{`{"a"::1}`, token.ErrSyntax, 5, "/a", []string{"{", `K"a"`}},
		{`[1]]`, token.ErrTrailingData, 3, "", []string{"[", "N1", "]"}},
	}
	for _, tt := range tests {
		for _, chunks := range splits(tt.in) {
			if d := handrolledtest.Diff(chunks); d != "" {
				t.Errorf("%q in %d chunks differs from token.JSON:\n%s", tt.in, len(chunks), d)
			}
			got, err := run(chunks)
			var se *token.SyntaxError
			if !errors.As(err, &se) || !errors.Is(err, tt.cat) || se.Offset != tt.offset || se.Pointer != tt.pointer {
				t.Errorf("%q in %d chunks: got %v (%#v), want %v at %d in %q", tt.in, len(chunks), err, se, tt.cat, tt.offset, tt.pointer)
				break
			}
			if !cmp.Equal(got, tt.before, cmp.Comparer(func(a, b []string) bool { return strings.Join(a, " ") == strings.Join(b, " ") })) {
				t.Errorf("%q in %d chunks: events before the error (-want +got):\n%s", tt.in, len(chunks), cmp.Diff(tt.before, got))
				break
			}
			if se.Detail == "" || !strings.Contains(err.Error(), fmt.Sprint(tt.offset)) {
				t.Errorf("%q: message %q does not say what and where", tt.in, err)
			}
		}
	}
}

func TestLimits(t *testing.T) {
	deep := strings.Repeat("[", 5) + strings.Repeat("]", 5)
	if _, err := run([][]byte{[]byte(deep)}, token.MaxDepth(5)); err != nil {
		t.Errorf("depth 5 with MaxDepth(5): %v", err)
	}
	_, err := run([][]byte{[]byte(`{"a":[[[[]]]]}`)}, token.MaxDepth(4))
	var se *token.SyntaxError
	if !errors.As(err, &se) || !errors.Is(err, token.ErrTooDeep) || se.Offset != 8 || se.Pointer != "/a/0/0/0" {
		t.Errorf("depth 5 with MaxDepth(4): %v (%#v)", err, se)
	}
	def := strings.Repeat("[", token.DefaultMaxDepth) + strings.Repeat("]", token.DefaultMaxDepth)
	if _, err := run([][]byte{[]byte(def)}); err != nil {
		t.Errorf("default depth: %v", err)
	}
	if _, err := run([][]byte{[]byte("[" + def + "]")}); !errors.Is(err, token.ErrTooDeep) {
		t.Errorf("default depth + 1: %v", err)
	}

	in := `{"a":"0123456789"}`
	for _, chunks := range splits(in) {
		if _, err := run(chunks, token.MaxSize(int64(len(in)))); err != nil {
			t.Errorf("input of exactly MaxSize: %v", err)
		}
		got, err := run(chunks, token.MaxSize(10))
		if !errors.As(err, &se) || !errors.Is(err, token.ErrTooLarge) || se.Offset != 10 {
			t.Errorf("MaxSize(10) in %d chunks: %v", len(chunks), err)
		}
		if want := []string{"{", `K"a"`}; !cmp.Equal(got, want) {
			t.Errorf("MaxSize(10): events %v, want %v", got, want)
		}
	}
}

// TestNumberWaits is the first known trap: a number touching the end of a
// chunk must wait for the byte after it.
func TestNumberWaits(t *testing.T) {
	var events []token.Event
	tok := handrolled.New(token.HandlerFunc(func(e token.Event) error {
		events = append(events, token.Event{Kind: e.Kind, Data: append([]byte(nil), e.Data...), Offset: e.Offset})
		return nil
	}))
	steps := []struct {
		chunk string
		want  int // events so far
	}{{"[1,2", 2}, {".5e", 2}, {"3", 2}, {"]", 4}}
	for _, s := range steps {
		if err := tok.Feed([]byte(s.chunk)); err != nil {
			t.Fatal(err)
		}
		if len(events) != s.want {
			t.Fatalf("after %q: %d events, want %d", s.chunk, len(events), s.want)
		}
	}
	if got := string(events[2].Data); got != "2.5e3" || events[2].Offset != 9 {
		t.Errorf("number %q at %d, want 2.5e3 at 9", got, events[2].Offset)
	}
	if err := tok.Close(); err != nil {
		t.Fatal(err)
	}
	// A root number ends only at Close.
	events = nil
	tok = handrolled.New(tok2(&events))
	tok.Feed([]byte("12"))
	if len(events) != 0 {
		t.Fatalf("root number reported before Close")
	}
	if err := tok.Close(); err != nil || len(events) != 1 || events[0].Offset != 2 {
		t.Fatalf("Close: %v, events %v", err, events)
	}
}

func tok2(events *[]token.Event) token.Handler {
	return token.HandlerFunc(func(e token.Event) error {
		*events = append(*events, e)
		return nil
	})
}

// TestEager checks that every event is reported by the chunk that
// determines it, not later.
func TestEager(t *testing.T) {
	in := `{"path":"src/main.rs","n":[12,true],"content":"fn main() {}"}`
	// determinedAt[i] is the input length at which event i is determined.
	type ev struct {
		kind token.Kind
		at   int64
	}
	want := []ev{
		{token.BeginObject, 1}, {token.Key, 7}, {token.BeginString, 9}, {token.StringData, 20}, {token.EndString, 21},
		{token.Key, 25}, {token.BeginArray, 27}, {token.Number, 30}, {token.True, 34}, {token.EndArray, 35},
		{token.Key, 45}, {token.BeginString, 47}, {token.StringData, 59}, {token.EndString, 60}, {token.EndObject, 61},
	}
	var got []ev
	fed := 0
	tok := handrolled.New(token.HandlerFunc(func(e token.Event) error {
		if e.Offset > int64(fed) {
			t.Errorf("%v reported with offset %d after only %d bytes", e.Kind, e.Offset, fed)
		}
		got = append(got, ev{e.Kind, e.Offset})
		return nil
	}))
	for i := range len(in) {
		fed = i + 1
		before := len(got)
		if err := tok.Feed([]byte{in[i]}); err != nil {
			t.Fatal(err)
		}
		// Events due by now must have come.
		for _, w := range want {
			if w.at == int64(fed) && len(got) == before && w.kind != token.StringData {
				t.Errorf("%v due at %d not reported", w.kind, fed)
			}
		}
	}
	if err := tok.Close(); err != nil {
		t.Fatal(err)
	}
	// Whole-input offsets are the determining offsets.
	got = nil
	tok = handrolled.New(token.HandlerFunc(func(e token.Event) error {
		got = append(got, ev{e.Kind, e.Offset})
		return nil
	}))
	fed = len(in)
	tok.Feed([]byte(in))
	tok.Close()
	if !cmp.Equal(got, want, cmp.AllowUnexported(ev{})) {
		t.Errorf("offsets (-want +got):\n%s", cmp.Diff(want, got, cmp.AllowUnexported(ev{})))
	}
}

func TestHandlerErrorStops(t *testing.T) {
	stop := errors.New("enough")
	n := 0
	tok := handrolled.New(token.HandlerFunc(func(e token.Event) error {
		n++
		if e.Kind == token.Key {
			return stop
		}
		return nil
	}))
	if err := tok.Feed([]byte(`{"a":1,"b":2}`)); err != stop {
		t.Fatalf("Feed: %v, want the handler's error", err)
	}
	if err := tok.Feed([]byte(`x`)); err != stop || n != 2 {
		t.Fatalf("Feed after stop: %v after %d events", err, n)
	}
	if err := tok.Close(); err != stop {
		t.Fatalf("Close after stop: %v", err)
	}
}

func TestFeedAfterClose(t *testing.T) {
	tok := handrolled.New(token.HandlerFunc(func(token.Event) error { return nil }))
	tok.Feed([]byte("{}"))
	if err := tok.Close(); err != nil {
		t.Fatal(err)
	}
	if err := tok.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if err := tok.Feed([]byte(" ")); !errors.Is(err, token.ErrClosed) {
		t.Fatalf("Feed after Close: %v", err)
	}
}

func TestReset(t *testing.T) {
	var events []token.Event
	tok := handrolled.New(tok2(&events))
	tok.Feed([]byte(`{"a":[1,`)) // left unfinished
	events = nil
	tok.Reset(tok2(&events))
	if err := tok.Feed([]byte(`"x"`)); err != nil {
		t.Fatal(err)
	}
	if err := tok.Close(); err != nil || len(events) != 3 || tok.Offset() != 3 {
		t.Fatalf("after Reset: %v, %d events, offset %d", err, len(events), tok.Offset())
	}
}
