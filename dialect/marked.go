package dialect

// This file is the Reader's loop for the marked families (families.go):
// feedMarked reads a chunk mode by mode. Runs of prose, of message content
// and of a call's arguments are handed on as slices of the chunk; markers
// and heads, which may span chunks, are held in r.hold, at most a marker or
// a head long (maxHead).

import (
	"bytes"
	"strconv"

	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/internal/jsonwire"
	"github.com/argstream/argstream/token"
)

// harmonyFirst are the markers that may begin the text of gpt-oss: its
// opens, and the recipient of the first message, whose <|start|>assistant
// was the prompt's.
var harmonyFirst = []string{hmStart, hmChannel, " to="}

// harmonyEnds are the markers that end a gpt-oss message that is not a
// call.
var harmonyEnds = []string{hmEnd, hmReturn}

// maxHead is the most a head may hold: a call's opening marker, its name,
// id or header, and the marker that ends it.
const maxHead = 512

// mode is where the Reader is in a marked family's text.
type mode uint8

const (
	mProse   mode = iota // prose: text
	mMark                // a marker held back, matched from r.back
	mHead                // a call's head held back until its term
	mBody                // a call's JSON arguments: every byte to the call
	mTags                // a call written in tags: every byte to the call, up to its closer
	mSection             // between the calls of a section
	mEnv                 // an envelope's members (Hermes, Mistral's array)
	mContent             // Harmony: a message's text or reasoning
	mGLM                 // GLM: the name after <tool_call>, held back
	mMistral             // Mistral: after [TOOL_CALLS], before the form is known
)

// litMatcher matches the bytes of a marker against candidates, across
// chunks: it keeps how far it has matched, the Reader keeps the bytes. No
// candidate may be a prefix of another (TestMarkers).
type litMatcher struct {
	lits  []string
	alive uint32
	n     int
}

func (m *litMatcher) start(lits []string) { m.lits, m.alive, m.n = lits, 1<<len(lits)-1, 0 }

// step matches b; on stepDone, k is the index of the candidate completed.
func (m *litMatcher) step(b byte) (res step, k int) {
	var alive uint32
	for k, l := range m.lits {
		if m.alive&(1<<k) != 0 && l[m.n] == b {
			alive |= 1 << k
		}
	}
	if alive == 0 {
		return stepFail, -1
	}
	m.alive = alive
	m.n++
	for k, l := range m.lits {
		if alive&(1<<k) != 0 && len(l) == m.n {
			return stepDone, k
		}
	}
	return stepMore, -1
}

// fallback is for a byte that failed the match of held: it returns the
// length of the longest proper suffix of held that begins a candidate, and
// goes on matching from there (0: none; the byte is read again anyway).
// Only a marker that repeats its first byte ("```") has such a suffix.
func (m *litMatcher) fallback(held []byte) int {
	for k := len(held) - 1; k > 0; k-- {
		var alive uint32
		for c, l := range m.lits {
			if len(l) > k && l[:k] == string(held[len(held)-k:]) {
				alive |= 1 << c
			}
		}
		if alive != 0 {
			m.alive, m.n = alive, k
			return k
		}
	}
	return 0
}

// jsonScan follows a JSON value through chunks only as far as framing
// needs: whether a byte is in a string, and the nesting depth. The JSON
// tokenizer of the call checks the value; jsonScan finds where it ends (a
// value that ends with itself) and the closing marker, which is never in a
// string.
type jsonScan struct {
	inStr, esc bool
	depth      int64
}

// Results of jsonScan.scan.
const (
	jsMore = iota // p ended
	jsEnd         // the value ended just before the index returned
	jsStop        // the byte at the index may begin the closing marker
)

// scan reads p[i:]; it stops past the bracket that ends the value if
// untilEnd, or at a byte stop outside strings.
func (s *jsonScan) scan(p []byte, i int, stop byte, untilEnd bool) (int, int) {
	// The next quote and backslash in p, found with bytes.IndexByte and
	// looked for again only once i has passed them, so that each byte of a
	// string is scanned once: len(p) when there is none.
	quote, slash := -1, -1
	for i < len(p) {
		if s.esc {
			s.esc = false
			i++
			continue
		}
		if s.inStr {
			if quote < i {
				quote = indexFrom(p, i, '"')
			}
			if slash < i {
				slash = indexFrom(p, i, '\\')
			}
			switch {
			case slash < quote:
				i, s.esc = slash+1, true
			case quote < len(p):
				i, s.inStr = quote+1, false
			default:
				return len(p), jsMore
			}
			continue
		}
		switch c := p[i]; c {
		case '"':
			s.inStr = true
		case '{', '[':
			s.depth++
		case '}', ']':
			s.depth--
			if untilEnd && s.depth <= 0 {
				return i + 1, jsEnd
			}
		default:
			if c == stop && stop != 0 {
				return i, jsStop
			}
		}
		i++
	}
	return len(p), jsMore
}

