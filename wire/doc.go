// Package wire tells which provider wire a stream or an endpoint speaks:
// Anthropic Messages, OpenAI Chat Completions or the OpenAI Responses API,
// the three that packages anthropicstream and openaistream read. The
// command's replay and the gateway (package guard) both ask it, so that
// the two tell wires the same way.
//
// It also holds what those two adapters share, so that a caller of both
// writes it once: the [Option] of their readers ([OnText], [OnThinking],
// [WithChoice]), the errors a provider sends in its stream
// ([ProviderError], with the [Kind] it came on), and [ErrMalformed], the
// sentinel of every stream an adapter refuses.
//
// A Kind is a plain value, safe to use from several goroutines; the
// functions keep no state. An Option and a ProviderError are not changed
// by use, and may be shared.
package wire
