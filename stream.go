package argstream

import (
	"errors"
	"fmt"

	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/sink"
	"github.com/argstream/argstream/token"
	"github.com/argstream/argstream/token/jsontoken"
)

// ErrClosed is returned by Feed after Close. It is [token.ErrClosed], so
// [errors.Is] matches either on a [Stream]'s error and on a tokenizer's.
var ErrClosed = token.ErrClosed

// ErrPanicked is what every call to a [Stream] returns, wrapped, once a call
// into its sink or tokenizer has panicked: see Stream.
var ErrPanicked = errors.New("argstream: the stream failed: an earlier call panicked")

// Stream parses the arguments of one tool call and sends their fragments to
// a sink.
//
// If the sink (or the tokenizer) panics during [Stream.Feed] or
// [Stream.Close], the panic goes on to the caller unchanged, and the Stream
// is failed: the rest of that chunk was not parsed, so every later Feed and
// Close returns an error wrapping [ErrPanicked], until [Stream.Reset]. After
// a panic the Stream calls nothing more on its sink, End included: a sink
// that panicked may be in any state. A sink that never gets its End never
// reports the arguments as complete and valid (an Aggregator's Value, a
// policy Evaluator's Verdict), which is what a call cut short by a panic
// deserves. A sink that calls Feed or Close on its own Stream, from Push or
// End, gets the same error and fails the Stream the same way.
//
// A Stream may not be used from several goroutines at once: it calls its
// sink from the goroutine that calls Feed and Close. Separate Streams may
// run in separate goroutines, and share Options.
type Stream struct {
	call  fragment.Call
	out   sink.Sink
	tr    *fragment.Translator
	tok   token.Tokenizer
	cfg   config
	off   int64
	ended bool
	busy  bool // in a call to the tokenizer or the sink: still set if it panicked
	err   error
	text  []byte // WriteString's copy of its string
}

// Option configures a [Stream]. An Option is not changed by use: one may
// configure several Streams, from several goroutines.
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

// WithTokenOptions passes opts to the tokenizer: its limits,
// [token.WithMaxDepth] and [token.WithMaxSize], and its other options, such
// as [token.WithConfusableKeys]. Given more than once, it appends.
func WithTokenOptions(opts ...token.Option) Option {
	return func(cfg *config) { cfg.token = append(cfg.token, opts...) }
}

// WithTokenizer replaces the JSON tokenizer ([jsontoken.New]) by another one
// with the same events: a baseline to compare with, or another syntax.
func WithTokenizer(f token.NewFunc) Option {
	return func(cfg *config) { cfg.newToken = f }
}

// New returns a [Stream] that sends fragments to out. To send them to several
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
	return jsontoken.New(s.tr, s.cfg.token...)
}

// resetter is a tokenizer that can start over, keeping its memory, as
// [jsontoken.Tokenizer] can.
type resetter interface {
	Reset(h token.Handler)
}

// Reset prepares s for the arguments of another tool call, call, keeping
// the memory of its tokenizer and translator and its options, so that a
// reused [Stream] does not allocate. The sink is not reset: reset it too (an
// Aggregator's Reset) before the next [Stream.Feed].
func (s *Stream) Reset(call fragment.Call) {
	s.call = call
	s.tr.Reset(&s.call)
	if r, ok := s.tok.(resetter); ok {
		r.Reset(s.tr)
	} else {
		s.tok = s.newTokenizer()
	}
	s.off, s.ended, s.busy, s.err = 0, false, false, nil
}

// Call returns the identity of the tool call.
func (s *Stream) Call() fragment.Call { return s.call }

// Offset returns the number of argument bytes fed so far.
func (s *Stream) Offset() int64 { return s.off }

// Feed parses the next chunk, which may be empty, and sends the fragments it
// determines. It returns the error that ended the stream, if any: a
// [*token.SyntaxError] for bad input, or what a sink returned (errors.Is(err,
// [sink.ErrStop]) when a sink stopped it on purpose). The sink has had End
// called with that error before Feed returns. After a panic it returns an
// error wrapping [ErrPanicked] (see [Stream]).
func (s *Stream) Feed(chunk []byte) error {
	if s.ended || s.busy {
		return s.stopped()
	}
	s.off += int64(len(chunk))
	s.busy = true
	err := s.tok.Feed(chunk)
	s.busy = false
	if err != nil {
		s.end(err)
		return err
	}
	return nil
}

// Cut ends the input as cut off by whoever sent it (a provider that
// stopped at its token limit), without reading what the tokenizer still
// holds: a number or literal at the end (12, tru) is not taken as complete,
// as [Stream.Close] would take 12. The sink's End gets, and Cut returns, a
// [*token.SyntaxError] wrapping [token.ErrTruncated] at the stream's offset,
// unless the stream had already ended: then Cut returns what Close would.
func (s *Stream) Cut() error {
	if s.busy {
		return s.stopped()
	}
	if !s.ended {
		s.end(&token.SyntaxError{Offset: s.off, Err: token.ErrTruncated,
			Detail: "the sender cut the input off"})
	}
	return s.err
}

// Close ends the input, sends the last fragments, and calls the sink's End.
// It returns an error if the arguments are incomplete or the stream had
// already failed. Calling it again returns the same result. After a panic,
// in Close too (End included), it returns an error wrapping [ErrPanicked].
func (s *Stream) Close() error {
	if s.busy {
		return s.stopped()
	}
	if !s.ended {
		s.busy = true
		err := s.tok.Close()
		s.busy = false
		s.end(err)
	}
	return s.err
}

// end ends the stream with err and tells the sink.
func (s *Stream) end(err error) {
	s.ended, s.err = true, err
	s.busy = true
	s.out.End(err)
	s.busy = false
}

// stopped returns the error of a call to a stream that has ended, or that
// is busy: the call before did not return, it panicked (or it is still
// running, and this call comes from a sink).
func (s *Stream) stopped() error {
	if s.busy {
		s.busy = false
		s.ended = true
		s.err = fmt.Errorf("%w in a sink or the tokenizer, with %d bytes of arguments fed; Reset the Stream to use it again",
			ErrPanicked, s.off)
	}
	if s.err != nil {
		return s.err
	}
	return ErrClosed
}
