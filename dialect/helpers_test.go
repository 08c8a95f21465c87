package dialect

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/sink"
	"github.com/argstream/argstream/token"
	"github.com/argstream/argstream/toolcall"
)

// sourceTokenizer stands in for the per-call tokenizers (token/caret,
// token/xmltag, token/qwen) while they are written: it keeps every byte it
// is fed and, at Close, either reports the arguments {"source": hex of the
// bytes}, when the source ends as a closed call of its syntax ends, or a
// truncation error whose Detail is that hex. Either way a Result says
// exactly which bytes its call was fed.
type sourceTokenizer struct {
	h      token.Handler
	syntax Syntax
	src    []byte
	hex    []byte
	closed bool
	err    error
}

func newSourceTokenizer(syntax Syntax) token.NewFunc {
	return func(h token.Handler, _ ...token.Option) token.Tokenizer {
		return &sourceTokenizer{h: h, syntax: syntax}
	}
}

// Reset keeps the tokenizer's memory, as argstream.Stream's Reset expects
// of a tokenizer that can start over.
func (t *sourceTokenizer) Reset(h token.Handler) {
	t.h, t.src, t.closed, t.err = h, t.src[:0], false, nil
}

func (t *sourceTokenizer) Feed(b []byte) error {
	if t.closed {
		return token.ErrClosed
	}
	t.src = append(t.src, b...)
	return nil
}

func (t *sourceTokenizer) Close() error {
	if t.closed {
		return t.err
	}
	t.closed = true
	t.hex = hex.AppendEncode(t.hex[:0], t.src)
	off := int64(len(t.src))
	if !closedSource(t.syntax, t.src) {
		t.err = &token.SyntaxError{Syntax: "test " + t.syntax.String(), Offset: off, Err: token.ErrTruncated, Detail: string(t.hex)}
		return t.err
	}
	for _, e := range [...]struct {
		kind token.Kind
		data []byte
	}{
		{token.BeginObject, nil},
		{token.Key, sourceKey},
		{token.BeginString, nil},
		{token.StringData, t.hex},
		{token.EndString, nil},
		{token.EndObject, nil},
	} {
		if e.kind == token.StringData && len(e.data) == 0 {
			continue
		}
		if t.err = t.h.Handle(token.Event{Kind: e.kind, Data: e.data, Offset: off}); t.err != nil {
			return t.err
		}
	}
	return nil
}

var sourceKey = []byte("source")

// closedSource reports whether src ends as the source of a closed call
// ends: what the real tokenizers check, among much else.
func closedSource(syntax Syntax, src []byte) bool {
	switch syntax {
	case Caret:
		for _, end := range []string{"\n^^^\n", "\n^^^\r\n", "\n^^^"} {
			if bytes.HasSuffix(src, []byte(end)) {
				return true
			}
		}
		return false
	case XML:
		i := bytes.LastIndex(src, []byte(xmlClose))
		return i > 0 && bytes.IndexByte(src[i:], '>') == len(src)-i-1
	case Qwen:
		return bytes.HasSuffix(src, []byte(qwenClose))
	default:
		return bytes.HasSuffix(src, []byte(families[syntax].closer))
	}
}

// piece is one OnText or OnSource call: Index is -1 for prose.
type piece struct {
	Index int64
	Data  string
}

// call is a Result in a form that compares: Source is what the call's
// tokenizer was fed.
type call struct {
	Index      int64
	Name       string
	OpenName   string // the name the call had when it opened
	Source     string
	Truncated  bool
	Executable bool
	Err        string
}

// outcome is everything a Reader delivers for one message.
type outcome struct {
	Pieces   []piece // merged: adjacent pieces of the same kind and call joined
	Calls    []call
	Open     int // calls still open after Close
	WriteErr string
	CloseErr string
}

// text returns the prose, joined.
func (o outcome) text() string {
	var b bytes.Buffer
	for _, p := range o.Pieces {
		if p.Index < 0 {
			b.WriteString(p.Data)
		}
	}
	return b.String()
}

// all returns every piece joined, in order: the input, if nothing was lost.
func (o outcome) all() string {
	var b bytes.Buffer
	for _, p := range o.Pieces {
		b.WriteString(p.Data)
	}
	return b.String()
}

