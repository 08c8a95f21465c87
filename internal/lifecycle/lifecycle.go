package lifecycle

import (
	"strconv"

	"github.com/argstream/argstream/internal/jsonwire"
	"github.com/argstream/argstream/token"
	"github.com/go-json-experiment/json/jsontext"
)

// This file is structured in the following way:
//
//   - State, Where, Grammar: what a tokenizer and the lifecycle share.
//   - Base, Init, Reset, Offset, Depth: the lifecycle's state.
//   - Feed (Next, Lexed), Close, fail: the lifecycle itself.
//   - Emit, EmitData, Enter, Leave, ValueEnded, StartWord, MatchWord,
//     JSONString, Trailing: what every grammar reads and reports the same
//     way.
//   - Truncated, TooDeep, WireError: the errors the lifecycle words.

// State is where a tokenizer is between two bytes: the states every syntax
// has, and the grammar's own from [FirstGrammarState] on.
type State uint8

// The states the lifecycle knows. A grammar moves between them (and its
// own) as it reads; the lifecycle reads them at Close, to say what the end
// of input cut short, and sets [Closed].
const (
	Between State = iota // before a token, or between two: nothing is cut short here
	Key                  // inside an object key (a member name)
	String               // inside a string value
	Number               // inside a number: the end of input may end it at the top level
	Word                 // inside a fixed word (null, true, false): see StartWord
	Done                 // after the top-level value: only whitespace may follow
	Closed               // Close succeeded: Feed returns token.ErrClosed

	// FirstGrammarState is the first state free for a grammar's own use.
	// The lifecycle hands a grammar's own states to Grammar.End at Close.
	FirstGrammarState
)

// Where says which value a JSON pointer names, relative to the tokenizer's
// position, for an error found by the lifecycle.
type Where int8

const (
	// Last is the value read last or being read: a string value, or the
	// container just opened or closed.
	Last Where = -1
	// Container is the open container: the object whose key is being read.
	Container Where = 0
	// Next is the value about to start, not yet counted in its container:
	// a number or word being read, or a container being opened.
	Next Where = +1
)

// Grammar is what a tokenizer adds to the lifecycle: its syntax. A
// tokenizer usually implements it on an unexported type converted from its
// own (type grammar Tokenizer), so that the methods stay out of its API.
type Grammar interface {
	// Lex reads b, the next input, whose first byte is at offset base in
	// the whole stream, and reports the events it determines through the
	// Base. It returns the first error: a *token.SyntaxError for bad input
	// (the Base fills in its Syntax), or the Handler's.
	Lex(b []byte, base int64) error
	// End is called by Close in state Number at the top level (depth 0)
	// and in the grammar's own states: it reports what the end of input
	// determines (a top-level number, as in "42") and moves to Done, or
	// returns why the input is incomplete (see Base.Truncated).
	End() error
	// Pointer returns the JSON pointer of a value relative to where the
	// grammar is, for the lifecycle's errors.
	Pointer(at Where) jsontext.Pointer
}

// Base is the lifecycle one tokenizer shares with every other: a tokenizer
// holds one as a field, and calls [Base.Feed] and [Base.Close] from its own.
// The zero value is not ready: call [Base.Init]. A Base may not be used from
// several goroutines at once.
type Base struct {
	// State is where the tokenizer is (see State). The grammar sets it.
	State State
	// Cfg is the tokenizer's configuration, from its options.
	Cfg token.Config

	h      token.Handler
	syntax string
	off    int64 // stream offset just past the input fed so far
	depth  int   // open containers
	word   string
	wordN  int   // bytes of word matched
	err    error // sticky: the error that stopped the tokenizer
	cut    bool  // Next cut the chunk at MaxSize
	slow   bool  // Next must look at err, Closed and MaxSize
}

// Init makes l ready for a tokenizer of the named syntax ("JSON", "caret
// block", "XML tags": it goes in every *token.SyntaxError the tokenizer
// returns) that reports to h, with opts applied to token's defaults.
func (l *Base) Init(h token.Handler, syntax string, opts ...token.Option) {
	*l = Base{h: h, syntax: syntax, Cfg: token.NewConfig(opts...)}
	l.slow = l.Cfg.MaxSize > 0
}

// Reset makes l ready for a new input, reporting to h, with the same
// syntax and options.
func (l *Base) Reset(h token.Handler) {
	*l = Base{h: h, syntax: l.syntax, Cfg: l.Cfg, slow: l.Cfg.MaxSize > 0}
}

// Offset returns the number of input bytes fed so far.
func (l *Base) Offset() int64 { return l.off }

