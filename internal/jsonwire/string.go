package jsonwire

import (
	"encoding/binary"
	"fmt"
	"github.com/argstream/argstream/token"
	"math/bits"
	"unicode/utf8"
)

// This file is structured in the following way:
//
//   - String, Reset, Pending, Escaped: the incremental decoder of one
//     string body.
//   - Next and copying: decoding, borrowing the input while it is plain
//     text and copying eight bytes at a time once it is not.
//   - finishRune, escape, codePoint, badPair and the tables: escapes,
//     surrogate pairs and runes split across calls, and their errors.
//   - PlainMask, LoadTail, ScanPlain, RuneLen: the plain-byte scanners that
//     decoding and aggregate's quoting share.

// escape states of a [String].
const (
	escNone      uint8 = iota
	escBackslash       // after '\'
	escHex             // inside \uXXXX, s.digits read so far
	escWantSlash       // after a high surrogate escape, expecting '\'
	escWantU           // after a high surrogate escape and '\', expecting 'u'
)

// String decodes the body of one JSON string (the bytes after its opening
// quote) incrementally. Escapes, surrogate pairs and UTF-8 sequences may be
// split anywhere across calls; decoded text never ends inside a rune.
//
// Lone surrogate escapes ("\uD800" not followed by a low surrogate escape, or
// a low surrogate escape on its own) are rejected with
// [token.ErrInvalidEscape] at the offset of the escape that cannot be paired,
// whatever the chunking.
//
// The zero value is ready to use; [String.Reset] prepares it for the next
// string.
type String struct {
	buf    []byte // decoded text when it cannot be borrowed from the input
	state  uint8
	digits uint8 // hex digits read in escHex
	hex    rune
	escOff int64 // offset of the '\' of the escape being read
	high   rune  // pending high surrogate, 0 if none
	hiOff  int64 // offset of the '\' of the pending high surrogate
	part   [utf8.UTFMax]byte
	nPart  int   // bytes of an unfinished UTF-8 sequence held in part
	partAt int64 // offset of part[0]

	verbatim bool // the text is the input escaped as jsontext does, but for what is pending: see Escaped
}

// Reset prepares s for a new string, keeping its buffer.
func (s *String) Reset() {
	buf := s.buf[:0]
	*s = String{buf: buf}
}

// Pending reports whether s holds input that has not produced text yet: an
// unfinished escape or UTF-8 sequence.
func (s *String) Pending() bool { return s.state != escNone || s.nPart > 0 }

// Escaped returns the longest prefix of consumed, the input the last
// [String.Next] consumed without its closing quote (src[:n] or src[:n-1]; off
// is the offset of src[0]), that is exactly the text Next returned as the
// inside of a JSON string escaped the way jsontext.AppendQuote escapes it;
// nil if there is none. The prefix leaves out an escape or rune left
// unfinished at the end, whose text comes with the next call. There is none
// when the call finished one left by the call before, or the text has escapes
// jsontext would not write (\/, \u). A consumer that writes the text as
// JSON (an aggregator) can copy the prefix instead of escaping the text.
func (s *String) Escaped(consumed []byte, off int64) []byte {
	switch {
	case !s.verbatim:
		return nil
	case s.nPart > 0:
		return consumed[:s.partAt-off]
	case s.high != 0:
		return consumed[:s.hiOff-off]
	case s.state != escNone:
		return consumed[:s.escOff-off]
	}
	return consumed
}

