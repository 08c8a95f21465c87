package openaistream

import (
	"errors"
	"strings"
)

// ErrMalformed is wrapped by the error ReadChat or ReadResponses returns
// for an event they must understand whose data is not the JSON the API
// documents: not JSON, a missing or negative index, a field of the wrong
// kind.
var ErrMalformed = errors.New("openai: malformed event")

// ProviderError is an error the provider sent in the stream, after the
// response had begun: Chat Completions' {"error": {...}} data, or the
// Responses API's error and response.failed events. Its fields are the
// provider's, those it sent: Code is the code's JSON text when it is not a
// string (some servers send numbers).
type ProviderError struct {
	Type    string
	Code    string
	Message string
	Param   string
}

func (e *ProviderError) Error() string {
	var b strings.Builder
	b.WriteString("openai: error event")
	for _, s := range []string{e.Type, e.Code} {
		if s != "" {
			b.WriteString(": ")
			b.WriteString(s)
		}
	}
	b.WriteString(": ")
	b.WriteString(e.Message)
	return b.String()
}

// Option configures ReadChat and ReadResponses.
type Option func(*config)

type config struct {
	onText     func(index int64, text []byte)
	onThinking func(index int64, thinking []byte)
	choice     int64
}

// OnText sets a function called with each piece of the model's text (its
// refusals included, so that a person sees them): the
// index of its choice (Chat Completions) or of its output item (Responses),
// and the text, decoded from JSON. The text is borrowed: it is valid only
// until fn returns (copy it, or convert it with string, to keep it).
func OnText(fn func(index int64, text []byte)) Option {
	return func(c *config) { c.onText = fn }
}

// OnThinking sets a function called with each piece of the model's
// reasoning text, where the provider sends it (Chat Completions servers'
// reasoning_content or reasoning; Responses' reasoning summary and
// reasoning text deltas), with its index as for OnText, and borrowed as
// OnText's.
func OnThinking(fn func(index int64, thinking []byte)) Option {
	return func(c *config) { c.onThinking = fn }
}

// Choice sets which choice of a Chat Completions response (requested with
// n > 1) ReadChat reads: its tool calls go to the Response, and the other
// choices are ignored. The default is choice 0. ReadResponses ignores it.
func Choice(n int64) Option {
	return func(c *config) { c.choice = n }
}

func newConfig(opts []Option) config {
	var c config
	for _, o := range opts {
		o(&c)
	}
	return c
}
