package testutil

import (
	"bytes"
	"fmt"

	"github.com/go-json-experiment/json/jsontext"
)

// CheckEscaped reports whether escaped, a string piece's Escaped form, is
// text escaped exactly as [jsontext.AppendQuote] escapes it, the contract of
// [token.Event.Escaped] and [fragment.Fragment.Escaped].
func CheckEscaped(text, escaped []byte) error {
	q, err := jsontext.AppendQuote(nil, text)
	if err != nil || !bytes.Equal(q[1:len(q)-1], escaped) {
		return fmt.Errorf("the Escaped form %q of %q is not its escaped form %s (%v)", escaped, text, q, err)
	}
	return nil
}
