package caret

import (
	"bytes"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/argstream/argstream/internal/lifecycle"
	"github.com/argstream/argstream/internal/textargs"
	"github.com/argstream/argstream/schema"
	"github.com/argstream/argstream/token"
)

// This file is structured in the following way:
//
//   - Tokenizer, New, Typed, Reset, Offset, Name: the type and its life.
//   - Feed, Close and grammar: the hooks into internal/lifecycle, which owns
//     offsets, limits, the sticky error and truncation at Close.
//   - lex and the readers of the states before a value: the opening fence
//     (open, readName), the structure lines between parameters (line,
//     fence, readKey, colon, dashes). The readers of the values are
//     values.go's.
//   - newline, count, emit, locate: keeping textargs.Lines current, so that
//     every error says its line and column.
//   - the errors and their pointers.

// Limits of the grammar.
const (
	maxName = 128 // bytes of a tool name
	maxKey  = 128 // bytes of a parameter name
)

// The grammar's states ([lifecycle.Base.State]).
const (
	sOpen       = lifecycle.FirstGrammarState + iota // "^^^" of the opening fence, t.n bytes read
	sName                                            // the tool name; t.cr: its line end's '\r'
	sLine                                            // at the start of a line between parameters; t.cr: an empty line's '\r'
	sFence                                           // t.n bytes of a closing fence "^^^" read; t.cr: its line end's '\r'
	sKey                                             // in a parameter name
	sColon                                           // after "KEY:"; t.cr: the '\r' of "KEY:\r\n"
	sDashes                                          // after "KEY", t.n bytes of " ---" read; t.cr: its line end's '\r'
	sValueStart                                      // after "KEY: "
	sBracket                                         // after "KEY: ["; t.cr: its '\r'
	sValue                                           // in a one-line value; t.cr: a '\r' held back
	sListLine                                        // at the start of a line of a list, t.n bytes of "]" or "^^^" held back (t.hold); t.cr: a '\r' after them
	sElement                                         // in a list element; t.cr: a '\r' held back
	sBody                                            // in a multi-line value (see body)
	sDone                                            // after the closing fence and its line end
)

// lits holds the bytes a piece of text may need after they were held back
// across chunks: "[", "[\r", "\r", "]", "]\r", "^", "^^".
const lits = "[\r]\r^^"

// Tokenizer reads one caret block, fences included, and reports the events
// of the JSON object of its arguments (see the package documentation).
//
// A Tokenizer may not be used from several goroutines at once; separate
// Tokenizers may run in parallel, and share a [*schema.Tools].
type Tokenizer struct {
	lc   lifecycle.Base // offsets, limits, depth, sticky error, Close
	args textargs.Args  // the parameters, typed, as events

	lits   [len(lits)]byte
	name   []byte // the tool name
	named  bool   // the opening fence has been read
	key    []byte // the parameter being read
	keyAt  int64  // where its line begins
	lineAt int64  // where the current line begins
	at     int64  // where a one-line value or a closing fence begins

	n    int  // bytes of a fixed word read: "^^^", " ---", the end marker
	hold byte // sListLine: ']' or '^', what t.n counts
	cr   bool // a '\r' read, its meaning not yet known (see the states)

	// A multi-line value (sBody).
	mark      []byte // "\r\n--- KEY\r": the end marker with the bytes around it
	lineStart bool   // at the start of a line: t.n bytes of the marker matched
	le        int    // the line end held back before it: 0, 1 ("\n") or 2 ("\r\n")
	heldAt    int64  // where the bytes held back begin
}

var _ token.Tokenizer = (*Tokenizer)(nil)

// New returns a tokenizer of one caret block that reports to h, without a
// schema: every value is a string, every list an array of strings.
func New(h token.Handler, opts ...token.Option) *Tokenizer {
	return newTokenizer(h, nil, opts)
}

// Typed returns a [token.NewFunc] for argstream.WithTokenizer whose
// tokenizers type each value by the schema of the block's tool in tools,
// looked up by the name in the opening fence (see schema). A tool not in
// tools, as with a nil tools, has every value a string.
func Typed(tools *schema.Tools) token.NewFunc {
	return func(h token.Handler, opts ...token.Option) token.Tokenizer {
		return newTokenizer(h, tools, opts)
	}
}

func newTokenizer(h token.Handler, tools *schema.Tools, opts []token.Option) *Tokenizer {
	t := &Tokenizer{}
	t.lc.Init(h, "caret block", opts...)
	t.args.Init(&t.lc, tools, false, false)
	t.lc.State = sOpen
	copy(t.lits[:], lits)
	return t
}

