package jsonwire

// The decoder as it was before the eight-byte fast paths: a reference for
// the differential tests, byte for byte the old code under other names.

import (
	"fmt"
	"github.com/argstream/argstream/token"
	"unicode/utf8"
)

// refString decodes the body of one JSON string (the bytes after its opening
// quote) incrementally. Escapes, surrogate pairs and UTF-8 sequences may be
// split anywhere across calls; decoded text never ends inside a rune.
//
// Lone surrogate escapes ("\uD800" not followed by a low surrogate escape, or
// a low surrogate escape on its own) are rejected with token.ErrInvalidEscape at the
// offset of the escape that cannot be paired, whatever the chunking.
//
// The zero value is ready to use; Reset prepares it for the next string.
type refString struct {
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
}

// Reset prepares s for a new string, keeping its buffer.
func (s *refString) Reset() {
	buf := s.buf[:0]
	*s = refString{buf: buf}
}

// Pending reports whether s holds input that has not produced text yet: an
// unfinished escape or UTF-8 sequence.
func (s *refString) Pending() bool { return s.state != escNone || s.nPart > 0 }

// Next decodes src, the next bytes of the string body, of which src[0] is at
// stream offset off. It returns the text decoded from the bytes consumed, the
// number of bytes consumed (the closing quote included), and whether the
// closing quote was reached. The text is borrowed from src when no rewriting
// was needed, else from s's buffer; either way it is valid until the next call
// and may be empty. On invalid input it returns a non-nil error and the text
// decoded before it.
func (s *refString) Next(src []byte, off int64) (text []byte, n int, closed bool, err *Error) {
	copying := s.state != escNone || s.nPart > 0
	s.buf = s.buf[:0]
	run := 0 // start of the plain run not yet copied into s.buf
	i := 0
	if s.nPart > 0 {
		if i, err = s.finishRune(src, off); err != nil || s.nPart > 0 {
			return s.buf, i, false, err
		}
		run = i
	}
	for i < len(src) {
		if s.state != escNone {
			if err = s.escape(src[i], off+int64(i)); err != nil {
				return s.buf, i, false, err
			}
			i++
			run = i
			continue
		}
		i += refScanPlain(src[i:])
		if i == len(src) {
			break
		}
		switch c := src[i]; {
		case c == '"':
			if copying {
				s.buf = append(s.buf, src[run:i]...)
				return s.buf, i + 1, true, nil
			}
			return src[:i], i + 1, true, nil
		case c == '\\':
			if !copying {
				copying = true
				s.buf = append(s.buf, src[:i]...)
			} else {
				s.buf = append(s.buf, src[run:i]...)
			}
			// Decode whole escapes in place; the state machine is for split
			// ones and surrogates.
			if i+1 < len(src) {
				if d := simpleEscape(src[i+1]); d != 0 {
					s.buf = append(s.buf, d)
					i += 2
					run = i
					continue
				}
				if r, ok := refBMPEscape(src[i:]); ok {
					s.buf = utf8.AppendRune(s.buf, r)
					i += 6
					run = i
					continue
				}
			}
			s.state, s.escOff = escBackslash, off+int64(i)
			i++
			run = i
		case c < 0x20:
			return s.flush(src, run, i, copying), i, false, &Error{
				Offset: off + int64(i), Err: token.ErrSyntax,
				Detail: fmt.Sprintf("invalid character %q in string (expecting non-control character)", rune(c)),
			}
		default: // c >= utf8.RuneSelf
			if !utf8.FullRune(src[i:]) {
				text = s.flush(src, run, i, copying)
				s.nPart = copy(s.part[:], src[i:])
				s.partAt = off + int64(i)
				return text, len(src), false, nil
			}
			r, size := utf8.DecodeRune(src[i:])
			if r == utf8.RuneError && size == 1 {
				return s.flush(src, run, i, copying), i, false, invalidUTF8(off + int64(i))
			}
			i += size
		}
	}
	return s.flush(src, run, len(src), copying), len(src), false, nil
}

// flush returns the text decoded from src[:end].
func (s *refString) flush(src []byte, run, end int, copying bool) []byte {
	if !copying {
		return src[:end]
	}
	s.buf = append(s.buf, src[run:end]...)
	return s.buf
}

// finishRune completes the UTF-8 sequence held in s.part with bytes from
// src, appending the rune to s.buf. It returns the bytes of src consumed.
func (s *refString) finishRune(src []byte, off int64) (int, *Error) {
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
func (s *refString) escape(c byte, off int64) *Error {
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
func (s *refString) codePoint(r rune) *Error {
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

func (s *refString) badPair() *Error {
	return &Error{Offset: s.hiOff, Err: token.ErrInvalidEscape,
		Detail: fmt.Sprintf(`invalid surrogate pair: \u%04x is not followed by a low surrogate escape`, s.high)}
}

// refBMPEscape decodes a whole \uXXXX escape at the start of b that is not a
// surrogate.
func refBMPEscape(b []byte) (rune, bool) {
	if len(b) < 6 || b[1] != 'u' {
		return 0, false
	}
	var r rune
	for _, c := range b[2:6] {
		v, ok := hexValue(c)
		if !ok {
			return 0, false
		}
		r = r<<4 | v
	}
	return r, r < 0xD800 || r > 0xDFFF
}

// refScanPlain is ScanPlain one byte at a time.
func refScanPlain(b []byte) int {
	for i, c := range b {
		if c < 0x20 || c == '"' || c == '\\' || c >= utf8.RuneSelf {
			return i
		}
	}
	return len(b)
}
