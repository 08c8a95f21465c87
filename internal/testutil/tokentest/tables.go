// Package tokentest holds the table tests that a JSON tokenizer must pass,
// written down once and run on [jsontoken.Tokenizer] (jsontoken's tests) and on
// handrolled.Tokenizer (handrolled's tests): values in every kind of parent
// and every chunking, errors with their category, offset, JSON pointer and
// the events before them, the limits, and the traps of resumable
// tokenizing (a number at the end of a chunk, events reported as early as
// the input determines them, a handler that stops, Feed after Close, Reset).
//
// The expectations are literal, not derived from either tokenizer.
package tokentest

import (
	"errors"
	"fmt"
	"strings"

	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/token"
	"github.com/argstream/argstream/token/jsontoken"
	"github.com/go-json-experiment/json/jsontext"
)

// NewJSON is [jsontoken.New] as a [token.NewFunc].
func NewJSON(h token.Handler, opts ...token.Option) token.Tokenizer {
	return jsontoken.New(h, opts...)
}

// Events feeds chunks to a tokenizer that newTok makes, closes it and
// returns its events in a compact notation, string data merged per string:
//
//	{ } [ ]   K"key"   S"data"   null true false   N<text>
//
// The error is the first from Feed or Close; the events are those before it.
// Empty string data is an error of its own.
func Events(newTok token.NewFunc, chunks [][]byte, opts ...token.Option) ([]string, error) {
	var out []string
	var str []byte
	h := token.HandlerFunc(func(e token.Event) error {
		switch e.Kind {
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
		case token.Number:
			out = append(out, "N"+string(e.Data))
		default:
			if m, ok := marks[e.Kind]; ok {
				out = append(out, m)
			}
		}
		return nil
	})
	t := newTok(h, opts...)
	for _, c := range chunks {
		if err := t.Feed(c); err != nil {
			return out, err
		}
	}
	return out, t.Close()
}

// marks are the notations of the events without data.
var marks = map[token.Kind]string{
	token.BeginObject: "{", token.EndObject: "}", token.BeginArray: "[", token.EndArray: "]",
	token.Null: "null", token.True: "true", token.False: "false",
}

// Chunkings returns ways to feed in: whole, byte by byte, and cut once at
// every offset with an empty chunk in the cut.
func Chunkings(in string) [][][]byte {
	b := []byte(in)
	all := [][][]byte{{b}, testutil.SplitEvery(b, 1)}
	for i := 0; i <= len(b); i++ {
		all = append(all, [][]byte{b[:i], {}, b[i:]})
	}
	return all
}

// A Context wraps a value in a parent: Pre+value+Post gives the events
// [Context.WantPre], the value's events, [Context.WantPost].
type Context struct {
	Name              string
	Pre, Post         string
	WantPre, WantPost []string
}

// Contexts wrap a value in every kind of parent.
var Contexts = []Context{
	{"root", "", "", nil, nil},
	{"array", "[", "]", []string{"["}, []string{"]"}},
	{"array-last", "[0, ", "]", []string{"[", "N0"}, []string{"]"}},
	{"object", `{"k":`, "}", []string{"{", `K"k"`}, []string{"}"}},
	{"object-mid", `{"a": 1, "k" : `, `, "z": null}`, []string{"{", `K"a"`, "N1", `K"k"`}, []string{`K"z"`, "null", "}"}},
	{"deep", `[{"a":[{"b":`, "}]}]", []string{"[", "{", `K"a"`, "[", "{", `K"b"`}, []string{"}", "]", "}", "]"}},
}

// A Value is a valid JSON value and its events (see [Events]).
type Value struct {
	In   string
	Want []string
}

// Values are valid in every context.
var Values = []Value{
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
	// Keys equal under full case folding only (ß is SS there, not under
	// simple folding), in different objects, or alike but not under
	// simple folding (İ and ı fold to neither i nor I).
	{`{"straße":1,"STRASSE":2}`, []string{"{", `K"straße"`, "N1", `K"STRASSE"`, "N2", "}"}},
	{`{"a":{"p":1},"P":2}`, []string{"{", `K"a"`, "{", `K"p"`, "N1", "}", `K"P"`, "N2", "}"}},
	{`[{"a":1},{"A":2}]`, []string{"[", "{", `K"a"`, "N1", "}", "{", `K"A"`, "N2", "}", "]"}},
	{`{"i":1,"İ":2,"ı":3}`, []string{"{", `K"i"`, "N1", `K"İ"`, "N2", `K"ı"`, "N3", "}"}},
	{manyKeys(20, ""), manyKeysEvents(20)},
}

