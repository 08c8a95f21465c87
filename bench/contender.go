package bench

// A Streamer consumes one document chunk by chunk. After each Feed returns,
// what the chunk determined has reached the Streamer's consumer (for the
// decoders behind an io.Pipe: the chunk has been read by the decoder).
type Streamer interface {
	// Feed consumes the next chunk. The chunk is only read during the call.
	Feed(chunk []byte) error
	// Close ends the input.
	Close() error
	// Units returns what the consumer received (tokens, values, bytes or
	// decodes: each Streamer says which), so that the work is visibly used
	// and the tests can check that it was all done.
	Units() int64
}

// A Contender is one way to parse a document that arrives in chunks.
type Contender struct {
	Name string
	// New returns a Streamer for one document.
	New func() Streamer
	// Cost, if set, estimates how many bytes the Streamer examines to
	// consume data in chunks of size n (n < 1: whole). Only the quadratic
	// contenders set it; for the others it is about len(data).
	Cost func(data []byte, n int) int64
}

// Contenders returns every contender, argstream's tokenizers first.
func Contenders() []Contender {
	var cs []Contender
	for _, t := range Tokenizers() {
		cs = append(cs, t.Contenders()...)
	}
	return append(cs,
		Contender{Name: "naive-jsontext", New: NewNaiveJSONText, Cost: NaiveJSONTextCost},
		Contender{Name: "reparse", New: NewReparse, Cost: ReparseCost},
		Contender{Name: "pipe-encoding-json", New: NewPipeJSON},
		Contender{Name: "pipe-jsontext", New: NewPipeJSONText},
		Contender{Name: "jstream", New: NewJStream},
	)
}
