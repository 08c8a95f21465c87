package adapter

import (
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

func TestFastHelpers(t *testing.T) {
	for _, tc := range []struct {
		data string
		i    int
		want int
	}{
		{`"abc"`, 0, 4}, {`x""`, 1, 2}, {`"a\"b"`, 0, 5}, {`"a\\"b"`, 0, 4}, {`"a\\\"b"`, 0, 7},
		{`"abc`, 0, -1}, {`abc"`, 0, -1}, {`"\"`, 0, -1}, {``, 0, -1},
	} {
		if got := StringEnd([]byte(tc.data), tc.i); got != tc.want {
			t.Errorf("StringEnd(%q, %d) = %d, want %d", tc.data, tc.i, got, tc.want)
		}
	}
	for _, tc := range []struct {
		data string
		n    int64
		j    int
		ok   bool
	}{
		{`0`, 0, 1, true}, {`12,`, 12, 2, true}, {`999999999999999}`, 999999999999999, 15, true}, {`9999999999999999}`, 0, 0, false},
		{`1000000000000000000`, 0, 0, false}, {`01`, 0, 0, false}, {`-1`, 0, 0, false}, {``, 0, 0, false}, {`x`, 0, 0, false},
	} {
		if n, j, ok := Index([]byte(tc.data), 0); n != tc.n || j != tc.j || ok != tc.ok {
			t.Errorf("Index(%q) = %d, %d, %v, want %d, %d, %v", tc.data, n, j, ok, tc.n, tc.j, tc.ok)
		}
	}
	if got := SkipSpace([]byte(" \t\r\n x"), 0); got != 5 {
		t.Errorf("SkipSpace = %d, want 5", got)
	}
	if got := SkipSpace([]byte(" \v"), 0); got != 1 {
		t.Errorf("SkipSpace = %d, want 1", got)
	}
}

// TestUnquote checks Unquote and SkipString against jsontext.AppendUnquote
// on the string that StringEnd ends: the same text, or failure where it
// fails, whether the string takes the plain path or not.
func TestUnquote(t *testing.T) {
	for _, s := range []string{
		`"abc"`, `""`, `"a\"b"`, `"a\\"`, `"tab\there"`, `"\u00e9t\u00e9"`, `"\ud83d\ude00"`, "\"\x7f del\"",
		"\"h\xc3\xa9llo\"", `"0123456789abcdef0123456789"`, `"a/b\/c"`,
		// Invalid: a control byte, a bad escape, a lone surrogate, bad UTF-8, no end.
		"\"a\x01b\"", `"\x"`, `"\ud800"`, "\"\xff\"", "\"\xed\xa0\x80\"", `"abc`, `"\"`, `abc"`, ``,
	} {
		data := []byte(s + `,"next":1`)
		want, err := jsontext.AppendUnquote(nil, data[:max(StringEnd(data, 0)+1, 0)])
		wantEnd := StringEnd(data, 0) + 1
		if err != nil || StringEnd(data, 0) < 0 {
			wantEnd = -1
		}
		got, end := Unquote([]byte("stale"), data, 0)
		if end != wantEnd || end >= 0 && string(got) != string(want) {
			t.Errorf("Unquote(%q) = %q, %d; want %q, %d", s, got, end, want, wantEnd)
		}
		var scratch []byte
		if end := SkipString(data, 0, &scratch); end != wantEnd {
			t.Errorf("SkipString(%q) = %d, want %d", s, end, wantEnd)
		}
	}
}