// indexFrom returns the index of the first c in p from i, or len(p).
func indexFrom(p []byte, i int, c byte) int {
	if j := bytes.IndexByte(p[i:], c); j >= 0 {
		return i + j
	}
	return len(p)
}

// feedMarked reads p for a marked family. See feed for the loop's shape.
func (r *Reader) feedMarked(p []byte) (int, error) {
	i, start := 0, 0 // start: where the run of text or arguments that i ends began
	for i < len(p) {
		var err error
		switch r.mode {
		case mProse, mContent:
			if r.off == 0 && i == 0 && p[0] == ' ' && r.fam.shape == shapeHarmony {
				// The text begins in the first message's header, after
				// the prompt's <|start|>assistant: " to=functions.f<|channel|>...".
				r.mark(mProse, harmonyFirst)
				continue
			}
			first := r.fam.openFirst
			if r.mode == mContent {
				first = "<"
			}
			j := indexAny(p, i, first)
			i = j
			if j < len(p) {
				r.emit(p[start:j])
				r.mark(r.mode, r.proseLits())
			}
		case mSection:
			j := indexAny(p, i, r.fam.sectFirst)
			if k := firstNonSpace(p[i:j]); k >= 0 {
				return i + k, r.frameErr(p, i+k, "only white space may separate the calls of a section")
			}
			i = j
			if j < len(p) {
				r.mark(mSection, r.fam.sectSets[r.sect])
			}
		case mMark:
			b := p[i]
			res, k := r.lm.step(b)
			if res != stepFail {
				r.hold = append(r.hold, b)
				i++
			}
			switch res {
			case stepDone:
				err = r.marked(k)
				start = i
			case stepFail:
				err = r.unmarked(p, i)
				start = i
			}
		case mHead:
			b := p[i]
			if b == '{' && r.fam.shape == shapeMistral {
				// NAME{...}: a server that drops special tokens from the
				// text (vLLM's detokenizer) drops [ARGS]; '{' is in no
				// name, and is read again as the arguments'.
				err = r.headDone(r.hold[r.headAt:], p, i) // trimmed there
				start = i
				break
			}
			r.hold = append(r.hold, b)
			i++
			err = r.stepMarkedHead(p, i)
			start = i
		case mGLM:
			err = r.stepGLM(p[i])
			if r.mode == mGLM {
				i++
			}
			start = i
		case mMistral:
			b := p[i]
			switch {
			case jsonwire.IsSpace(b):
				i++
			case b == '[':
				i++
				r.mode, r.env, r.envArray = mEnv, envOpen, true
			default:
				r.mode, r.headAt = mHead, len(r.hold)
			}
			start = i
		case mEnv:
			err = r.stepEnv(p, i)
			if r.mode == mEnv || r.mode == mMark || r.mode == mProse {
				i++ // the byte was the envelope's; a mode of a call's body reads it again
			}
			start = i
		case mBody:
			stop := byte(0)
			if r.fam.closer != "" {
				stop = r.fam.closer[0]
			}
			j, res := r.js.scan(p, i, stop, r.untilEnd)
			i = j
			switch res {
			case jsEnd:
				err = r.source(p[start:j])
				if err == nil {
					err = r.endValue()
				}
				start = i
			case jsStop:
				err = r.source(p[start:j])
				r.mark(mBody, r.fam.closerSet)
				start = i
			}
		case mTags:
			j, closed := r.scanTag(p, i, r.fam.closer)
			i = j
			if closed {
				err = r.source(p[start:j])
				if err == nil {
					err = r.endCall()
				}
				start = i
			}
		}
		if err != nil {
			return i, err
		}
	}
	switch r.mode {
	case mProse, mContent:
		r.emit(p[start:])
	case mBody, mTags:
		if err := r.source(p[start:]); err != nil {
			return len(p), err
		}
	}
	return len(p), nil
}

// proseLits returns the markers that may begin in prose or in a message's
// content.
func (r *Reader) proseLits() []string {
	if r.mode == mContent {
		return harmonyEnds
	}
	return r.fam.opens
}

// mark begins holding a marker that may be one of lits, from mode back.
func (r *Reader) mark(back mode, lits []string) {
	r.back, r.mode = back, mMark
	r.hold = r.hold[:0]
	r.lm.start(lits)
}

