package jsonwire

import (
	"errors"
	"github.com/argstream/argstream/token"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// decodeAll feeds body (the bytes after a string's opening quote) to a
// String in the given chunks and returns the decoded text, the bytes
// consumed, and the error.
func decodeAll(chunks [][]byte) (string, int, bool, *Error) {
	var s String
	var out []byte
	var off int64
	for _, c := range chunks {
		for len(c) > 0 {
			text, n, closed, err := s.Next(c, off)
			if len(text) > 0 && !utf8.Valid(text) {
				panic("piece is not valid UTF-8")
			}
			out = append(out, text...)
			off += int64(n)
			c = c[n:]
			if err != nil || closed {
				return string(out), int(off), closed, err
			}
		}
	}
	return string(out), int(off), false, nil
}

// splits returns body whole, byte by byte, and cut at every single offset.
func splits(body []byte) [][][]byte {
	all := [][][]byte{{body}}
	var bytewise [][]byte
	for i := range body {
		bytewise = append(bytewise, body[i:i+1])
	}
	all = append(all, bytewise)
	for i := 1; i < len(body); i++ {
		all = append(all, [][]byte{body[:i], {}, body[i:]})
	}
	return all
}

func TestStringDecodesLikeJSONText(t *testing.T) {
	bodies := []string{
		`"`, `abc"`, `a\"b\\c\/d\be\ff\ng\rh\ti"`, `\u00e9\u00E9é"`, `\ud83d\ude00😀"`,
		`\uD83D\uDE00"`, `\u0000\u001f\u007f"`, `héllo, wörld 😀 \u2028"`,
		strings.Repeat(`0123456789abcdef`, 9) + `\n"`, `\uffff\uFFFE"`, `\udbff\udfff"`,
		"\x7f\u0080\u07ff\u0800\uffff\U00010000\U0010ffff\"",
	}
	for _, body := range bodies {
		want, err := jsontext.AppendUnquote(nil, `"`+body)
		if err != nil {
			t.Fatalf("jsontext rejects %q: %v", body, err)
		}
		for _, chunks := range splits([]byte(body)) {
			got, n, closed, lerr := decodeAll(chunks)
			if lerr != nil || !closed || n != len(body) || got != string(want) {
				t.Errorf("body %q in %d chunks: got %q, %d bytes, closed %v, err %v; want %q", body, len(chunks), got, n, closed, lerr, want)
			}
		}
	}
}

func TestStringErrors(t *testing.T) {
	tests := []struct {
		body   string
		offset int64 // within body
		cat    error
		prefix string // text decoded before the error
	}{
		{`ab\x"`, 2, token.ErrInvalidEscape, "ab"},
		{`\u12G4"`, 0, token.ErrInvalidEscape, ""},
		{`ab\ud800"`, 2, token.ErrInvalidEscape, "ab"},
		{`\ud800x"`, 0, token.ErrInvalidEscape, ""},
		{`\ud800\n"`, 0, token.ErrInvalidEscape, ""},
		{`\ud800\u0041"`, 0, token.ErrInvalidEscape, ""},
		{`\ud800\ud800"`, 0, token.ErrInvalidEscape, ""},
		{`x\udc00"`, 1, token.ErrInvalidEscape, "x"},
		{"a\x01\"", 1, token.ErrSyntax, "a"},
		{"a\n\"", 1, token.ErrSyntax, "a"},
		{"ab\xff\"", 2, token.ErrInvalidUTF8, "ab"},
		{"ab\xc3(\"", 2, token.ErrInvalidUTF8, "ab"},
		{"\xe2\x82(\"", 0, token.ErrInvalidUTF8, ""},
		{"\xed\xa0\x80\"", 0, token.ErrInvalidUTF8, ""}, // an encoded surrogate
		{"\xc0\xaf\"", 0, token.ErrInvalidUTF8, ""},     // overlong
		{"\xf4\x90\x80\x80\"", 0, token.ErrInvalidUTF8, ""},
		{"é\xf0\x9f\x98\"", 2, token.ErrInvalidUTF8, "é"},
	}
	for _, tt := range tests {
		if _, err := jsontext.AppendUnquote(nil, `"`+tt.body); err == nil {
			t.Fatalf("jsontext accepts %q", tt.body)
		}
		for _, chunks := range splits([]byte(tt.body)) {
			got, _, _, err := decodeAll(chunks)
			if err == nil || err.Offset != tt.offset || !errors.Is(err.Err, tt.cat) {
				t.Errorf("body %q in %d chunks: got %q, err %+v; want error %v at %d after %q", tt.body, len(chunks), got, err, tt.cat, tt.offset, tt.prefix)
			}
			if got != tt.prefix {
				t.Errorf("body %q in %d chunks: decoded %q before the error, want %q", tt.body, len(chunks), got, tt.prefix)
			}
		}
	}
}

// TestStringBorrows checks that a clean chunk is returned without copying.
func TestStringBorrows(t *testing.T) {
	var s String
	src := []byte(`plain text é, no escapes`)
	text, n, closed, err := s.Next(src, 0)
	if err != nil || closed || n != len(src) || &text[0] != &src[0] {
		t.Fatalf("Next(%q) = %q, %d, %v, %v; want src itself", src, text, n, closed, err)
	}
}

func TestScanPlain(t *testing.T) {
	naive := func(b []byte) int {
		for i, c := range b {
			if c < 0x20 || c == '"' || c == '\\' || c >= 0x80 {
				return i
			}
		}
		return len(b)
	}
	specials := []byte{'"', '\\', 0, 0x1f, 0x20, 0x21, 0x7f, 0x80, 0xff, 'a', '!', '#', '[', ']'}
	for n := 0; n <= 20; n++ {
		for _, c := range specials {
			for at := 0; at < n; at++ {
				b := []byte(strings.Repeat("x", n))
				b[at] = c
				if got, want := ScanPlain(b), naive(b); got != want {
					t.Errorf("ScanPlain(%q) = %d, want %d", b, got, want)
				}
				// Two specials: the first must win even after a borrow.
				if at+1 < n {
					b[at+1] = 0
					if got, want := ScanPlain(b), naive(b); got != want {
						t.Errorf("ScanPlain(%q) = %d, want %d", b, got, want)
					}
				}
			}
		}
	}
}

func FuzzString(f *testing.F) {
	for _, s := range []string{`abc"`, `\u00e9"`, `\ud83d\ude00"`, "é\"", `\x"`, "\xff\"", `a\`} {
		f.Add([]byte(s), uint8(3))
	}
	f.Fuzz(func(t *testing.T, body []byte, cut uint8) {
		want, werr := jsontext.AppendUnquote(nil, append([]byte(`"`), body...))
		whole, n, closed, err := decodeAll([][]byte{body})
		for _, chunks := range [][][]byte{splits(body)[1], {body[:int(cut)%(len(body)+1)], body[int(cut)%(len(body)+1):]}} {
			got, n2, closed2, err2 := decodeAll(chunks)
			// On error the bytes consumed do not matter: the stream is over.
			if got != whole || closed2 != closed || (err == nil) != (err2 == nil) || err == nil && n2 != n || err != nil && *err != *err2 {
				t.Fatalf("chunking changes the result: %q %d %v %v vs %q %d %v %v", whole, n, closed, err, got, n2, closed2, err2)
			}
		}
		// jsontext's verdict on the closed string must agree with ours.
		if closed && n == len(body) {
			if werr != nil || string(want) != whole || err != nil {
				t.Fatalf("body %q: ours %q %v, jsontext %q %v", body, whole, err, want, werr)
			}
		}
		if err != nil && werr == nil {
			t.Fatalf("body %q: we reject (%v), jsontext accepts", body, err)
		}
	})
}

// TestLoadTail checks LoadTail against a byte-by-byte load on every short
// tail of slices of up to 15 bytes, long ones and short ones (which are
// loaded differently).
func TestLoadTail(t *testing.T) {
	b := []byte("0123456789abcdef")
	for n := range len(b) {
		for i := max(0, n-7); i <= n; i++ {
			want := uint64(spaces)
			for j := n - 1; j >= i; j-- {
				want = want<<8 | uint64(b[j])
			}
			if got := LoadTail(b[:n:n], i); got != want {
				t.Errorf("LoadTail(%q, %d) = %#x, want %#x", b[:n], i, got, want)
			}
		}
	}
}
