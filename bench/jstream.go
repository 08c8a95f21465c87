package bench

import (
	"io"

	"github.com/bcicen/jstream"
)

// NewJStream returns a Streamer that decodes with github.com/bcicen/jstream
// behind an io.Pipe. jstream emits each value, at every depth, once it is
// complete (emit depth -1: recursive from the root), decoded into Go values,
// through a channel; like the other pipe decoders it never hands out part of
// a string. It is lenient (it does not check UTF-8 or duplicate keys).
// Units: values.
func NewJStream() Streamer {
	return newPipeStreamer(func(r io.Reader) (int64, error) {
		d := jstream.NewDecoder(r, -1)
		var n int64
		for range d.Stream() {
			n++
		}
		return n, d.Err()
	})
}