// Next decodes src, the next bytes of the string body, of which src[0] is at
// stream offset off. It returns the text decoded from the bytes consumed, the
// number of bytes consumed (the closing quote included), and whether the
// closing quote was reached. The text is borrowed from src when no rewriting
// was needed, else from s's buffer; either way it is valid until the next call
// and may be empty. On invalid input it returns a non-nil error and the text
// decoded before it. Otherwise it consumes all of src unless the string
// closes, or the call finishes an escape or rune that the previous call
// left unfinished: then it stops there, and the caller calls it again with
// the rest.
func (s *String) Next(src []byte, off int64) (text []byte, n int, closed bool, err *Error) {
	i := 0
	s.verbatim = s.state == escNone && s.nPart == 0
	if s.verbatim {
		if len(src) <= smallInput {
			// One pass that copies as it goes and hands back src itself
			// if nothing was rewritten.
			return s.copying(0, src, 0, off, false)
		}
		// Borrow src for as long as the text is the input itself.
		for {
			i += ScanPlain(src[i:])
			if i == len(src) {
				return src, i, false, nil
			}
			c := src[i]
			if c == '"' {
				return src[:i], i + 1, true, nil
			}
			if c < utf8.RuneSelf {
				if c == '\\' {
					break
				}
				return src[:i], i, false, controlError(c, off+int64(i))
			}
			if size := RuneLen(src[i:]); size > 0 {
				i += size
				continue
			}
			if !utf8.FullRune(src[i:]) {
				s.nPart = copy(s.part[:], src[i:])
				s.partAt = off + int64(i)
				return src[:i], len(src), false, nil
			}
			return src[:i], i, false, invalidUTF8(off + int64(i))
		}
		// An escape: from here on the text is rewritten into s.buf.
		copy(s.room(0, i), src[:i])
		return s.copying(i, src, i, off, true)
	}
	// Finish what the previous input left unfinished.
	s.buf = s.buf[:0]
	if s.nPart > 0 {
		if i, err = s.finishRune(src, off); err != nil || s.nPart > 0 {
			return s.buf, i, false, err
		}
	}
	for ; s.state != escNone; i++ {
		if i == len(src) {
			return s.buf, i, false, nil
		}
		if err = s.escape(src[i], off+int64(i)); err != nil {
			return s.buf, i, false, err
		}
	}
	// The text of what was finished goes alone, so that the next call can
	// find the rest verbatim (see Escaped).
	return s.buf, i, false, nil
}

// slack is the room past the text that String.copying keeps beyond the
// input it may decode before checking again.
const slack = 16

// window is the most input String.copying decodes between checks of the
// room left in s.buf. At least 8; a variable for the tests, which make it
// small.
var window = 1 << 30

// bigText is the window past which String.copying reserves room for all the
// input left at once: the text is long (a string fed whole), one allocation
// replaces several doublings, and what may go unused is bounded by the input
// the caller holds anyway.
const bigText = 1 << 16

// smallInput is the longest input that [String.Next] decodes in one copying
// pass from the start; longer ones are first scanned for a prefix to
// borrow, which spares copying clean text.
const smallInput = 64

// copying decodes src[i:] into s.buf after s.buf[:w], the text decoded so
// far. If rewritten is false, s.buf[:w] is src[:i] (i == w), and while it
// stays so the text returned is src itself.
//
// The plain runs are copied eight bytes at a time, stores included: buf (s.buf
// extended to its capacity) keeps at least end-i+slack bytes of room past w,
// as decoding never writes more bytes than it consumes, so that an
// eight-byte store at w never needs a check of its own until i reaches end.
// s.buf itself is only replaced when it grows, so that the common case
// stores no pointer (no write barrier while the GC runs).
func (s *String) copying(w int, src []byte, i int, off int64, rewritten bool) ([]byte, int, bool, *Error) {
	// The input decoded between checks of the room, the window, starts
	// small and doubles: the room reserved follows the text decoded (at
	// most twice as much), not the input that follows the string in src.
	win := min(smallInput, window)
	end := min(len(src), i+win)
	buf := s.room(w, end-i+slack)
	for {
		// The plain run at i.
		for i+8 <= end {
			x := binary.LittleEndian.Uint64(src[i:])
			binary.LittleEndian.PutUint64(buf[w:w+8], x)
			m := PlainMask(x)
			if m == 0 {
				i += 8
				w += 8
				continue
			}
			k := bits.TrailingZeros64(m) >> 3
			i += k
			w += k
			// The escapes jsontext writes itself, the common ones, are
			// decoded here without leaving the loop.
			if src[i] == '\\' && i+1 < len(src) {
				if d := shortEscape[src[i+1]]; d != 0 {
					rewritten = true
					buf[w] = d
					w++
					i += 2
					continue
				}
			}
			goto special
		}
		if end < len(src) {
			// The next window.
			if win *= 2; win > bigText {
				win = len(src)
			}
			win = min(win, window)
			end = min(len(src), i+win)
			buf = s.room(w, end-i+slack)
			continue
		}
		if rem := len(src) - i; rem > 0 {
			// Fewer than eight bytes are left (see LoadTail).
			x := LoadTail(src, i)
			binary.LittleEndian.PutUint64(buf[w:w+8], x)
			if m := PlainMask(x); m != 0 {
				k := bits.TrailingZeros64(m) >> 3 // < rem: spaces are plain
				i += k
				w += k
				goto special
			}
			w += rem
		}
		if !rewritten {
			return src, len(src), false, nil
		}
		return buf[:w], len(src), false, nil

	special:
		switch c := src[i]; {
		case c == '\\':
			rewritten = true
			if i+1 < len(src) {
				if d := unescape[src[i+1]]; d != 0 {
					if d == '/' {
						s.verbatim = false // jsontext writes '/' as is
					}
					buf[w] = d
					w++
					i += 2
					continue
				}
				if r, size := UnicodeEscape(src[i:]); size > 0 {
					w += utf8.EncodeRune(buf[w:w+4], r)
					i += size
					s.verbatim = false
					continue
				}
			}
			// Split or invalid: the state machine knows what to do and
			// what to say.
			s.buf = s.buf[:w]
			s.state, s.escOff = escBackslash, off+int64(i)
			for i++; s.state != escNone; i++ {
				if i == len(src) {
					return s.buf, i, false, nil
				}
				if err := s.escape(src[i], off+int64(i)); err != nil {
					return s.buf, i, false, err
				}
			}
			s.verbatim = false // only \u escapes end here
			w = len(s.buf)
			end = min(len(src), i+win)
			buf = s.room(w, end-i+slack)
		case c == '"':
			if !rewritten {
				return src[:i], i + 1, true, nil
			}
			return buf[:w], i + 1, true, nil
		case c < utf8.RuneSelf: // a control byte
			return buf[:w], i, false, controlError(c, off+int64(i))
		default:
			if size := RuneLen(src[i:]); size > 0 {
				copy(buf[w:w+4], src[i:i+size])
				i += size
				w += size
				continue
			}
			if !utf8.FullRune(src[i:]) {
				s.nPart = copy(s.part[:], src[i:])
				s.partAt = off + int64(i)
				return buf[:w], len(src), false, nil
			}
			return buf[:w], i, false, invalidUTF8(off + int64(i))
		}
	}
}

