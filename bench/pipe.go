package bench

import (
	"encoding/json"
	"io"
)

// pipeStreamer feeds a decoder that runs in its own goroutine and reads
// from an io.Pipe, the way a blocking decoder is made incremental. Write on
// an io.Pipe returns once the reader has taken every byte, so after Feed the
// decoder has the chunk; it delivers a string or number only once the whole
// token has arrived.
type pipeStreamer struct {
	w    *io.PipeWriter
	done chan pipeResult
	n    int64
}

type pipeResult struct {
	n   int64
	err error
}

// newPipeStreamer starts decode on the read end of a new pipe. decode
// returns the units it delivered.
func newPipeStreamer(decode func(r io.Reader) (int64, error)) *pipeStreamer {
	r, w := io.Pipe()
	s := &pipeStreamer{w: w, done: make(chan pipeResult, 1)}
	go func() {
		n, err := decode(r)
		// A decoder that stops early must not leave the writer blocked.
		r.CloseWithError(err)
		s.done <- pipeResult{n, err}
	}()
	return s
}

func (s *pipeStreamer) Feed(chunk []byte) error {
	if len(chunk) == 0 {
		return nil // an empty Write would wait for a Read
	}
	_, err := s.w.Write(chunk)
	return err
}

func (s *pipeStreamer) Close() error {
	s.w.Close()
	res := <-s.done
	s.n = res.n
	return res.err
}

func (s *pipeStreamer) Units() int64 { return s.n }

// NewPipeJSON returns a Streamer that reads tokens with encoding/json's
// Decoder.Token. Units: tokens (',' and ':' are not tokens there).
func NewPipeJSON() Streamer {
	return newPipeStreamer(func(r io.Reader) (int64, error) {
		dec := json.NewDecoder(r)
		var n int64
		for {
			_, err := dec.Token()
			switch {
			case err == io.EOF:
				return n, nil
			case err != nil:
				return n, err
			}
			n++
		}
	})
}

// NewPipeJSONText returns a Streamer that reads tokens with a
// jsontext.Decoder. Units: tokens.
func NewPipeJSONText() Streamer {
	return newPipeStreamer(jsontextTokens)
}
