package jsontoken

import (
	"errors"
	"fmt"
	"io"

	"github.com/argstream/argstream/internal/jsonwire"
	"github.com/argstream/argstream/internal/keyfold"
	"github.com/argstream/argstream/internal/lifecycle"
	"github.com/argstream/argstream/token"
	"github.com/go-json-experiment/json/jsontext"
)

// This file is structured in the following way:
//
//   - Tokenizer, New, Reset, Offset: the type and its life.
//   - Feed, Close and grammar: the hooks into internal/lifecycle, which owns
//     offsets, limits, the sticky error and truncation at Close.
//   - lex and the readers of each state: between (the bytes between tokens,
//     and every token that ends in the chunk, read whole), and keyName,
//     stringData, number, literal for a token that a chunk cuts. String
//     values that are not plain text are streamed by the lifecycle's
//     JSONString.
//   - read, readError, reject: handing jsontext one whole token at a time
//     and mapping its errors back to the input.
//   - truncated, pointer, name: the pointers of errors.
//   - unitReader: the io.Reader jsontext reads each token from.

// Tokenizer is the JSON tokenizer: an adapter that drives a
// [jsontext.Decoder] one complete token at a time.
//
// The adapter's own lexer finds where each token ends, so jsontext never sees
// a number or literal that more input could extend, and never rescans a
// partial token. Strings, keys and values alike, are decoded and validated
// by the lexer as they arrive and reach jsontext as an empty stand-in "", so
// that their content is scanned exactly once however the input is split.
// jsontext validates every token against the grammar and the nesting; its
// error offsets are mapped back to the input, and its pointers, which name
// every member "", are given the keys. The lexer keeps its own stack of the
// open containers ([jsonwire.Stack]) to know which delimiter comes next.
// Repeated keys are found by internal/keyfold, not by jsontext: exact
// repeats, and also case-folded repeats and NUL unless
// [token.Config.AllowConfusableKeys]; keyfold also keeps each open object's
// current key, for the pointers.
//
// A Tokenizer may not be used from several goroutines at once; separate Tokenizers may
// run in parallel.
type Tokenizer struct {
	lc  lifecycle.Base // offsets, limits, depth, sticky error, Close
	dec *jsontext.Decoder
	in  unitReader

	synth int64 // input bytes handed to jsontext so far
	pads  int64 // bytes handed to jsontext that are not input (see numberUnit)

	delim    byte  // pending ',' or ':' not yet handed to jsontext, or 0
	delimOff int64 // its offset
	tokOff   int64 // offset of the first byte of the token being read

	stack jsonwire.Stack  // the open objects and arrays
	num   jsonwire.Num    // number grammar state (lifecycle.Number)
	raw   []byte          // the text of a number that a chunk cut
	key   []byte          // the decoded text of a key that a chunk cut or that has escapes
	str   jsonwire.String // string decoder (lifecycle.Key, lifecycle.String)
	keys  keyfold.Set     // keys of the open objects
}

var _ token.Tokenizer = (*Tokenizer)(nil)

// New returns a JSON tokenizer that reports events to h.
func New(h token.Handler, opts ...token.Option) *Tokenizer {
	t := &Tokenizer{}
	t.lc.Init(h, "JSON", opts...)
	t.dec = jsontext.NewDecoder(&t.in, decoderOptions...)
	// Under AllowConfusableKeys only exact duplicates are rejected.
	t.keys.SetExact(t.lc.Cfg.AllowConfusableKeys)
	return t
}

// decoderOptions are the jsontext settings argstream relies on: strict UTF-8;
// duplicate names are t.keys' to find (jsontext sees only stand-ins).
var decoderOptions = []jsontext.Options{
	jsontext.AllowDuplicateNames(true),
	jsontext.AllowInvalidUTF8(false),
}

// Reset makes t ready for a new input, reporting to h, with the same options.
// It keeps t's buffers, so a reused tokenizer does not allocate.
func (t *Tokenizer) Reset(h token.Handler) {
	t.dec.Reset(&t.in, decoderOptions...)
	t.str.Reset()
	t.keys.Reset()
	t.stack.Reset()
	t.lc.Reset(h)
	*t = Tokenizer{lc: t.lc, dec: t.dec, str: t.str, keys: t.keys, stack: t.stack,
		raw: t.raw[:0], key: t.key[:0], in: unitReader{b: t.in.b[:0]}}
}

