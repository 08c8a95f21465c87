package render

import (
	"unicode"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// This file is the one place that decides which characters of a model's
// text reach the terminal raw. Everything the renderer writes from the
// arguments, their keys, the tool's name and error messages goes through
// unit, below, either one rune at a time (the writer, which also wraps
// lines) or through appendEscaped (Partial).

// Mode says how [AppendEscaped] shows text a model wrote: which escape
// syntax stands for a character not written raw, and what becomes of
// quotes, backslashes, newlines and tabs. Whatever the mode, every
// character that escaped reports (see the package documentation) is an
// escape, so that the result can be written to a terminal.
type Mode uint8

const (
	// Quoted is the inside of a Go string literal, as the function-call
	// style quotes values, keys and names: \" \\ \t \n \r, \xNN for the
	// other ASCII controls and for bytes that are not UTF-8, \uNNNN and
	// \UNNNNNNNN for the other runes shown escaped. strconv.Unquote gives
	// the text back.
	Quoted Mode = iota
	// Text is text shown as lines, as a long string's block: a newline is
	// a line break, a tab is spaces to the next tab stop (4 columns),
	// quotes and backslashes are themselves; every other character shown
	// escaped is escaped as in Quoted.
	Text
	// JSONQuoted is the inside of a JSON string, as the JSON style writes
	// strings and keys: \" \\ \b \f \n \r \t, \u00NN for the other
	// controls, \uNNNN (a surrogate pair above U+FFFF) for the other runes
	// shown escaped, and \ufffd for a byte that is not UTF-8. A JSON
	// decoder gives the text back.
	JSONQuoted
	// Line is text on one line, such as a tool's name or an error message
	// in a line of the application's own: as Text, but a newline, a
	// carriage return and a tab are escaped too (\n, \r, \t). Since quotes
	// and backslashes are themselves, Line also suits Go-quoted text (RFD
	// 043's notation: docs/design.md, "The fragment protocol"): its strings
	// keep their value.
	Line
	// JSONText is JSON text, a whole document or line: as Line, but with
	// JSONQuoted's escapes, so that a JSON document keeps its value (a
	// character shown escaped can only be inside one of its strings).
	JSONText
)

func (m Mode) json() bool    { return m == JSONQuoted || m == JSONText }
func (m Mode) quoting() bool { return m == Quoted || m == JSONQuoted }

// tabStop is the width of a tab stop in a block.
const tabStop = 4

// escaped reports whether r is shown escaped rather than written raw: the
// characters that can move the cursor, change colours or the terminal's
// state, reorder or hide text, or look like something they are not.
//
//   - C0 controls U+0000-U+001F (ESC, CR, BS, BEL, …), DEL U+007F and the
//     C1 controls U+0080-U+009F (a terminal may take U+009B as CSI);
//   - format characters (Unicode category Cf): the bidi embeddings,
//     overrides and isolates U+202A-U+202E and U+2066-U+2069, the marks
//     U+200E, U+200F and U+061C, the zero-width U+200B-U+200D and U+2060,
//     the BOM U+FEFF, the soft hyphen U+00AD, the tags U+E0001-U+E007F
//     (which can carry hidden ASCII), and the others;
//   - the line and paragraph separators U+2028 and U+2029, and every space
//     other than U+0020 (no-break, en, em, ideographic, …), which look like
//     a plain space;
//   - the other default-ignorable code points, which render as nothing
//     (the Hangul fillers U+115F, U+1160, U+3164, U+FFA0, the combining
//     grapheme joiner U+034F, …) and the variation selectors U+FE00-U+FE0F,
//     U+180B-U+180F and U+E0100-U+E01EF, which can carry hidden data (so an
//     emoji's presentation selector U+FE0F shows as \ufe0f), and the
//     Braille pattern blank U+2800, a symbol drawn as nothing, used to hide
//     text as the fillers are;
//   - private-use, unassigned and noncharacter code points: what a
//     terminal makes of them is unknown, and a later Unicode version may
//     make an unassigned one a format character.
//
// Everything else (letters, marks, digits, punctuation, symbols, emoji, the
// ASCII space) is written as it is.
func escaped(r rune) bool {
	if r < utf8.RuneSelf {
		return r < 0x20 || r == 0x7f
	}
	if r < 0xa0 {
		return true // C1
	}
	// unicode.IsPrint is true for letters, marks, numbers, punctuation and
	// symbols (L, M, N, P, S), false for the rest: Cc, Cf, Co, Cs, Zs, Zl,
	// Zp and unassigned code points.
	return !unicode.IsPrint(r) || r == 0x2800 ||
		unicode.In(r, unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector,
			unicode.Noncharacter_Code_Point)
}

// unitKind is what unit found.
type unitKind uint8

const (
	plain   unitKind = iota // the bytes as they are
	escape                  // the escape unit appended
	newline                 // a line break (block mode)
	tab                     // a tab to expand (block mode)
)

// unit reads the character at the start of s (not empty) and says how mode
// m shows it: its length in s, and either plain (write s[:n] as is), or
// escape (dst has its escape appended, pure ASCII), or newline or tab in
// block mode. A byte that does not start a valid UTF-8 sequence is a unit
// of one byte.
func unit(dst, s []byte, m Mode) (_ []byte, n int, k unitKind) {
	c := s[0]
	if c < utf8.RuneSelf {
		switch {
		case c == '"' || c == '\\':
			if !m.quoting() {
				return dst, 1, plain
			}
			return append(dst, '\\', c), 1, escape
		case c >= 0x20 && c != 0x7f:
			return dst, 1, plain
		case m == Text && c == '\n':
			return dst, 1, newline
		case m == Text && c == '\t':
			return dst, 1, tab
		}
		return appendControl(dst, c, m), 1, escape
	}
	r, n := utf8.DecodeRune(s)
	if r == utf8.RuneError && n == 1 {
		if m.json() {
			return append(dst, `\ufffd`...), 1, escape
		}
		return appendHex(append(dst, `\x`...), uint32(c), 2), 1, escape
	}
	if !escaped(r) {
		return dst, n, plain
	}
	return appendRune(dst, r, m), n, escape
}

// appendControl appends the escape of an ASCII control character.
func appendControl(dst []byte, c byte, m Mode) []byte {
	switch c {
	case '\n':
		return append(dst, `\n`...)
	case '\r':
		return append(dst, `\r`...)
	case '\t':
		return append(dst, `\t`...)
	}
	if m.json() {
		switch c {
		case '\b':
			return append(dst, `\b`...)
		case '\f':
			return append(dst, `\f`...)
		}
		return appendHex(append(dst, `\u`...), uint32(c), 4)
	}
	return appendHex(append(dst, `\x`...), uint32(c), 2)
}

// appendRune appends the escape of a non-ASCII rune.
func appendRune(dst []byte, r rune, m Mode) []byte {
	switch {
	case r <= 0xffff:
		return appendHex(append(dst, `\u`...), uint32(r), 4)
	case m.json():
		r -= 0x10000
		dst = appendHex(append(dst, `\u`...), uint32(0xd800+r>>10), 4)
		return appendHex(append(dst, `\u`...), uint32(0xdc00+r&0x3ff), 4)
	}
	return appendHex(append(dst, `\U`...), uint32(r), 8)
}

func appendHex(dst []byte, v uint32, digits int) []byte {
	const hex = "0123456789abcdef"
	for i := digits - 1; i >= 0; i-- {
		dst = append(dst, hex[v>>(4*i)&0xf])
	}
	return dst
}

// AppendEscaped appends s, text a model wrote, to dst as mode m shows it,
// with [Text]'s tabs expanded as if s started at a tab stop. The result holds
// no byte below 0x20 other than Text's newlines, no DEL, and no rune that
// the renderer shows escaped; it is valid UTF-8. It is the escaper the
// renderer uses for everything it writes from a call: an application that
// shows a model's text, a tool's name or an error message in lines of its
// own uses it to show them the same way.
func AppendEscaped(dst, s []byte, m Mode) []byte { return appendEscaped(dst, s, m) }

// Escape returns s as mode m shows it (see [AppendEscaped]).
func Escape(s string, m Mode) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || (c == '"' || c == '\\') && m.quoting() {
			return string(appendEscaped(make([]byte, 0, len(s)+16), []byte(s), m))
		}
	}
	return s
}

