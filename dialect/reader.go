package dialect

// This file is structured in the following way: the Reader, its options
// and its methods (Write, WriteString, Close, Reset); feed, the one loop
// over a chunk, which is the same for every syntax; then, per syntax, the
// steps feed calls: scanProse (where a call may open), stepOpen (the
// opening fence or tag, held back), stepHead (Qwen's <function=NAME>, held
// back), stepName (a name in either) and scanBody (where the call ends).
// The Syntax type is syntax.go's.

import (
	"bytes"
	"fmt"

	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/internal/jsonwire"
	"github.com/argstream/argstream/token"
	"github.com/argstream/argstream/toolcall"
)

// MaxName is the longest name the [Reader] takes: a tool name, or the name of
// a caret block's multi-line value. A longer one is not a name: the fence or
// tag it is in is prose (or, in a call, the line is a plain line).
const MaxName = 128

// maxSpace is the most white space the [Reader] holds back between [Qwen]'s
// <tool_call> and <function=: past it the call starts without a name.
const maxSpace = 128

// maxHold is the most the [Reader] holds back: [Qwen]'s <tool_call>, white
// space and <function=NAME>.
const maxHold = len(qwenOpen) + maxSpace + len(qwenFunction) + MaxName + 1

// maxNames bounds the [Reader]'s table of tool names, which spares a string
// allocation per call when the same tools are called again.
const maxNames = 64

// ErrClosed is returned by Write and WriteString after Close, until Reset.
// It is [token.ErrClosed] (and argstream.ErrClosed): a [Reader] is fed as a
// tokenizer is, and one [errors.Is] test covers every writer of argstream.
var ErrClosed = token.ErrClosed

// Option configures a [Reader]. An Option is not changed by use.
type Option func(*config)

type config struct {
	onText      func(text []byte)
	onReasoning func(text []byte)
	onSource    func(index int64, src []byte)
}

// OnText makes the [Reader] call fn with each piece of prose, the moment it
// cannot be part of a call. text is borrowed: it is valid until fn returns.
// The pieces of one message, joined, are its prose whatever the chunking;
// how it is cut into pieces depends on the chunking.
func OnText(fn func(text []byte)) Option { return func(c *config) { c.onText = fn } }

// OnReasoning makes the [Reader] call fn with each piece of a model's
// reasoning, where its syntax sets reasoning apart from the text it shows
// ([Harmony]'s analysis channel), as [OnText] does with prose. Without it
// reasoning is dropped. text is borrowed: it is valid until fn returns.
func OnReasoning(fn func(text []byte)) Option { return func(c *config) { c.onReasoning = fn } }

// OnSource makes the [Reader] call fn with each piece of a call's source, the
// bytes that it feeds to the call at index, just before it feeds them:
// the opening fence or tags, the body, the closing fence or tag. src is
// borrowed: it is valid until fn returns.
func OnSource(fn func(index int64, src []byte)) Option {
	return func(c *config) { c.onSource = fn }
}

// state is where the [Reader] is in the text.
type state uint8

const (
	inProse state = iota // prose, nothing held back
	inOpen               // prose held back: it may be a call's opening fence or tag
	inHead               // Qwen: a call's source held back until its name is known
	inBody               // a call's body: every byte goes to the call as it comes
)

// step is what one byte does to an opening or a head held back.
type step uint8

const (
	stepMore step = iota // it belongs: hold it and read on
	stepFail             // it does not: the held bytes are what they are without it
	stepDone             // it completes the opening or the head
)

