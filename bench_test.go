package argstream_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/aggregate"
	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/internal/handrolled"
	"github.com/argstream/argstream/token"
	"github.com/argstream/argstream/token/jsontoken"
	"github.com/go-json-experiment/json/jsontext"
)

// The benchmarks here measure the figures of docs/design.md's "Performance
// targets" from the root package, on the gzipped workloads in
// bench/testdata:
//
//	go test -run '^$' -bench 'Pipeline|WholeJSONText|Ratio' -benchmem -count 5
//	go test -run '^$' -bench 'Breakdown' -benchtime 40x
//
// BenchmarkRatio interleaves the pipeline and the whole-document jsontext
// reference in every iteration and reports their ratio, which is what the
// targets are stated in and what survives a noisy machine best; ratio-best
// divides the fastest iteration of each. BenchmarkBreakdown does the same
// for the pipeline's layers. Linearity, allocations per chunk and the
// memory of idle streams are measured in the bench module (bench/README.md).

var benchWorkloads = []string{
	"createFile-1k", "createFile-100k", "createFile-1m",
	"modifyFile-1k", "modifyFile-100k", "modifyFile-1m",
	"structured-1k", "structured-100k", "structured-1m",
}

var benchChunks = []int{16, 1024, 0}

func chunkLabel(n int) string {
	if n < 1 {
		return "whole"
	}
	return strconv.Itoa(n)
}

var workloadCache = map[string][]byte{}

