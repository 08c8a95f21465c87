package testutil

import (
	"github.com/argstream/argstream"
)

// Run feeds chunks to a Stream that records into a new [Recorder] (see [Feed])
// and returns the Recorder and the stream's error.
func Run(chunks [][]byte, opts ...argstream.Option) (*Recorder, error) {
	rec := &Recorder{}
	return rec, Feed(argstream.New(rec, opts...), chunks)
}

// Feed feeds chunks to s and closes it. It stops at the first error, as a
// caller would, and returns it.
func Feed(s *argstream.Stream, chunks [][]byte) error {
	for _, c := range chunks {
		if err := s.Feed(c); err != nil {
			return err
		}
	}
	return s.Close()
}
