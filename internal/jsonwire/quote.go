package jsonwire

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// QuoteChar quotes the character at the start of b for an error message:
// 'x' for a character, "byte 0xc3" for a byte that does not start one. Both
// tokenizers use it, so that their messages agree.
func QuoteChar(b []byte) string {
	r, size := utf8.DecodeRune(b)
	if r == utf8.RuneError && size <= 1 {
		return fmt.Sprintf("byte 0x%02x", b[0])
	}
	return strconv.QuoteRune(r)
}