func loadWorkload(tb testing.TB, name string) []byte {
	tb.Helper()
	if d, ok := workloadCache[name]; ok {
		return d
	}
	raw, err := os.ReadFile(filepath.Join("bench", "testdata", name+".json.gz"))
	if err != nil {
		tb.Skip(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		tb.Fatal(err)
	}
	d, err := io.ReadAll(zr)
	if err != nil {
		tb.Fatal(err)
	}
	workloadCache[name] = d
	return d
}

// wholeJSONText reads every token of data with a jsontext.Decoder: the
// reference the targets divide by.
func wholeJSONText(tb testing.TB, dec *jsontext.Decoder, data []byte) {
	dec.Reset(bytes.NewBuffer(data))
	for {
		_, err := dec.ReadToken()
		if err == io.EOF {
			return
		}
		if err != nil {
			tb.Fatal(err)
		}
	}
}

// pipeline streams data in chunks of n (whole if n < 1) through
// argstream.New(aggregate.New()) and checks the result's length.
func pipeline(tb testing.TB, data []byte, n int, opts ...argstream.Option) {
	agg := aggregate.New()
	s := argstream.New(agg, opts...)
	if n < 1 {
		n = len(data)
	}
	for i := 0; i < len(data); i += n {
		if err := s.Feed(data[i:min(i+n, len(data))]); err != nil {
			tb.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		tb.Fatal(err)
	}
	if v, err := agg.Value(); err != nil || len(v) == 0 {
		tb.Fatal(len(v), err)
	}
}

func BenchmarkWholeJSONText(b *testing.B) {
	for _, name := range benchWorkloads {
		data := loadWorkload(b, name)
		b.Run("file="+name, func(b *testing.B) {
			dec := jsontext.NewDecoder(bytes.NewBuffer(nil))
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				wholeJSONText(b, dec, data)
			}
		})
	}
}

func BenchmarkPipeline(b *testing.B) {
	for _, name := range benchWorkloads {
		data := loadWorkload(b, name)
		b.Run("file="+name, func(b *testing.B) {
			for _, n := range benchChunks {
				b.Run("chunk="+chunkLabel(n), func(b *testing.B) {
					b.SetBytes(int64(len(data)))
					b.ReportAllocs()
					for b.Loop() {
						pipeline(b, data, n)
					}
				})
			}
		})
	}
}

// BenchmarkRatio times the pipeline and the jsontext reference on the same
// bytes in each iteration and reports both throughputs and their ratio.
func BenchmarkRatio(b *testing.B) {
	for _, name := range benchWorkloads {
		data := loadWorkload(b, name)
		b.Run("file="+name, func(b *testing.B) {
			for _, n := range []int{16, 1024} {
				b.Run("chunk="+chunkLabel(n), func(b *testing.B) {
					dec := jsontext.NewDecoder(bytes.NewBuffer(nil))
					var tp, tj time.Duration
					minP, minJ := time.Duration(1<<62), time.Duration(1<<62)
					b.SetBytes(int64(len(data)))
					for b.Loop() {
						t0 := time.Now()
						pipeline(b, data, n)
						t1 := time.Now()
						wholeJSONText(b, dec, data)
						dj, dp := time.Since(t1), t1.Sub(t0)
						tj += dj
						tp += dp
						minP, minJ = min(minP, dp), min(minJ, dj)
					}
					mbs := func(d time.Duration) float64 { return float64(len(data)) * float64(b.N) / 1e6 / d.Seconds() }
					b.ReportMetric(mbs(tp), "MB/s-pipeline")
					b.ReportMetric(mbs(tj), "MB/s-jsontext")
					b.ReportMetric(tj.Seconds()/tp.Seconds(), "ratio")
					// The fastest iteration of each is the one least disturbed
					// by other work on the machine.
					b.ReportMetric(minJ.Seconds()/minP.Seconds(), "ratio-best")
				})
			}
		})
	}
}

type nopReceiver struct{}

type nopHandler struct{}

func (nopHandler) Handle(token.Event) error { return nil }

func (nopReceiver) Push(*fragment.Progress) error { return nil }

// resettable is a tokenizer that can start over with another handler,
// keeping its memory: jsontoken.Tokenizer and the hand-rolled baseline.
type resettable interface {
	token.Tokenizer
	Reset(h token.Handler)
}

// tokenizers are the implementations BenchmarkBreakdown compares.
var tokenizers = []struct {
	name string
	new  func(token.Handler) resettable
	opt  []argstream.Option
}{
	{"jsontext", func(h token.Handler) resettable { return jsontoken.New(h) }, nil},
	{"handrolled", func(h token.Handler) resettable { return handrolled.New(h) },
		[]argstream.Option{argstream.WithTokenizer(handrolled.NewFunc)}},
}

// BenchmarkBreakdown runs, in every iteration, the whole-document jsontext
// reference and the pipeline's layers on the same bytes, for each
// tokenizer: the tokenizer alone, with the translator, with an aggregator
// reused from document to document (Reset), and the full pipeline as a user
// builds it (a fresh argstream.New and aggregate.New per document). It
// reports the best (least disturbed) throughput of each in MB/s, and the
// fresh pipeline's best ratio to jsontext.
//
// plain-1m is one string of plain ASCII text, nothing to decode: on it the
// time per chunk is the fixed cost of a chunk in each layer, which bounds
// the ratio at small chunks whatever the decoder does.
func BenchmarkBreakdown(b *testing.B) {
	for _, name := range []string{"plain-1m", "createFile-1m", "modifyFile-1m", "structured-1m"} {
		var data []byte
		if name == "plain-1m" {
			data = plainDocument()
		} else {
			data = loadWorkload(b, name)
		}
		for _, impl := range tokenizers {
			b.Run("file="+name+"/impl="+impl.name, func(b *testing.B) {
				for _, n := range []int{16, 1024} {
					b.Run("chunk="+chunkLabel(n), func(b *testing.B) {
						breakdown(b, data, n, impl.new, impl.opt)
					})
				}
			})
		}
	}
}

// plainDocument returns {"content":"..."} around 1 MiB of plain ASCII
// text. Built when the benchmark asks, not when any test starts.
func plainDocument() []byte {
	doc := []byte(`{"content":"`)
	doc = append(doc, bytes.Repeat([]byte("lorem ipsum 0123"), 1<<16)...)
	return append(doc, `"}`...)
}

func breakdown(b *testing.B, data []byte, n int, newTok func(token.Handler) resettable, opts []argstream.Option) {
	dec := jsontext.NewDecoder(bytes.NewBuffer(nil))
	agg := aggregate.New()
	trAgg := fragment.NewTranslator(agg, nil)
	tokAgg := newTok(trAgg)
	tr := fragment.NewTranslator(nopReceiver{}, nil)
	tokTr := newTok(tr)
	tok := newTok(nopHandler{})
	feed := func(t resettable) {
		for i := 0; i < len(data); i += n {
			if err := t.Feed(data[i:min(i+n, len(data))]); err != nil {
				b.Fatal(err)
			}
		}
		if err := t.Close(); err != nil {
			b.Fatal(err)
		}
	}
	layers := []struct {
		name string
		run  func()
	}{
		{"jsontext", func() { wholeJSONText(b, dec, data) }},
		{"tokenizer", func() { tok.Reset(nopHandler{}); feed(tok) }},
		{"translator", func() { tr.Reset(nil); tokTr.Reset(tr); feed(tokTr) }},
		{"reused", func() { agg.Reset(); trAgg.Reset(nil); tokAgg.Reset(trAgg); feed(tokAgg) }},
		{"pipeline", func() { pipeline(b, data, n, opts...) }},
	}
	best := make([]time.Duration, len(layers))
	for i := range best {
		best[i] = 1 << 62
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		for i, l := range layers {
			t0 := time.Now()
			l.run()
			best[i] = min(best[i], time.Since(t0))
		}
	}
	chunks := float64((len(data) + n - 1) / n)
	for i, l := range layers {
		b.ReportMetric(float64(len(data))/1e6/best[i].Seconds(), "MB/s-"+l.name)
		b.ReportMetric(float64(best[i].Nanoseconds())/chunks, "ns/chunk-"+l.name)
	}
	b.ReportMetric(best[0].Seconds()/best[len(best)-1].Seconds(), "ratio-best")
}
