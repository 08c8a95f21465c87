package tagscan

import (
	"bytes"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/argstream/argstream/internal/jsonwire"
	"github.com/argstream/argstream/internal/lifecycle"
	"github.com/argstream/argstream/internal/textargs"
	"github.com/argstream/argstream/schema"
	"github.com/argstream/argstream/token"
)

// This file is structured in the following way:
//
//   - Syntax: what a syntax of tags says; Scanner, Init, Reset and the
//     public methods a tokenizer forwards to.
//   - grammar (Lex, End, Pointer): the hooks into internal/lifecycle.
//   - structure: the tags around the values, read byte by byte.
//   - value, valueTag, and the pending text (keep, release, text): a
//     value's text, scanned for '<' with bytes.IndexByte, streamed to
//     textargs as it arrives, with only what may still become a tag (and
//     the line break before it) held back.

// Syntax describes a syntax of tags: the document is
//
//	Open[0] { WS Open[i] } { WS | Param { WS ParamNext[i] } value EndParam } Close[0] { WS Close[i] }
//
// where WS is JSON white space, ignored, and value is raw text.
type Syntax struct {
	// Name names the syntax in errors ("XML tags").
	Name string
	// Open are the opening tags, in order. The one with a Name holds the
	// tool's name; the arguments begin where the last one ends.
	Open []Tag
	// Param opens a parameter; its name is the parameter's. The End of
	// it read gives the value's Form (Forms).
	Param Tag
	// ParamNext are the tags that follow Param, in order, before the
	// value (GLM's "</arg_key>" is Param's end, "<arg_value>" ParamNext).
	ParamNext []Tag
	// Forms are the forms of a value (textargs.Form), by the index in
	// Param's Ends of the end read; nil: every value is textargs.Text.
	Forms []textargs.Form
	// EndParam closes a parameter. If it has a Name, the name must be the
	// parameter's; one with another name is an error.
	EndParam Tag
	// Close are the closing tags, in order. One with a Name must hold the
	// tool's name. The arguments end at Close[0]'s '>'.
	Close []Tag
	// Reserved are the tags that may not appear in a value: the call's own
	// tags, which say a parameter was left unclosed.
	Reserved []Tag
	// Repeat and JSONArrays are textargs.Args.Init's: a parameter repeated
	// in a row is an array element (if its schema says array), an array
	// parameter's value is JSON text.
	Repeat, JSONArrays bool
	// FrameAll makes Format frame every value in line breaks, as
	// Qwen3-Coder's chat template does; without it, only a value that
	// holds a line break is framed.
	FrameAll bool
	// Raw says a value has no framing line breaks: it is all the text
	// between its tags, as GLM's and MiniMax's chat templates write it.
	Raw bool

	params  []Tag // Param, Close[0]
	inValue []Tag // EndParam, Reserved...: the tags a value cannot hold
	hold    int   // the most bytes a value holds back: a line break and the longest tag of inValue
}

// Prepare returns syn ready for Init. Call it once (a package's
// variable): the [Syntax] is then read-only, and any number of Scanners may
// share it.
func Prepare(syn Syntax) *Syntax {
	syn.inValue = append([]Tag{syn.EndParam}, syn.Reserved...)
	syn.params = []Tag{syn.Param, syn.Close[0]}
	for _, t := range syn.inValue {
		n := len(t.Lit)
		if t.Name != NoName {
			n += MaxName + len(t.ends()[0])
		}
		syn.hold = max(syn.hold, 2+n)
	}
	return &syn
}

// The grammar's states.
const (
	sOpen   = lifecycle.FirstGrammarState + iota // in the opening tags
	sParams                                      // between parameters
	sValue                                       // in a parameter's value
	sKey                                         // between Param and the value (ParamNext)
	sClose                                       // between the closing tags
)

