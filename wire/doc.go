// Package wire tells which provider wire a stream or an endpoint speaks:
// Anthropic Messages, OpenAI Chat Completions or the OpenAI Responses API,
// the three that packages anthropicstream and openaistream read. The
// command's replay and the gateway (package guard) both ask it, so that
// the two tell wires the same way.
//
// A Kind is a plain value, safe to use from several goroutines; the
// functions keep no state.
package wire
