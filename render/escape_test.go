package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode"
	"unicode/utf8"
)

// escapedTable is shownEscaped for every code point, computed once.
var escapedTable = sync.OnceValue(func() []bool {
	t := make([]bool, unicode.MaxRune+1)
	for r := range t {
		t[r] = shownEscaped(rune(r))
	}
	return t
})

// shownEscaped is the test's own statement of the characters that must not
// reach a terminal raw, class by class (see escaped).
func shownEscaped(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f: // C0, DEL, C1
		return true
	case r == ' ':
		return false
	case unicode.Is(unicode.Zs, r), unicode.Is(unicode.Zl, r), unicode.Is(unicode.Zp, r):
		return true // spaces other than U+0020, line and paragraph separators
	case unicode.Is(unicode.Cf, r), unicode.Is(unicode.Co, r), unicode.Is(unicode.Cs, r):
		return true // format (bidi, zero-width, tags, BOM, …), private use, surrogates
	case r == 0x2800: // Braille pattern blank: drawn as nothing
		return true
	case unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r),
		unicode.Is(unicode.Variation_Selector, r),
		unicode.Is(unicode.Noncharacter_Code_Point, r):
		return true
	case !unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Z, unicode.Cc, unicode.Cf, unicode.Co, unicode.Cs):
		return true // unassigned
	}
	return false
}

// TestEscapedNamed: the characters the renderer must never write raw,
// named one by one, and some it must write as they are.
func TestEscapedNamed(t *testing.T) {
	must := []rune{
		0x00, 0x07, 0x08, 0x09, 0x0a, 0x0d, 0x1b, 0x1f, 0x7f, // NUL BEL BS TAB LF CR ESC US DEL
		0x80, 0x85, 0x9b, 0x9f, // C1: NEL, CSI
		0xa0, 0xad, 0x34f, 0x61c, 0x115f, 0x1160, 0x180e, 0x2000, 0x200a, // NBSP, soft hyphen, CGJ, ALM, fillers, MVS, spaces
		0x200b, 0x200c, 0x200d, 0x200e, 0x200f, // zero-width, LRM, RLM
		0x2028, 0x2029, // separators
		0x202a, 0x202b, 0x202c, 0x202d, 0x202e, // bidi embeddings and overrides
		0x2060, 0x2061, 0x2064, 0x2066, 0x2067, 0x2068, 0x2069, 0x206f, // word joiner, invisible operators, isolates
		0x3000, 0x3164, 0xfe00, 0xfe0f, 0xfeff, 0xffa0, 0xfff9, 0xfffb, 0xfffe, 0xffff, // variation selectors, BOM, annotations
		0xe000, 0xf8ff, 0x1d173, 0xe0001, 0xe0041, 0xe007f, 0xe0100, 0xe01ef, 0xf0000, 0x10fffd, 0x10ffff, // private use, tags
		0x0378, 0x50000, // unassigned
		0x2800, // Braille pattern blank
	}
	for _, r := range must {
		if !escaped(r) {
			t.Errorf("U+%04X is written raw", r)
		}
	}
	raw := []rune{' ', '~', 'a', '"', '\\', 'é', 0x301, 'ß', 'ω', 'я', 'א', 'ب', 0x2026, 0x2502, '中', '😀', 0x1f9d1}
	for _, r := range raw {
		if escaped(r) {
			t.Errorf("%q U+%04X is escaped", r, r)
		}
	}
}

// TestEscapeEveryRune checks every code point against shownEscaped, in
// each mode, and that each mode's text decodes back: Go's strconv.Unquote
// for Quoted, encoding/json for JSONQuoted.
func TestEscapeEveryRune(t *testing.T) {
	var batch []byte
	check := func() {
		goq := appendEscaped(nil, batch, Quoted)
		if got, err := strconv.Unquote(`"` + string(goq) + `"`); err != nil || got != string(batch) {
			t.Fatalf("Quoted of %+q: %s does not unquote back (%v)", batch, goq, err)
		}
		js := appendEscaped(nil, batch, JSONQuoted)
		var got string
		if err := json.Unmarshal(append(append([]byte{'"'}, js...), '"'), &got); err != nil || got != string(batch) {
			t.Fatalf("JSONQuoted of %+q: %s does not decode back (%v)", batch, js, err)
		}
		for _, out := range [][]byte{goq, js, appendEscaped(nil, batch, Text)} {
			if err := safeText(out, false); err != nil {
				t.Fatalf("%+q: %v", batch, err)
			}
		}
		batch = batch[:0]
	}
	var enc [utf8.UTFMax]byte
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if r >= 0xd800 && r <= 0xdfff {
			continue // no UTF-8 for surrogates: see TestEscapeInvalidUTF8
		}
		s := enc[:utf8.EncodeRune(enc[:], r)]
		want := escapedTable()[r]
		if escaped(r) != want {
			t.Fatalf("escaped(U+%04X) = %v, want %v", r, !want, want)
		}
		for _, m := range []Mode{Quoted, Text, JSONQuoted, Line, JSONText} {
			esc, n, k := unit(nil, s, m)
			if n != len(s) {
				t.Fatalf("mode %d, U+%04X: unit takes %d bytes of %d", m, r, n, len(s))
			}
			wantKind := plain
			switch {
			case m == Text && r == '\n':
				wantKind = newline
			case m == Text && r == '\t':
				wantKind = tab
			case want, m.quoting() && (r == '"' || r == '\\'):
				wantKind = escape
			}
			if k != wantKind {
				t.Fatalf("mode %d, U+%04X: kind %d, want %d", m, r, k, wantKind)
			}
			if k == escape {
				if err := wantEscape(esc, r, m); err != nil {
					t.Fatalf("mode %d: %v", m, err)
				}
			}
		}
		batch = append(batch, s...)
		if len(batch) > 4000 {
			check()
		}
	}
	check()
}

