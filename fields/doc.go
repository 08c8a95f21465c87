// Package fields turns a tool call's fragments into flat events per
// top-level argument, for a display: [Start] when an argument begins, [Delta]
// with each piece of its value's text, [End] when its value is complete.
// They are the events of axio's ToolArgStream (ToolFieldStart,
// ToolFieldDelta, ToolFieldEnd; docs/design.md, "Sources"), made strict and
// chunking-invariant.
//
//	{"path": "/tmp/file", "config": {"retry": 3}}
//
// gives, for any chunking, once consecutive Deltas of a field are merged:
//
//	Start path, Delta "/tmp/file", End path,
//	Start config, Delta `{"retry":3}`, End config
//
// A [Sink] is a sink.Sink: pass it to argstream.New, or to sink.Multi beside
// an aggregator or a policy evaluator, or give one to each call of a
// toolcall.Response.
//
// # The text of a value
//
// A string value's Deltas are its decoded text: quotes gone, escapes
// resolved, split escapes and surrogate pairs joined, always valid UTF-8
// (a piece never ends inside a rune). Any other value's Deltas are its
// compact JSON text, the text the aggregate package builds for it: no white
// space, keys in their order, numbers exactly as written, strings quoted as
// [jsontext.AppendQuote] quotes them (minimal escaping). [Event.JSON] says
// which of the two a field's text is; Start says it already.
//
// The text streams as the fragments arrive, not at the value's end: each
// fragment adds its part, at most one Delta, so that {"config": {"retry":
// 3, "log": "very long..."}}, cut after "very ", gives the Deltas
// `{"retry":3`, `,"log":"very `, `long...`, `"` and `}`. The pieces depend
// on the chunking; their concatenation does not.
//
// Where axio differs. axio streams an object or array value as the raw
// input text, white space and escapes included, and begins a field at the
// closing quote of its key. Here a field begins with its value's first
// fragment, the first moment the fragments name its key: a string's first
// piece, a number or literal once it ends, an array's or object's first
// member's first fragment. And an array or object is written compact. So
// axio's example
//
//	'{"config":{"re'   'try":3}}'
//
// gives nothing for the first chunk, where axio gives Start config and
// Delta '{"re', and Start config, Delta `{"retry":3`, Delta `}` and End
// config for the second, where axio gives Delta 'try":3}}' and End.
// The merged text, `{"retry":3}`, is the same for every chunking and every
// spelling of the same value; axio's raw text is neither.
//
// Empty values: an empty string is a Start and an End with no Delta (a
// Delta's Text is never empty); an empty array or object is a Start, a
// Delta "[]" or "{}", and an End.
//
// # Strict
//
// Unlike axio, bad input is never displayed as if it were good. An End
// says that the field's value is complete; it comes only once the bytes
// determine it (a number at the byte that ends it). The arguments as a
// whole are valid only if the stream ends without error: the Sink's End
// hands that error to the [OnEnd] callback, and a field that has had its
// Start and not its End when it comes was cut short. Duplicate keys, bad
// escapes, lone surrogates, invalid UTF-8 and truncation are errors of the
// stream (see package token), not replacement characters.
//
// The arguments of a tool call are a JSON object by every provider's
// contract. Arguments that are not one (an array, a string, a number, a
// boolean, null) have no fields to show: Push returns an error wrapping
// [ErrNotObject] at the first fragment that shows it, before any event, and
// the stream fails with it. The arguments {} are valid and have no fields.
//
// # Memory and concurrency
//
// An [Event], its Key and its Text are borrowed until the callback returns:
// they point into the tokenizer's and the Sink's memory, rewritten after
// it. A Sink allocates nothing per fragment in steady state, and nothing at
// all when it is reused with Reset for the next call (Reset the Stream
// too). A Sink serves one goroutine at a time, as a Stream does.
package fields
