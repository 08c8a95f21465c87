// Package jsontoken is argstream's JSON tokenizer, the default one: an
// adapter over github.com/go-json-experiment/json/jsontext that takes input
// in chunks of any size and reports token events the moment the bytes
// received determine them.
//
// jsontext checks the grammar and the nesting of every token; the adapter
// finds token boundaries, so that a number or literal at the end of a chunk
// waits for the byte after it, and it decodes and validates strings, keys
// included, itself (jsontext reads an empty stand-in for each), so that a
// long string is streamed and scanned once however it is split. Repeated
// keys, and keys a tool would confuse, are found by argstream's own key set.
// Each input byte is examined a bounded number of times.
//
// Input must be one RFC 8259 JSON value in valid UTF-8, with the limits and
// key checks of package [token]'s options. Events, their grammar and the
// errors are package token's.
package jsontoken