// Depth returns the number of open containers (see [Base.Enter]).
func (l *Base) Depth() int { return l.depth }

// Feed is a tokenizer's Feed: after an error it returns that error, and
// after [Base.Close] [token.ErrClosed]; otherwise it hands chunk to g.Lex,
// cut at [token.WithMaxSize] (the rest is ErrTooLarge at the limit), and
// keeps the error g returns, if any, for every later call. It is [Base.Next],
// g.Lex and [Base.Lexed] in one call; a tokenizer whose chunks are short may
// call those itself, to call its lexer directly rather than through
// [Grammar].
func (l *Base) Feed(chunk []byte, g Grammar) error {
	b, base, err := l.Next(chunk)
	if err != nil {
		return err
	}
	return l.Lexed(g.Lex(b, base), g)
}

// Next starts [Base.Feed]: it returns the part of chunk to lex and the offset
// of its first byte, or the error Feed returns without lexing (the sticky
// error, [token.ErrClosed]). Pass what lexing returns to [Base.Lexed].
func (l *Base) Next(chunk []byte) (b []byte, base int64, err error) {
	if l.slow {
		return l.nextSlow(chunk)
	}
	base = l.off
	l.off = base + int64(len(chunk))
	return chunk, base, nil
}

//go:noinline
func (l *Base) nextSlow(chunk []byte) ([]byte, int64, error) {
	if l.err != nil {
		return nil, 0, l.err
	}
	if l.State == Closed {
		return nil, 0, token.ErrClosed
	}
	if limit := l.Cfg.MaxSize; l.off+int64(len(chunk)) > limit {
		chunk = chunk[:limit-l.off]
		l.cut = true
	}
	base := l.off
	l.off += int64(len(chunk))
	return chunk, base, nil
}

// Lexed ends [Base.Feed]: err is what lexing the part Next returned gave. It
// keeps err for every later call, or, if Next cut the chunk at
// [token.WithMaxSize], returns ErrTooLarge at the limit.
func (l *Base) Lexed(err error, g Grammar) error {
	if err == nil && !l.cut {
		return nil
	}
	return l.lexedSlow(err, g)
}

//go:noinline
func (l *Base) lexedSlow(err error, g Grammar) error {
	if err == nil {
		limit := l.Cfg.MaxSize
		err = &token.SyntaxError{Offset: limit, Pointer: g.Pointer(Last), Err: token.ErrTooLarge,
			Detail: "input longer than the limit of " + strconv.FormatInt(limit, 10) + " bytes"}
	}
	return l.fail(err)
}

// Close is a tokenizer's Close: it ends the input. After the top-level
// value it succeeds; in a top-level number or a state of the grammar's own
// it asks g.End; anywhere else the input is truncated, and Close returns
// ErrTruncated at the input's length. Once Close has succeeded it returns
// nil again; after an error, that error.
func (l *Base) Close(g Grammar) error {
	if l.err != nil || l.State == Closed {
		return l.err
	}
	var err error
	switch l.State {
	case Done:
	case Between:
		where := "before any value"
		if l.depth > 0 {
			where = "(" + strconv.Itoa(l.depth) + " unclosed)"
		}
		err = l.Truncated(g, where)
	case Key:
		err = l.Truncated(g, "in object key")
	case String:
		err = l.Truncated(g, "in string")
	case Word:
		err = l.Truncated(g, "in literal "+l.word)
	case Number:
		// The end of input ends a number only at the top level: inside
		// a container the input is cut short, maybe in the number.
		if l.depth > 0 {
			err = l.Truncated(g, "in number")
			break
		}
		err = g.End()
	default:
		err = g.End()
	}
	if err != nil {
		return l.fail(err)
	}
	l.State, l.slow = Closed, true
	return nil
}

// fail keeps err as the sticky error and names the syntax in it if it is a
// [*token.SyntaxError] that does not.
func (l *Base) fail(err error) error {
	if se, ok := err.(*token.SyntaxError); ok && se.Syntax == "" {
		se.Syntax = l.syntax
	}
	l.err, l.slow = err, true
	return err
}

// Emit reports an event without data to the Handler.
func (l *Base) Emit(k token.Kind, data []byte, off int64) error {
	return l.h.Handle(token.Event{Kind: k, Data: data, Offset: off})
}

// EmitData reports a piece of string data, text (never empty), with its
// input escaped as jsontext escapes it or nil (see [token.Event.Escaped]).
func (l *Base) EmitData(text, escaped []byte, off int64) error {
	return l.h.Handle(token.Event{Kind: token.StringData, Data: text[:len(text):len(text)], Escaped: escaped, Offset: off})
}

