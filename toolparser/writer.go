package toolparser

// This file is structured in the following way:
//
//   - the Writer's options, its errors and the ids it gives calls;
//   - Writer: the text of one message in (Write, WriteReasoning, Finish),
//     through a dialect.Reader driving a toolcall.Response whose calls
//     each have an aggregate.Aggregator writing their arguments as JSON
//     text (aggregate.OnText);
//   - the pieces of output (prose, reasoning, a call's head, a call's
//     arguments), gathered while one Write lasts and written as chunks,
//     or kept for a whole message.

import (
	"crypto/rand"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/aggregate"
	"github.com/argstream/argstream/dialect"
	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/internal/chatchunk"
	"github.com/argstream/argstream/schema"
	"github.com/argstream/argstream/sink"
	"github.com/argstream/argstream/toolcall"
	"github.com/go-json-experiment/json/jsontext"
)

// Option configures a [Writer], [Stream] and [Whole]. An Option is not
// changed by use: one list may configure any number of them, from any
// number of goroutines.
type Option func(*config)

type config struct {
	tools *schema.Tools
	newID func() string
}

// WithTools types the calls' values by the schemas of tools (package
// schema): in a tag syntax, count 3 is the number 3 only if the tool's
// schema says so. Without it, or for a tool tools does not list, every
// value written as text is a string.
func WithTools(tools *schema.Tools) Option { return func(c *config) { c.tools = tools } }

// WithCallIDs makes fn give the id of each call whose syntax gives none
// (all but kimi-k2's do not). fn is called from the goroutine that writes
// the text, once per call, and must return a different id each time. The
// default is [NewCallID].
func WithCallIDs(fn func() string) Option { return func(c *config) { c.newID = fn } }

// NewCallID returns a new call id as OpenAI-compatible servers make them:
// "call_" and 24 letters and digits from crypto/rand.
func NewCallID() string {
	const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	id := make([]byte, 0, 5+24)
	id = append(id, "call_"...)
	var b [32]byte
	for len(id) < cap(id) {
		rand.Read(b[:]) // never fails (crypto/rand.Read's documentation)
		for _, c := range b {
			// 248 is the largest multiple of 62 in a byte: every letter
			// and digit is as likely.
			if c < 248 && len(id) < cap(id) {
				id = append(id, alnum[c%62])
			}
		}
	}
	return string(id)
}

// ErrCall is what a [*CallError] wraps.
var ErrCall = errors.New("toolparser: a tool call in the text is not valid")

// CallError is the error of a call written in the text whose arguments are
// not valid (its tokenizer failed: a syntax error, a value its schema
// refuses, a call the text left open) or that names no tool. The [Writer]
// ends the message with it: see the package documentation, "A call that
// fails".
type CallError struct {
	Index int64  // the call's index in the message
	Name  string // the tool's name, "" if the text gave none
	Err   error  // the call's error: a *token.SyntaxError, token.ErrTruncated...
}

func (e *CallError) Error() string {
	return fmt.Sprintf("toolparser: tool call %d (%q): %v", e.Index, e.Name, e.Err)
}

// Unwrap returns [ErrCall] and the call's own error.
func (e *CallError) Unwrap() []error { return []error{ErrCall, e.Err} }

// ErrFinished is returned by the methods of a [Writer] that write text
// after [Writer.Finish], until [Writer.Reset].
var ErrFinished = errors.New("toolparser: text after the message's end")

// Writer turns the text of one assistant message, written by a model in
// a tool-call syntax as it streams, into the Chat Completions chunks of a
// server that parses tool calls: see the package documentation.
//
// A Writer is for one goroutine: it calls its emit function from the
// goroutine that calls Write, WriteString, WriteReasoning and Finish.
// Separate Writers may run in separate goroutines and share Options.
type Writer struct {
	cfg     config
	rd      *dialect.Reader
	resp    *toolcall.Response
	emit    func(chunk []byte) error // nil: a whole message, kept in msg
	head    []byte                   // the envelope's members, each with its comma
	calls   []*callOut               // by index
	checked int                      // the calls before it need no check
	free    []*callOut
	seg     segment
	chunk   []byte // the chunk being written
	role    bool   // the role went out, in the first chunk
	err     error  // sticky: a call's failure, emit's error
	ended   bool
	finish  string
	msg     whole
}

