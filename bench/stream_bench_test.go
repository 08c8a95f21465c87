package bench

import (
	"flag"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// maxWork caps the quadratic contenders: a benchmark whose contender would
// examine more bytes than this per document is skipped. It takes integers
// and floating-point notation (4e10).
var maxWork = workFlag(1 << 30)

func init() {
	flag.Var(&maxWork, "maxwork", "skip quadratic contenders that would examine more `bytes` than this per document")
}

// workFlag is a byte count that accepts floating-point notation.
type workFlag int64

func (w *workFlag) String() string { return strconv.FormatInt(int64(*w), 10) }

func (w *workFlag) Set(s string) error {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f < 0 || f > 1<<62 {
		return fmt.Errorf("want a byte count, such as 1073741824 or 4e10")
	}
	*w = workFlag(f)
	return nil
}

// streamFiles are the documents BenchmarkStream reads: the shared tool-call
// workloads, then three standard JSON documents.
var streamFiles = []string{
	"createFile-1k.json", "createFile-100k.json", "createFile-1m.json",
	"modifyFile-1k.json", "modifyFile-100k.json", "modifyFile-1m.json",
	"structured-1k.json", "structured-100k.json", "structured-1m.json",
	"twitter.json", "citm_catalog.json", "canada.json",
}

// chunkSizes are the sizes documents are cut into; 0 is the whole document
// in one chunk.
var chunkSizes = []int{1, 4, 16, 64, 1024, 0}

func chunkName(n int) string {
	if n < 1 {
		return "whole"
	}
	return strconv.Itoa(n)
}

func loadWorkloads(b *testing.B, names ...string) []Workload {
	b.Helper()
	ws, err := LoadDir("testdata", names...)
	if err != nil {
		b.Fatal(err)
	}
	return ws
}

// BenchmarkStream streams every document at every chunk size through every
// contender: BenchmarkStream/file=F/chunk=N/impl=C. Compare the contenders
// with benchstat -col /impl.
//
// Beside ns/op, MB/s, B/op and allocs/op it reports ns/chunk, and ratio:
// the contender's throughput divided by that of whole-document jsontext
// tokenization of the same bytes (WholeJSONText), measured in the same
// process right after the contender (the median of a few short batches), so
// that the DESIGN.md targets (at least 0.5 for the pipeline at 16-byte
// chunks, 0.8 at 1 KiB) read off directly and machine drift cancels out.
func BenchmarkStream(b *testing.B) {
	cs := Contenders()
	for _, w := range loadWorkloads(b, streamFiles...) {
		b.Run("file="+strings.TrimSuffix(w.Name, ".json"), func(b *testing.B) {
			for _, n := range chunkSizes {
				b.Run("chunk="+chunkName(n), func(b *testing.B) {
					for _, c := range cs {
						b.Run("impl="+c.Name, func(b *testing.B) { benchStream(b, c, w, n) })
					}
				})
			}
		})
	}
}

// benchStream streams w in chunks of n through a fresh Streamer of c per
// iteration, and reports ns/chunk and ratio beside ns/op and MB/s.
func benchStream(b *testing.B, c Contender, w Workload, n int) {
	skipCostly(b, c, w.Data, n)
	b.SetBytes(int64(len(w.Data)))
	b.ReportAllocs()
	units := int64(-1)
	for b.Loop() {
		s := c.New()
		if err := Stream(s, w.Data, n); err != nil {
			b.Fatal(err)
		}
		// Check that the consumer got everything, the same every time.
		if u := s.Units(); u <= 0 || units >= 0 && u != units {
			b.Fatalf("units %d, then %d", units, u)
		} else {
			units = u
		}
	}
	nsPerOp := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	b.ReportMetric(nsPerOp/float64(Chunks(w.Data, n)), "ns/chunk")
	// b.Loop has stopped the timer: the reference is not counted.
	b.ReportMetric(wholeNsPerOp(b, w.Data)/nsPerOp, "ratio")
}

// skipCostly skips b if c is quadratic and would examine more than
// -maxwork bytes to stream data in chunks of n.
func skipCostly(b *testing.B, c Contender, data []byte, n int) {
	b.Helper()
	if c.Cost == nil {
		return
	}
	if cost := c.Cost(data, n); cost > int64(maxWork) {
		b.Skipf("quadratic: would examine %s per document, over -maxwork=%s", size(cost), size(int64(maxWork)))
	}
}

// wholeNsPerOp measures WholeJSONText on data: the median of five batches
// of at least 10 ms each, in ns per document.
func wholeNsPerOp(b *testing.B, data []byte) float64 {
	const batches, minBatch = 5, 10 * time.Millisecond
	var per [batches]float64
	for i := range per {
		start, runs := time.Now(), 0
		for runs == 0 || time.Since(start) < minBatch {
			if n, err := WholeJSONText(data); err != nil || n == 0 {
				b.Fatal(n, err)
			}
			runs++
		}
		per[i] = float64(time.Since(start).Nanoseconds()) / float64(runs)
	}
	slices.Sort(per[:])
	return per[batches/2]
}

// size formats a byte count for a skip message.
func size(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// BenchmarkWhole measures the references, which parse the complete document
// once: jsontext tokenization (the figure the targets in DESIGN.md divide
// by) and encoding/json Unmarshal into generic values.
func BenchmarkWhole(b *testing.B) {
	for _, w := range loadWorkloads(b, streamFiles...) {
		b.Run("file="+strings.TrimSuffix(w.Name, ".json"), func(b *testing.B) {
			b.Run("impl=jsontext", func(b *testing.B) {
				b.SetBytes(int64(len(w.Data)))
				b.ReportAllocs()
				for b.Loop() {
					if n, err := WholeJSONText(w.Data); err != nil || n == 0 {
						b.Fatal(n, err)
					}
				}
			})
			b.Run("impl=unmarshal", func(b *testing.B) {
				b.SetBytes(int64(len(w.Data)))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := WholeUnmarshal(w.Data); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}
