package argstream

import (
	"errors"

	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/sink"
	"github.com/argstream/argstream/token"
)

// ErrClosed is returned by Feed after Close.
var ErrClosed = errors.New("argstream: Feed after Close")

// Stream parses the arguments of one tool call and sends their fragments to
// a sink.
type Stream struct {
	call  fragment.Call
	out   sink.Sink
	tr    *fragment.Translator
	tok   token.Tokenizer
	cfg   config
	off   int64
	ended bool
	err   error
}

// Option configures a Stream.
type Option func(*config)

type config struct {
	call     fragment.Call
	token    []token.Option
	newToken token.NewFunc
}

// WithCall sets the identity of the tool call that every fragment carries.
func WithCall(c fragment.Call) Option {
	return func(cfg *config) { cfg.call = c }
}

// WithLimits sets the tokenizer's limits, token.MaxDepth and token.MaxSize,
// and its other options, such as token.AllowConfusableKeys.
func WithLimits(opts ...token.Option) Option {
	return func(cfg *config) { cfg.token = append(cfg.token, opts...) }
}

// WithTokenizer replaces the JSON tokenizer (token.NewJSON) by another one
// with the same events: a baseline to compare with, or another syntax.
func WithTokenizer(f token.NewFunc) Option {
	return func(cfg *config) { cfg.newToken = f }
}

// New returns a Stream that sends fragments to out. To send them to several
// sinks, pass sink.Multi(...).
func New(out sink.Sink, opts ...Option) *Stream {
	var cfg config
	for _, o := range opts {
		o(&cfg)
	}
	s := &Stream{call: cfg.call, out: out, cfg: cfg}
	s.tr = fragment.NewTranslator(out, &s.call)
	s.tok = s.newTokenizer()
	return s
}

func (s *Stream) newTokenizer() token.Tokenizer {
	if s.cfg.newToken != nil {
		return s.cfg.newToken(s.tr, s.cfg.token...)
	}
	return token.NewJSON(s.tr, s.cfg.token...)
}

// resetter is a tokenizer that can start over, keeping its memory, as
// token.JSON can.
type resetter interface {
	Reset(h token.Handler)
}

// Reset prepares s for the arguments of another tool call, call, keeping
// the memory of its tokenizer and translator and its options, so that a
// reused Stream does not allocate. The sink is not reset: reset it too (an
// Aggregator's Reset) before the next Feed.
func (s *Stream) Reset(call fragment.Call) {
	s.call = call
	s.tr.Reset(&s.call)
	if r, ok := s.tok.(resetter); ok {
		r.Reset(s.tr)
	} else {
		s.tok = s.newTokenizer()
	}
	s.off, s.ended, s.err = 0, false, nil
}

// Call returns the identity of the tool call.
func (s *Stream) Call() fragment.Call { return s.call }

// Offset returns the number of argument bytes fed so far.
func (s *Stream) Offset() int64 { return s.off }

// Feed parses the next chunk, which may be empty, and sends the fragments it
// determines. It returns the error that ended the stream, if any: a
// *token.SyntaxError for bad input, or what a sink returned (errors.Is(err,
// sink.ErrStop) when a sink stopped it on purpose). The sink has had End
// called with that error before Feed returns.
func (s *Stream) Feed(chunk []byte) error {
	if s.ended {
		if s.err != nil {
			return s.err
		}
		return ErrClosed
	}
	s.off += int64(len(chunk))
	if err := s.tok.Feed(chunk); err != nil {
		s.end(err)
		return err
	}
	return nil
}

// Close ends the input, sends the last fragments, and calls the sink's End.
// It returns an error if the arguments are incomplete or the stream had
// already failed. Calling it again returns the same result.
func (s *Stream) Close() error {
	if !s.ended {
		s.end(s.tok.Close())
	}
	return s.err
}

func (s *Stream) end(err error) {
	s.ended, s.err = true, err
	s.out.End(err)
}