// segment is the piece of output being gathered: prose, reasoning, or the
// arguments of one call.
type segment struct {
	kind  byte // 0 none, 'c' content, 'r' reasoning, 'a' arguments
	index int64
	buf   []byte
}

// whole is a whole message, as [Whole] writes it.
type whole struct {
	content, reasoning []byte
	args               [][]byte // by call index
}

// NewWriter returns a [Writer] of the text written in syntax, which gives
// each chunk's JSON text to emit, borrowed until emit returns; an error
// from emit ends the message, and the Writer returns it. It panics if
// syntax is not one of the [dialect.Syntax] constants, or emit is nil.
func NewWriter(syntax dialect.Syntax, emit func(chunk []byte) error, opts ...Option) *Writer {
	if emit == nil {
		panic("toolparser: NewWriter with a nil emit")
	}
	return newWriter(syntax, emit, opts)
}

func newWriter(syntax dialect.Syntax, emit func([]byte) error, opts []Option) *Writer {
	w := &Writer{emit: emit, cfg: config{newID: NewCallID}}
	for _, o := range opts {
		o(&w.cfg)
	}
	w.resp = toolcall.New(
		toolcall.WithStreamOptions(argstream.WithTokenizer(syntax.Tokenizer(w.cfg.tools))),
		toolcall.WithSinks(w.newSink),
		toolcall.WithDigestOnly(), // the client gets the arguments: nothing keeps them
	)
	w.rd = dialect.NewReader(syntax, w.resp,
		dialect.OnText(func(text []byte) { w.piece('c', 0, text) }),
		dialect.OnReasoning(func(text []byte) { w.piece('r', 0, text) }),
	)
	return w
}

// SetEnvelope takes the id, object, created and model members of the
// upstream's chunk data (a chat.completion.chunk JSON object) for the
// chunks written from now on: give it the first chunk of the upstream's
// stream. Without it, the chunks have none of them.
func (w *Writer) SetEnvelope(chunk []byte) {
	w.head = chatchunk.Head(chunk)
}

// Reset prepares w for the next message, keeping its memory and its
// envelope.
func (w *Writer) Reset() {
	w.resp.End()
	w.resp.Reset()
	w.rd.Reset()
	w.free = append(w.free, w.calls...)
	clear(w.calls)
	w.calls = w.calls[:0]
	w.seg = segment{buf: w.seg.buf[:0]}
	w.role, w.err, w.ended, w.finish, w.checked = false, nil, false, "", 0
	w.msg.content, w.msg.reasoning = w.msg.content[:0], w.msg.reasoning[:0]
	clear(w.msg.args)
	w.msg.args = w.msg.args[:0]
}

// Write reads p, the next piece of the message's text (a delta's
// content), and emits the chunks it settles: prose as content, a call's
// start, the JSON text of its arguments as far as the bytes received make
// it known. p is not kept. It returns len(p) and nil, or a [*CallError]
// (the message ends: nothing more is emitted), emit's error, or
// [ErrFinished] after Finish.
func (w *Writer) Write(p []byte) (int, error) {
	if err := w.usable(); err != nil {
		return 0, err
	}
	_, err := w.rd.Write(p)
	return w.wrote(len(p), err)
}

// WriteString is [Writer.Write] for text that comes as strings.
func (w *Writer) WriteString(s string) (int, error) {
	if err := w.usable(); err != nil {
		return 0, err
	}
	_, err := w.rd.WriteString(s)
	return w.wrote(len(s), err)
}

// wrote ends a Write of n bytes, which the Reader returned err for.
func (w *Writer) wrote(n int, err error) (int, error) {
	if err != nil && w.err == nil {
		w.err = err
	}
	w.check()
	w.flush(true)
	if w.err != nil {
		return 0, w.err
	}
	return n, nil
}

// WriteReasoning emits p, reasoning text the upstream sent apart from the
// message's text (its reasoning_content), as delta.reasoning_content.
func (w *Writer) WriteReasoning(p []byte) error {
	if err := w.usable(); err != nil {
		return err
	}
	w.piece('r', 0, p)
	w.flush(true)
	return w.err
}