// room returns s.buf extended to its capacity, which it first makes at
// least w+n, keeping s.buf[:w].
func (s *String) room(w, n int) []byte {
	if cap(s.buf) < w+n {
		b := make([]byte, w, max(2*cap(s.buf), w+n))
		copy(b, s.buf[:w])
		s.buf = b
	}
	return s.buf[:cap(s.buf)]
}

func controlError(c byte, off int64) *Error {
	return &Error{Offset: off, Err: token.ErrSyntax,
		Detail: fmt.Sprintf("invalid character %q in string (expecting non-control character)", rune(c))}
}

// UnicodeEscape decodes a whole \uXXXX escape at the start of b that is
// not a surrogate, or a whole surrogate pair of escapes, and returns the
// rune and the bytes it takes; 0 bytes if b does not start with one.
func UnicodeEscape(b []byte) (rune, int) {
	if len(b) < 6 || b[1] != 'u' {
		return 0, 0
	}
	r := hex4(b[2:6])
	switch {
	case r < 0:
		return 0, 0
	case r < 0xD800 || r > 0xDFFF:
		return r, 6
	case r > 0xDBFF || len(b) < 12 || b[6] != '\\' || b[7] != 'u':
		return 0, 0
	}
	lo := hex4(b[8:12])
	if lo < 0xDC00 || lo > 0xDFFF {
		return 0, 0
	}
	return 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00), 12
}

// hex4 returns the value of four hex digits, or -1.
func hex4(b []byte) rune {
	_ = b[3]
	v0, v1, v2, v3 := hexDigit[b[0]], hexDigit[b[1]], hexDigit[b[2]], hexDigit[b[3]]
	if (v0|v1|v2|v3)&0xf0 != 0 {
		return -1
	}
	return rune(v0)<<12 | rune(v1)<<8 | rune(v2)<<4 | rune(v3)
}

// hexDigit maps a hex digit to its value and any other byte to 0xff.
var hexDigit = func() (t [256]byte) {
	for i := range t {
		if v, ok := hexValue(byte(i)); ok {
			t[i] = byte(v)
		} else {
			t[i] = 0xff
		}
	}
	return t
}()

// shortEscape is unescape for the escapes jsontext writes itself: all but
// '/'.
var shortEscape = func() (t [256]byte) {
	t = unescape
	t['/'] = 0
	return t
}()

