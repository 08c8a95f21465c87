package openai

import (
	"context"
	"errors"
	"io"

	"github.com/argstream/argstream/toolcall"
)

// ReadResponses reads the server-sent events of a Responses API streaming
// response from body and drives resp with its function calls.
//
// (Being written: this stub returns an error.)
func ReadResponses(ctx context.Context, body io.Reader, resp *toolcall.Response, opts ...Option) error {
	_ = newConfig(opts)
	return errors.New("openai: ReadResponses: not implemented yet")
}