func (w *Writer) usable() error {
	switch {
	case w.err != nil:
		return w.err
	case w.ended:
		return ErrFinished
	}
	return nil
}

// Finish ends the message: prose held back goes out, every call must have
// ended complete and valid, and the last chunk says why the message
// ended: "tool_calls" if it had calls, else reason, the upstream's
// finish_reason ("stop" if reason is empty). It returns a [*CallError] for
// the first call that is not valid (and then writes no last chunk), or
// emit's error.
func (w *Writer) Finish(reason string) error {
	if err := w.usable(); err != nil {
		return err
	}
	w.ended = true
	if err := w.rd.Close(); err != nil && w.err == nil {
		w.err = err
	}
	for _, r := range w.resp.End() {
		if r.Err == nil && r.Call.Name == "" {
			r.Err = errors.New("no tool name")
		}
		if r.Err != nil && !errors.Is(r.Err, toolcall.ErrNotApproved) && w.err == nil {
			w.err = &CallError{Index: r.Call.Index, Name: r.Call.Name, Err: r.Err}
		}
	}
	w.flush(false)
	if w.err != nil {
		return w.err
	}
	switch {
	case len(w.calls) > 0:
		reason = "tool_calls"
	case reason == "":
		reason = "stop"
	}
	w.finish = reason
	if w.emit != nil {
		b := append(w.begin(false), `},"finish_reason":`...)
		b, _ = jsontext.AppendQuote(b, reason)
		w.send(append(b, "}]}"...))
	}
	return w.err
}

// check fails the message at the first call whose arguments have failed.
// Only the last call can get more bytes (the text writes one call at a
// time): the others are checked once after their last bytes, and then
// never again, so that a message of many calls costs no more per call.
func (w *Writer) check() {
	if w.err != nil {
		return
	}
	for _, c := range w.calls[w.checked:] {
		if c == nil {
			continue
		}
		if err := w.resp.Err(c.index); err != nil {
			w.err = &CallError{Index: c.index, Name: c.name, Err: err}
			return
		}
	}
	w.checked = max(0, len(w.calls)-1)
}

// The calls.

// callOut is one call of the message: its identity for the client, and
// the aggregator that writes its arguments.
type callOut struct {
	w     *Writer
	index int64
	id    string
	name  string
	agg   *aggregate.Aggregator
	sent  bool // its head went out
}

// newSink is the Response's sink constructor: a call has begun.
func (w *Writer) newSink(c fragment.Call) sink.Sink {
	var k *callOut
	if n := len(w.free); n > 0 {
		k, w.free = w.free[n-1], w.free[:n-1]
		k.agg.Reset()
	} else {
		k = &callOut{w: w}
		k.agg = aggregate.New(aggregate.WithDigest(), aggregate.OnText(func(text []byte) {
			if !k.sent {
				if k.start(); !k.sent {
					return // no name: it fails, and nothing of it goes out
				}
			}
			k.w.piece('a', k.index, text)
		}))
	}
	k.index, k.id, k.name, k.sent = c.Index, c.ID, c.Name, false
	if k.id == "" {
		k.id = w.cfg.newID()
	}
	for int64(len(w.calls)) <= c.Index {
		w.calls = append(w.calls, nil)
	}
	w.calls[c.Index] = k
	if k.name != "" {
		k.start()
	}
	return k
}

// start writes the call's head: its index, id, type and name, with
// arguments "".
func (k *callOut) start() {
	if k.name == "" || k.w.err != nil {
		return // a call with no name never goes out: it fails
	}
	k.sent = true
	w := k.w
	w.flush(false)
	if w.emit == nil {
		for int64(len(w.msg.args)) <= k.index {
			w.msg.args = append(w.msg.args, nil)
		}
		w.msg.args[k.index] = []byte{} // not nil: the call is in the message
		return
	}
	b := append(w.begin(true), `"tool_calls":[{"index":`...)
	b = strconv.AppendInt(b, k.index, 10)
	b = append(b, `,"id":`...)
	b, _ = jsontext.AppendQuote(b, k.id)
	b = append(b, `,"type":"function","function":{"name":`...)
	b, _ = jsontext.AppendQuote(b, k.name)
	b = append(b, `,"arguments":""}}]},"finish_reason":null}]}`...)
	w.send(b)
}