// SimpleEscape returns the byte that the one-letter escape '\\' c stands
// for, or 0 if c makes none (a \u escape is not one letter): a lookup in
// unescape, for the readers that decode strings without a String.
func SimpleEscape(c byte) byte { return unescape[c] }

// unescape maps c to the byte that the escape '\\' c stands for, or 0.
var unescape = func() (t [256]byte) {
	for i := range t {
		t[i] = simpleEscape(byte(i))
	}
	return t
}()

// finishRune completes the UTF-8 sequence held in s.part with bytes from
// src, appending the rune to s.buf. It returns the bytes of src consumed.
func (s *String) finishRune(src []byte, off int64) (int, *Error) {
	i := 0
	for i < len(src) && !utf8.FullRune(s.part[:s.nPart]) {
		s.part[s.nPart] = src[i]
		s.nPart++
		i++
	}
	if !utf8.FullRune(s.part[:s.nPart]) {
		return i, nil // still unfinished
	}
	r, size := utf8.DecodeRune(s.part[:s.nPart])
	if r == utf8.RuneError && size == 1 {
		return i, invalidUTF8(s.partAt)
	}
	// An invalid encoding is a full rune of size 1, so size == s.nPart here.
	s.buf = utf8.AppendRune(s.buf, r)
	s.nPart = 0
	return i, nil
}

// escape advances the escape state machine by one byte c at offset off.
func (s *String) escape(c byte, off int64) *Error {
	switch s.state {
	case escBackslash:
		if c == 'u' {
			s.state, s.digits, s.hex = escHex, 0, 0
			return nil
		}
		if s.high != 0 {
			return s.badPair()
		}
		d := simpleEscape(c)
		if d == 0 {
			return &Error{Offset: s.escOff, Err: token.ErrInvalidEscape,
				Detail: fmt.Sprintf("invalid escape sequence `\\%s` in string", quoteByte(c))}
		}
		s.buf = append(s.buf, d)
		s.state = escNone
	case escHex:
		v, ok := hexValue(c)
		if !ok {
			return &Error{Offset: s.escOff, Err: token.ErrInvalidEscape,
				Detail: fmt.Sprintf("invalid character %q in \\u escape in string (expecting hex digit)", rune(c))}
		}
		s.hex = s.hex<<4 | v
		s.digits++
		if s.digits < 4 {
			return nil
		}
		return s.codePoint(s.hex)
	case escWantSlash:
		if c != '\\' {
			return s.badPair()
		}
		s.state, s.escOff = escWantU, off
	case escWantU:
		if c != 'u' {
			return s.badPair()
		}
		s.state, s.digits, s.hex = escHex, 0, 0
	}
	return nil
}

// codePoint handles the value of a complete \uXXXX escape.
func (s *String) codePoint(r rune) *Error {
	const (
		hiMin, hiMax = 0xD800, 0xDBFF
		loMin, loMax = 0xDC00, 0xDFFF
	)
	switch {
	case s.high != 0:
		if r < loMin || r > loMax {
			return s.badPair()
		}
		r = 0x10000 + (s.high-hiMin)<<10 + (r - loMin)
		s.high = 0
	case r >= hiMin && r <= hiMax:
		s.high, s.hiOff = r, s.escOff
		s.state = escWantSlash
		return nil
	case r >= loMin && r <= loMax:
		return &Error{Offset: s.escOff, Err: token.ErrInvalidEscape,
			Detail: fmt.Sprintf(`invalid lone surrogate \u%04x in string`, r)}
	}
	s.buf = utf8.AppendRune(s.buf, r)
	s.state = escNone
	return nil
}

func (s *String) badPair() *Error {
	return &Error{Offset: s.hiOff, Err: token.ErrInvalidEscape,
		Detail: fmt.Sprintf(`invalid surrogate pair: \u%04x is not followed by a low surrogate escape`, s.high)}
}

func invalidUTF8(off int64) *Error {
	return &Error{Offset: off, Err: token.ErrInvalidUTF8, Detail: "invalid UTF-8 in string"}
}

// simpleEscape returns the byte that the escape '\\' c stands for, or 0 if
// c does not make a one-letter escape.
func simpleEscape(c byte) byte {
	switch c {
	case '"', '\\', '/':
		return c
	case 'b':
		return '\b'
	case 'f':
		return '\f'
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 't':
		return '\t'
	}
	return 0
}