// Scanner is the tokenizer of one call written in a [Syntax]: the whole of
// token/xmltag, token/qwen, token/glm, token/minimax and token/dsml but
// their names, which wrap it. It must not be copied after [Scanner.Init].
// A Scanner may not be used from several goroutines at once.
type Scanner struct {
	lc   lifecycle.Base
	args textargs.Args
	syn  *Syntax

	idx      int     // the Open or Close tag expected next
	m        Matcher // the tag being read, if matching
	matching bool
	tagAt    int64         // offset of its '<'
	tool     []byte        // the tool's name, once read
	key      []byte        // the parameter being read
	keyAt    int64         // the offset of its tag
	begun    bool          // its Value has been given to textargs
	form     textargs.Form // how its value is written (Syntax.Forms)

	// A value's text, between two chunks: fresh is 1 before its first
	// byte and 2 after a first '\r' (the framing line break may be "\r\n");
	// held is the text read but not yet given to textargs (the line break
	// before a tag and the tag so far), whose lines are not yet counted;
	// nl is the length of that line break.
	fresh uint8
	held  []byte
	nl    int
}

// Init readies s for a call in syn (from [Prepare]), reporting to h, with
// the tools' schemas (nil: every value a string).
func (s *Scanner) Init(h token.Handler, syn *Syntax, tools *schema.Tools, opts ...token.Option) {
	*s = Scanner{syn: syn, held: make([]byte, 0, syn.hold), tool: make([]byte, 0, MaxName)}
	s.lc.Init(h, syn.Name, opts...)
	s.args.Init(&s.lc, tools, syn.Repeat, syn.JSONArrays)
	s.lc.State = sOpen
}

// Reset readies s for a new call, reporting to h, keeping its memory.
func (s *Scanner) Reset(h token.Handler) {
	s.lc.Reset(h)
	s.args.Reset()
	s.lc.State = sOpen
	s.idx, s.matching, s.fresh, s.nl, s.begun = 0, false, 0, 0, false
	s.tool, s.key, s.held = s.tool[:0], s.key[:0], s.held[:0]
}

// Offset returns the number of input bytes fed so far.
func (s *Scanner) Offset() int64 { return s.lc.Offset() }

// Name returns the tool's name once its tag is read, else "".
func (s *Scanner) Name() string { return string(s.tool) }

// Feed reads the next chunk of input.
func (s *Scanner) Feed(chunk []byte) error {
	b, base, err := s.lc.Next(chunk)
	if err != nil {
		return err
	}
	return s.locate(s.lc.Lexed(s.lex(b, base), (*grammar)(s)))
}

// Close ends the input.
func (s *Scanner) Close() error { return s.lc.Close((*grammar)(s)) }

// locate fills in the Line and Column of err, after counting the lines of
// the text held back, which ends the input read.
func (s *Scanner) locate(err error) error {
	if err == nil {
		return nil
	}
	if len(s.held) > 0 {
		s.args.Lines.Count(s.held, s.lc.Offset()-int64(len(s.held)))
		s.held = s.held[:0]
	}
	return s.args.Lines.Locate(err)
}

// grammar is the [Scanner] as the lifecycle sees it.
type grammar Scanner

func (g *grammar) Lex(b []byte, base int64) error { return (*Scanner)(g).lex(b, base) }

// End says what the end of input cut short: everything before Done.
func (g *grammar) End() error {
	s := (*Scanner)(g)
	var where string
	switch {
	case s.lc.State == sValue:
		where = "in the value of \"" + string(s.key) + "\" (unclosed parameter)"
	case s.matching:
		where = "in a tag"
	case s.lc.State == sOpen:
		where = "before " + s.syn.Open[s.idx].String()
	case s.lc.State == sParams:
		where = "before " + s.syn.Close[0].String()
	case s.lc.State == sKey:
		where = "before " + s.syn.ParamNext[s.idx].String()
	default:
		where = "before " + s.syn.Close[s.idx].String()
	}
	return s.locate(s.lc.Truncated(g, where))
}

// Pointer names the parameter being read, or the arguments object.
func (g *grammar) Pointer(lifecycle.Where) jsontext.Pointer { return (*Scanner)(g).pointer() }