// wantEscape checks the form of one rune's escape.
func wantEscape(esc []byte, r rune, m Mode) error {
	var want string
	switch {
	case r == '"' || r == '\\':
		want = `\` + string(r)
	case r == '\n':
		want = `\n`
	case r == '\r':
		want = `\r`
	case r == '\t':
		want = `\t`
	case m.json() && r == '\b':
		want = `\b`
	case m.json() && r == '\f':
		want = `\f`
	case m.json() && r > 0xffff:
		r1, r2 := utf16Pair(r)
		want = fmt.Sprintf(`\u%04x\u%04x`, r1, r2)
	case m.json(), r >= 0x80 && r <= 0xffff:
		want = fmt.Sprintf(`\u%04x`, r)
	case r < 0x80:
		want = fmt.Sprintf(`\x%02x`, r)
	default:
		want = fmt.Sprintf(`\U%08x`, r)
	}
	if string(esc) != want {
		return fmt.Errorf("U+%04X escaped %s, want %s", r, esc, want)
	}
	return nil
}

func utf16Pair(r rune) (rune, rune) {
	r -= 0x10000
	return 0xd800 + r>>10, 0xdc00 + r&0x3ff
}

// TestEscapeInvalidUTF8: a byte that is not UTF-8 (lone continuation and
// lead bytes, a surrogate's encoding, an overlong form) is one unit,
// \xNN in Go form and \ufffd in JSON.
func TestEscapeInvalidUTF8(t *testing.T) {
	var inputs [][]byte
	for b := 0x80; b <= 0xff; b++ {
		inputs = append(inputs, []byte{byte(b)})
	}
	inputs = append(inputs, []byte("\xed\xa0\x80"), []byte("\xc0\xaf"), []byte("\xf4\x90\x80\x80"), []byte("a\xffb"))
	for _, in := range inputs {
		goq := appendEscaped(nil, in, Quoted)
		if got, err := strconv.Unquote(`"` + string(goq) + `"`); err != nil || got != string(in) {
			t.Errorf("Quoted %+q = %s: unquotes to %+q, %v", in, goq, got, err)
		}
		if !bytes.Contains(goq, []byte(`\x`)) {
			t.Errorf("Quoted %+q = %s: no \\x", in, goq)
		}
		js := appendEscaped(nil, in, JSONQuoted)
		if !utf8.Valid(js) || !bytes.Contains(js, []byte(`\ufffd`)) {
			t.Errorf("JSONQuoted %+q = %s", in, js)
		}
		for _, out := range [][]byte{goq, js, appendEscaped(nil, in, Text)} {
			if err := safeText(out, false); err != nil {
				t.Errorf("%+q: %v", in, err)
			}
		}
	}
}

// TestEscapeBlock: a block keeps newlines and expands tabs to 4-column
// stops, counting wide runes as two columns.
func TestEscapeBlock(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"a\tb", "a   b"},
		{"\tx", "    x"},
		{"abcd\te", "abcd    e"},
		{"中\tx", "中  x"},
		{"a\nb\tc", "a\nb   c"},
		{"q\"\\", "q\"\\"},
		{"x\r\n", "x\\r\n"},
		{"\x1b[2J", "\\x1b[2J"},
		{"a\u202eb", "a\\u202eb"},
	} {
		if got := string(appendEscaped(nil, []byte(c.in), Text)); got != c.want {
			t.Errorf("block %+q = %+q, want %+q", c.in, got, c.want)
		}
	}
}

func TestBareName(t *testing.T) {
	for _, s := range []string{"path", "fs_create_file", "dry-run", "a.b", "X9"} {
		if !bareName([]byte(s)) {
			t.Errorf("%q is quoted", s)
		}
	}
	for _, s := range []string{"", "#", "a b", "f(x)", "a:b", `a"b`, "é", "a\x1b"} {
		if bareName([]byte(s)) {
			t.Errorf("%q is bare", s)
		}
	}
}

