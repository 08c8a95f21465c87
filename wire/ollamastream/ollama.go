package ollamastream

// This file is structured in the following way:
//
//   - ErrMalformed and Read, the loop over a body's lines;
//   - Reader, the step Read loops over: one line at a time, checked
//     against the stream so far (nothing after done) before it drives the
//     Response.
//
// The decoding of a line into the Reader's reused fields is in decode.go,
// and the bounded reader of lines in lines.go.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire"
	"github.com/argstream/argstream/wire/internal/adapter"
)

// ErrMalformed is wrapped by the error of a line that is not what Ollama's
// chat API sends, or that two readers of the stream (Ollama's Go, Python
// and JavaScript clients among them) could read differently: see the
// package documentation. The whole response fails
// ([toolcall.Response.Fail]): no call of it is executable.
//
// It is [wire.ErrMalformed], the sentinel of every wire: [errors.Is] matches
// either.
var ErrMalformed = wire.ErrMalformed

// Read reads the newline-delimited JSON of an Ollama /api/chat streaming
// response from body to its end and drives resp with its tool calls. It
// does not call resp.End: the caller does, to get the Results. See the
// package documentation for the lines read and the errors returned.
//
// The options are [wire.OnText] and [wire.OnThinking], called with each
// non-empty message.content and message.thinking, at index 0.
func Read(ctx context.Context, body io.Reader, resp *toolcall.Response, opts ...wire.Option) error {
	return NewReader(resp, opts...).ReadBody(ctx, body)
}

// ReadBody reads the lines of one response's body to its end, as [Read]
// reads them, into r's Response, with a line buffer that r keeps from
// body to body. A caller that reads many responses keeps r, and readies it
// for the next one with Reset: then a response costs no allocation but
// its calls', whatever its lines' sizes. body is not kept past the call.
func (r *Reader) ReadBody(ctx context.Context, body io.Reader) error {
	r.lines.reset(body)
	err := r.readAll(ctx, &r.lines)
	r.lines.r = nil
	return err
}

// readAll reads the lines of lr into r, to the end of the body.
func (r *Reader) readAll(ctx context.Context, lr *lineReader) error {
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		line, terminated, err := lr.next()
		switch {
		case err == io.EOF:
			if r.err != nil {
				return r.err
			}
			if !r.done {
				return fmt.Errorf("ollama: stream ended after line %d, before a line with done true: %w", r.n, io.ErrUnexpectedEOF)
			}
			return nil
		case err != nil:
			return fmt.Errorf("ollama: %w", err)
		}
		if err := r.line(line, !terminated); err != nil {
			return err
		}
	}
}

// A Reader reads the lines of one Ollama chat stream, one at a time, into
// a [toolcall.Response]: the step that [Read] loops over, for a caller that
// reads the lines itself (a gateway that forwards them as it reads them).
// Give it every line of the stream, in order; [Reader.Done] says when the
// line with done true has come, after which any line is malformed.
//
// A Reader is for one goroutine. Its memory is reused from stream to stream
// with [Reader.Reset].
type Reader struct {
	cfg     adapter.Config
	resp    *toolcall.Response
	dec     adapter.Decoder
	n       int64      // lines read
	err     error      // the first error: every later Line returns it
	done    bool       // a line with done true came
	next    int64      // the index of the next call
	touched []int64    // the calls the last line concerned
	lines   lineReader // ReadBody's, its buffer kept

	// The fields of the line being read; byte slices are reused.
	text, thinking []byte
	isDone         bool
	reason         []byte
	errMsg         []byte
	hasError       bool
	calls          []call // the line's tool calls, calls[:nCalls]
	nCalls         int
}

// call is one element of a line's message.tool_calls.
type call struct {
	id, name, args []byte
	whole          []byte // or, read by the fast path, the arguments object in the line
	hasFunction    bool
	hasName        bool
	hasArgs        bool
}

// NewReader returns a [Reader] of one stream into resp, with [Read]'s
// options.
func NewReader(resp *toolcall.Response, opts ...wire.Option) *Reader {
	return &Reader{cfg: adapter.NewConfig(opts), resp: resp}
}

// Reset readies r for the next stream, into resp, keeping its memory and
// its options.
func (r *Reader) Reset(resp *toolcall.Response) {
	r.resp, r.n, r.err, r.done, r.next = resp, 0, nil, false, 0
	r.touched = r.touched[:0]
}

// Done reports whether the line with done true has come: the response is
// whole.
func (r *Reader) Done() bool { return r.done }

// EventCalls returns the indexes of the calls the last line concerned:
// each started, fed its arguments and stopped. It is borrowed until the
// next [Reader.Line].
func (r *Reader) EventCalls() []int64 { return r.touched }