// Offset returns the number of input bytes fed so far.
func (t *Tokenizer) Offset() int64 { return t.lc.Offset() }

// Feed consumes the next chunk of input, which may be empty, and reports the
// events it determines. After an error, Feed and [Tokenizer.Close] return
// that error; after Close, Feed returns [token.ErrClosed].
func (t *Tokenizer) Feed(chunk []byte) error {
	b, base, err := t.lc.Next(chunk)
	if err != nil {
		return err
	}
	return t.lc.Lexed(t.lex(b, base), (*grammar)(t))
}

// Close ends the input: it reports a top-level number that ends the input
// and returns an error if the value is incomplete.
func (t *Tokenizer) Close() error { return t.lc.Close((*grammar)(t)) }

// grammar is the [Tokenizer] as the lifecycle sees it.
type grammar Tokenizer

func (g *grammar) Lex(b []byte, base int64) error { return (*Tokenizer)(g).lex(b, base) }

// End ends a number at the top level, which only the end of input ends.
func (g *grammar) End() error {
	t := (*Tokenizer)(g)
	if !t.num.Complete() {
		return t.truncated("in number")
	}
	return t.endNumber(t.raw, t.lc.Offset())
}

func (g *grammar) Pointer(at lifecycle.Where) jsontext.Pointer {
	return (*Tokenizer)(g).pointer(int(at))
}

// lex runs the lexer over b, whose first byte is at offset base.
func (t *Tokenizer) lex(b []byte, base int64) error {
	var err error
	for i := 0; i < len(b) && err == nil; {
		switch t.lc.State {
		case lifecycle.Between:
			i, err = t.between(b, i, base)
		case lifecycle.String:
			i, err = t.stringData(b, i, base)
		case lifecycle.Key:
			i, err = t.keyName(b, i, base)
		case lifecycle.Number:
			i, err = t.number(b, i, base)
		case lifecycle.Word:
			i, err = t.literal(b, i, base)
		case lifecycle.Done:
			i, err = t.lc.Trailing(b, i, base)
		}
	}
	return err
}

// between reads from b[i:] the bytes before a token and between tokens, and
// the tokens themselves while each ends in b; it returns at the end of b, at
// the top-level value's end, or in a token that b cuts, in that token's
// state.
func (t *Tokenizer) between(b []byte, i int, base int64) (int, error) {
	for t.lc.State == lifecycle.Between {
		for i < len(b) && jsonwire.IsSpace(b[i]) {
			i++
		}
		if i == len(b) {
			return i, nil
		}
		c := b[i]
		pos := base + int64(i)
		switch c {
		case ',', ':':
			if want, _ := t.stack.Expect(); t.delim != 0 || c != want {
				return i, t.reject(pos, b[i:i+1])
			}
			t.delim, t.delimOff = c, pos
			i++
			continue
		case '}', ']':
			if err := t.closeContainer(b[i:i+1], pos); err != nil {
				return i, err
			}
			i++
			continue
		}
		want, keyPos := t.stack.Expect()
		if t.delim != want || keyPos && c != '"' {
			return i, t.reject(pos, b[i:i+1])
		}
		t.tokOff = pos
		var err error
		switch {
		case c == '"' && keyPos:
			i, err = t.startKey(b, i+1, base)
		case c == '"':
			i, err = t.startString(b, i+1, base)
		case c == '{' || c == '[':
			err = t.open(b[i:i+1], pos)
			i++
		case jsonwire.StartsNumber(c):
			i, err = t.startNumber(b, i, base)
		case c == 't' || c == 'f' || c == 'n':
			i, err = t.startLiteral(b, i, base)
		default:
			err = t.reject(pos, b[i:i+1])
		}
		if err != nil {
			return i, err
		}
	}
	return i, nil
}

