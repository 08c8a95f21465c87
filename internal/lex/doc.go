// Package lex holds the lexical pieces that every argstream tokenizer shares:
// the incremental JSON string decoder, the number grammar, whitespace, and the
// error categories. A tokenizer supplies the grammar on top (jsontext for
// jsontoken.Tokenizer, a hand-written state machine for the baseline), so that both
// decode strings and classify errors identically.
package lex
