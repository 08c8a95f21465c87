// Package jsonwire is argstream's JSON wire layer: the byte-level JSON code
// that the JSON tokenizers (token/jsontoken, the internal/handrolled
// baseline) and the aggregator's quoting (aggregate/quote.go) share. It
// holds the incremental string decoder (escapes, surrogate pairs and UTF-8
// split anywhere across chunks), the plain-byte scanners that quoting and
// decoding both use, the number grammar, JSON whitespace, the quoting of a
// character for an error message, and the stack of open containers that
// says which delimiter comes next and names the value of an error.
//
// It checks no grammar: a tokenizer supplies that on top (jsontext for
// jsontoken, a hand-written state machine for the baseline), so that every
// tokenizer decodes strings and classifies their errors identically. Errors
// are reported as [*Error] values whose category is one of package [token]'s
// ([token.ErrInvalidEscape], [token.ErrInvalidUTF8], ...).
//
// (jsontext's own byte-level code lives apart in the same way, in its
// internal/jsonwire.)
package jsonwire