func (s *Scanner) pointer() jsontext.Pointer {
	switch {
	case s.lc.State == sKey:
		return jsontext.Pointer("").AppendToken(string(s.key))
	case s.lc.State != sValue:
		return ""
	case !s.begun:
		return jsontext.Pointer("").AppendToken(string(s.key))
	}
	return s.args.Pointer()
}

func (s *Scanner) syntaxError(at int64, detail string) error {
	return &token.SyntaxError{Offset: at, Pointer: s.pointer(), Err: token.ErrSyntax, Detail: detail}
}

// lex reads b, whose first byte is at offset base.
func (s *Scanner) lex(b []byte, base int64) error {
	var err error
	for i := 0; i < len(b) && err == nil; {
		switch s.lc.State {
		case sValue:
			i, err = s.value(b, i, base)
		case lifecycle.Done:
			var j int
			j, err = s.lc.Trailing(b, i, base)
			s.args.Lines.Count(b[i:j], base+int64(i))
			i = j
		default:
			i, err = s.structure(b, i, base)
		}
	}
	return err
}

// structure reads the tags around the values, and the white space between
// them, from b[i:].
func (s *Scanner) structure(b []byte, i int, base int64) (int, error) {
	state := s.lc.State
	for ; i < len(b); i++ {
		c := b[i]
		if !s.matching {
			if jsonwire.IsSpace(c) && (state != sOpen || s.idx > 0) {
				if c == '\n' {
					s.args.Lines.Newline(base + int64(i) + 1)
				}
				continue
			}
			s.tagAt = base + int64(i)
			s.m.Start(s.expected())
			s.matching = true
		}
		r, k := s.m.Step(c)
		switch r {
		case More:
			continue
		case Fail:
			return i, s.unexpected(b[i:i+1], base+int64(i))
		case Ended: // c is not the tag's: it is read again
			s.matching = false
			return i, s.structureTag(k, base+int64(i))
		}
		s.matching = false
		if err := s.structureTag(k, base+int64(i)+1); err != nil {
			return i + 1, err
		}
		if s.lc.State != state {
			return i + 1, nil
		}
	}
	return i, nil
}

// expected returns the tags that may come next in the structure.
func (s *Scanner) expected() []Tag {
	switch s.lc.State {
	case sOpen:
		return s.syn.Open[s.idx : s.idx+1]
	case sParams:
		return s.syn.params
	case sKey:
		return s.syn.ParamNext[s.idx : s.idx+1]
	}
	return s.syn.Close[s.idx : s.idx+1]
}

func (s *Scanner) unexpected(c []byte, at int64) error {
	want := ""
	for i, t := range s.expected() {
		if i > 0 {
			want += " or "
		}
		want += t.String()
	}
	what := "invalid character " + jsonwire.QuoteChar(c)
	if at == s.tagAt && s.lc.State == sParams {
		what = "text " + jsonwire.QuoteChar(c) + " between parameters"
	}
	return s.syntaxError(at, what+" (expecting "+want+")")
}

// structureTag acts on the tag k of expected(), complete at end.
func (s *Scanner) structureTag(k int, end int64) error {
	name := s.m.Name()
	switch s.lc.State {
	case sOpen:
		if s.syn.Open[s.idx].Name != NoName {
			s.tool = append(s.tool[:0], name...)
		}
		if s.idx++; s.idx < len(s.syn.Open) {
			return nil
		}
		s.lc.State = sParams
		return s.args.Begin(s.tool, end)
	case sParams:
		if k == 0 {
			s.key = append(s.key[:0], name...)
			s.keyAt = s.tagAt
			// The parameter is checked where its value begins, which
			// ParamNext may put lines later: errors at its tag are
			// located by the mark.
			s.args.Lines.Mark(s.keyAt)
			s.form = 0
			if s.syn.Forms != nil {
				s.form = s.syn.Forms[s.m.End()]
			}
			if len(s.syn.ParamNext) > 0 {
				s.lc.State, s.idx = sKey, 0
				return nil
			}
			s.beginValue()
			return nil
		}
		if err := s.checkClose(0, name); err != nil {
			return err
		}
		if err := s.args.End(end); err != nil {
			return err
		}
		s.idx = 1
	case sKey:
		if s.idx++; s.idx == len(s.syn.ParamNext) {
			s.beginValue()
		}
		return nil
	default:
		if err := s.checkClose(s.idx, name); err != nil {
			return err
		}
		s.idx++
	}
	s.lc.State = sClose
	if s.idx == len(s.syn.Close) {
		s.lc.State = lifecycle.Done
	}
	return nil
}

