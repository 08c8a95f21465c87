package bench

import (
	"runtime"
	"strings"
	"testing"

	"github.com/argstream/argstream/aggregate"
	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/token"
)

// BenchmarkSteadyState measures allocations per chunk once a tokenizer and
// its consumers are warm: one iteration is one chunk, and at the end of the
// document everything is Reset (which keeps its memory) and the document
// starts again. The DESIGN.md target is 0 allocs/chunk for the tokenizer and
// the translator. The pipeline level adds the aggregator, whose output grows
// with the document until it is Reset.
//
// BenchmarkSteadyState/file=F/chunk=N/impl=T/level=L, L one of tokenizer,
// translator, pipeline.
func BenchmarkSteadyState(b *testing.B) {
	files := []string{"createFile-100k.json", "modifyFile-100k.json", "structured-100k.json"}
	for _, w := range loadWorkloads(b, files...) {
		b.Run("file="+strings.TrimSuffix(w.Name, ".json"), func(b *testing.B) {
			for _, n := range []int{1, 16, 1024} {
				b.Run("chunk="+chunkName(n), func(b *testing.B) {
					for _, t := range Tokenizers() {
						for _, level := range []string{"tokenizer", "translator", "pipeline"} {
							b.Run("impl="+t.Name+"/level="+level, func(b *testing.B) {
								benchSteady(b, newCycler(t, level, w.Data, n))
							})
						}
					}
				})
			}
		})
	}
}

func benchSteady(b *testing.B, c *cycler) {
	// Warm up over one whole document and the start of the next, so that
	// every buffer has reached its size.
	for range Chunks(c.data, c.n) + 1 {
		if err := c.step(); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(c.n))
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for b.Loop() {
		if err := c.step(); err != nil {
			b.Fatal(err)
		}
	}
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(b.N), "allocs/chunk")
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N), "B/chunk")
}

// cycler feeds a document chunk by chunk, over and over, to one tokenizer
// and its consumers, resetting them between documents.
type cycler struct {
	tok   Tokenizer
	reset func()
	data  []byte
	n     int
	off   int
}

// newCycler builds level (tokenizer, translator or pipeline) over t.
func newCycler(t TokenizerImpl, level string, data []byte, n int) *cycler {
	c := &cycler{data: data, n: n}
	switch level {
	case "tokenizer":
		var h nopHandler
		c.tok = t.New(h)
		c.reset = func() { c.tok.Reset(h) }
	case "translator":
		tr := fragment.NewTranslator(nopReceiver{}, nil)
		c.tok = t.New(tr)
		c.reset = func() { tr.Reset(nil); c.tok.Reset(tr) }
	case "pipeline":
		agg := aggregate.New()
		tr := fragment.NewTranslator(agg, nil)
		c.tok = t.New(tr)
		c.reset = func() { agg.Reset(); tr.Reset(nil); c.tok.Reset(tr) }
	default:
		panic("unknown level " + level)
	}
	return c
}

// step feeds the next chunk, first closing and resetting at the end of the
// document.
func (c *cycler) step() error {
	if c.off == len(c.data) {
		if err := c.tok.Close(); err != nil {
			return err
		}
		c.reset()
		c.off = 0
	}
	end := min(c.off+c.n, len(c.data))
	err := c.tok.Feed(c.data[c.off:end])
	c.off = end
	return err
}

type nopHandler struct{}

func (nopHandler) Handle(token.Event) error { return nil }

type nopReceiver struct{}

func (nopReceiver) Push(*fragment.Progress) error { return nil }