// unmarked handles the bytes held when p[i] ends every candidate marker:
// they are what the mode they came from makes of them, but for a suffix
// that may still begin a marker, and p[i] is read again.
func (r *Reader) unmarked(p []byte, i int) error {
	keep := r.lm.fallback(r.hold)
	gone := r.hold[:len(r.hold)-keep]
	var err error
	switch r.back {
	case mProse, mContent:
		r.mode = r.back // for emit
		r.emit(gone)
	case mBody:
		err = r.source(gone) // no valid JSON: the call's tokenizer says so
	case mSection:
		err = r.frameErr(p, i, "only white space may separate the calls of a section")
	case mEnv: // Hermes' closing tag
		err = r.envErr(p, i, "want "+toolCallEnd+" after the call's object")
		if r.mode == mTags {
			r.hold = r.hold[:0]
			return err
		}
	}
	if keep > 0 {
		r.hold = append(r.hold[:0], r.hold[len(r.hold)-keep:]...)
		r.mode = mMark
	} else {
		r.hold = r.hold[:0]
		r.mode = r.back
	}
	return err
}

// marked handles the marker lits[k] completed from r.back.
func (r *Reader) marked(k int) error {
	switch r.back {
	case mProse:
		r.opened(k)
	case mContent: // the message's end
		r.mode = mProse
	case mSection:
		if r.lm.lits[k] == r.fam.call {
			r.mode, r.headAt = mHead, len(r.hold)
		} else {
			r.mode = mProse // the section's end
		}
	default: // mBody: the call's closer; mEnv: </tool_call> after Hermes' object
		return r.endCall()
	}
	return nil
}

// opened handles the opening marker fam.opens[k], held in r.hold.
func (r *Reader) opened(k int) {
	switch r.fam.shape {
	case shapeSection:
		r.mode, r.sect = mSection, k
	case shapeCall:
		r.mode, r.nameLen = mGLM, 0
	case shapeEnvelope:
		r.mode, r.env, r.envArray = mEnv, envOpen, false
		r.envSeen, r.envName = 0, r.envName[:0]
	case shapeMistral:
		r.mode = mMistral
		r.envSeen, r.envName = 0, r.envName[:0]
	case shapeHarmony:
		r.mode, r.headAt = mHead, 0
	}
}

// stepMarkedHead reads the last byte of r.hold, p[i-1], in a head: it holds bytes
// until the family's term, then reads the head.
func (r *Reader) stepMarkedHead(p []byte, i int) error {
	term := r.fam.term
	if !bytes.HasSuffix(r.hold[r.headAt:], []byte(term)) {
		if len(r.hold) >= maxHead {
			return r.frameErr(p, i-1, "a call's head longer than "+strconv.Itoa(maxHead)+" bytes")
		}
		return nil
	}
	return r.headDone(r.hold[r.headAt:len(r.hold)-len(term)], p, i-1)
}

// headDone reads h, a call's head without its term, complete: it starts
// the call. p[at] is the byte that completed it, where an error is.
func (r *Reader) headDone(h, p []byte, at int) error {
	if r.fam.shape == shapeHarmony {
		return r.harmonyMessage(h, p, at)
	}
	if r.fam.shape == shapeMistral {
		h = bytes.Trim(h, " \t\r\n")
	}
	name, id, ok := r.fam.head(h)
	if !ok {
		name, id = nil, nil
	}
	if err := r.startCall(name, id); err != nil {
		return err
	}
	if !ok {
		// The call is refused, and read to its end: the calls after it
		// are what they are, as a Qwen call without a name.
		err := r.calls.Refuse(r.cur(), r.syntaxErr(p, at, "a call's head that names no tool: "+quoteHead(h)))
		if err != nil {
			return err
		}
	}
	if r.fam.tags {
		r.mode, r.m = mTags, 0
		return r.source(r.hold) // the call's own opening marker and head
	}
	r.mode, r.untilEnd = mBody, r.fam.shape == shapeMistral
	return nil
}

// harmonyMessage reads a gpt-oss message header h: a message with a
// recipient is a call, whose content is its JSON arguments; one on the
// analysis channel is reasoning; any other is text.
func (r *Reader) harmonyMessage(h []byte, p []byte, at int) error {
	channel, recipient, ok := harmonyHeader(h)
	if !ok {
		return r.frameErr(p, at, "a message header that is not an assistant's: "+quoteHead(h))
	}
	r.hold = r.hold[:0]
	if len(recipient) > 0 {
		name := harmonyName(recipient)
		r.mode, r.untilEnd = mBody, false
		if isName(name) {
			return r.startCall(name, nil)
		}
		if err := r.startCall(nil, nil); err != nil {
			return err
		}
		return r.calls.Refuse(r.cur(), r.syntaxErr(p, at, "a recipient that names no tool: "+quoteHead(recipient)))
	}
	r.reasoning = string(channel) == "analysis"
	r.mode = mContent
	return nil
}

