package jsontoken

import (
	"errors"
	"fmt"
	"io"
	"strconv"

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
//   - lex and the per-state readers (between, keyName, number, literal):
//     the lexer that finds where each token ends. String values are
//     streamed by the lifecycle's JSONString.
//   - expect, read, reject: handing jsontext one whole token at a time and
//     mapping its errors back to the input.
//   - truncated, keyPointer, nextPointer: the pointers of errors.
//   - unitReader: the io.Reader jsontext reads each token from.

// Tokenizer is the JSON tokenizer: an adapter that drives a
// [jsontext.Decoder] one complete token at a time.
//
// The adapter's own lexer finds where each token ends, so jsontext never sees
// a number or literal that more input could extend, and never rescans a
// partial token. String values are decoded and validated by the lexer as they
// arrive and reach jsontext as an empty stand-in "", so their content is
// scanned exactly once however the input is split; object keys reach jsontext
// whole, for the pointers of errors. jsontext validates every token against
// the grammar and the nesting; its error offsets are mapped back to the input.
// Repeated keys are found by internal/keyfold, not by jsontext, so that each
// key is hashed once: exact repeats, and also case-folded repeats and NUL
// unless [token.Config.AllowConfusableKeys].
//
// A Tokenizer may not be used from several goroutines at once; separate Tokenizers may
// run in parallel.
type Tokenizer struct {
	lc  lifecycle.Base // offsets, limits, depth, sticky error, Close
	dec *jsontext.Decoder
	in  unitReader

	synth int64 // input bytes handed to jsontext so far
	pads  int64 // bytes handed to jsontext that are not input (see endNumber)

	delim    byte  // pending ',' or ':' not yet handed to jsontext, or 0
	delimOff int64 // its offset
	tokOff   int64 // offset of the first byte of the token being read

	num  jsonwire.Num    // number grammar state (lifecycle.Number)
	raw  []byte          // number text, or an object key's raw bytes with quotes
	key  []byte          // an object key's decoded text
	str  jsonwire.String // string decoder (lifecycle.Key, lifecycle.String)
	keys keyfold.Set     // keys of the open objects
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
// duplicate names are t.keys' to find, which jsontext would otherwise hash a
// second time.
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
	t.lc.Reset(h)
	*t = Tokenizer{lc: t.lc, dec: t.dec, str: t.str, keys: t.keys,
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
	return t.endNumber(t.lc.Offset())
}

func (g *grammar) Pointer(at lifecycle.Where) jsontext.Pointer {
	t := (*Tokenizer)(g)
	switch at {
	case lifecycle.Container:
		return t.keyPointer()
	case lifecycle.Next:
		return t.nextPointer()
	}
	return t.dec.StackPointer()
}

// lex runs the lexer over b, whose first byte is at offset base.
func (t *Tokenizer) lex(b []byte, base int64) error {
	var err error
	for i := 0; i < len(b) && err == nil; {
		switch t.lc.State {
		case lifecycle.Between:
			i, err = t.between(b, i, base)
		case lifecycle.String:
			i, err = t.lc.JSONString((*grammar)(t), &t.str, b, i, base)
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

// between handles the bytes before a token and the first byte of the token.
func (t *Tokenizer) between(b []byte, i int, base int64) (int, error) {
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
		if want, _ := t.expect(); t.delim != 0 || c != want {
			return i, t.reject(pos, b[i:i+1])
		}
		t.delim, t.delimOff = c, pos
		return i + 1, nil
	case '}', ']':
		if t.delim != 0 {
			// jsontext would blame the delimiter; the bracket is what is wrong.
			want := "a value"
			ptr := t.nextPointer()
			if _, keyPos := t.expect(); keyPos {
				want, ptr = "an object key", t.keyPointer()
			}
			return i, &token.SyntaxError{Offset: pos, Pointer: ptr, Err: token.ErrSyntax,
				Detail: fmt.Sprintf("invalid character %q after %q (expecting %s)", c, t.delim, want)}
		}
		if _, err := t.read(pos, b[i:i+1], false); err != nil {
			return i, err
		}
		t.lc.Leave()
		t.lc.ValueEnded()
		kind := token.EndArray
		if c == '}' {
			kind = token.EndObject
			t.keys.Close()
		}
		return i + 1, t.lc.Emit(kind, nil, pos+1)
	}
	want, keyPos := t.expect()
	if t.delim != want || keyPos && c != '"' {
		return i, t.reject(pos, b[i:i+1])
	}
	t.tokOff = pos
	switch {
	case c == '{' || c == '[':
		if t.lc.Depth() >= t.lc.Cfg.MaxDepth {
			return i, t.lc.TooDeep(pos, t.nextPointer())
		}
		if _, err := t.read(pos, b[i:i+1], false); err != nil {
			return i, err
		}
		t.lc.Enter()
		kind := token.BeginArray
		if c == '{' {
			kind = token.BeginObject
			t.keys.Open()
		}
		return i + 1, t.lc.Emit(kind, nil, pos+1)
	case c == '"':
		t.str.Reset()
		if keyPos {
			t.lc.State = lifecycle.Key
			t.raw = append(t.raw[:0], '"')
			t.key = t.key[:0]
			return i + 1, nil
		}
		if _, err := t.read(pos, standIn, true); err != nil {
			return i, err
		}
		t.lc.State = lifecycle.String
		return i + 1, t.lc.Emit(token.BeginString, nil, pos+1)
	case jsonwire.StartsNumber(c):
		t.lc.State = lifecycle.Number
		t.num, _ = jsonwire.NumStart.Step(c)
		t.raw = append(t.raw[:0], c)
		return i + 1, nil
	case c == 't' || c == 'f' || c == 'n':
		switch c {
		case 't':
			t.lc.StartWord("true")
		case 'f':
			t.lc.StartWord("false")
		default:
			t.lc.StartWord("null")
		}
		return i + 1, nil
	}
	return i, t.reject(pos, b[i:i+1])
}

// standIn is what jsontext reads in place of a string value.
var standIn = []byte(`""`)

// keyName reads an object key; once it is complete, jsontext checks its
// place in the grammar and t.keys whether it repeats one.
func (t *Tokenizer) keyName(b []byte, i int, base int64) (int, error) {
	text, n, closed, lerr := t.str.Next(b[i:], base+int64(i))
	t.key = append(t.key, text...)
	t.raw = append(t.raw, b[i:i+n]...)
	if lerr != nil {
		return i + n, lifecycle.WireError(lerr, t.keyPointer())
	}
	if !closed {
		return i + n, nil
	}
	if _, err := t.read(t.tokOff, t.raw, false); err != nil {
		return i + n, err
	}
	// A repeat is at the key, in the member it names.
	if e := t.keys.Check(t.key, t.tokOff); e != nil {
		return i + n, lifecycle.WireError(e, t.dec.StackPointer())
	}
	t.lc.State = lifecycle.Between
	return i + n, t.lc.Emit(token.Key, t.key, base+int64(i+n))
}

// number reads a number; it is complete at the first byte that cannot
// continue it, which is then read as the start of what follows.
func (t *Tokenizer) number(b []byte, i int, base int64) (int, error) {
	start := i
	for ; i < len(b); i++ {
		next, ok := t.num.Step(b[i])
		if !ok {
			break
		}
		t.num = next
	}
	t.raw = append(t.raw, b[start:i]...)
	if i == len(b) {
		return i, nil
	}
	if !t.num.Complete() {
		// Let jsontext describe what is wrong with the byte after "1." or "-".
		return i, t.reject(t.tokOff, append(t.raw, b[i]))
	}
	return i, t.endNumber(base + int64(i) + 1)
}

func (t *Tokenizer) endNumber(determinedAt int64) error {
	// A space after the number tells jsontext that it is complete, where
	// the end of the unit would make it ask for more input first. It is
	// not input: synth does not count it, pads does.
	t.raw = append(t.raw, ' ')
	_, err := t.read(t.tokOff, t.raw, false)
	t.raw = t.raw[:len(t.raw)-1]
	t.synth--
	t.pads++
	if err != nil {
		return err
	}
	t.lc.ValueEnded()
	return t.lc.Emit(token.Number, t.raw, determinedAt)
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
	if _, err := t.read(t.tokOff, t.raw, false); err != nil {
		return i, err
	}
	t.lc.ValueEnded()
	kind := token.Null
	switch lit {
	case "true":
		kind = token.True
	case "false":
		kind = token.False
	}
	return i, t.lc.Emit(kind, nil, base+int64(i))
}

// expect returns the delimiter jsontext requires before the next token, and
// whether that token must be an object key.
func (t *Tokenizer) expect() (want byte, keyPos bool) {
	kind, n := t.dec.StackIndex(t.dec.StackDepth())
	switch kind {
	case jsontext.KindBeginObject:
		if n%2 == 1 {
			return ':', false
		}
		if n > 0 {
			return ',', true
		}
		return 0, true
	case jsontext.KindBeginArray:
		if n > 0 {
			return ',', false
		}
	}
	return 0, false
}

// read hands jsontext the pending delimiter and tok, a whole token whose first
// byte is at offset tokOff, and reads it back. If standIn, tok stands for a
// string value of another length.
func (t *Tokenizer) read(tokOff int64, tok []byte, standIn bool) (jsontext.Token, error) {
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
	t.delim = 0
	jt, err := t.dec.ReadToken()
	if err == nil {
		return jt, nil
	}
	var se *jsontext.SyntacticError
	if !errors.As(err, &se) {
		return jt, err
	}
	if se.Err == io.ErrUnexpectedEOF {
		return jt, t.truncated("")
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
	return jt, &token.SyntaxError{Offset: off, Pointer: se.JSONPointer, Err: token.ErrSyntax, Detail: se.Err.Error()}
}

// reject hands jsontext a token that the lexer knows to be wrong, so that it
// describes the problem.
func (t *Tokenizer) reject(tokOff int64, tok []byte) error {
	_, keyPos := t.expect()
	_, err := t.read(tokOff, tok, false)
	if errors.Is(err, token.ErrTruncated) {
		// jsontext waits for the rest of the token ({n... could be a
		// literal to it) where the lexer already knows the first byte is
		// wrong: say so here, at that byte, whatever the chunking.
		want, ptr := "a value", t.nextPointer()
		if keyPos {
			want, ptr = "an object key", t.keyPointer()
		}
		return &token.SyntaxError{Offset: tokOff, Pointer: ptr, Err: token.ErrSyntax,
			Detail: fmt.Sprintf("invalid character %s (expecting %s)", jsonwire.QuoteChar(tok), want)}
	}
	if err != nil {
		return err
	}
	return &token.SyntaxError{Offset: tokOff, Pointer: t.dec.StackPointer(), Err: token.ErrSyntax,
		Detail: fmt.Sprintf("internal error: jsontext accepted %q", tok)}
}

func (t *Tokenizer) truncated(where string) error {
	return t.lc.Truncated((*grammar)(t), where)
}

// keyPointer is the pointer of the object whose key is being read.
func (t *Tokenizer) keyPointer() jsontext.Pointer {
	if _, n := t.dec.StackIndex(t.dec.StackDepth()); n > 0 {
		return t.dec.StackPointer().Parent()
	}
	return t.dec.StackPointer()
}

// nextPointer is the pointer of the value about to start.
func (t *Tokenizer) nextPointer() jsontext.Pointer {
	kind, n := t.dec.StackIndex(t.dec.StackDepth())
	if kind != jsontext.KindBeginArray {
		return t.dec.StackPointer() // the member name just read, or the root
	}
	p := t.dec.StackPointer()
	if n > 0 {
		p = p.Parent()
	}
	return p.AppendToken(strconv.FormatInt(n, 10))
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
