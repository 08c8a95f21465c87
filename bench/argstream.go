package bench

import (
	"github.com/argstream/argstream"
	"github.com/argstream/argstream/aggregate"
	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/token"
	"github.com/argstream/argstream/token/jsontoken"
)

// A Tokenizer is an argstream tokenizer that can be reused for another
// document without allocating.
type Tokenizer interface {
	token.Tokenizer
	Reset(h token.Handler)
}

// A TokenizerImpl is one of argstream's interchangeable tokenizers.
type TokenizerImpl struct {
	Name string // "argstream" (the jsontext adapter) or "handrolled"
	// New makes the tokenizer alone.
	New func(h token.Handler, opts ...token.Option) Tokenizer
	// Func is what argstream.WithTokenizer takes to build a pipeline on the
	// tokenizer; nil for argstream's default (jsontoken.New).
	Func token.NewFunc
}

// Tokenizers returns the jsontext-backed tokenizer and the hand-rolled
// baseline (baseline.go).
func Tokenizers() []TokenizerImpl {
	return append([]TokenizerImpl{{
		Name: "argstream",
		New:  func(h token.Handler, opts ...token.Option) Tokenizer { return jsontoken.New(h, opts...) },
	}}, baselineTokenizers()...)
}

// Options returns the options that make argstream.New use t: none for the
// default tokenizer, as a user writes it.
func (t TokenizerImpl) Options() []argstream.Option {
	if t.Func == nil {
		return nil
	}
	return []argstream.Option{argstream.WithTokenizer(t.Func)}
}

// Contenders returns the tokenizer alone ("NAME-tokenizer"), the full
// pipeline new for each document ("NAME-pipeline"), and the full pipeline
// kept from document to document with Reset ("NAME-reused"), as a gateway
// keeps one from call to call.
func (t TokenizerImpl) Contenders() []Contender {
	var reused *pipelineStreamer
	return []Contender{
		{Name: t.Name + "-tokenizer", New: func() Streamer { return newTokenizerStreamer(t.New) }},
		{Name: t.Name + "-pipeline", New: func() Streamer { return newPipelineStreamer(t.Options()) }},
		{Name: t.Name + "-reused", New: func() Streamer {
			if reused == nil {
				reused = newPipelineStreamer(t.Options())
			} else {
				reused.reset()
			}
			return reused
		}},
	}
}

// tokenizerStreamer runs a tokenizer alone, with a Handler that only counts
// tokens. Units: tokens as jsontext counts them (a string value is one token
// however many StringData events it arrives in).
type tokenizerStreamer struct {
	tok Tokenizer
	n   int64
}

func newTokenizerStreamer(newTok func(token.Handler, ...token.Option) Tokenizer) *tokenizerStreamer {
	s := &tokenizerStreamer{}
	s.tok = newTok(s)
	return s
}

func (s *tokenizerStreamer) Handle(e token.Event) error {
	if e.Kind != token.StringData && e.Kind != token.EndString {
		s.n++
	}
	return nil
}

func (s *tokenizerStreamer) Feed(chunk []byte) error { return s.tok.Feed(chunk) }
func (s *tokenizerStreamer) Close() error            { return s.tok.Close() }
func (s *tokenizerStreamer) Units() int64            { return s.n }

// pipelineStreamer runs the full pipeline a user builds with one call,
// argstream.New(aggregate.New()), or with the option
// argstream.WithTokenizer(handrolled.NewFunc) for the baseline: tokenizer,
// translator to fragments, aggregator. Close also takes the aggregated
// value, as a consumer of complete arguments does. Units: bytes of the
// aggregated arguments.
type pipelineStreamer struct {
	s   *argstream.Stream
	agg *aggregate.Aggregator
	n   int64
}

func newPipelineStreamer(opts []argstream.Option) *pipelineStreamer {
	agg := aggregate.New()
	return &pipelineStreamer{s: argstream.New(agg, opts...), agg: agg}
}

// reset prepares s for another document, keeping its memory.
func (s *pipelineStreamer) reset() {
	s.agg.Reset()
	s.s.Reset(fragment.Call{})
	s.n = 0
}

func (s *pipelineStreamer) Feed(chunk []byte) error { return s.s.Feed(chunk) }

func (s *pipelineStreamer) Close() error {
	if err := s.s.Close(); err != nil {
		return err
	}
	v, err := s.agg.Value()
	s.n = int64(len(v))
	return err
}

func (s *pipelineStreamer) Units() int64 { return s.n }