// Push passes a fragment of the call to its aggregator, learning its name
// if it came late. It implements sink.Sink.
func (k *callOut) Push(p *fragment.Progress) error {
	if k.name == "" && p.Call.Name != "" {
		k.name = p.Call.Name
	}
	return k.agg.Push(p)
}

// End implements sink.Sink.
func (k *callOut) End(err error) { k.agg.End(err) }

// The output.

// piece adds text of the kind (and call index) to the output: to the
// segment being gathered, or after it, which then goes out.
func (w *Writer) piece(kind byte, index int64, text []byte) {
	if w.err != nil || len(text) == 0 {
		return
	}
	if w.seg.kind != kind || w.seg.index != index {
		w.flush(false)
		w.seg.kind, w.seg.index = kind, index
	}
	w.seg.buf = append(w.seg.buf, text...)
}

// flush writes the segment gathered: one chunk, or a whole message's
// parts. At the end of a Write (keep), prose and reasoning keep back the
// start of a UTF-8 sequence cut at their end until the rest comes, so
// that no chunk's string splits a character; what comes next in another
// kind (a call's head) makes the segment go out whole.
func (w *Writer) flush(keep bool) {
	s := &w.seg
	if s.kind == 0 || w.err != nil {
		return
	}
	text := s.buf
	if keep && s.kind != 'a' {
		text = text[:len(text)-cutRune(text)]
	}
	if len(text) > 0 {
		w.write(s.kind, s.index, text)
	}
	rest := copy(s.buf, s.buf[len(text):])
	s.buf = s.buf[:rest]
	if rest == 0 {
		s.kind = 0
	}
}

// cutRune returns the length of the start of a UTF-8 sequence that ends
// b, cut short: 0 if b ends with a whole rune (or with bytes no rune
// begins with, which wait for nothing).
func cutRune(b []byte) int {
	for n := 1; n <= 3 && n <= len(b); n++ {
		c := b[len(b)-n]
		if c < utf8.RuneSelf {
			return 0
		}
		if utf8.RuneStart(c) {
			if utf8.FullRune(b[len(b)-n:]) {
				return 0
			}
			return n
		}
	}
	return 0
}

// write writes one piece of output.
func (w *Writer) write(kind byte, index int64, text []byte) {
	if w.emit == nil {
		switch kind {
		case 'c':
			w.msg.content = append(w.msg.content, text...)
		case 'r':
			w.msg.reasoning = append(w.msg.reasoning, text...)
		case 'a':
			w.msg.args[index] = append(w.msg.args[index], text...)
		}
		return
	}
	b := w.begin(true)
	switch kind {
	case 'c':
		b = append(b, `"content":`...)
	case 'r':
		b = append(b, `"reasoning_content":`...)
	case 'a':
		b = append(b, `"tool_calls":[{"index":`...)
		b = strconv.AppendInt(b, index, 10)
		b = append(b, `,"function":{"arguments":`...)
	}
	b, _ = jsontext.AppendQuote(b, text) // invalid UTF-8 becomes U+FFFD, as a server's encoder makes it
	if kind == 'a' {
		b = append(b, "}}]"...)
	}
	w.send(append(b, `},"finish_reason":null}]}`...))
}

// begin starts a chunk, inside its delta, before the delta's members
// (more says it has some): the first chunk's delta says the role, as the
// servers' do.
func (w *Writer) begin(more bool) []byte {
	b := append(w.chunk[:0], '{')
	b = append(b, w.head...)
	b = append(b, `"choices":[{"index":0,"delta":{`...)
	if !w.role {
		w.role = true
		b = append(b, `"role":"assistant"`...)
		if more {
			b = append(b, ',')
		}
	}
	return b
}

// send emits the chunk b.
func (w *Writer) send(b []byte) {
	w.chunk = b
	if err := w.emit(b); err != nil && w.err == nil {
		w.err = err
	}
}