// Reader separates the prose of an assistant's text stream from the tool
// calls written in it, in one [Syntax]: it hands prose to [OnText] and drives a
// [toolcall.Response] with each call's source. See the package documentation.
//
// A Reader is for one goroutine: it calls its callbacks, and the Response,
// from the goroutine that calls [Reader.Write] and [Reader.Close]. A callback
// may not call the Reader.
type Reader struct {
	syntax Syntax
	calls  *toolcall.Response
	cfg    config

	st     state
	closed bool
	err    error // sticky: what the Response returned
	index  int64 // the index of the next call; index-1 is the call open (inBody)

	// inProse (Caret)
	col0 bool // the next byte is at column 0

	// inOpen, inHead
	hold    []byte // the bytes held back
	nameLen int    // the name's length so far
	cr      bool   // Caret: the name is followed by '\r'
	spaces  int    // Qwen: white space after <tool_call>
	fn      int    // Qwen: bytes of "<function=" matched

	// inBody (Caret)
	line   []byte // the current line's start, at most lineMax bytes
	over   bool   // the current line is longer than lineMax
	inML   bool   // in a multi-line value
	mlName []byte // the multi-line value's name
	// inBody (XML, Qwen)
	m    int  // bytes of the closing tag's start matched
	skip bool // XML: "</tool:" matched, the call ends at the next '>'

	names map[string]string // tool names, interned
	sbuf  []byte            // WriteString's copy

	// The marked families (marked.go).
	fam       *family
	mode      mode
	back      mode // mMark: the mode the marker is matched from
	lm        litMatcher
	sect      int      // mSection: the index of the section's opening marker in fam.opens
	headAt    int      // mHead: where the head begins in hold
	js        jsonScan // mBody
	untilEnd  bool     // mBody: the arguments end with their JSON value
	reasoning bool     // mContent: Harmony's analysis channel
	env       uint8    // mEnv: the envelope's state
	envArray  bool     // Mistral's JSON array of calls
	envSeen   uint8    // the envelope's members read
	envKeyBit uint8    // the member being read
	envKeyBuf []byte   // a member name
	envStr    []byte   // a string value
	envName   []byte   // the tool's name
	envID     []byte   // Mistral: the call's id, if it came before its arguments

	// Where the chunk begins in the text, for errors.
	off, lines, lineAt int64
}

// Caret: the longest line a [Reader] must see whole in a call, "--- NAME\r".
const lineMax = len("--- ") + MaxName + 1

// NewReader returns a [Reader] for text in syntax that drives calls, which
// must not be nil. It panics if syntax is not one of the [Syntax] constants.
func NewReader(syntax Syntax, calls *toolcall.Response, opts ...Option) *Reader {
	if !syntax.valid() {
		panic(fmt.Sprintf("dialect: NewReader with an invalid %v", syntax))
	}
	r := &Reader{
		syntax: syntax,
		calls:  calls,
		hold:   make([]byte, 0, maxHold),
		names:  make(map[string]string),
	}
	for _, o := range opts {
		o(&r.cfg)
	}
	if syntax == Caret {
		r.line = make([]byte, 0, lineMax)
		r.mlName = make([]byte, 0, MaxName)
	}
	if syntax.marked() {
		r.fam = families[syntax]
		r.hold = make([]byte, 0, maxHead)
	}
	r.Reset()
	return r
}

// Reset prepares r for the next message, keeping its memory: calls are
// numbered from 0 again, and the text starts at column 0. Reset the
// Response too (after its End).
func (r *Reader) Reset() {
	r.st, r.closed, r.err = inProse, false, nil
	r.index = 0
	r.col0 = true
	r.hold = r.hold[:0]
	r.resetBody()
	r.mode, r.env, r.envArray, r.envSeen, r.envID = mProse, envOpen, false, 0, r.envID[:0]
	r.off, r.lines, r.lineAt = 0, 0, 0
}

func (r *Reader) resetBody() {
	r.line, r.over, r.inML = r.line[:0], false, false
	r.m, r.skip = 0, false
}

// Write reads p, the next piece of the text, of any size (empty too).
// It hands on at once the prose and the call source that p settles, and
// holds back only what may still open a call: at most a few hundred bytes.
// p is not kept.
//
// It returns len(p) and nil, [ErrClosed] after [Reader.Close], the error the
// Response returned ([toolcall.ErrEnded] after its End), or, for the
// open-weight families, a *[token.SyntaxError] for markers out of place
// (see the package documentation: the Response has failed), with the
// number of bytes of p read before it. That error is sticky: the [Reader] returns it
// again until [Reader.Reset]. A call's own errors are in its [toolcall.Result].
func (r *Reader) Write(p []byte) (int, error) {
	switch {
	case r.closed:
		return 0, ErrClosed
	case r.err != nil:
		return 0, r.err
	}
	var n int
	var err error
	if r.fam != nil {
		n, err = r.feedMarked(p)
		r.advance(p[:n])
	} else {
		n, err = r.feed(p)
	}
	r.err = err
	return n, err
}

