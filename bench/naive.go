package bench

import (
	"bytes"
	"errors"
	"io"

	"github.com/go-json-experiment/json/jsontext"
)

// NaiveJSONText is the jsontext adapter that DESIGN.md warns about: each
// chunk is handed to a jsontext.Decoder, which reads tokens until the input
// runs out in the middle of one, and ReadToken is simply retried when the
// next chunk arrives. The decoder keeps the unfinished token in its buffer,
// and each retry scans it again from its first byte, so a long string costs
// time quadratic in its length. Units: tokens.
//
// Its reader reports "no input yet" with an error of its own rather than
// io.EOF, so that jsontext does not take a number at the end of a chunk as
// complete (the other trap in DESIGN.md): the adapter is naive about cost,
// not wrong.
type NaiveJSONText struct {
	dec *jsontext.Decoder
	in  chunkReader
	n   int64
}

// errNoInputYet is what chunkReader returns when the current chunk is used
// up but more may come.
var errNoInputYet = errors.New("bench: no input yet")

// chunkReader serves the chunk being fed, then errNoInputYet, or io.EOF
// after Close.
type chunkReader struct {
	b      []byte
	closed bool
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		if r.closed {
			return 0, io.EOF
		}
		return 0, errNoInputYet
	}
	n := copy(p, r.b)
	r.b = r.b[n:]
	return n, nil
}

// NewNaiveJSONText returns a NaiveJSONText.
func NewNaiveJSONText() Streamer {
	s := &NaiveJSONText{}
	s.dec = jsontext.NewDecoder(&s.in)
	return s
}

// Feed reads the tokens the chunk completes. jsontext copies what it reads
// into its own buffer, so the chunk is not kept.
func (s *NaiveJSONText) Feed(chunk []byte) error {
	s.in.b = chunk
	return s.readTokens()
}

// Close reads the last tokens.
func (s *NaiveJSONText) Close() error {
	s.in.closed = true
	return s.readTokens()
}

// Units returns the number of tokens read.
func (s *NaiveJSONText) Units() int64 { return s.n }

func (s *NaiveJSONText) readTokens() error {
	for {
		_, err := s.dec.ReadToken()
		switch {
		case err == nil:
			s.n++
		case err == io.EOF:
			return nil // past the top-level value
		case errors.Is(err, errNoInputYet):
			return nil // retry when the next chunk comes
		default:
			return err
		}
	}
}

// NaiveJSONTextCost estimates the bytes NaiveJSONText examines for data in
// chunks of size n: every byte once, plus, at each chunk boundary, the
// unfinished token (and the whitespace and delimiter before it) again.
func NaiveJSONTextCost(data []byte, n int) int64 {
	cost := int64(len(data))
	if n < 1 || n >= len(data) {
		return cost
	}
	ends := tokenEnds(data)
	var last int64
	j := 0
	for p := int64(n); p < int64(len(data)); p += int64(n) {
		for j < len(ends) && ends[j] <= p {
			last = ends[j]
			j++
		}
		cost += p - last
	}
	return cost
}

// tokenEnds returns the offset just past each token of data, as far as data
// is valid.
func tokenEnds(data []byte) []int64 {
	var ends []int64
	dec := jsontext.NewDecoder(bytes.NewBuffer(data))
	for {
		if _, err := dec.ReadToken(); err != nil {
			return ends
		}
		ends = append(ends, dec.InputOffset())
	}
}
