package toolparser

import (
	"errors"
	"io"

	"github.com/argstream/argstream/dialect"
	"github.com/argstream/argstream/internal/chatchunk"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire"
	"github.com/argstream/argstream/wire/openaistream"
	"github.com/argstream/argstream/wire/sse"
	"github.com/go-json-experiment/json"
)

// ErrType is the "type" of the error event with which [Stream] ends a
// stream it cannot write on: a call that fails, an upstream it cannot read.
const ErrType = "argstream_tool_parser_error"

// Stream returns the body a client reads in place of body, the
// server-sent events of a Chat Completions stream whose choice 0 carries
// the raw text of a model that writes its tool calls in syntax (an
// OpenAI-compatible server with its tool parser off): the same stream as
// a server that parses them sends, written by a [Writer] from the text of
// the upstream's content deltas, in chunks with the upstream's id,
// object, created and model.
//
// The upstream's reasoning_content (or reasoning) goes out as
// delta.reasoning_content. Its finish_reason ends the message
// ([Writer.Finish]); the events after it (a usage chunk, data [DONE]) go
// out as they came, and so do comments. The upstream's chunks themselves
// do not: what else they hold (logprobs, a usage on each chunk, the
// choices other than 0, whose text is not read) is not passed on.
//
// What cannot be written ends the client's stream with an error event
// whose data is {"error":{"message":...,"type":"argstream_tool_parser_error"}},
// which the OpenAI SDKs raise, and closes body: a call that fails
// ([*CallError]: see the package documentation), an upstream chunk that
// package openaistream refuses, tool_calls from the upstream (its own
// tool parser is on: the two must not both read the text), a stream that
// ends before its finish_reason. An upstream error event goes out as it
// came, and ends the stream.
//
// The body returned reads body as the client reads it; its Close closes
// body. It is for one goroutine.
func Stream(syntax dialect.Syntax, body io.ReadCloser, opts ...Option) io.ReadCloser {
	s := &stream{body: body, rd: sse.NewReader(body, sse.WithRaw())}
	s.w = newWriter(syntax, s.chunk, opts)
	s.up = toolcall.New()
	s.cr = openaistream.NewChatReader(s.up,
		wire.OnText(func(_ int64, text []byte) {
			if s.err == nil {
				_, s.err = s.w.Write(text)
			}
		}),
		wire.OnThinking(func(_ int64, text []byte) {
			if s.err == nil {
				s.err = s.w.WriteReasoning(text)
			}
		}),
	)
	return s
}

// stream is the body that Stream returns.
type stream struct {
	body     io.ReadCloser
	rd       *sse.Reader
	cr       *openaistream.ChatReader
	up       *toolcall.Response // the upstream's own calls: there must be none
	w        *Writer
	out      []byte // for the client, out[off:] not read yet
	off      int
	err      error // the Writer's
	head     bool  // the envelope is set
	finished bool  // the message has ended
	ended    bool  // nothing more is read
	closed   bool
}

// Read reads the client's bytes, reading the upstream as it needs to.
func (s *stream) Read(p []byte) (int, error) {
	for s.off == len(s.out) {
		if s.ended {
			return 0, io.EOF
		}
		s.out, s.off = s.out[:0], 0
		s.next()
	}
	n := copy(p, s.out[s.off:])
	s.off += n
	return n, nil
}

// Close closes the upstream's body.
func (s *stream) Close() error {
	if s.closed {
		return nil
	}
	s.closed, s.ended = true, true
	return s.body.Close()
}

// chunk is the Writer's emit: an event for the client.
func (s *stream) chunk(data []byte) error {
	s.out, _ = sse.AppendEvent(s.out, "", data) // compact JSON has no line end
	return nil
}

// next reads one event of the upstream and writes what it says.
func (s *stream) next() {
	if !s.rd.Next() {
		err := s.rd.Err()
		if errors.Is(err, sse.ErrTruncated) && s.finished {
			err = nil // an event cut off after the end, which the SDKs drop
		}
		switch {
		case err != nil:
			s.fail("toolparser: the upstream response failed: " + err.Error())
		case !s.finished:
			s.fail("toolparser: the upstream stream ended before its finish_reason")
		default:
			s.ended = true
		}
		return
	}
	ev := s.rd.Event()
	if !ev.IsEvent() {
		s.out = append(s.out, ev.Raw...) // a comment, a keep-alive
		return
	}
	if !s.head && !ev.IsDone() {
		s.head = true
		s.w.SetEnvelope(ev.Data)
	}
	if err := s.cr.Event(ev); err != nil {
		var pe *wire.ProviderError
		if errors.As(err, &pe) {
			s.out = append(s.out, ev.Raw...)
			s.end()
			return
		}
		s.fail("toolparser: the upstream response: " + err.Error())
		return
	}
	switch {
	case len(s.cr.EventCalls()) > 0:
		s.fail("toolparser: the upstream sent tool_calls of its own: its tool parser must be off for the gateway to read the calls in the text")
		return
	case s.err != nil:
		s.fail(s.err.Error())
		return
	case s.finished:
		s.out = append(s.out, ev.Raw...) // a usage chunk, [DONE]
	case s.cr.Done(): // [DONE] with no finish_reason before it
		s.finish("")
		s.out = append(s.out, ev.Raw...)
	case s.cr.Finished():
		s.finish(finishReason(ev.Data))
	}
	if s.cr.Done() && !s.ended {
		s.end()
	}
}

// finish ends the message, with the upstream's finish_reason.
func (s *stream) finish(reason string) {
	s.finished = true
	if err := s.w.Finish(reason); err != nil {
		s.fail(err.Error())
	}
}

// fail ends the client's stream with an error event.
func (s *stream) fail(msg string) {
	s.out, _ = sse.AppendEvent(s.out, "", chatchunk.AppendError(nil, ErrType, msg))
	s.finished = true
	s.end()
}

// end reads the upstream no further.
func (s *stream) end() {
	s.ended = true
	s.body.Close()
}

// finishReason returns the finish_reason of choice 0 in the chunk data.
func finishReason(data []byte) string {
	var v struct {
		Choices []struct {
			Index        int64  `json:"index"`
			FinishReason string `json:"finish_reason"`
		} `json:"choices"`
	}
	json.Unmarshal(data, &v) // read by openaistream already
	for _, c := range v.Choices {
		if c.Index == 0 && c.FinishReason != "" {
			return c.FinishReason
		}
	}
	return ""
}
