// Package handrolled is argstream's hand-written JSON tokenizer: a resumable
// state machine that reads each input byte once, without jsontext, and
// reports exactly what jsontoken.Tokenizer reports.
//
// It is the baseline the jsontext adapter is measured against, and a second,
// independent implementation that the adapter is tested against: for any
// input and any way of cutting it into chunks, a [Tokenizer] delivers the same
// [token.Event] sequence (kinds, data and offsets) as jsontoken.Tokenizer,
// and ends in the same error: a [*token.SyntaxError] with the same category,
// offset and JSON pointer (its Detail, for people, is worded its own way).
//
// What it shares with jsontoken.Tokenizer is the Feed/Close lifecycle of
// internal/lifecycle (offsets, limits, the sticky error, truncation at
// Close, string values streamed in pieces), the wire layer of
// internal/jsonwire (the incremental string decoder, the number grammar,
// whitespace) and the key check of internal/keyfold, which finds exact
// duplicates as well as the keys a tool runtime would confuse (equal under
// case folding, holding NUL; only exact duplicates under
// token.WithConfusableKeys(true)). The grammar and the nesting are its own: an
// explicit stack of open objects and arrays, where jsontoken relies on
// jsontext.
//
// A Tokenizer is a [token.Tokenizer]. To run the whole argstream pipeline on
// it, pass [NewFunc] to argstream.WithTokenizer:
//
//	s := argstream.New(sink, argstream.WithTokenizer(handrolled.NewFunc))
//
// Work is linear in the input however it is split, and feeding allocates
// nothing once a tokenizer's buffers have grown to the input's needs (Reset
// keeps them).
package handrolled