// stepGLM reads b after GLM's <tool_call>: the tool's name, to a line
// break (GLM-4.5, 4.6) or to the '<' of the first tag (GLM-4.7). A name
// that is not one starts the call without a name, fed its source all the
// same: its tokenizer reports the error, as Qwen's.
func (r *Reader) stepGLM(b byte) error {
	if charClass[b]&dotted != 0 && r.nameLen < MaxName {
		r.hold = append(r.hold, b)
		r.nameLen++
		return nil
	}
	var name []byte
	if b == '\n' || b == '<' {
		name = r.hold[len(toolCall):]
	}
	if err := r.startCall(name, nil); err != nil {
		return err
	}
	r.mode, r.m = mTags, 0
	return r.source(r.hold) // b is read again, as the call's
}

// startCall starts the next call, named name, with the id id (nil: none).
func (r *Reader) startCall(name, id []byte) error {
	r.index++
	r.js = jsonScan{}
	if id == nil && len(r.envID) > 0 {
		id = r.envID
	}
	r.envID = r.envID[:0]
	return r.calls.Start(fragment.Call{Index: r.cur(), Name: r.intern(name), ID: r.intern(id)}, nil)
}

// endCall stops the call open and goes on after it: in its section, in
// Mistral's array, or in prose.
func (r *Reader) endCall() error {
	r.hold = r.hold[:0]
	switch {
	case r.fam.shape == shapeSection:
		r.mode = mSection
	case r.envArray:
		r.mode = mEnv
	default:
		r.mode = mProse
	}
	return r.calls.Stop(r.cur())
}

// emit hands prose to OnText, or a Harmony analysis message's content to
// OnReasoning.
func (r *Reader) emit(b []byte) {
	if r.mode == mContent && r.reasoning {
		if len(b) > 0 && r.cfg.onReasoning != nil {
			r.cfg.onReasoning(b)
		}
		return
	}
	r.text(b)
}

// closeMarked ends a marked family's text: see Close.
func (r *Reader) closeMarked() error {
	if r.mode == mMark {
		r.mode = r.back
		switch r.back {
		case mProse, mContent:
			r.emit(r.hold)
			return nil
		case mBody:
			if err := r.source(r.hold); err != nil {
				return err
			}
		}
	}
	switch r.mode {
	case mProse, mContent, mSection, mTags:
		// mTags: the call's tokenizer never saw its closer, and End
		// reports it truncated.
		return nil
	case mBody:
		if r.fam.shape == shapeHarmony {
			// <|call|> is a stop token, which servers leave out of the
			// text: the arguments are what they are.
			return r.calls.Stop(r.cur())
		}
	case mEnv:
		if r.env == envArrayNext {
			return nil
		}
		if r.envSeen&memArgs == 0 {
			if err := r.startCall(nil, nil); err != nil {
				return err
			}
		}
	case mHead:
		if r.fam.shape == shapeHarmony {
			return nil // a header cut off: no message
		}
		fallthrough
	default: // the text ended in a call's head: the call is there, cut off before its name
		if err := r.startCall(nil, nil); err != nil {
			return err
		}
	}
	return r.calls.Cut(r.cur())
}

// frameErr fails the response with a *token.SyntaxError at p[i], the
// byte that shows the text's markers are not the family's (for a head, its
// last byte; the message quotes the head).
func (r *Reader) frameErr(p []byte, i int, detail string) error {
	err := r.syntaxErr(p, i, detail)
	r.calls.Fail(err)
	return err
}

// syntaxErr returns the *token.SyntaxError of the text at p[i].
func (r *Reader) syntaxErr(p []byte, i int, detail string) *token.SyntaxError {
	off := r.off + int64(i)
	line := r.lines + int64(bytes.Count(p[:i], []byte{'\n'}))
	lineAt := r.lineAt
	if j := bytes.LastIndexByte(p[:i], '\n'); j >= 0 {
		lineAt = r.off + int64(j) + 1
	}
	return &token.SyntaxError{Syntax: r.syntax.String() + " text", Offset: off, Line: int(line) + 1,
		Column: int(off-lineAt) + 1, Err: token.ErrSyntax, Detail: detail}
}

// quoteHead quotes what a message shows of a head: at most 64 bytes.
func quoteHead(h []byte) string {
	if len(h) > 64 {
		return strconv.Quote(string(h[:64])) + "..."
	}
	return strconv.Quote(string(h))
}

func indexAny(p []byte, i int, chars string) int {
	var j int
	if len(chars) == 1 {
		j = bytes.IndexByte(p[i:], chars[0])
	} else {
		j = bytes.IndexAny(p[i:], chars)
	}
	if j < 0 {
		return len(p)
	}
	return i + j
}

func firstNonSpace(b []byte) int {
	for k, c := range b {
		if !jsonwire.IsSpace(c) {
			return k
		}
	}
	return -1
}
