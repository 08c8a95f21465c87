package aggregate

import (
	"unicode/utf8"

	"github.com/argstream/argstream/internal/lex"
	"github.com/go-json-experiment/json/jsontext"
)

// appendQuoted appends s to b as the inside of a JSON string, byte for byte
// as jsontext.AppendQuote writes it. Plain runs are copied whole and runes
// validated one by one; from the first invalid UTF-8 on, jsontext writes the
// rest and reports the error.
func appendQuoted(b, s, scratch []byte) ([]byte, []byte, error) {
	for {
		n := lex.ScanPlain(s)
		b = append(b, s[:n]...)
		if n == len(s) {
			return b, scratch, nil
		}
		c := s[n]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRune(s[n:])
			if r == utf8.RuneError && size == 1 {
				q, err := jsontext.AppendQuote(scratch[:0], s[n:])
				return append(b, q[1:len(q)-1]...), q, err
			}
			b = append(b, s[n:n+size]...)
			s = s[n+size:]
			continue
		}
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			const hex = "0123456789abcdef"
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		}
		s = s[n+1:]
	}
}
