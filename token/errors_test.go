package token_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/argstream/argstream/token"
)

// A SyntaxError names its syntax, where, and what; errors.Is finds its
// category. (The wording of Detail is not API: only its place is tested.)
func TestSyntaxError(t *testing.T) {
	err := error(&token.SyntaxError{Syntax: "JSON", Offset: 14, Pointer: "/path", Err: token.ErrDuplicateKey, Detail: "why"})
	if got, want := err.Error(), `token: invalid JSON at byte 14 ("/path"): why`; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if !errors.Is(err, token.ErrDuplicateKey) || errors.Is(err, token.ErrSyntax) {
		t.Errorf("errors.Is: the category is ErrDuplicateKey, and only it")
	}
	wrapped := fmt.Errorf("call 2: %w", err)
	var se *token.SyntaxError
	if !errors.As(wrapped, &se) || se.Offset != 14 {
		t.Errorf("errors.As through a wrap: %v", se)
	}
	root := &token.SyntaxError{Syntax: "caret block", Offset: 0, Err: token.ErrTruncated, Detail: "empty"}
	if got, want := root.Error(), `token: invalid caret block at byte 0: empty`; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	lined := &token.SyntaxError{Syntax: "caret block", Offset: 42, Line: 3, Column: 1, Pointer: "/x", Err: token.ErrSchema, Detail: "why"}
	if got, want := lined.Error(), `token: invalid caret block at byte 42 (line 3, column 1) ("/x"): why`; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}