// TestWidth: columns are counted by grapheme cluster, as a terminal
// shows them, whole or rune by rune however the text is cut.
func TestWidth(t *testing.T) {
	for _, c := range []struct {
		s string
		w int
	}{
		{"abc", 3}, {"héllo", 5}, {"", 0},
		{"→", 1}, {"—", 1}, {"…", 1}, {"│", 1}, {"┆", 1}, // narrow or ambiguous: one column
		{"中文", 4}, {"日本語", 6}, {"한", 2}, // East Asian wide
		{"😀", 2}, {"👍🏽", 2}, {"👨\u200d👩\u200d👧", 2}, {"🇫🇷", 2}, // emoji, a skin tone, a ZWJ family, a flag
		{"e\u0301", 1}, {"a\u0301\u0302\u0303", 1}, // combining marks
		{"\u1100\u1161\u11a8", 2}, // Hangul jamo: one syllable
		{"का", 2},                 // a spacing mark adds its column
	} {
		if got := width([]byte(c.s)); got != c.w {
			t.Errorf("width(%+q) = %d, want %d", c.s, got, c.w)
		}
		if strings.ContainsFunc(c.s, escaped) {
			continue // ZWJ is shown escaped: never written raw
		}
		// Rune by rune, as the writer counts, with any cut: the same.
		var cols columns
		n := 0
		for _, r := range c.s {
			n += cols.rune(r)
		}
		if n != c.w {
			t.Errorf("%+q rune by rune: %d columns, want %d", c.s, n, c.w)
		}
	}
}

// safeText reports the first thing in out that a terminal could take for
// other than text: a byte below 0x20 other than '\n', DEL, a byte that is
// not UTF-8, a rune shown escaped. With sgr, the renderer's own SGR
// sequences are removed first, and must be the only escape sequences.
func safeText(out []byte, sgr bool) error {
	s := string(out)
	if sgr {
		for _, seq := range []string{sgrReset, sgrBold, sgrDim, sgrReverse, sgrRed} {
			s = strings.ReplaceAll(s, seq, "")
		}
	}
	if !utf8.ValidString(s) {
		return fmt.Errorf("not UTF-8: %+q", s)
	}
	table := escapedTable()
	for i, r := range s {
		if r != '\n' && table[r] {
			return fmt.Errorf("U+%04X at byte %d of %+q", r, i, s)
		}
	}
	return nil
}

// TestEscapeExported: Escape and AppendEscaped, the escaper applications
// use for their own lines, escape every class of hidden character in each
// mode; Line keeps Go-quoted text's value and JSONText a JSON document's.
func TestEscapeExported(t *testing.T) {
	hidden := map[string]string{
		"zero-width space": "\u200b", "zero-width joiner": "\u200d", "word joiner": "\u2060",
		"tag A": "\U000e0041", "cancel tag": "\U000e007f", "BOM": "\ufeff",
		"line separator": "\u2028", "paragraph separator": "\u2029", "soft hyphen": "\u00ad",
		"Hangul filler": "\u3164", "choseong filler": "\u115f", "jungseong filler": "\u1160",
		"halfwidth filler": "\uffa0", "variation selector 16": "\ufe0f", "variation selector 17": "\U000e0100",
		"RLO": "\u202e", "ESC": "\x1b", "DEL": "\x7f", "NEL": "\u0085", "Braille blank": "\u2800",
	}
	for name, lit := range hidden {
		r, err := strconv.Unquote(`"` + lit + `"`)
		if err != nil {
			t.Fatal(err)
		}
		in := "a" + r + "b"
		for _, m := range []Mode{Quoted, Text, JSONQuoted, Line, JSONText} {
			got := Escape(in, m)
			if strings.Contains(got, r) || !strings.HasPrefix(got, "a\\") {
				t.Errorf("%s, mode %d: Escape gives %+q", name, m, got)
			}
			if app := string(AppendEscaped([]byte("x"), []byte(in), m)); app != "x"+got {
				t.Errorf("%s, mode %d: AppendEscaped %+q, Escape %+q", name, m, app, got)
			}
		}
	}
	if got := Escape("plain \"text\" \\ é 😀", Line); got != "plain \"text\" \\ é 😀" {
		t.Errorf("Line changed plain text: %+q", got)
	}
	if got := Escape("a\tb\nc", Line); got != `a\tb\nc` {
		t.Errorf("Line: %+q", got)
	}
	if got := Escape("a\tb\nc", Text); got != "a   b\nc" {
		t.Errorf("Text: %+q", got)
	}
	// Go-quoted text keeps its value under Line, JSON under JSONText.
	val := "x\u200by\U000e0041\u3164\x7f"
	goq := Escape(strconv.Quote(val), Line)
	if back, err := strconv.Unquote(goq); err != nil || back != val {
		t.Errorf("Line of %s = %s: unquotes to %+q, %v", strconv.Quote(val), goq, back, err)
	}
	doc, _ := json.Marshal(map[string]string{"k\u2028": val})
	js := Escape(string(doc), JSONText)
	var back map[string]string
	if err := json.Unmarshal([]byte(js), &back); err != nil || back["k\u2028"] != val {
		t.Errorf("JSONText of %s = %s: decodes to %+q, %v", doc, js, back, err)
	}
	if err := safeText([]byte(js+goq), false); err != nil {
		t.Error(err)
	}
}