func appendEscaped(dst, s []byte, m Mode) []byte {
	col := 0 // columns since the last newline, for tabs
	for len(s) > 0 {
		i := 0
		for i < len(s) && s[i] >= 0x20 && s[i] < 0x7f && (!m.quoting() || s[i] != '"' && s[i] != '\\') {
			i++
		}
		if i > 0 { // printable ASCII, the common case
			dst = append(dst, s[:i]...)
			col += i
			s = s[i:]
			continue
		}
		var n int
		var k unitKind
		at := len(dst)
		dst, n, k = unit(dst, s, m)
		switch k {
		case plain:
			dst = append(dst, s[:n]...)
			col += width(s[:n])
		case escape:
			col += len(dst) - at
		case newline:
			dst = append(dst, '\n')
			col = 0
		case tab:
			for range tabStop - col%tabStop {
				dst = append(dst, ' ')
			}
			col += tabStop - col%tabStop
		}
		s = s[n:]
	}
	return dst
}

// width is the number of columns a terminal gives s (valid UTF-8, none of
// it escaped), for tab stops and line wrapping: the sum of the widths of
// its grapheme clusters, as package [uniseg] measures them (an emoji and
// its skin tone, or a ZWJ sequence, 2; a letter and its combining marks,
// 1; East Asian wide characters 2; the ambiguous ones, such as → — …, 1).
func width[T string | []byte](s T) int {
	w := 0
	state := -1
	for len(s) > 0 {
		if s[0] < utf8.RuneSelf && (len(s) == 1 || s[1] < utf8.RuneSelf) {
			if s[0] >= 0x20 && s[0] != 0x7f {
				w++
			}
			s, state = s[1:], -1
			continue
		}
		var cw int
		switch b := any(s).(type) {
		case []byte:
			_, b, cw, state = uniseg.FirstGraphemeCluster(b, state)
			s = T(b)
		case string:
			_, b, cw, state = uniseg.FirstGraphemeClusterInString(b, state)
			s = T(b)
		}
		w += cw
	}
	return w
}

