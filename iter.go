package argstream

import (
	"errors"
	"iter"

	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/sink"
)

// errBreak stops the [Stream] of [Fragments] when its loop breaks.
var errBreak = errors.New("argstream: the loop over Fragments stopped")

// Fragments parses chunks, one tool call's arguments, and yields each
// fragment the moment the chunks read so far determine it, for code that
// prefers a loop to a sink:
//
//	for p, err := range argstream.Fragments(slices.Values(chunks)) {
//		if err != nil {
//			return err // bad arguments: what and where
//		}
//		fmt.Println(p.Fragment)
//	}
//
// The Progress is borrowed: it and everything it points to are valid until
// the next iteration, as in a sink's Push; keep a Clone. A failed stream
// yields its error once, with a nil Progress, after every fragment the valid
// input determined; nothing follows it. Breaking out of the loop stops
// reading chunks. opts are [New]'s. Each range over the sequence parses the
// chunks anew, in the goroutine that ranges.
func Fragments(chunks iter.Seq[[]byte], opts ...Option) iter.Seq2[*fragment.Progress, error] {
	return func(yield func(*fragment.Progress, error) bool) {
		s := New(sink.PushFunc(func(p *fragment.Progress) error {
			if !yield(p, nil) {
				return errBreak
			}
			return nil
		}), opts...)
		var err error
		for c := range chunks {
			if err = s.Feed(c); err != nil {
				break
			}
		}
		if err == nil {
			err = s.Close()
		}
		if err != nil && !errors.Is(err, errBreak) {
			yield(nil, err)
		}
	}
}
