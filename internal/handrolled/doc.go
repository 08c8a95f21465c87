// Package handrolled is argstream's hand-written JSON tokenizer: a resumable
// state machine that reads each input byte once, without jsontext, and
// reports exactly what jsontoken.Tokenizer reports.
//
// It is the baseline the jsontext adapter is measured against, and a second,
// independent implementation that the adapter is tested against: for any
// input and any way of cutting it into chunks, a Tokenizer delivers the same
// token.Event sequence (kinds, data and offsets) as jsontoken.Tokenizer, and ends in
// the same error: a *token.SyntaxError with the same category, offset and JSON
// pointer (its Detail, for people, is worded its own way).
//
// What it shares with jsontoken.Tokenizer is the wire layer of internal/jsonwire: the
// incremental string decoder (escapes, surrogate pairs and UTF-8 split
// anywhere), the number grammar, whitespace and the error categories. The
// grammar, the nesting, the limits and the duplicate-key check are its own:
// an explicit stack of open objects and arrays, and per object a key set
// that compares keys (after decoding escapes) linearly while the object is
// small and through a seeded hash table once it is not. The check of the keys
// a tool runtime would confuse (equal under case folding, holding NUL) is
// jsontoken.Tokenizer's own, internal/keyfold.
//
// A Tokenizer is a token.Tokenizer. To run the whole argstream pipeline on
// it, pass NewFunc to argstream.WithTokenizer:
//
//	s := argstream.New(sink, argstream.WithTokenizer(handrolled.NewFunc))
//
// Work is linear in the input however it is split, and feeding allocates
// nothing once a tokenizer's buffers have grown to the input's needs (Reset
// keeps them).
package handrolled