// Reset makes t ready for a new block, reporting to h, with the same
// options and schemas. It keeps t's buffers, so a reused tokenizer does
// not allocate.
func (t *Tokenizer) Reset(h token.Handler) {
	t.lc.Reset(h)
	t.args.Reset()
	*t = Tokenizer{lc: t.lc, args: t.args, lits: t.lits,
		name: t.name[:0], key: t.key[:0], mark: t.mark[:0]}
	t.lc.State = sOpen
}

// Offset returns the number of input bytes fed so far.
func (t *Tokenizer) Offset() int64 { return t.lc.Offset() }

// Name returns the tool's name, read from the opening fence, or "" until
// the opening fence's line has ended.
func (t *Tokenizer) Name() string {
	if !t.named {
		return ""
	}
	return string(t.name)
}

// Feed consumes the next chunk of the block, which may be empty, and
// reports the events it determines. After an error, Feed and
// [Tokenizer.Close] return that error; after Close, Feed returns
// [token.ErrClosed].
func (t *Tokenizer) Feed(chunk []byte) error {
	if err := t.lc.Feed(chunk, (*grammar)(t)); err != nil {
		return t.locate(err)
	}
	return nil
}

// Close ends the block: it returns nil if the closing fence was read, and
// [token.ErrTruncated] if the input ended before it.
func (t *Tokenizer) Close() error {
	if err := t.lc.Close((*grammar)(t)); err != nil {
		return t.locate(err)
	}
	return nil
}

// grammar is the [Tokenizer] as the lifecycle sees it.
type grammar Tokenizer

func (g *grammar) Lex(b []byte, base int64) error { return (*Tokenizer)(g).lex(b, base) }

// End is called by Close: the block is complete only after its closing
// fence.
func (g *grammar) End() error {
	t := (*Tokenizer)(g)
	var where string
	switch t.lc.State {
	case sDone:
		return nil
	case sFence:
		if t.n == 3 && !t.cr { // "^^^" at the end of input
			t.lc.State = sDone
			return t.args.End(t.at + 3)
		}
		where = "before the closing fence"
		if t.cr {
			where = "in the line end of the closing fence"
		}
	case sOpen, sName:
		where = "in the opening fence"
		if t.lc.Offset() == 0 {
			where = "before the opening fence"
		}
	case sValueStart, sBracket, sValue:
		where = "in the value of " + strconv.Quote(string(t.key))
	case sListLine, sElement:
		where = "in the list " + strconv.Quote(string(t.key))
	case sBody:
		where = "in multi-line value " + strconv.Quote(string(t.key))
	default:
		where = "before the closing fence"
	}
	return t.lc.Truncated(g, where)
}

// Pointer returns the pointer of the value being read: the parameter's
// value, or element, or the object between parameters.
func (g *grammar) Pointer(lifecycle.Where) jsontext.Pointer {
	t := (*Tokenizer)(g)
	switch t.lc.State {
	case sValue, sElement, sBody:
		return t.args.Pointer()
	case sValueStart, sBracket, sListLine:
		return t.keyPointer()
	}
	return ""
}

// lex runs the lexer over b, whose first byte is at offset base.
func (t *Tokenizer) lex(b []byte, base int64) error {
	var err error
	for i := 0; i < len(b) && err == nil; {
		switch t.lc.State {
		case sOpen:
			i, err = t.open(b, i, base)
		case sName:
			i, err = t.readName(b, i, base)
		case sLine:
			i, err = t.line(b, i, base)
		case sFence:
			i, err = t.fence(b, i, base)
		case sKey:
			i, err = t.readKey(b, i, base)
		case sColon:
			i, err = t.colon(b, i, base)
		case sDashes:
			i, err = t.dashes(b, i, base)
		case sValueStart:
			i, err = t.valueStart(b, i, base)
		case sBracket:
			i, err = t.bracket(b, i, base)
		case sValue:
			i, err = t.text(b, i, base, sLine)
		case sListLine:
			i, err = t.listLine(b, i, base)
		case sElement:
			i, err = t.text(b, i, base, sListLine)
		case sBody:
			i, err = t.body(b, i, base)
		default: // sDone
			return &token.SyntaxError{Offset: base + int64(i), Err: token.ErrTrailingData,
				Detail: "data after the closing fence: " + quoteByte(b[i])}
		}
	}
	return err
}

// open reads the "^^^" of the opening fence.
func (t *Tokenizer) open(b []byte, i int, base int64) (int, error) {
	for ; t.n < 3; t.n++ {
		if i == len(b) {
			return i, nil
		}
		if b[i] != '^' {
			return i, t.syntax(base+int64(i), "", "a caret block begins with \"^^^\" and the tool's name, not "+quoteByte(b[i]))
		}
		i++
	}
	t.lc.State, t.n = sName, 0
	return i, nil
}

