package jsontoken

import (
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/argstream/argstream/internal/jsonwire"
	"github.com/argstream/argstream/internal/keyfold"
	"github.com/argstream/argstream/token"
	"github.com/go-json-experiment/json/jsontext"
)

// lexer states of JSON.
type state uint8

const (
	stBetween state = iota // before a token: whitespace, ',' or ':'
	stKey                  // inside an object key
	stString               // inside a string value
	stNumber               // inside a number
	stLiteral              // inside null, true or false
	stDone                 // after the top-level value: only whitespace may follow
	stClosed               // Close succeeded
)

// Tokenizer is the JSON tokenizer: an adapter that drives a jsontext.Decoder one
// complete token at a time.
//
// The adapter's own lexer finds where each token ends, so jsontext never sees
// a number or literal that more input could extend, and never rescans a
// partial token. String values are decoded and validated by the lexer as they
// arrive and reach jsontext as an empty stand-in "", so their content is
// scanned exactly once however the input is split; object keys reach jsontext
// whole, for the duplicate check. jsontext validates every token against the
// grammar and the nesting; its error offsets are mapped back to the input.
// Keys that jsontext accepts are then checked for case-folded repeats and
// NUL (internal/keyfold), unless token.Config.AllowConfusableKeys.
//
// A Tokenizer may not be used from several goroutines at once; separate Tokenizers may
// run in parallel.
type Tokenizer struct {
	h     token.Handler
	cfg   token.Config
	dec   *jsontext.Decoder
	in    unitReader
	state state

	off   int64 // stream offset just past the input fed so far
	synth int64 // input bytes handed to jsontext so far
	pads  int64 // bytes handed to jsontext that are not input (see endNumber)
	depth int

	delim    byte  // pending ',' or ':' not yet handed to jsontext, or 0
	delimOff int64 // its offset
	tokOff   int64 // offset of the first byte of the token being read

	num  jsonwire.Num    // number grammar state (stNumber)
	lit  string          // the literal being read (stLiteral)
	litN int             // bytes of lit matched
	raw  []byte          // number text, or an object key's raw bytes with quotes
	key  []byte          // an object key's decoded text
	str  jsonwire.String // string decoder (stKey, stString)
	keys keyfold.Set     // keys of the open objects (unless AllowConfusableKeys)

	err error // sticky: the error that stopped the tokenizer
}

var _ token.Tokenizer = (*Tokenizer)(nil)

// New returns a JSON tokenizer that reports events to h.
func New(h token.Handler, opts ...token.Option) *Tokenizer {
	t := &Tokenizer{h: h, cfg: token.NewConfig(opts...)}
	t.dec = jsontext.NewDecoder(&t.in, decoderOptions...)
	return t
}

// decoderOptions are the strict jsontext settings argstream relies on.
var decoderOptions = []jsontext.Options{
	jsontext.AllowDuplicateNames(false),
	jsontext.AllowInvalidUTF8(false),
}

// Reset makes t ready for a new input, reporting to h, with the same options.
// It keeps t's buffers, so a reused tokenizer does not allocate.
func (t *Tokenizer) Reset(h token.Handler) {
	t.dec.Reset(&t.in, decoderOptions...)
	t.str.Reset()
	t.keys.Reset()
	*t = Tokenizer{h: h, cfg: t.cfg, dec: t.dec, str: t.str, keys: t.keys,
		raw: t.raw[:0], key: t.key[:0], in: unitReader{b: t.in.b[:0]}}
}

// Offset returns the number of input bytes fed so far.
func (t *Tokenizer) Offset() int64 { return t.off }

// Feed consumes the next chunk of input.
func (t *Tokenizer) Feed(chunk []byte) error {
	if t.err != nil {
		return t.err
	}
	if t.state == stClosed {
		return token.ErrClosed
	}
	if t.cfg.MaxSize > 0 && t.off+int64(len(chunk)) > t.cfg.MaxSize {
		limit := t.cfg.MaxSize
		if t.err = t.lex(chunk[:limit-t.off]); t.err == nil {
			t.err = &token.SyntaxError{Offset: limit, Pointer: t.dec.StackPointer(), Err: token.ErrTooLarge,
				Detail: fmt.Sprintf("input longer than the limit of %d bytes", limit)}
		}
		return named(t.err)
	}
	t.err = t.lex(chunk)
	return named(t.err)
}

