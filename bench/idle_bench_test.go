package bench

import (
	"runtime"
	"strings"
	"testing"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/aggregate"
	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/sink"
)

// BenchmarkIdleStreams measures the memory an open stream holds while it
// waits for its next chunk: each iteration opens 10,000 streams, feeds each
// the first half of a 1 KB argument in 16-byte chunks, collects garbage and
// reports the live heap they hold as B/stream (the DESIGN.md target is at
// most 4 KiB). With sink=aggregate the figure includes the arguments
// aggregated so far (about half the document); with sink=discard it is the
// tokenizer, translator and stream alone.
//
// BenchmarkIdleStreams/file=F/impl=T/sink=S.
func BenchmarkIdleStreams(b *testing.B) {
	const streams = 10000
	files := []string{"createFile-1k.json", "modifyFile-1k.json", "structured-1k.json"}
	for _, w := range loadWorkloads(b, files...) {
		half := w.Data[:len(w.Data)/2]
		b.Run("file="+strings.TrimSuffix(w.Name, ".json"), func(b *testing.B) {
			for _, t := range Tokenizers() {
				for _, sinkName := range []string{"aggregate", "discard"} {
					b.Run("impl="+t.Name+"/sink="+sinkName, func(b *testing.B) {
						newSink := func() sink.Sink { return aggregate.New() }
						if sinkName == "discard" {
							newSink = func() sink.Sink { return sink.PushFunc(func(*fragment.Progress) error { return nil }) }
						}
						benchIdle(b, streams, half, func() *argstream.Stream {
							return argstream.New(newSink(), t.Options()...)
						})
					})
				}
			}
		})
	}
}

func benchIdle(b *testing.B, streams int, half []byte, open func() *argstream.Stream) {
	var perStream float64
	held := make([]*argstream.Stream, streams)
	for b.Loop() {
		clear(held)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		for i := range held {
			s := open()
			for off := 0; off < len(half); off += 16 {
				if err := s.Feed(half[off:min(off+16, len(half))]); err != nil {
					b.Fatal(err)
				}
			}
			held[i] = s
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		runtime.KeepAlive(held)
		perStream = (float64(after.HeapAlloc) - float64(before.HeapAlloc)) / float64(streams)
	}
	b.ReportMetric(perStream, "B/stream")
}
