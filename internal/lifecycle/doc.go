// Package lifecycle is the Feed/Close lifecycle that every argstream
// tokenizer shares, whatever its syntax: the JSON tokenizers
// (token/jsontoken, internal/handrolled) today, the caret-block and
// XML-tag tokenizers later. A tokenizer adds only its grammar.
//
// A [Base], held as a field of the tokenizer, owns:
//
//   - the stream offset (Offset), and the offset base of every chunk;
//   - [token.WithMaxSize]: input past the limit is ErrTooLarge at the limit;
//   - [token.WithMaxDepth]: Enter and Leave count the open containers, and
//     TooDeep is the error when Enter refuses one;
//   - the sticky error: after an error, Feed and Close return it again;
//   - the closed state: after Close, Feed returns [token.ErrClosed], and
//     Close returns its first result again;
//   - truncation at Close: ErrTruncated at the input's length, with what
//     the end cut short ("in string", "(2 unclosed)") and the pointer;
//   - the name of the syntax in every [*token.SyntaxError] ("JSON");
//   - the pieces every grammar reads the same way: the states of the
//     lexer that all syntaxes have ([Between], [Key], [String], [Number],
//     [Word], [Done], [Closed]; a grammar adds its own from
//     [FirstGrammarState]), event emission (Emit, EmitData), the end of a
//     value (ValueEnded), a fixed word matched across chunks (StartWord,
//     MatchWord: null, true, false), a JSON string value streamed in decoded
//     pieces (JSONString, over internal/jsonwire), and whitespace after the
//     value (Trailing).
//
// A tokenizer's Feed and Close call [Base.Feed] and [Base.Close] with its
// [Grammar]: Lex reads a chunk, End ends what only the end of input ends (a
// top-level number), Pointer names a value for the lifecycle's errors. A
// new syntax implements Grammar on its own type and uses Base as it is:
//
//	type Tokenizer struct{ lc lifecycle.Base; ... }
//	type grammar Tokenizer // Lex, End, Pointer, out of the public API
//
//	func New(h token.Handler, opts ...token.Option) *Tokenizer {
//		t := &Tokenizer{}
//		t.lc.Init(h, "caret block", opts...)
//		return t
//	}
//	func (t *Tokenizer) Feed(chunk []byte) error { return t.lc.Feed(chunk, (*grammar)(t)) }
//	func (t *Tokenizer) Close() error            { return t.lc.Close((*grammar)(t)) }
//
// Nothing here allocates on the way through a valid input.
package lifecycle