// Close ends the input.
func (t *Tokenizer) Close() error {
	if t.err != nil || t.state == stClosed {
		return t.err
	}
	if t.err = t.end(); t.err == nil {
		t.state = stClosed
	}
	return named(t.err)
}

func (t *Tokenizer) end() error {
	switch t.state {
	case stDone:
		return nil
	case stNumber:
		// The end of input ends a number only at the top level: inside an
		// array or object the input is cut short, maybe in the number.
		if !t.num.Complete() || t.depth > 0 {
			return t.truncated("in number")
		}
		return t.endNumber(t.off)
	case stLiteral:
		return t.truncated("in literal " + t.lit)
	case stString:
		return t.truncated("in string")
	case stKey:
		return t.truncated("in object key")
	}
	if t.depth == 0 && t.synth == 0 {
		return t.truncated("before any value")
	}
	return t.truncated("(" + strconv.Itoa(t.depth) + " unclosed)")
}

// lex runs the lexer over b, which follows t.off in the stream.
func (t *Tokenizer) lex(b []byte) error {
	base := t.off
	t.off += int64(len(b))
	var err error
	for i := 0; i < len(b) && err == nil; {
		switch t.state {
		case stBetween:
			i, err = t.between(b, i, base)
		case stString:
			i, err = t.stringValue(b, i, base)
		case stKey:
			i, err = t.keyName(b, i, base)
		case stNumber:
			i, err = t.number(b, i, base)
		case stLiteral:
			i, err = t.literal(b, i, base)
		case stDone:
			i, err = t.trailing(b, i, base)
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
		t.depth--
		t.valueEnded()
		kind := token.EndArray
		if c == '}' {
			kind = token.EndObject
			if !t.cfg.AllowConfusableKeys {
				t.keys.Close()
			}
		}
		return i + 1, t.emit(kind, nil, pos+1)
	}
	want, keyPos := t.expect()
	if t.delim != want || keyPos && c != '"' {
		return i, t.reject(pos, b[i:i+1])
	}
	t.tokOff = pos
	switch {
	case c == '{' || c == '[':
		if t.depth >= t.cfg.MaxDepth {
			return i, &token.SyntaxError{Offset: pos, Pointer: t.nextPointer(), Err: token.ErrTooDeep,
				Detail: fmt.Sprintf("nesting deeper than the limit of %d", t.cfg.MaxDepth)}
		}
		if _, err := t.read(pos, b[i:i+1], false); err != nil {
			return i, err
		}
		t.depth++
		kind := token.BeginArray
		if c == '{' {
			kind = token.BeginObject
			if !t.cfg.AllowConfusableKeys {
				t.keys.Open()
			}
		}
		return i + 1, t.emit(kind, nil, pos+1)
	case c == '"':
		t.str.Reset()
		if keyPos {
			t.state = stKey
			t.raw = append(t.raw[:0], '"')
			t.key = t.key[:0]
			return i + 1, nil
		}
		if _, err := t.read(pos, standIn, true); err != nil {
			return i, err
		}
		t.state = stString
		return i + 1, t.emit(token.BeginString, nil, pos+1)
	case jsonwire.StartsNumber(c):
		t.state = stNumber
		t.num, _ = jsonwire.NumStart.Step(c)
		t.raw = append(t.raw[:0], c)
		return i + 1, nil
	case c == 't' || c == 'f' || c == 'n':
		t.state = stLiteral
		switch c {
		case 't':
			t.lit = "true"
		case 'f':
			t.lit = "false"
		default:
			t.lit = "null"
		}
		t.litN = 1
		return i + 1, nil
	}
	return i, t.reject(pos, b[i:i+1])
}

// standIn is what jsontext reads in place of a string value.
var standIn = []byte(`""`)

// stringValue streams the data of a string value.
func (t *Tokenizer) stringValue(b []byte, i int, base int64) (int, error) {
	text, n, closed, lerr := t.str.Next(b[i:], base+int64(i))
	end := i + n
	if len(text) > 0 {
		dataEnd := end
		if closed {
			dataEnd--
		}
		escaped := t.str.Escaped(b[i:dataEnd:dataEnd], base+int64(i))
		if err := t.h.Handle(token.Event{Kind: token.StringData, Data: text, Escaped: escaped, Offset: base + int64(dataEnd)}); err != nil {
			return end, err
		}
	}
	if lerr != nil {
		return end, t.lexError(lerr, t.dec.StackPointer())
	}
	if !closed {
		return end, nil
	}
	t.valueEnded()
	return end, t.emit(token.EndString, nil, base+int64(end))
}

// keyName reads an object key; jsontext checks it once it is complete, and
// so does t.keys.
func (t *Tokenizer) keyName(b []byte, i int, base int64) (int, error) {
	text, n, closed, lerr := t.str.Next(b[i:], base+int64(i))
	t.key = append(t.key, text...)
	t.raw = append(t.raw, b[i:i+n]...)
	if lerr != nil {
		return i + n, t.lexError(lerr, t.keyPointer())
	}
	if !closed {
		return i + n, nil
	}
	if _, err := t.read(t.tokOff, t.raw, false); err != nil {
		return i + n, err
	}
	if !t.cfg.AllowConfusableKeys {
		// Where jsontext puts a duplicate: at the key, in the member it names.
		if e := t.keys.Check(t.key, t.tokOff); e != nil {
			return i + n, t.lexError(e, t.dec.StackPointer())
		}
	}
	t.state = stBetween
	return i + n, t.emit(token.Key, t.key, base+int64(i+n))
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
	t.valueEnded()
	return t.emit(token.Number, t.raw, determinedAt)
}

// literal reads null, true or false.
func (t *Tokenizer) literal(b []byte, i int, base int64) (int, error) {
	for ; i < len(b) && t.litN < len(t.lit); i++ {
		if b[i] != t.lit[t.litN] {
			t.raw = append(append(t.raw[:0], t.lit[:t.litN]...), b[i])
			return i, t.reject(t.tokOff, t.raw)
		}
		t.litN++
	}
	if t.litN < len(t.lit) {
		return i, nil
	}
	t.raw = append(t.raw[:0], t.lit...)
	if _, err := t.read(t.tokOff, t.raw, false); err != nil {
		return i, err
	}
	t.valueEnded()
	kind := token.Null
	switch t.lit {
	case "true":
		kind = token.True
	case "false":
		kind = token.False
	}
	return i, t.emit(kind, nil, base+int64(i))
}

// trailing accepts whitespace after the top-level value, and nothing else.
func (t *Tokenizer) trailing(b []byte, i int, base int64) (int, error) {
	for ; i < len(b); i++ {
		if !jsonwire.IsSpace(b[i]) {
			return i, &token.SyntaxError{Offset: base + int64(i), Err: token.ErrTrailingData,
				Detail: fmt.Sprintf("invalid character %s after top-level value", jsonwire.QuoteChar(b[i:i+1]))}
		}
	}
	return i, nil
}

// valueEnded moves the lexer past a complete value.
func (t *Tokenizer) valueEnded() {
	t.state = stBetween
	if t.depth == 0 {
		t.state = stDone
	}
}

func (t *Tokenizer) emit(k token.Kind, data []byte, off int64) error {
	return t.h.Handle(token.Event{Kind: k, Data: data, Offset: off})
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
	e := &token.SyntaxError{Offset: off, Pointer: se.JSONPointer, Err: token.ErrSyntax, Detail: se.Err.Error()}
	if errors.Is(se.Err, jsontext.ErrDuplicateName) {
		e.Err = token.ErrDuplicateKey
		e.Detail = "duplicate object key " + strconv.Quote(se.JSONPointer.LastToken())
	}
	return jt, e
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

func (t *Tokenizer) lexError(e *jsonwire.Error, ptr jsontext.Pointer) error {
	return &token.SyntaxError{Offset: e.Offset, Pointer: ptr, Err: e.Err, Detail: e.Detail}
}

func (t *Tokenizer) truncated(where string) error {
	ptr := t.dec.StackPointer()
	switch t.state {
	case stKey:
		ptr = t.keyPointer()
	case stNumber, stLiteral:
		ptr = t.nextPointer() // jsontext has not read it yet
	}
	detail := "unexpected end of input"
	if where != "" {
		detail += " " + where
	}
	return &token.SyntaxError{Offset: t.off, Pointer: ptr, Err: token.ErrTruncated, Detail: detail}
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

// unitReader is the io.Reader jsontext reads tokens from: b[pos:] is what
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

// named names the syntax, JSON, in err if it is a *token.SyntaxError: the
// tokenizer's errors are built without it.
func named(err error) error {
	if se, ok := err.(*token.SyntaxError); ok && se.Syntax == "" {
		se.Syntax = "JSON"
	}
	return err
}