// Enter counts a container being opened, or reports false, counting
// nothing, if it would nest deeper than [token.WithMaxDepth]: return
// [Base.TooDeep] then.
func (l *Base) Enter() bool {
	if l.depth >= l.Cfg.MaxDepth {
		return false
	}
	l.depth++
	return true
}

// Leave counts a container being closed.
func (l *Base) Leave() { l.depth-- }

// ValueEnded moves past a complete value: to [Between], or to [Done] at the top
// level.
func (l *Base) ValueEnded() {
	l.State = Between
	if l.depth == 0 {
		l.State = Done
	}
}

// StartWord moves to state [Word], reading word (a literal such as "null"),
// whose first byte has been read.
func (l *Base) StartWord(word string) {
	l.State, l.word, l.wordN = Word, word, 1
}

// MatchWord reads b[i:] against the rest of the word. It returns where it
// stopped and whether the word is complete: it stops past the word's last
// byte, at the first byte that does not match (i < len(b) and not
// complete), or at the end of b.
func (l *Base) MatchWord(b []byte, i int) (int, bool) {
	for ; i < len(b) && l.wordN < len(l.word); i++ {
		if b[i] != l.word[l.wordN] {
			return i, false
		}
		l.wordN++
	}
	return i, l.wordN == len(l.word)
}

// Word returns the word being read and how many of its bytes matched.
func (l *Base) Word() (word string, matched int) { return l.word, l.wordN }

// JSONString streams the body of a JSON string value from b[i:] (b[i] is
// at offset base+i) through s, which decodes it: each decoded piece is
// reported as StringData, and at the closing quote the value ends and
// EndString is reported. It returns where it stopped: past the closing
// quote, at the end of b, or where s asks to be called again.
func (l *Base) JSONString(g Grammar, s *jsonwire.String, b []byte, i int, base int64) (int, error) {
	text, n, closed, werr := s.Next(b[i:], base+int64(i))
	end := i + n
	if len(text) > 0 {
		dataEnd := end
		if closed {
			dataEnd--
		}
		escaped := s.Escaped(b[i:dataEnd:dataEnd], base+int64(i))
		if err := l.EmitData(text, escaped, base+int64(dataEnd)); err != nil {
			return end, err
		}
	}
	if werr != nil {
		return end, WireError(werr, g.Pointer(Last))
	}
	if !closed {
		return end, nil
	}
	l.ValueEnded()
	return end, l.Emit(token.EndString, nil, base+int64(end))
}

// Trailing reads b[i:] after the top-level value (b[i] is at offset
// base+i): JSON whitespace (space, tab, LF, CR) is allowed, anything else
// is ErrTrailingData.
func (l *Base) Trailing(b []byte, i int, base int64) (int, error) {
	for ; i < len(b); i++ {
		if !jsonwire.IsSpace(b[i]) {
			return i, &token.SyntaxError{Offset: base + int64(i), Err: token.ErrTrailingData,
				Detail: "invalid character " + jsonwire.QuoteChar(b[i:i+1]) + " after top-level value"}
		}
	}
	return i, nil
}

// Truncated returns the ErrTruncated error for input that ends here, at
// the input's length, cut short where (as in "in string"; "" says
// nothing more). Its pointer is g's for the state: the object in [Key], the
// value not yet counted in [Number] and Word, the value being read
// otherwise.
func (l *Base) Truncated(g Grammar, where string) error {
	at := Last
	switch l.State {
	case Key:
		at = Container
	case Number, Word:
		at = Next
	}
	detail := "unexpected end of input"
	if where != "" {
		detail += " " + where
	}
	return &token.SyntaxError{Offset: l.off, Pointer: g.Pointer(at), Err: token.ErrTruncated, Detail: detail}
}

// TooDeep returns the ErrTooDeep error for a container opened at off, with
// the pointer ptr of the value it would be, after [Base.Enter] reported false.
func (l *Base) TooDeep(off int64, ptr jsontext.Pointer) error {
	return &token.SyntaxError{Offset: off, Pointer: ptr, Err: token.ErrTooDeep,
		Detail: "nesting deeper than the limit of " + strconv.Itoa(l.Cfg.MaxDepth)}
}

// WireError returns e, an error of the JSON wire layer, as a
// [*token.SyntaxError] about the value at ptr.
func WireError(e *jsonwire.Error, ptr jsontext.Pointer) error {
	return &token.SyntaxError{Offset: e.Offset, Pointer: ptr, Err: e.Err, Detail: e.Detail}
}