// advance moves the offset, line and line start of the chunk's beginning
// past p.
func (r *Reader) advance(p []byte) {
	// bytes.Count is vectorized, LastIndexByte is not: a chunk without a
	// line break (arguments' JSON text) is not read backwards.
	if n := bytes.Count(p, []byte{'\n'}); n > 0 {
		r.lines += int64(n)
		r.lineAt = r.off + int64(bytes.LastIndexByte(p, '\n')) + 1
	}
	r.off += int64(len(p))
}

// WriteString is [Reader.Write] for text that comes as strings. It copies s
// into memory the [Reader] keeps, so a steady stream of strings does not
// allocate.
func (r *Reader) WriteString(s string) (int, error) {
	r.sbuf = append(r.sbuf[:0], s...)
	return r.Write(r.sbuf)
}

// Close ends the text. Prose held back is handed to [OnText]. A [Qwen] call
// whose name was not complete starts unnamed, with the source held back. A
// call of the open-weight families whose head or arguments the text cut
// off is cut ([toolcall.Response.Cut]: it ends truncated), one written in
// tags left open as Qwen's is.
// A [Caret] block whose last line is exactly ^^^, with no line end, is
// stopped. Any other call still open is left open: the Response's End
// closes it, and its tokenizer, which never saw its closing fence or tag,
// reports it truncated.
//
// Close returns what the Response returned, if anything; calling it again
// returns the same.
func (r *Reader) Close() error {
	if r.closed {
		return r.err
	}
	r.closed = true
	if r.err != nil {
		return r.err
	}
	if r.fam != nil {
		r.err = r.closeMarked()
		r.mode, r.hold = mProse, r.hold[:0]
		return r.err
	}
	switch r.st {
	case inOpen:
		r.text(r.hold)
	case inHead:
		r.err = r.begin(nil)
	case inBody:
		if r.syntax == Caret && !r.inML && !r.over && string(r.line) == caretFence {
			r.err = r.calls.Stop(r.cur())
		}
	}
	r.st = inProse
	r.hold = r.hold[:0]
	r.resetBody()
	return r.err
}

// feed reads p. The loop is the same for every syntax: prose runs and
// source runs are handed on as slices of p, the bytes of an opening or a
// head are held in r.hold, since they may span chunks.
func (r *Reader) feed(p []byte) (int, error) {
	i, start := 0, 0 // start: where the run of prose or source that i ends began
	for i < len(p) {
		switch r.st {
		case inProse:
			j, found := r.scanProse(p, i)
			i = j
			if found {
				r.text(p[start:j])
				r.st, r.hold, r.nameLen, r.cr = inOpen, r.hold[:0], 0, false
			}
		case inOpen, inHead:
			b := p[i]
			var res step
			if r.st == inOpen {
				res = r.stepOpen(b)
			} else {
				res = r.stepHead(b)
			}
			if res != stepFail {
				r.hold = append(r.hold, b)
				i++
			}
			switch {
			case res == stepMore:
			case res == stepFail && r.st == inOpen: // b is prose, or may open another call: read it again
				r.text(r.hold)
				r.st, r.col0, start = inProse, false, i
			case res == stepFail: // Qwen's call has no name; b may go on a closing tag begun in the head
				m := 0
				if r.hold[len(r.hold)-1] == '<' {
					m = 1
				}
				if err := r.begin(nil); err != nil {
					return i, err
				}
				r.m, start = m, i
			case r.syntax == Qwen && r.st == inOpen: // <tool_call>: its head is held back too
				r.st, r.spaces, r.fn, r.nameLen = inHead, 0, 0, 0
			default:
				end := len(r.hold) - 1 // the '>' or '\n'
				if r.cr {
					end--
				}
				if err := r.begin(r.hold[end-r.nameLen : end]); err != nil {
					return i, err
				}
				start = i
			}
		case inBody:
			j, closed := r.scanBody(p, i)
			i = j
			if closed {
				if err := r.source(p[start:j]); err != nil {
					return i, err
				}
				if err := r.calls.Stop(r.cur()); err != nil {
					return i, err
				}
				r.st, r.col0, start = inProse, true, j
				r.resetBody()
			}
		}
	}
	switch r.st {
	case inProse:
		r.text(p[start:])
	case inBody:
		if err := r.source(p[start:]); err != nil {
			return len(p), err
		}
	}
	return len(p), nil
}