// beginValue enters the value of the parameter s.key: the Value waits for
// the framing line break, if any.
func (s *Scanner) beginValue() {
	s.lc.State, s.fresh, s.nl, s.begun = sValue, 1, 0, false
	if s.syn.Raw {
		s.fresh = 0
	}
}

// checkClose checks that the name of the closing tag Close[i] is the tool's.
func (s *Scanner) checkClose(i int, name []byte) error {
	t := s.syn.Close[i]
	if t.Name == NoName || bytes.Equal(name, s.tool) {
		return nil
	}
	return s.syntaxError(s.tagAt, "closing tag "+t.Lit+string(name)+"> does not match the opening "+
		s.syn.Open[len(s.syn.Open)-1].Lit+string(s.tool)+">")
}

// value reads a value's text from b[i:], up to its closing tag. The text
// not yet given to textargs is held followed by b[p:i].
func (s *Scanner) value(b []byte, i int, base int64) (int, error) {
	p := i
	for s.fresh != 0 && i < len(b) { // the framing line break after the opening tag
		c := b[i]
		switch {
		case s.fresh == 1 && c == '\n':
			s.args.Lines.Newline(base + int64(i) + 1)
			i, p, s.fresh = i+1, i+1, 0
		case s.fresh == 1 && c == '\r':
			i, s.fresh = i+1, 2
		case s.fresh == 1:
			s.fresh = 0
		case c == '\n': // after "\r"
			s.args.Lines.Newline(base + int64(i) + 1)
			i, p, s.fresh = i+1, i+1, 0
		default: // the '\r' is text: at b[p], or before b
			if i == p {
				s.held = append(s.held, '\r')
			}
			s.fresh = 0
		}
	}
	if s.fresh != 0 {
		return i, nil
	}
	if !s.begun { // the text begins where the held text and b[p:] do
		s.begun = true
		if err := s.args.ValueOf(s.form, s.key, s.keyAt, base+int64(p)-int64(len(s.held))); err != nil {
			return i, err // on this line or the one before: Lines locates it
		}
	}
	for i < len(b) {
		if s.matching {
			r, k := s.m.Step(b[i])
			if r == More {
				i++
				continue
			}
			s.matching = false
			if r == Match {
				return i + 1, s.valueTag(k, b, p, i+1, base)
			}
			// Fail: what was held is text, and b[i] is read again as text.
		}
		j := bytes.IndexByte(b[i:], '<')
		if j < 0 {
			i = len(b)
			break
		}
		i += j
		s.nl = s.lineBreak(b, p, i, false)
		s.tagAt = base + int64(i)
		s.m.Start(s.syn.inValue)
		s.m.Step('<')
		s.matching = true
		i++
	}
	// Hold back what may still be a tag and the line break before it, or
	// a line break (or a '\r' that may begin one) that may precede one.
	keep := s.lineBreak(b, p, i, true)
	if s.matching {
		keep = s.nl + s.m.Len()
	}
	return i, s.keep(b, p, i, base, keep)
}