// sources returns each call's source as OnSource gave it, by index.
func (o outcome) sources() map[int64]string {
	m := map[int64]string{}
	for _, p := range o.Pieces {
		if p.Index >= 0 {
			m[p.Index] += p.Data
		}
	}
	return m
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// harness is a Reader with a Response whose calls use sourceTokenizer,
// recording what they deliver.
type harness struct {
	r      *Reader
	calls  *toolcall.Response
	pieces []piece
	opened map[int64]string // each call's name when it opened
}

func newHarness(syntax Syntax) *harness {
	h := &harness{opened: map[int64]string{}}
	h.calls = toolcall.New(
		toolcall.WithStreamOptions(argstream.WithTokenizer(newSourceTokenizer(syntax))),
		toolcall.WithSinks(func(c fragment.Call) sink.Sink {
			h.opened[c.Index] = c.Name
			return nil
		}))
	add := func(index int64, b []byte) {
		if n := len(h.pieces); n > 0 && h.pieces[n-1].Index == index {
			h.pieces[n-1].Data += string(b)
			return
		}
		h.pieces = append(h.pieces, piece{Index: index, Data: string(b)})
	}
	h.r = NewReader(syntax, h.calls,
		OnText(func(b []byte) { add(-1, b) }),
		OnSource(add))
	return h
}

// run reads the message cut into chunks and returns what came of it, then
// readies h for the next message.
func (h *harness) run(chunks [][]byte) outcome {
	var o outcome
	for _, c := range chunks {
		if n, err := h.r.Write(c); err != nil {
			o.WriteErr = fmt.Sprintf("%d %v", n, err)
			break
		}
	}
	o.CloseErr = errString(h.r.Close())
	o.Open = h.calls.Pending()
	for _, res := range h.calls.End() {
		c := call{Index: res.Call.Index, Name: res.Call.Name, OpenName: h.opened[res.Call.Index], Executable: res.Executable, Err: errString(res.Err)}
		var se *token.SyntaxError
		var args struct{ Source string }
		switch {
		case res.Err == nil:
			if err := json.Unmarshal(res.Arguments, &args); err != nil {
				panic(err)
			}
			c.Source = decodeHex(args.Source)
		case errors.As(res.Err, &se) && strings.HasPrefix(se.Syntax, "test "):
			c.Source = decodeHex(se.Detail)
			c.Truncated = errors.Is(res.Err, token.ErrTruncated)
			c.Err = "truncated"
		}
		o.Calls = append(o.Calls, c)
	}
	o.Pieces, h.pieces = h.pieces, nil
	clear(h.opened)
	h.r.Reset()
	h.calls.Reset()
	return o
}

func decodeHex(s string) string {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// read reads text in the chunks given, with a new harness.
func read(syntax Syntax, chunks ...string) outcome {
	bs := make([][]byte, len(chunks))
	for i, c := range chunks {
		bs[i] = []byte(c)
	}
	return newHarness(syntax).run(bs)
}

// checkConsistent checks what holds for any input (see consistent).
func checkConsistent(t testing.TB, input []byte, o outcome) {
	t.Helper()
	if msg := consistent(input, o); msg != "" {
		t.Fatal(msg)
	}
}

// consistent returns what is wrong with o of input, of what holds for any
// input: the pieces joined are the input, each call's tokenizer got exactly
// its OnSource bytes, calls are numbered 0, 1, 2, ... and nothing failed
// but the calls.
func consistent(input []byte, o outcome) string {
	if got := o.all(); got != string(input) {
		return fmt.Sprintf("pieces joined:\n%q\nwant the input:\n%q", got, input)
	}
	if o.WriteErr != "" || o.CloseErr != "" {
		return fmt.Sprintf("Write: %s, Close: %s", o.WriteErr, o.CloseErr)
	}
	src := o.sources()
	if len(src) != len(o.Calls) {
		return fmt.Sprintf("%d calls with source, %d Results", len(src), len(o.Calls))
	}
	for i, c := range o.Calls {
		if c.Index != int64(i) || c.Source != src[int64(i)] {
			return fmt.Sprintf("call %d: %+v, OnSource gave %q", i, c, src[int64(i)])
		}
	}
	return ""
}