// begin starts the next call, named name, and feeds it the source held
// back.
func (r *Reader) begin(name []byte) error {
	r.index++
	r.st = inBody
	r.resetBody()
	if err := r.calls.Start(fragment.Call{Index: r.cur(), Name: r.intern(name)}, nil); err != nil {
		return err
	}
	err := r.source(r.hold)
	r.hold = r.hold[:0]
	return err
}

// cur returns the index of the call open.
func (r *Reader) cur() int64 { return r.index - 1 }

// source feeds src to the call open, after [OnSource].
func (r *Reader) source(src []byte) error {
	if len(src) == 0 {
		return nil
	}
	if r.cfg.onSource != nil {
		r.cfg.onSource(r.cur(), src)
	}
	return r.calls.Chunk(r.cur(), src)
}

// text hands prose to [OnText].
func (r *Reader) text(b []byte) {
	if len(b) > 0 && r.cfg.onText != nil {
		r.cfg.onText(b)
	}
}

// intern returns name as a string, the same string for the same name, so
// that a [Reader] calling the same tools again does not allocate.
func (r *Reader) intern(name []byte) string {
	if len(name) == 0 {
		return ""
	}
	if s, ok := r.names[string(name)]; ok {
		return s
	}
	if len(r.names) >= maxNames {
		clear(r.names)
	}
	s := string(name)
	r.names[s] = s
	return s
}

const (
	caretFence   = "^^^"
	xmlOpen      = "<tool:"
	xmlClose     = "</tool:"
	qwenOpen     = "<tool_call>"
	qwenFunction = "<function="
	qwenClose    = "</tool_call>"
)

// Name characters: nameChar in tool names ([Caret], [XML]), dotted also in
// [Qwen]'s tool names and in the names of Caret's multi-line values.
const (
	nameChar = 1 << iota
	dotted
)

var charClass = func() (t [256]uint8) {
	for c := range 256 {
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '_', c == '-':
			t[c] = nameChar | dotted
		case c == '.':
			t[c] = dotted
		}
	}
	return t
}()

// scanProse reads prose from p[i:] and returns where a call may open (with
// true), or len(p).
func (r *Reader) scanProse(p []byte, i int) (int, bool) {
	if r.syntax != Caret {
		j := bytes.IndexByte(p[i:], '<')
		if j < 0 {
			return len(p), false
		}
		return i + j, true
	}
	for i < len(p) {
		if r.col0 && p[i] == '^' {
			return i, true
		}
		j := bytes.IndexByte(p[i:], '\n')
		if j < 0 {
			r.col0 = false // the chunk ends mid-line
			return len(p), false
		}
		i, r.col0 = i+j+1, true
	}
	return len(p), false
}

// stepOpen matches b, the byte after r.hold, against the opening fence or
// tag: [Caret] ^^^NAME then '\n' or "\r\n"; [XML] <tool:NAME>; [Qwen]
// <tool_call>.
func (r *Reader) stepOpen(b byte) step {
	h := len(r.hold)
	var prefix string
	switch r.syntax {
	case Caret:
		prefix = caretFence
	case XML:
		prefix = xmlOpen
	default:
		if b != qwenOpen[h] {
			return stepFail
		}
		if h+1 == len(qwenOpen) {
			return stepDone
		}
		return stepMore
	}
	end := byte('>')
	if r.syntax == Caret {
		end = '\n'
	}
	switch {
	case h < len(prefix):
		if b == prefix[h] {
			return stepMore
		}
		return stepFail
	case r.cr:
		if b == '\n' {
			return stepDone
		}
		return stepFail
	case r.syntax == Caret && b == '\r' && r.nameLen > 0:
		r.cr = true
		return stepMore
	}
	return r.stepName(b, nameChar, end)
}

