package wire

import "github.com/argstream/argstream/wire/internal/adapter"

// Option configures the readers of the provider adapters:
// anthropicstream.Read and NewReader, openaistream.ReadChat,
// ReadResponses, NewChatReader and NewResponsesReader. The configuration it
// sets is internal to the wire packages: the functions below make every
// Option. An Option is not changed by use: one may configure several
// readers, from several goroutines.
type Option func(*adapter.Config)

// OnText sets a function called with each piece of the model's text: the
// index of its content block (Anthropic), of its choice (Chat Completions)
// or of its output item (Responses), and the text, decoded from JSON. On
// the OpenAI wires the text includes refusals (the text a model writes
// instead of an answer when it refuses), so that a person sees them.
//
// The text is borrowed: it is valid only until fn returns (copy it, or
// convert it with string, to keep it). fn is called from the goroutine
// that reads the stream.
func OnText(fn func(index int64, text []byte)) Option {
	return func(c *adapter.Config) { c.OnText = fn }
}

// OnThinking sets a function called with each piece of the model's
// reasoning text, where the provider sends it: Anthropic's thinking_delta
// (extended thinking), the reasoning_content or reasoning of Chat
// Completions servers, and the reasoning summary and reasoning text deltas
// of Responses. Its index is as for [OnText], and the text is borrowed as
// OnText's.
func OnThinking(fn func(index int64, thinking []byte)) Option {
	return func(c *adapter.Config) { c.OnThinking = fn }
}

// WithChoice sets which choice of a Chat Completions response (requested
// with n > 1) openaistream.ReadChat and ChatReader read: its tool calls go
// to the Response, and the other choices are ignored. The default is choice
// 0. It is for Chat Completions only: the other wires have no choices, and
// their readers ignore it.
func WithChoice(n int64) Option {
	return func(c *adapter.Config) { c.Choice = n }
}