func hexValue(c byte) (rune, bool) {
	switch {
	case c >= '0' && c <= '9':
		return rune(c - '0'), true
	case c >= 'a' && c <= 'f':
		return rune(c - 'a' + 10), true
	case c >= 'A' && c <= 'F':
		return rune(c - 'A' + 10), true
	}
	return 0, false
}

func quoteByte(c byte) string {
	if c >= 0x20 && c < utf8.RuneSelf {
		return string(rune(c))
	}
	return fmt.Sprintf("\\x%02x", c)
}

// spaces is eight plain bytes, to pad a short word with.
const spaces = 0x2020202020202020

// PlainMask flags the bytes of x (eight bytes, little-endian) that a JSON
// string cannot hold verbatim or that need validating: '"', '\\', control
// bytes, and bytes of multi-byte UTF-8 sequences. Each flagged byte has its
// high bit set in the result and the other bits are clear. Borrows can flag
// bytes above a true hit, never below one, so the lowest flagged byte is
// exact: bits.TrailingZeros64(m)>>3 is its index.
func PlainMask(x uint64) uint64 {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
	)
	q := x ^ (ones * '"')
	bs := x ^ (ones * '\\')
	return (((x - ones*0x20) & ^x) | ((q - ones) & ^q) | ((bs - ones) & ^bs) | x) & highs
}

// LoadTail returns the last len(b)-i bytes of b, fewer than eight, as a
// little-endian word padded with spaces: plain bytes for [PlainMask], so that
// the tail goes through the same eight-byte test as the rest.
func LoadTail(b []byte, i int) uint64 {
	rem := len(b) - i
	var x uint64
	switch {
	case len(b) >= 8:
		x = binary.LittleEndian.Uint64(b[len(b)-8:]) >> (64 - 8*uint(rem))
	// A short b (a small chunk) in two loads that may overlap, where they
	// load the same bytes.
	case rem >= 4:
		x = uint64(binary.LittleEndian.Uint32(b[i:])) | uint64(binary.LittleEndian.Uint32(b[len(b)-4:]))<<(8*uint(rem-4))
	case rem >= 2:
		x = uint64(binary.LittleEndian.Uint16(b[i:])) | uint64(binary.LittleEndian.Uint16(b[len(b)-2:]))<<(8*uint(rem-2))
	case rem == 1:
		x = uint64(b[i])
	}
	return x | spaces<<(8*uint(rem))
}

// ScanPlain returns the length of the longest prefix of b that a JSON string
// body can hold verbatim and that decodes to itself byte for byte: no '"', no
// '\\', no control byte, and no byte of a multi-byte UTF-8 sequence (those
// need validating). It reads eight bytes at a time.
func ScanPlain(b []byte) int {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		if m := PlainMask(binary.LittleEndian.Uint64(b[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	rem := len(b) - i
	if rem == 0 {
		return i
	}
	if m := PlainMask(LoadTail(b, i)); m != 0 {
		return i + bits.TrailingZeros64(m)>>3
	}
	return len(b)
}

// RuneLen returns the length of the valid UTF-8 encoding of a non-ASCII
// rune at the start of b, or 0 if b does not start with one: b is empty,
// starts with an ASCII byte, with an invalid sequence, or with an unfinished
// one ([utf8.FullRune] tells those two apart).
func RuneLen(b []byte) int {
	if len(b) == 0 {
		return 0
	}
	switch c := b[0]; {
	case c < 0xC2:
	case c < 0xE0:
		if len(b) >= 2 && b[1]&0xC0 == 0x80 {
			return 2
		}
	case c < 0xF0:
		if len(b) >= 3 {
			lo, hi := byte(0x80), byte(0xBF)
			if c == 0xE0 {
				lo = 0xA0
			} else if c == 0xED {
				hi = 0x9F
			}
			if lo <= b[1] && b[1] <= hi && b[2]&0xC0 == 0x80 {
				return 3
			}
		}
	case c < 0xF5:
		if len(b) >= 4 {
			lo, hi := byte(0x80), byte(0xBF)
			if c == 0xF0 {
				lo = 0x90
			} else if c == 0xF4 {
				hi = 0x8F
			}
			if lo <= b[1] && b[1] <= hi && b[2]&0xC0 == 0x80 && b[3]&0xC0 == 0x80 {
				return 4
			}
		}
	}
	return 0
}