// open reads c, '{' or '[' at pos.
func (t *Tokenizer) open(c []byte, pos int64) error {
	if t.lc.Depth() >= t.lc.Cfg.MaxDepth {
		return t.lc.TooDeep(pos, t.pointer(+1))
	}
	if err := t.read(pos, c, unitToken); err != nil {
		return err
	}
	t.lc.Enter()
	obj := c[0] == '{'
	t.stack.Push(obj)
	kind := token.BeginArray
	if obj {
		kind = token.BeginObject
		t.keys.Open()
	}
	return t.lc.Emit(kind, nil, pos+1)
}

// closeContainer reads c, '}' or ']' at pos.
func (t *Tokenizer) closeContainer(c []byte, pos int64) error {
	if t.delim != 0 {
		// jsontext would blame the delimiter; the bracket is what is wrong.
		want, ptr := "a value", t.pointer(+1)
		if _, keyPos := t.stack.Expect(); keyPos {
			want, ptr = "an object key", t.pointer(0)
		}
		return &token.SyntaxError{Offset: pos, Pointer: ptr, Err: token.ErrSyntax,
			Detail: fmt.Sprintf("invalid character %q after %q (expecting %s)", c[0], t.delim, want)}
	}
	if err := t.read(pos, c, unitToken); err != nil {
		return err
	}
	t.stack.Pop()
	t.lc.Leave()
	t.lc.ValueEnded()
	kind := token.EndArray
	if c[0] == '}' {
		kind = token.EndObject
		t.keys.Close()
	}
	return t.lc.Emit(kind, nil, pos+1)
}

// startKey reads an object key from b[i:], just past its opening quote.
// A key of plain text that ends in b is taken whole; any other is decoded
// by t.str from its first byte that is not plain.
func (t *Tokenizer) startKey(b []byte, i int, base int64) (int, error) {
	j := i + jsonwire.ScanPlain(b[i:])
	if j < len(b) && b[j] == '"' {
		return j + 1, t.endKey(b[i:j:j], base+int64(j+1))
	}
	t.key = append(t.key[:0], b[i:j]...)
	t.str.Reset()
	t.lc.State = lifecycle.Key
	return j, nil
}

// keyName reads more of a key that a chunk cut or that has escapes:
// plain text as it is in b, the rest through t.str.
func (t *Tokenizer) keyName(b []byte, i int, base int64) (int, error) {
	if !t.str.Pending() {
		j := i + jsonwire.ScanPlain(b[i:])
		t.key = append(t.key, b[i:j]...)
		switch {
		case j == len(b):
			return j, nil
		case b[j] == '"':
			return j + 1, t.endKey(t.key, base+int64(j+1))
		}
		i = j
	}
	text, n, closed, lerr := t.str.Next(b[i:], base+int64(i))
	t.key = append(t.key, text...)
	if lerr != nil {
		return i + n, lifecycle.WireError(lerr, t.pointer(0))
	}
	if !closed {
		return i + n, nil
	}
	return i + n, t.endKey(t.key, base+int64(i+n))
}

// endKey reads the object key k, complete and decoded: jsontext checks its
// place in the grammar and t.keys whether it repeats one.
func (t *Tokenizer) endKey(k []byte, determinedAt int64) error {
	if err := t.read(t.tokOff, standIn, unitStandIn); err != nil {
		return err
	}
	// A repeat is at the key, in the member it names.
	if e := t.keys.Check(k, t.tokOff); e != nil {
		return lifecycle.WireError(e, t.pointer(+1).AppendToken(string(k)))
	}
	t.stack.Count()
	t.lc.State = lifecycle.Between
	return t.lc.Emit(token.Key, k, determinedAt)
}

// startString reads a string value from b[i:], just past its opening
// quote.
func (t *Tokenizer) startString(b []byte, i int, base int64) (int, error) {
	if err := t.read(t.tokOff, standIn, unitStandIn); err != nil {
		return i - 1, err
	}
	t.stack.Count()
	if err := t.lc.Emit(token.BeginString, nil, t.tokOff+1); err != nil {
		return i, err
	}
	// t.str needs no Reset: every string before this one ended at its
	// closing quote, where nothing is pending.
	t.lc.State = lifecycle.String
	return t.stringData(b, i, base)
}

