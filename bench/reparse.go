package bench

import "encoding/json"

// Reparse is how the SDKs show partial tool arguments today (the Vercel AI
// SDK's parsePartialJson, genkit's parsePartialJson): on every chunk, try to
// parse everything received so far; when that fails, close the open strings,
// arrays and objects of the text (ClosePartial) and parse that. Every chunk
// costs time proportional to all the text before it: quadratic in the
// argument size. Units: successful decodes.
//
// The SDKs also compare each partial value with the previous one to decide
// whether to emit it; that pass is left out here, so Reparse is if anything
// faster than the real thing.
type Reparse struct {
	text   []byte // everything received
	closed []byte // text with its open values closed
	v      any    // the latest partial value: what the consumer sees
	n      int64
}

// NewReparse returns a Reparse.
func NewReparse() Streamer { return &Reparse{} }

// Feed appends chunk to the text and parses it all again.
func (s *Reparse) Feed(chunk []byte) error {
	s.text = append(s.text, chunk...)
	s.v = nil
	if json.Unmarshal(s.text, &s.v) != nil {
		s.closed = ClosePartial(s.closed[:0], s.text)
		s.v = nil
		if json.Unmarshal(s.closed, &s.v) != nil {
			return nil // nothing to show yet, as in the SDKs
		}
	}
	s.n++
	return nil
}

// Close parses the complete text strictly.
func (s *Reparse) Close() error {
	s.v = nil
	if err := json.Unmarshal(s.text, &s.v); err != nil {
		return err
	}
	s.n++
	return nil
}

// Units returns the number of successful decodes.
func (s *Reparse) Units() int64 { return s.n }

// ReparseCost estimates the bytes Reparse examines for data in chunks of
// size n: each chunk scans the whole text so far four times (the failed
// parse, ClosePartial, and the validating and decoding passes of the parse
// of the closed text).
func ReparseCost(data []byte, n int) int64 {
	if n < 1 || n >= len(data) {
		return int64(len(data))
	}
	var sum int64
	for p := n; ; p += n {
		if p >= len(data) {
			return 4*sum + int64(len(data))
		}
		sum += int64(p)
	}
}