// readName reads the tool's name and the opening fence's line end.
func (t *Tokenizer) readName(b []byte, i int, base int64) (int, error) {
	for ; i < len(b); i++ {
		c, pos := b[i], base+int64(i)
		if t.cr && c != '\n' {
			return i, t.bareCR(pos-1, "")
		}
		switch {
		case isName(c):
			if len(t.name) == maxName {
				return i, t.syntax(pos, "", "tool name longer than "+strconv.Itoa(maxName)+" bytes")
			}
			t.name = append(t.name, c)
		case c == '\r':
			t.cr = true
		case c == '\n':
			end := pos
			if t.cr {
				end--
			}
			if len(t.name) == 0 {
				return i, t.syntax(end, "", "the opening fence has no tool name")
			}
			t.cr, t.named = false, true
			if err := t.args.Begin(t.name, end); err != nil {
				return i, err
			}
			t.newline(pos + 1)
			t.lc.State = sLine
			return i + 1, nil
		case c == ' ' || c == '\t':
			if len(t.name) == 0 {
				return i, t.syntax(pos, "", "white space between \"^^^\" and the tool name")
			}
			return i, t.syntax(pos, "", "white space after the tool name (the fence is exact)")
		default:
			return i, t.syntax(pos, "", "invalid character "+quoteByte(c)+" in the tool name")
		}
	}
	return i, nil
}

// line reads the first byte of a line between parameters: an empty line,
// the closing fence, a parameter.
func (t *Tokenizer) line(b []byte, i int, base int64) (int, error) {
	c, pos := b[i], base+int64(i)
	if t.cr {
		if c != '\n' {
			return i, t.bareCR(pos-1, "")
		}
		t.cr = false
		t.newline(pos + 1)
		return i + 1, nil
	}
	switch {
	case c == '\n':
		t.newline(pos + 1)
	case c == '\r':
		t.cr = true
	case c == '^':
		t.lc.State, t.n, t.at = sFence, 1, pos
	case isKey(c):
		t.lc.State, t.key, t.keyAt = sKey, t.key[:0], pos
		return i, nil
	case c == ' ' || c == '\t':
		return i, t.syntax(pos, "", "line begins with white space (nothing is indented)")
	default:
		return i, t.syntax(pos, "", "invalid character "+quoteByte(c)+" at the start of a line: want a parameter or the closing fence \"^^^\"")
	}
	return i + 1, nil
}

// fence reads the rest of the closing fence and its line end.
func (t *Tokenizer) fence(b []byte, i int, base int64) (int, error) {
	for ; t.n < 3; t.n++ {
		if i == len(b) {
			return i, nil
		}
		if b[i] != '^' {
			return i, t.syntax(base+int64(i), "", "invalid character "+quoteByte(b[i])+" after \"^\" at the start of a line: the closing fence is \"^^^\"")
		}
		i++
	}
	if i == len(b) {
		return i, nil
	}
	c, pos := b[i], base+int64(i)
	switch {
	case c == '\n':
		t.cr = false
		t.lc.State = sDone
		if err := t.args.End(t.at + 3); err != nil {
			return i, err
		}
		t.newline(pos + 1)
		return i + 1, nil
	case t.cr:
		return i, t.bareCR(pos-1, "")
	case c == '\r':
		t.cr = true
		return i + 1, nil
	case c == ' ' || c == '\t':
		return i, t.syntax(pos, "", "white space after the closing fence (the fence is exact)")
	}
	return i, t.syntax(pos, "", "invalid character "+quoteByte(c)+" after \"^^^\": the closing fence is alone on its line")
}

// readKey reads a parameter's name, up to the byte after it.
func (t *Tokenizer) readKey(b []byte, i int, base int64) (int, error) {
	start := i
	for i < len(b) && isKey(b[i]) {
		i++
	}
	if len(t.key)+i-start > maxKey {
		return i, t.syntax(base+int64(start+maxKey-len(t.key)), "", "parameter name longer than "+strconv.Itoa(maxKey)+" bytes")
	}
	t.key = append(t.key, b[start:i]...)
	if i == len(b) {
		return i, nil
	}
	c, pos := b[i], base+int64(i)
	switch c {
	case ':':
		t.lc.State = sColon
	case ' ':
		t.lc.State, t.n = sDashes, 1
	case '\n', '\r':
		return i, t.syntax(pos, "", "parameter "+strconv.Quote(string(t.key))+" without \": \" or \" ---\"")
	default:
		return i, t.syntax(pos, "", "invalid character "+quoteByte(c)+" in the parameter name "+strconv.Quote(string(t.key)))
	}
	return i + 1, nil
}