// stringData reads the text of a string value from b[i:]. Plain text up
// to the closing quote or to the end of b is reported as it is in b, as
// the lifecycle's JSONString would report it; any other is streamed by
// JSONString.
func (t *Tokenizer) stringData(b []byte, i int, base int64) (int, error) {
	if t.str.Pending() {
		return t.lc.JSONString((*grammar)(t), &t.str, b, i, base)
	}
	j := i + jsonwire.ScanPlain(b[i:])
	switch {
	case j == len(b):
		if j == i {
			return j, nil
		}
		// Plain text is its own escaped form.
		return j, t.lc.EmitData(b[i:j], b[i:j:j], base+int64(j))
	case b[j] == '"':
		if j > i {
			if err := t.lc.EmitData(b[i:j], b[i:j:j], base+int64(j)); err != nil {
				return j, err
			}
		}
		t.lc.ValueEnded()
		return j + 1, t.lc.Emit(token.EndString, nil, base+int64(j+1))
	}
	return t.lc.JSONString((*grammar)(t), &t.str, b, i, base)
}

// standIn is what jsontext reads in place of a string, key or value.
var standIn = []byte(`""`)

// startNumber reads a number from b[i:]. One that ends in b is read
// whole; it ends at the first byte that cannot continue it, which is then
// read as the start of what follows.
func (t *Tokenizer) startNumber(b []byte, i int, base int64) (int, error) {
	n, num := jsonwire.NumStart.Scan(b[i:])
	end := i + n
	if end == len(b) {
		t.lc.State = lifecycle.Number
		t.num = num
		t.raw = append(t.raw[:0], b[i:]...)
		return end, nil
	}
	if !num.Complete() {
		// Let jsontext describe what is wrong with the byte after "1." or "-".
		return end, t.reject(t.tokOff, b[i:end+1])
	}
	return end, t.endNumber(b[i:end:end], base+int64(end)+1)
}

// number reads more of a number that a chunk cut.
func (t *Tokenizer) number(b []byte, i int, base int64) (int, error) {
	n, num := t.num.Scan(b[i:])
	end := i + n
	t.num = num
	t.raw = append(t.raw, b[i:end]...)
	if end == len(b) {
		return end, nil
	}
	if !num.Complete() {
		return end, t.reject(t.tokOff, append(t.raw, b[end]))
	}
	return end, t.endNumber(t.raw, base+int64(end)+1)
}

// endNumber reads text, a whole number, which the byte before determinedAt
// (or the end of input) ended.
func (t *Tokenizer) endNumber(text []byte, determinedAt int64) error {
	if err := t.read(t.tokOff, text, unitNumber); err != nil {
		return err
	}
	t.stack.Count()
	t.lc.ValueEnded()
	return t.lc.Emit(token.Number, text, determinedAt)
}

// startLiteral reads null, true or false from b[i:]: whole if b holds it,
// else through the lifecycle's word matching.
func (t *Tokenizer) startLiteral(b []byte, i int, base int64) (int, error) {
	lit := "null"
	switch b[i] {
	case 't':
		lit = "true"
	case 'f':
		lit = "false"
	}
	if end := i + len(lit); end <= len(b) && string(b[i:end]) == lit {
		return end, t.endLiteral(b[i:end], base+int64(end))
	}
	t.lc.StartWord(lit)
	return i + 1, nil
}

// literal reads the rest of null, true or false.
func (t *Tokenizer) literal(b []byte, i int, base int64) (int, error) {
	i, complete := t.lc.MatchWord(b, i)
	lit, n := t.lc.Word()
	if !complete {
		if i < len(b) {
			t.raw = append(append(t.raw[:0], lit[:n]...), b[i])
			return i, t.reject(t.tokOff, t.raw)
		}
		return i, nil
	}
	t.raw = append(t.raw[:0], lit...)
	return i, t.endLiteral(t.raw, base+int64(i))
}

// endLiteral reads lit, a whole literal, which ends just before
// determinedAt.
func (t *Tokenizer) endLiteral(lit []byte, determinedAt int64) error {
	if err := t.read(t.tokOff, lit, unitToken); err != nil {
		return err
	}
	t.stack.Count()
	t.lc.ValueEnded()
	kind := token.Null
	switch lit[0] {
	case 't':
		kind = token.True
	case 'f':
		kind = token.False
	}
	return t.lc.Emit(kind, nil, determinedAt)
}

