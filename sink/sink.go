package sink

import (
	"errors"

	"github.com/argstream/argstream/fragment"
)

// Sink consumes the fragments of one tool call's arguments.
//
// A Stream calls its sink from the goroutine that calls its Feed and Close,
// one call at a time, so a sink that serves one Stream needs no lock; a sink
// shared by Streams in several goroutines must do its own locking.
type Sink interface {
	// Push receives the next fragment. p and everything it points to are
	// borrowed until Push returns. An error stops the stream: ErrStop, or an
	// error wrapping it, to stop on purpose; any other error to fail it.
	Push(p *fragment.Progress) error
	// End is called once, after the last Push: with nil if the arguments
	// ended complete and valid, else with the error that ended them. It is
	// not called after a Push panicked: the Stream is then failed and calls
	// nothing more on its sink (see argstream.Stream).
	End(err error)
}

// ErrStop is what a sink returns, directly or wrapped, to stop the stream
// early because it needs nothing more.
var ErrStop = errors.New("sink: stop")

// PushFunc adapts a function to [Sink]; its End does nothing. It is as safe
// for use from several goroutines as the function is.
type PushFunc func(p *fragment.Progress) error

// Push calls f(p).
func (f PushFunc) Push(p *fragment.Progress) error { return f(p) }

// End does nothing.
func (PushFunc) End(error) {}

// Multi returns a sink that hands every fragment, and [Sink.End], to each of
// sinks in order. A fragment goes to all of them even if one fails on it, so
// that all have seen the same fragments; [Sink.Push] then returns the first
// error. If one of them panics, those after it do not get the fragment. The
// sink it returns is as safe for use from several goroutines as the least
// safe of sinks.
func Multi(sinks ...Sink) Sink {
	if len(sinks) == 1 {
		return sinks[0]
	}
	return multi(append([]Sink(nil), sinks...))
}

type multi []Sink

func (m multi) Push(p *fragment.Progress) error {
	var first error
	for _, s := range m {
		if err := s.Push(p); err != nil && first == nil {
			first = err
		}
	}
	return first
}

func (m multi) End(err error) {
	for _, s := range m {
		s.End(err)
	}
}