// Line reads one line of the stream and drives the Response with it. The
// line may end with its "\n" or "\r\n", or not. It returns a
// *[wire.ProviderError] for an error line, an error wrapping
// [ErrMalformed] (having failed the Response) for a malformed one, and the
// Response's own errors ([toolcall.ErrTooManyCalls], [toolcall.ErrEnded]).
// After an error, Line returns it again without reading anything.
func (r *Reader) Line(b []byte) error {
	b, _ = bytes.CutSuffix(b, []byte{'\n'})
	return r.line(b, false)
}

// line reads one line, its "\n" removed; atEOF says it is the end of the
// body, which no end of line ended: a line whose JSON ends before its
// object does is then cut, not malformed.
func (r *Reader) line(b []byte, atEOF bool) error {
	if r.err != nil {
		return r.err
	}
	r.n++
	r.touched = r.touched[:0]
	r.err = r.fail(r.step(b, atEOF))
	return r.err
}

// fail fails the Response for a malformed stream, and returns err.
func (r *Reader) fail(err error) error {
	return adapter.FailMalformed(r.resp, err, ErrMalformed)
}

func (r *Reader) step(b []byte, atEOF bool) error {
	b, _ = bytes.CutSuffix(b, []byte{'\r'})
	if r.done {
		return r.malformed(errors.New("a line after the line with done true"))
	}
	if err := checkBreaks(b); err != nil {
		return r.malformed(err)
	}
	if err := r.parse(b); err != nil {
		if atEOF && errors.Is(err, io.ErrUnexpectedEOF) {
			return fmt.Errorf("ollama: stream cut in line %d: %w", r.n, io.ErrUnexpectedEOF)
		}
		return r.malformed(err)
	}
	if r.hasError {
		// Ollama's clients check a line's error before anything else in
		// it.
		return &wire.ProviderError{Wire: wire.Ollama, Message: string(r.errMsg)}
	}
	if len(r.thinking) > 0 && r.cfg.OnThinking != nil {
		r.cfg.OnThinking(0, r.thinking)
	}
	if len(r.text) > 0 && r.cfg.OnText != nil {
		r.cfg.OnText(0, r.text)
	}
	for i := range r.nCalls {
		c := &r.calls[i]
		index := r.next
		r.next++
		r.touched = append(r.touched, index)
		if err := r.resp.Start(fragment.Call{Index: index, ID: string(c.id), Name: string(c.name)}, nil); err != nil {
			return err
		}
		args := c.args
		if c.whole != nil {
			args = c.whole
		}
		if err := r.resp.Chunk(index, args); err != nil {
			return err
		}
		if err := r.resp.Stop(index); err != nil {
			return err
		}
	}
	if r.isDone {
		r.done = true
		if string(r.reason) == "length" {
			r.resp.Incomplete()
		}
	}
	return nil
}

// checkBreaks refuses the bytes that end a line for one of Ollama's clients
// and not for another: a CR (but the one before the "\n", which Line
// removes), and the UTF-8 of U+0085, U+2028 and U+2029. Ollama's Go client
// (bufio.Scanner) and its JavaScript client split lines at "\n" alone; its
// Python client (httpx, str.splitlines) at these too. JSON allows a CR as
// white space between tokens, and the others raw in strings.
func checkBreaks(b []byte) error {
	// The bytes that may begin one are found with the vectorized
	// bytes.IndexByte, each one's next place kept until it is passed, so
	// that the line is scanned once for each.
	leads := [...]byte{'\r', 0xc2, 0xe2}
	var next [len(leads)]int
	for k, c := range leads {
		next[k] = indexFrom(b, 0, c)
	}
	for {
		i := min(next[0], next[1], next[2])
		if i == len(b) {
			return nil
		}
		switch c := b[i]; {
		case c == '\r':
			return fmt.Errorf("a CR at byte %d, which ends a line for some readers", i)
		case c == 0xc2 && i+1 < len(b) && b[i+1] == 0x85:
			return fmt.Errorf("a U+0085 at byte %d, which ends a line for some readers", i)
		case c == 0xe2 && i+2 < len(b) && b[i+1] == 0x80 && (b[i+2] == 0xa8 || b[i+2] == 0xa9):
			return fmt.Errorf("a U+%04X at byte %d, which ends a line for some readers", 0x2028+int(b[i+2]-0xa8), i)
		}
		for k, c := range leads {
			if next[k] == i {
				next[k] = indexFrom(b, i+1, c)
			}
		}
	}
}

// indexFrom returns the index of the first c in b[i:], or len(b).
func indexFrom(b []byte, i int, c byte) int {
	if j := bytes.IndexByte(b[i:], c); j >= 0 {
		return i + j
	}
	return len(b)
}

// malformed wraps err, found in the current line.
func (r *Reader) malformed(err error) error {
	return fmt.Errorf("ollama: %w: line %d: %w", ErrMalformed, r.n, err)
}