// unitKind says how a token is handed to jsontext.
type unitKind uint8

const (
	unitToken   unitKind = iota // the token's own bytes
	unitStandIn                 // standIn, for a string of another length
	unitNumber                  // a number, and a space after it
)

// read hands jsontext the pending delimiter and tok, a whole token whose
// first byte is at offset tokOff, and reads it back.
//
// After a number it adds a space, which tells jsontext that the number is
// complete, where the end of the unit would make it ask for more input
// first. The space is not input: synth does not count it, pads does.
func (t *Tokenizer) read(tokOff int64, tok []byte, kind unitKind) error {
	hasDelim := t.delim != 0
	// The unit is built in the reader's own buffer, reslicing and appending
	// in place: no pointer is stored unless the buffer grows.
	t.in.b = t.in.b[:0]
	if hasDelim {
		t.in.b = append(t.in.b, t.delim)
	}
	t.in.b = append(t.in.b, tok...)
	t.in.pos = 0
	start := t.synth + t.pads
	t.synth += int64(len(t.in.b))
	if kind == unitNumber {
		t.in.b = append(t.in.b, ' ')
		t.pads++
	}
	t.delim = 0
	if _, err := t.dec.ReadToken(); err != nil {
		return t.readError(err, tokOff, start, hasDelim, kind == unitStandIn)
	}
	return nil
}

// readError maps err, what jsontext said of a unit that started at start
// in what it read, with a delimiter first if hasDelim, back to the input.
func (t *Tokenizer) readError(err error, tokOff, start int64, hasDelim, standIn bool) error {
	var se *jsontext.SyntacticError
	if !errors.As(err, &se) {
		return err
	}
	if se.Err == io.ErrUnexpectedEOF {
		return t.truncated("")
	}
	// Map jsontext's offset within the unit back to the input.
	off := tokOff
	rel := se.ByteOffset - start
	switch {
	case hasDelim && rel <= 0:
		off = t.delimOff
	case !standIn:
		if hasDelim {
			rel--
		}
		off += max(rel, 0)
	}
	return &token.SyntaxError{Offset: off, Pointer: t.stack.Named(se.JSONPointer, t.keys.Last),
		Err: token.ErrSyntax, Detail: se.Err.Error()}
}

// reject hands jsontext a token that the lexer knows to be wrong, so that it
// describes the problem.
func (t *Tokenizer) reject(tokOff int64, tok []byte) error {
	_, keyPos := t.stack.Expect()
	err := t.read(tokOff, tok, unitToken)
	if errors.Is(err, token.ErrTruncated) {
		// jsontext waits for the rest of the token ({n... could be a
		// literal to it) where the lexer already knows the first byte is
		// wrong: say so here, at that byte, whatever the chunking.
		want, ptr := "a value", t.pointer(+1)
		if keyPos {
			want, ptr = "an object key", t.pointer(0)
		}
		return &token.SyntaxError{Offset: tokOff, Pointer: ptr, Err: token.ErrSyntax,
			Detail: fmt.Sprintf("invalid character %s (expecting %s)", jsonwire.QuoteChar(tok), want)}
	}
	if err != nil {
		return err
	}
	return &token.SyntaxError{Offset: tokOff, Pointer: t.pointer(-1), Err: token.ErrSyntax,
		Detail: fmt.Sprintf("internal error: jsontext accepted %q", tok)}
}

func (t *Tokenizer) truncated(where string) error {
	return t.lc.Truncated((*grammar)(t), where)
}

// pointer returns the JSON pointer of a value relative to where the lexer
// is (see [jsonwire.Stack.Pointer]).
func (t *Tokenizer) pointer(where int) jsontext.Pointer {
	return t.stack.Pointer(where, t.keys.Last)
}

// unitReader is the [io.Reader] jsontext reads tokens from: b[pos:] is what
// it has not read yet of the unit b.
type unitReader struct {
	b   []byte
	pos int
}

func (r *unitReader) Read(p []byte) (int, error) {
	if r.pos >= len(r.b) {
		return 0, io.EOF
	}
	n := copy(p, r.b[r.pos:])
	r.pos += n
	return n, nil
}