// colon reads the byte after "KEY:": a space, or the line end of an empty
// value.
func (t *Tokenizer) colon(b []byte, i int, base int64) (int, error) {
	c, pos := b[i], base+int64(i)
	switch {
	case c == '\n':
		end := pos
		if t.cr {
			end, t.cr = end-1, false
		}
		if err := t.args.Value(t.key, t.keyAt, end); err != nil {
			return i, err
		}
		return i + 1, t.endLine(end, pos+1, sLine)
	case t.cr:
		return i, t.bareCR(pos-1, "")
	case c == ' ':
		t.lc.State, t.at = sValueStart, pos+1
	case c == '\r':
		t.cr = true
	default:
		return i, t.syntax(pos, "", "no space after \""+string(t.key)+":\" (write \"key: value\")")
	}
	return i + 1, nil
}

// dashes reads the rest of "KEY ---" and its line end, which begin a
// multi-line value.
func (t *Tokenizer) dashes(b []byte, i int, base int64) (int, error) {
	for ; t.n < 4; t.n++ {
		if i == len(b) {
			return i, nil
		}
		if b[i] != '-' {
			if string(t.key) == "---" {
				return i, t.syntax(t.keyAt, "", "an end marker \"--- \" outside a multi-line value")
			}
			return i, t.syntax(base+int64(i), "", "after the parameter name "+strconv.Quote(string(t.key))+
				", want \": \" (a value) or \" ---\" (a multi-line value)")
		}
		i++
	}
	if i == len(b) {
		return i, nil
	}
	c, pos := b[i], base+int64(i)
	switch {
	case c == '\n':
		t.cr = false
		t.newline(pos + 1)
		t.lc.State = sBody
		t.mark = append(append(append(t.mark[:0], "\r\n--- "...), t.key...), '\r')
		t.lineStart, t.le, t.n, t.heldAt = true, 0, 0, pos+1
		return i + 1, t.args.Value(t.key, t.keyAt, pos+1)
	case t.cr:
		return i, t.bareCR(pos-1, "")
	case c == '\r':
		t.cr = true
		return i + 1, nil
	case c == ' ' || c == '\t':
		return i, t.syntax(pos, "", "white space after \""+string(t.key)+" ---\" (the marker is exact)")
	}
	return i, t.syntax(pos, "", "invalid character "+quoteByte(c)+" after \""+string(t.key)+" ---\": want the end of the line")
}

// newline says the line ends and the next begins at next.
func (t *Tokenizer) newline(next int64) {
	t.args.Lines.Newline(next)
	t.lineAt = next
}

// count reads p, input at offset base, for its line ends.
func (t *Tokenizer) count(p []byte, base int64) {
	last := bytes.LastIndexByte(p, '\n')
	if last < 0 {
		return
	}
	t.args.Lines.Count(p[:last], base)
	t.newline(base + int64(last) + 1)
}

// emit reports b[from:to] as text of a multi-line value and counts its
// lines; if the text is wrong, the lines are counted up to the error, so
// that it is located.
func (t *Tokenizer) emit(b []byte, from, to int, base int64) error {
	if err := t.args.Text(b[from:to], base+int64(to)); err != nil {
		if se, ok := err.(*token.SyntaxError); ok {
			if off := se.Offset - base; off > int64(from) && off <= int64(to) {
				t.count(b[from:off], base+int64(from))
			}
		}
		return err
	}
	t.count(b[from:to], base+int64(from))
	return nil
}

// locate fills in the line and column of err, found on the current line
// or the one before (a parameter name, before its multi-line value).
func (t *Tokenizer) locate(err error) error { return t.args.Lines.Locate(err) }

// keyPointer returns the pointer of the parameter being read.
func (t *Tokenizer) keyPointer() jsontext.Pointer {
	return jsontext.Pointer("").AppendToken(string(t.key))
}

func (t *Tokenizer) syntax(off int64, ptr jsontext.Pointer, detail string) error {
	return &token.SyntaxError{Offset: off, Pointer: ptr, Err: token.ErrSyntax, Detail: detail}
}

// bareCR is the error of a '\r' at off, not followed by '\n', in a line
// of the block's structure.
func (t *Tokenizer) bareCR(off int64, ptr jsontext.Pointer) error {
	return t.syntax(off, ptr, "carriage return without a line feed after it")
}

// quoteByte quotes c for a message.
func quoteByte(c byte) string {
	return strconv.Quote(string([]byte{c}))
}

// isName reports whether c may be in a tool name.
func isName(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-'
}

// isKey reports whether c may be in a parameter name.
func isKey(c byte) bool { return isName(c) || c == '.' }
