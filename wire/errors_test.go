package wire_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire"
	"github.com/argstream/argstream/wire/anthropicstream"
	"github.com/argstream/argstream/wire/openaistream"
)

// TestProviderErrorText: each wire's errors read as the adapter wrote them
// before they shared the type.
func TestProviderErrorText(t *testing.T) {
	for _, tc := range []struct {
		err  wire.ProviderError
		want string
	}{
		{wire.ProviderError{Wire: wire.Anthropic, Type: "overloaded_error", Message: "Overloaded"}, "anthropic: error event: overloaded_error: Overloaded"},
		{wire.ProviderError{Wire: wire.Anthropic, Message: "oops"}, "anthropic: error event: : oops"},
		{wire.ProviderError{Wire: wire.OpenAIChat, Type: "BadRequestError", Code: "429", Message: "Rate limited", Param: "model"}, "openai: error event: BadRequestError: 429: Rate limited"},
		{wire.ProviderError{Wire: wire.OpenAIChat, Message: "boom"}, "openai: error event: boom"},
		{wire.ProviderError{Wire: wire.OpenAIResponses, Code: "server_error", Message: "m"}, "openai: error event: server_error: m"},
		{wire.ProviderError{Type: "t", Message: "m"}, "wire: error event: t: m"},
	} {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.err, got, tc.want)
		}
	}
}

// TestErrMalformed: the adapters' ErrMalformed is wire's, and their
// errors still begin with the wire's name.
func TestErrMalformed(t *testing.T) {
	if anthropicstream.ErrMalformed != wire.ErrMalformed || openaistream.ErrMalformed != wire.ErrMalformed {
		t.Fatal("the adapters' ErrMalformed is not wire.ErrMalformed")
	}
	bad := "event: message_start\ndata: [1]\n\n"
	err := anthropicstream.Read(context.Background(), strings.NewReader(bad), toolcall.New())
	if !errors.Is(err, wire.ErrMalformed) || !errors.Is(err, anthropicstream.ErrMalformed) || !strings.HasPrefix(err.Error(), "anthropic: malformed event: event 1: ") {
		t.Errorf("anthropicstream.Read = %v, want wire.ErrMalformed, named anthropic", err)
	}
	err = openaistream.ReadChat(context.Background(), strings.NewReader("data: [1]\n\n"), toolcall.New())
	if !errors.Is(err, wire.ErrMalformed) || !errors.Is(err, openaistream.ErrMalformed) || !strings.HasPrefix(err.Error(), "openai: malformed event: event 1: ") {
		t.Errorf("openaistream.ReadChat = %v, want wire.ErrMalformed, named openai", err)
	}
	// A stream the SSE reader finds ambiguous: a lone CR.
	err = openaistream.ReadResponses(context.Background(), strings.NewReader("data: {}\r\r"), toolcall.New())
	if !errors.Is(err, wire.ErrMalformed) || !strings.HasPrefix(err.Error(), "openai: malformed event: ") {
		t.Errorf("openaistream.ReadResponses = %v, want wire.ErrMalformed, named openai", err)
	}
}