// manyKeys returns an object of n keys k00, k01 ... that are distinct
// under case folding, each with the value 0, followed by more, a member
// written whole (`"K03":0` repeats k03 under folding): an object large
// enough for the hand-rolled key set's hash table.
func manyKeys(n int, more string) string {
	var b strings.Builder
	b.WriteByte('{')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"k%02d":0`, i)
	}
	if more != "" {
		b.WriteString("," + more)
	}
	b.WriteByte('}')
	return b.String()
}

// manyKeysEvents returns the events of manyKeys(n, "").
func manyKeysEvents(n int) []string {
	out := []string{"{"}
	for i := range n {
		out = append(out, fmt.Sprintf(`K"k%02d"`, i), "N0")
	}
	return append(out, "}")
}

// An Error is an input that ends in a [*token.SyntaxError] of category
// [Error.Cat], at [Error.Offset] in the stream, about the value at
// [Error.Pointer], after the events [Error.Before].
type Error struct {
	In      string
	Cat     error
	Offset  int64
	Pointer jsontext.Pointer
	Before  []string
}

// Errors are inputs that fail, with the default options.
var Errors = []Error{
	{``, token.ErrTruncated, 0, "", nil},
	{`   `, token.ErrTruncated, 3, "", nil},
	// The end of input does not end a number inside a container: the
	// input may have been cut in it.
	{`[1,2`, token.ErrTruncated, 4, "/1", []string{"[", "N1"}},
	{`{"n": 12`, token.ErrTruncated, 8, "/n", []string{"{", `K"n"`}},
	{`{"a":[1,2`, token.ErrTruncated, 9, "/a/1", []string{"{", `K"a"`, "[", "N1"}},
	{`[1,tr`, token.ErrTruncated, 5, "/1", []string{"[", "N1"}},
	{`{"n":fals`, token.ErrTruncated, 9, "/n", []string{"{", `K"n"`}},
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
	// Keys a tool runtime would confuse: at the key, in the member it
	// names, as a duplicate.
	{`{"path":"src/a","PATH":"/etc/passwd"}`, token.ErrCaseFoldedKey, 16, "/PATH", []string{"{", `K"path"`, `S"src/a"`}},
	{`{"p\u0061th":1,"PATH":2}`, token.ErrCaseFoldedKey, 15, "/PATH", []string{"{", `K"path"`, "N1"}},
	{`{"PATH":1,"p\u0061th":2}`, token.ErrCaseFoldedKey, 10, "/path", []string{"{", `K"PATH"`, "N1"}},
	{`{"k":1,"\u212a":2}`, token.ErrCaseFoldedKey, 7, "/\u212a", []string{"{", `K"k"`, "N1"}},
	{"{\"\u212a\":1,\"K\":2}", token.ErrCaseFoldedKey, 9, "/K", []string{"{", "K\"\u212a\"", "N1"}},
	{`{"ǅ":1,"ǆ":2}`, token.ErrCaseFoldedKey, 8, "/ǆ", []string{"{", `K"ǅ"`, "N1"}},
	{`{"straße":1,"STRAẞE":2}`, token.ErrCaseFoldedKey, 13, "/STRAẞE", []string{"{", `K"straße"`, "N1"}},
	{`{"σ":[],"\u03a3":0}`, token.ErrCaseFoldedKey, 9, "/Σ", []string{"{", `K"σ"`, "[", "]"}},
	{`{"x":[{"a":1,"A":2}]}`, token.ErrCaseFoldedKey, 13, "/x/0/A", []string{"{", `K"x"`, "[", "{", `K"a"`, "N1"}},
	{`{"a":{"p":1},"b":{"q":2,"Q":3}}`, token.ErrCaseFoldedKey, 24, "/b/Q", []string{"{", `K"a"`, "{", `K"p"`, "N1", "}", `K"b"`, "{", `K"q"`, "N2"}},
	{manyKeys(20, `"K03":0`), token.ErrCaseFoldedKey, int64(len(manyKeys(20, ""))), "/K03", manyKeysEvents(20)[:41]},
	{`{"path\u0000":1}`, token.ErrNULInKey, 1, "/path\x00", []string{"{"}},
	{`{"":1,"\u0000":2}`, token.ErrNULInKey, 6, "/\x00", []string{"{", `K""`, "N1"}},
	{`[0,{"a":{"\u0000b":{}}}]`, token.ErrNULInKey, 9, "/1/a/\x00b", []string{"[", "N0", "{", `K"a"`, "{"}},
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
