package openai

import (
	"context"
	"errors"
	"io"

	"github.com/argstream/argstream/toolcall"
)

// ReadChat reads the server-sent events of a Chat Completions streaming
// response from body and drives resp with the tool calls of one choice.
//
// (Being written: this stub returns an error.)
func ReadChat(ctx context.Context, body io.Reader, resp *toolcall.Response, opts ...Option) error {
	_ = newConfig(opts)
	return errors.New("openai: ReadChat: not implemented yet")
}
