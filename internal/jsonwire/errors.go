package jsonwire

// Error is an error found in the bytes: its category (one of package
// token's: [token.ErrInvalidEscape], [token.ErrInvalidUTF8], ...), where it is
// in the whole stream, and a message for people. A tokenizer turns it into
// a [*token.SyntaxError], adding the JSON pointer and the syntax.
type Error struct {
	Offset int64
	Err    error
	Detail string
}
