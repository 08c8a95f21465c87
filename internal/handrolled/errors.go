package handrolled

import (
	"strconv"

	"github.com/argstream/argstream/internal/jsonwire"
	"github.com/argstream/argstream/token"
	"github.com/go-json-experiment/json/jsontext"
)

// The errors below have the category, offset and JSON pointer that
// jsontoken's have for the same input (the differential tests check it);
// their Detail is the baseline's own short text, since a message is for
// people and is not compared. Nothing here runs on the hot path: each builds
// the one error that ends a stream.

// pointer returns the JSON pointer of a position relative to the stack, as
// jsontext computes it: where < 0 is the value read last, where == 0 the
// open container (or the member whose key was just read), where > 0 the
// next value (or, in an object expecting a key, the object).
func (t *Tokenizer) pointer(where int) jsontext.Pointer {
	return t.stack.Pointer(where, t.keys.Last)
}

func syntaxError(off int64, ptr jsontext.Pointer, detail string) error {
	return &token.SyntaxError{Offset: off, Pointer: ptr, Err: token.ErrSyntax, Detail: detail}
}

// unexpected says that the byte c is not what the grammar expects there.
func unexpected(c byte, expecting string) string {
	return "unexpected " + jsonwire.QuoteChar([]byte{c}) + ", expecting " + expecting
}

// expecting describes what may follow where the delimiter want is due.
func (t *Tokenizer) expecting(want byte) string {
	switch want {
	case ':':
		return "':' after an object key"
	case ',':
		if obj, _, _ := t.stack.Top(); obj {
			return "',' or '}' after an object value"
		}
		return "',' or ']' after an array element"
	}
	return "a value"
}

// badDelim: ',' or ':' where it does not belong.
func (t *Tokenizer) badDelim(c byte, pos int64) error {
	if t.delim != 0 { // a second delimiter stands where a value should
		return syntaxError(pos, t.pointer(+1), unexpected(c, "a value"))
	}
	want, _ := t.expect()
	return syntaxError(pos, t.pointer(0), unexpected(c, t.expecting(want)))
}

// badStart: a token that lacks the delimiter before it, or that stands
// where an object key must.
func (t *Tokenizer) badStart(c byte, pos int64, want byte, keyPos bool) error {
	if t.delim != want {
		return syntaxError(pos, t.pointer(0), unexpected(c, t.expecting(want)))
	}
	switch {
	case c == '{' || c == '[' || c >= '0' && c <= '9':
		return syntaxError(pos, t.pointer(+1), unexpected(c, "an object key (a string)"))
	case c == '-' || c == 't' || c == 'f' || c == 'n':
		return syntaxError(pos, t.pointer(0), unexpected(c, "an object key (a string)"))
	}
	return syntaxError(pos, t.pointer(+1), unexpected(c, "a value"))
}

// badValue: a byte that cannot start a value.
func (t *Tokenizer) badValue(c byte, pos int64) error {
	return syntaxError(pos, t.pointer(+1), unexpected(c, "a value"))
}

// closerAfterDelim: '}' or ']' right after ',' or ':'.
func (t *Tokenizer) closerAfterDelim(c byte, pos int64) error {
	want, ptr := "a value", t.pointer(+1)
	if _, keyPos := t.expect(); keyPos {
		want, ptr = "an object key", t.pointer(0)
	}
	return syntaxError(pos, ptr, unexpected(c, want+" after "+strconv.QuoteRune(rune(t.delim))))
}

// missingColon: '}' or ']' right after an object key.
func (t *Tokenizer) missingColon(c byte, pos int64) error {
	return syntaxError(pos, t.pointer(0), unexpected(c, "':' after an object key"))
}

// mismatch: '}' closing an array, ']' closing an object, or either closing
// nothing.
func (t *Tokenizer) mismatch(c byte, pos int64) error {
	ptr, want := t.pointer(+1), "a value"
	if _, n, _ := t.stack.Top(); n > 0 {
		want = t.expecting(',')
		ptr = ptr.Parent()
	}
	return syntaxError(pos, ptr, unexpected(c, want))
}

// badNumber: c at pos cannot continue an unfinished number.
func (t *Tokenizer) badNumber(c byte, pos int64) error {
	return syntaxError(pos, t.pointer(+1), unexpected(c, "a digit in a number"))
}

// badLiteral: c is not the next letter of the literal.
func (t *Tokenizer) badLiteral(c byte) error {
	lit, n := t.lc.Word()
	return syntaxError(t.tokOff+int64(n), t.pointer(+1), unexpected(c, strconv.QuoteRune(rune(lit[n]))+" in "+lit))
}