// valueTag acts on the tag k of inValue, which ends at b[i]: the end
// of the value, or an error.
func (s *Scanner) valueTag(k int, b []byte, p, i int, base int64) error {
	tagLen := s.m.Len()
	name := s.m.Name()
	if k > 0 || s.syn.EndParam.Name != NoName && !bytes.Equal(name, s.key) {
		// The text before the tag is text: give it before the error.
		if err := s.keep(b, p, i, base, tagLen); err != nil {
			return err
		}
		s.held = s.held[:0]
		if k > 0 {
			return s.syntaxError(s.tagAt, "tag "+s.syn.Reserved[k-1].Lit+" inside the value of \""+string(s.key)+
				"\" (unclosed parameter: expecting "+s.endParam()+")")
		}
		return s.syntaxError(s.tagAt, "closing tag "+s.syn.EndParam.Lit+string(name)+"> does not match "+
			s.syn.Param.Lit+string(s.key)+">")
	}
	if err := s.keep(b, p, i, base, s.nl+tagLen); err != nil {
		return err
	}
	// An error at the end of the text is located before the framing line
	// break is counted.
	err := s.args.EndText(base + int64(i))
	err = s.args.Lines.Locate(err)
	s.args.Lines.Count(s.held[:s.nl], base+int64(i)-int64(len(s.held)))
	s.held = s.held[:0]
	s.lc.State = sParams
	return err
}

// endParam returns the closing tag of the parameter being read.
func (s *Scanner) endParam() string {
	if s.syn.EndParam.Name == NoName {
		return s.syn.EndParam.Lit
	}
	return s.syn.EndParam.Lit + string(s.key) + ">"
}

// lineBreak returns the length of the line break that ends the held text
// and b[p:i]: 2 for "\r\n", 1 for "\n", and with cr 1 for a '\r' (which a
// '\n' may follow); else 0.
func (s *Scanner) lineBreak(b []byte, p, i int, cr bool) int {
	if s.syn.Raw {
		return 0
	}
	last := func(back int) byte { // the back-th byte from the end, from 1
		if back <= i-p {
			return b[i-back]
		}
		if back -= i - p; back <= len(s.held) {
			return s.held[len(s.held)-back]
		}
		return 0
	}
	switch last(1) {
	case '\n':
		if last(2) == '\r' {
			return 2
		}
		return 1
	case '\r':
		if cr {
			return 1
		}
	}
	return 0
}

// keep gives textargs the held text and b[p:i] but their last n bytes,
// which it holds instead. b[p] is at offset base+p, where the held text
// ends.
func (s *Scanner) keep(b []byte, p, i int, base int64, n int) error {
	if n <= i-p {
		if err := s.release(b, p, i-n, base); err != nil {
			return err
		}
		s.held = append(s.held, b[i-n:i]...)
		return nil
	}
	// Part of the held text stays held.
	h := n - (i - p)
	start := base + int64(p) - int64(len(s.held))
	if err := s.text(s.held[:len(s.held)-h], start); err != nil {
		s.held = s.held[:0] // counted as far as the error
		return err
	}
	s.held = append(s.held[:copy(s.held, s.held[len(s.held)-h:])], b[p:i]...)
	return nil
}

// release gives textargs the held text and b[p:q].
func (s *Scanner) release(b []byte, p, q int, base int64) error {
	at := base + int64(p)
	if len(s.held) > 0 {
		err := s.text(s.held, at-int64(len(s.held)))
		s.held = s.held[:0]
		if err != nil {
			return err
		}
	}
	return s.text(b[p:q], at)
}

// text gives textargs piece, which begins at offset at, and counts its
// lines: all of them, or those before the error textargs finds in it.
func (s *Scanner) text(piece []byte, at int64) error {
	if len(piece) == 0 {
		return nil
	}
	end := at + int64(len(piece))
	err := s.args.Text(piece, end)
	if se, ok := err.(*token.SyntaxError); ok {
		if se.Offset < at { // in an unfinished UTF-8 sequence of an earlier piece
			return s.args.Lines.Locate(err)
		}
		piece = piece[:min(se.Offset, end)-at]
	}
	s.args.Lines.Count(piece, at)
	return err
}
