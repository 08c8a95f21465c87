package lex

import "errors"

// Error categories. Package token re-exports them; every error a tokenizer
// returns for bad input wraps exactly one of them.
var (
	ErrSyntax        = errors.New("syntax error")
	ErrTruncated     = errors.New("unexpected end of input")
	ErrTrailingData  = errors.New("data after the top-level value")
	ErrDuplicateKey  = errors.New("duplicate object key")
	ErrCaseFoldedKey = errors.New("object keys equal under case folding")
	ErrNULInKey      = errors.New("NUL in object key")
	ErrInvalidUTF8   = errors.New("invalid UTF-8")
	ErrInvalidEscape = errors.New("invalid escape sequence")
	ErrTooDeep       = errors.New("nesting too deep")
	ErrTooLarge      = errors.New("input too large")
)

// Error is a lexical error: its category, where it is in the whole stream,
// and a message for people.
type Error struct {
	Offset int64
	Err    error
	Detail string
}