// stepHead matches b, the byte after r.hold, against [Qwen]'s head after
// <tool_call>: JSON white space, then <function=NAME>.
func (r *Reader) stepHead(b byte) step {
	switch {
	case r.fn == 0 && jsonwire.IsSpace(b):
		if r.spaces < maxSpace {
			r.spaces++
			return stepMore
		}
		return stepFail
	case r.fn < len(qwenFunction):
		if b == qwenFunction[r.fn] {
			r.fn++
			return stepMore
		}
		return stepFail
	}
	return r.stepName(b, dotted, '>')
}

// stepName matches b against a name of the characters of class, of 1 to
// [MaxName] bytes, and the byte end that ends it.
func (r *Reader) stepName(b byte, class uint8, end byte) step {
	switch {
	case charClass[b]&class != 0 && r.nameLen < MaxName:
		r.nameLen++
		return stepMore
	case b == end && r.nameLen > 0:
		return stepDone
	}
	return stepFail
}

// scanBody reads a call's body from p[i:] and returns where the call ends
// (with true), or len(p).
func (r *Reader) scanBody(p []byte, i int) (int, bool) {
	switch {
	case r.syntax == Caret:
		return r.scanCaret(p, i)
	case r.syntax == Qwen:
		return r.scanTag(p, i, qwenClose)
	case !r.skip:
		j, found := r.scanTag(p, i, xmlClose)
		if !found {
			return j, false
		}
		i, r.skip = j, true
	}
	// XML: the closing tag's name, to its '>'
	j := bytes.IndexByte(p[i:], '>')
	if j < 0 {
		return len(p), false
	}
	return i + j + 1, true
}

// scanTag reads p[i:] for closing, a tag that begins with '<' and holds
// no other '<', and returns where it ends (with true), or len(p). r.m
// keeps how much of it is matched, across chunks.
func (r *Reader) scanTag(p []byte, i int, closing string) (int, bool) {
	for i < len(p) {
		if r.m == 0 {
			j := bytes.IndexByte(p[i:], '<')
			if j < 0 {
				return len(p), false
			}
			i, r.m = i+j+1, 1
			continue
		}
		b := p[i]
		i++
		switch {
		case b == closing[r.m]:
			r.m++
			if r.m == len(closing) {
				r.m = 0
				return i, true
			}
		case b == '<':
			r.m = 1
		default:
			r.m = 0
		}
	}
	return len(p), false
}

// scanCaret reads a caret block's body line by line: only the first
// lineMax bytes of a line are kept, to tell the lines that matter.
func (r *Reader) scanCaret(p []byte, i int) (int, bool) {
	for i < len(p) {
		j := bytes.IndexByte(p[i:], '\n')
		end := len(p)
		if j >= 0 {
			end = i + j
		}
		if seg := p[i:end]; !r.over {
			if len(seg) > lineMax-len(r.line) {
				r.over = true
			} else {
				r.line = append(r.line, seg...)
			}
		}
		if j < 0 {
			return len(p), false
		}
		i = end + 1
		if r.endLine() {
			return i, true
		}
	}
	return len(p), false
}

// endLine reads the caret line that just ended and reports whether it is
// the closing fence.
func (r *Reader) endLine() bool {
	line, over := r.line, r.over
	r.line, r.over = r.line[:0], false
	if over {
		return false
	}
	line = bytes.TrimSuffix(line, []byte{'\r'})
	switch {
	case r.inML:
		if len(line) == len("--- ")+len(r.mlName) && string(line[:4]) == "--- " && string(line[4:]) == string(r.mlName) {
			r.inML = false
		}
	case string(line) == caretFence:
		return true
	default:
		name, ok := bytes.CutSuffix(line, []byte(" ---"))
		if ok && len(name) > 0 && len(name) <= MaxName && isDotted(name) {
			r.mlName = append(r.mlName[:0], name...)
			r.inML = true
		}
	}
	return false
}

func isDotted(name []byte) bool {
	for _, c := range name {
		if charClass[c]&dotted == 0 {
			return false
		}
	}
	return true
}