// columns follows the width of the text written on a line rune by rune,
// so that the width counted does not depend on where the text was cut: a
// rune that the grapheme cluster rules join to the cluster before it (a
// combining mark, an emoji modifier, the second regional indicator of a
// flag, a Hangul vowel after its consonant) adds only what it adds to that
// cluster's width, which is no column at all but for spacing marks. The
// characters that join clusters across others (ZWJ, variation selectors)
// are shown escaped, so that the cluster so far is all the context needed.
type columns struct {
	clus [32]byte // the line's last grapheme cluster, while it fits
	n    int      // its length in clus; 0 at a line's start; -1 once it did not fit
	w    int      // its width
	last [utf8.UTFMax]byte
	ln   int // the last rune written, in last[:ln]
}

// reset starts a line.
func (c *columns) reset() { c.n, c.ln = 0, 0 }

// ascii notes n bytes of ASCII written, the last one last, and returns
// their width.
func (c *columns) ascii(last byte, n int) int {
	if n > 0 {
		c.clus[0], c.n, c.w = last, 1, 1
		c.last[0], c.ln = last, 1
	}
	return n
}

// rune notes r written and returns the columns it adds.
func (c *columns) rune(r rune) int {
	var buf [utf8.UTFMax]byte
	rb := buf[:utf8.EncodeRune(buf[:], r)]
	prev := c.last
	pl := c.ln
	c.ln = copy(c.last[:], rb)
	switch {
	case c.n > 0 && c.n+len(rb) <= len(c.clus):
		cand := c.clus[:c.n+copy(c.clus[c.n:], rb)]
		if cl, _, w, _ := uniseg.FirstGraphemeCluster(cand, -1); len(cl) == len(cand) {
			d := max(w-c.w, 0)
			c.n, c.w = len(cand), w
			return d
		}
	case pl > 0 && c.n != 0:
		// A cluster too long to keep (a letter under a pile of marks):
		// whether r joins it is told by the rune before, what it adds by
		// the pair.
		var two [2 * utf8.UTFMax]byte
		pair := append(append(two[:0], prev[:pl]...), rb...)
		if cl, _, pw, _ := uniseg.FirstGraphemeCluster(pair, -1); len(cl) == len(pair) {
			_, _, lw, _ := uniseg.FirstGraphemeCluster(prev[:pl], -1)
			c.n = -1
			return max(pw-lw, 0)
		}
	}
	_, _, w, _ := uniseg.FirstGraphemeCluster(rb, -1)
	c.n, c.w = copy(c.clus[:], rb), w
	return w
}

// bareName reports whether a key or a tool name is shown without quotes:
// a non-empty run of ASCII letters, digits, '_', '-' and '.'. Any other is
// shown quoted, so that a name cannot pass for punctuation of the call
// ("f(path: \"x\")" as a tool name).
func bareName(s []byte) bool {
	if len(s) == 0 {
		return false
	}
	for _, c := range s {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_', c == '-', c == '.':
		default:
			return false
		}
	}
	return true
}
