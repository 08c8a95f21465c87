package token

import (
	"errors"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"
)

// Categories of bad input. Every [*SyntaxError] wraps exactly one of them.
var (
	// ErrSyntax: the input breaks the JSON grammar.
	ErrSyntax = errors.New("token: syntax error")
	// ErrTruncated: the input ended before the value was complete.
	ErrTruncated = errors.New("token: unexpected end of input")
	// ErrTrailingData: something other than whitespace follows the value.
	ErrTrailingData = errors.New("token: data after the top-level value")
	// ErrDuplicateKey: an object has the same key twice (compared after
	// decoding escapes). argstream rejects duplicates so that a decision taken
	// on the first "path" can never be bypassed by a second one.
	ErrDuplicateKey = errors.New("token: duplicate object key")
	// ErrCaseFoldedKey: an object has two keys that differ but are equal
	// under Unicode simple case folding (as strings.EqualFold compares them),
	// such as "path" and "PATH", or "k" and "\u212a" (the Kelvin sign).
	// Go's encoding/json v1 matches keys to struct fields so, and would read
	// the second where a policy approved the first. [WithConfusableKeys]
	// turns the check off.
	ErrCaseFoldedKey = errors.New("token: object keys equal under case folding")
	// ErrNULInKey: an object key holds U+0000 (written "\u0000"), which a
	// tool written in C would read as the end of the key: "path\u0000x" is
	// "path" there. [WithConfusableKeys] turns the check off.
	ErrNULInKey = errors.New("token: NUL in object key")
	// ErrInvalidUTF8: a string holds bytes that are not valid UTF-8.
	ErrInvalidUTF8 = errors.New("token: invalid UTF-8")
	// ErrInvalidEscape: a string holds an invalid escape sequence, including a
	// lone UTF-16 surrogate escape such as "\uD800".
	ErrInvalidEscape = errors.New("token: invalid escape sequence")
	// ErrTooDeep: arrays and objects are nested deeper than [WithMaxDepth] allows.
	ErrTooDeep = errors.New("token: nesting too deep")
	// ErrTooLarge: the input is longer than [WithMaxSize] allows.
	ErrTooLarge = errors.New("token: input too large")
	// ErrSchema: a tool call written in text (caret block, XML tags) has an
	// argument that does not fit the tool's JSON Schema: a value that is not
	// of its parameter's type, or a parameter the schema does not declare.
	ErrSchema = errors.New("token: argument does not fit the tool's schema")
)

// ErrClosed is returned by a tokenizer's Feed after Close (and by an
// argstream.Stream's: argstream.ErrClosed is the same value).
var ErrClosed = errors.New("token: Feed after Close")

// SyntaxError describes bad input: what is wrong and where. A SyntaxError is
// immutable once returned, so several goroutines may read it.
//
// Its message is for people and may change; programs use [errors.Is] with the
// categories above, [SyntaxError.Offset] and [SyntaxError.Pointer].
type SyntaxError struct {
	// Syntax names the input syntax of the tokenizer that found the error,
	// for the message: "JSON" (package jsontoken and the baseline), later
	// "caret block" or "XML tags".
	Syntax string
	// Offset is the byte offset in the whole stream (all chunks together) of
	// the first byte that is wrong, or the input length for ErrTruncated.
	Offset int64
	// Line and Column give Offset as a 1-based line and byte column, for the
	// line-based syntaxes (a caret block, XML tags), whose line 1 is the
	// opening fence or tag. They are 0 when not known, as for JSON.
	Line, Column int
	// Pointer is the RFC 6901 JSON pointer of the value concerned: the value
	// being read, or the object whose key is wrong.
	Pointer jsontext.Pointer
	// Err is the category: ErrSyntax, ErrTruncated and so on.
	Err error
	// Detail says what is wrong, for people.
	Detail string
}

// Error returns the message, in the form
//
//	token: invalid JSON at byte 14 ("/path"): duplicate object key "path"
//	token: invalid caret block at byte 42 (line 3, column 1) ("/x"): ...
func (e *SyntaxError) Error() string {
	syntax := e.Syntax
	if syntax == "" {
		syntax = "input"
	}
	b := append([]byte("token: invalid "), syntax...)
	b = append(b, " at byte "...)
	b = strconv.AppendInt(b, e.Offset, 10)
	if e.Line > 0 {
		b = append(b, " (line "...)
		b = strconv.AppendInt(b, int64(e.Line), 10)
		b = append(b, ", column "...)
		b = strconv.AppendInt(b, int64(e.Column), 10)
		b = append(b, ')')
	}
	if e.Pointer != "" {
		b = append(b, " ("...)
		b = strconv.AppendQuote(b, string(e.Pointer))
		b = append(b, ')')
	}
	b = append(b, ": "...)
	b = append(b, e.Detail...)
	return string(b)
}

// Unwrap returns the category.
func (e *SyntaxError) Unwrap() error { return e.Err }
