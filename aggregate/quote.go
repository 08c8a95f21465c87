package aggregate

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"

	"github.com/argstream/argstream/internal/jsonwire"
	"github.com/go-json-experiment/json/jsontext"
)

// quoteSlack is the room appendQuoted keeps past what it has written beyond
// the input left to quote: enough for the eight-byte store of the last,
// short word.
const quoteSlack = 8

// appendQuoted appends s to a.buf as the inside of a JSON string, byte for
// byte as [jsontext.AppendQuote] writes it. Plain runs are copied eight bytes
// at a time, stores included, and runes validated one by one; from the
// first invalid UTF-8 on, jsontext writes the rest and reports the error.
//
// a.buf is written in place and only replaced when it grows, so that the
// common case stores no pointer (no write barrier while the GC runs).
func (a *Aggregator) appendQuoted(s []byte) error {
	w, i := len(a.buf), 0
	if cap(a.buf)-w < len(s)+quoteSlack {
		a.buf = grow(a.buf, len(s)+quoteSlack)
	}
	buf := a.buf[:cap(a.buf)]
	for {
		// Room: len(buf)-w >= len(s)-i+quoteSlack here, and the plain run
		// keeps it so.
		for i+8 <= len(s) {
			x := binary.LittleEndian.Uint64(s[i:])
			binary.LittleEndian.PutUint64(buf[w:w+8], x)
			if m := jsonwire.PlainMask(x); m != 0 {
				k := bits.TrailingZeros64(m) >> 3
				i += k
				w += k
				goto special
			}
			i += 8
			w += 8
		}
		if rem := len(s) - i; rem > 0 {
			// Fewer than eight bytes are left (see jsonwire.LoadTail).
			x := jsonwire.LoadTail(s, i)
			binary.LittleEndian.PutUint64(buf[w:w+8], x)
			if m := jsonwire.PlainMask(x); m != 0 {
				k := bits.TrailingZeros64(m) >> 3 // < rem: spaces are plain
				i += k
				w += k
				goto special
			}
			w += rem
		}
		a.buf = a.buf[:w]
		return nil

	special:
		c := s[i]
		if c >= utf8.RuneSelf {
			size := jsonwire.RuneLen(s[i:])
			if size == 0 {
				q, err := jsontext.AppendQuote(a.quote[:0], s[i:])
				a.quote = q
				a.buf = append(a.buf[:w], q[1:len(q)-1]...)
				return err
			}
			copy(buf[w:w+4], s[i:i+size])
			i += size
			w += size
			continue
		}
		// An escape writes up to six bytes for one.
		if len(buf)-w < len(s)-i+quoteSlack+5 {
			a.buf = grow(a.buf[:w], len(s)-i+quoteSlack+5)
			buf = a.buf[:cap(a.buf)]
		}
		if e := escapes[c]; e != 0 {
			buf[w], buf[w+1] = '\\', e
			w += 2
		} else {
			const hex = "0123456789abcdef"
			copy(buf[w:w+6], `\u00`)
			buf[w+4], buf[w+5] = hex[c>>4], hex[c&0xf]
			w += 6
		}
		i++
	}
}

// escapes maps the bytes jsontext writes as a two-byte escape to its
// letter, and the other bytes to 0.
var escapes = [256]byte{'"': '"', '\\': '\\', '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't'}

// grow returns b with room for n more bytes, at least doubling its
// capacity when it must move, so that a value built piece by piece is
// copied a bounded number of times. Only the bytes past len(b) are new.
func grow(b []byte, n int) []byte {
	if cap(b)-len(b) >= n {
		return b
	}
	return append(b[:len(b):len(b)], make([]byte, max(n, cap(b), 64))...)[:len(b)]
}
