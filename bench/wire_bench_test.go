package bench

import (
	"errors"
	"flag"
	"io"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

var wireLayouts = flag.String("wirelayouts", strings.Join(WireLayouts, ","), "the `layouts` of BenchmarkWire's streams (see WireLayouts)")

var wireSizes = flag.String("wiresizes", "1k,100k", "the workload `sizes` of BenchmarkWire's synthetic streams (1m: about 150,000 deltas a stream, over a second a run for the SDKs)")

// BenchmarkWire measures the whole path from a provider's wire bytes to
// each tool call's final arguments: BenchmarkWire/wire=W/stream=S/layout=L/impl=C,
// for the wires anthropic, openai-chat and openai-responses; the synthetic
// streams of the workloads (one tool call whose arguments are the
// workload, cut into deltas of the recordings' sizes: see DeltaSizes and
// SyntheticStream) and, as stream=recordings, every recording of the wire
// read one after the other; each in the layouts of -wirelayouts (all of
// WireLayouts by default: the events' data as the API writes it, and
// written again with members sorted or shuffled, spaced, with an unknown
// object member, escaped as Python writes it); and the contenders of
// WireContenders:
// argstream (the wire adapter's reader and its SSE reader driving a
// toolcall.Response, all three kept from response to response with Reset,
// End giving the compact arguments), argstream-policy (the same with
// PolicyFile applied to every call), argstream-new (the adapter's Read
// function, whose reader and SSE reader are new for each response), sdk
// (the provider's Go SDK: its SSE decoding, its accumulator, json.Unmarshal
// of the arguments).
//
// Beside ns/op, MB/s (of SSE bytes), B/op and allocs/op, it reports per
// argument delta event: ns/delta (time on the wall), cpu-ns/delta (the
// process's CPU time, all threads, the garbage collector's included: what
// the path costs, whatever else the machine runs), allocs/delta and
// B/delta; and, for the contenders other than argstream, vs-argstream: the
// contender's CPU time over argstream's on the same stream, argstream's
// measured in the same process right after the contender (the median of
// five batches of at least 10 ms).
func BenchmarkWire(b *testing.B) {
	pol, err := LoadPolicy(PolicyFile)
	if err != nil {
		b.Fatal(err)
	}
	sizes := strings.Split(*wireSizes, ",")
	for _, wire := range Wires {
		b.Run("wire="+wire, func(b *testing.B) {
			ss, err := LoadWireStreams(wire, "testdata", sizes, true)
			if err != nil {
				b.Fatal(err)
			}
			cs := WireContenders(wire, pol)
			for _, s := range ss {
				b.Run("stream="+s.Name, func(b *testing.B) {
					ls, err := InLayouts([]WireStream{s}, strings.Split(*wireLayouts, ","))
					if err != nil {
						b.Fatal(err)
					}
					for _, s := range ls {
						b.Run("layout="+s.Layout, func(b *testing.B) {
							for _, c := range cs {
								b.Run("impl="+c.Name, func(b *testing.B) { benchWire(b, c, s, cs[0]) })
							}
						})
					}
				})
			}
		})
	}
}

// wireRun is one contender ready to read a stream: it reads every part
// once, and checks that each part ends as it did the first time.
type wireRun struct {
	p       WireParser
	s       WireStream
	wantErr []bool
}

// newWireRun makes c's parser and reads s once with it. It fails b on an
// error but argstream's io.ErrUnexpectedEOF on a recording cut short.
func newWireRun(b *testing.B, c WireContender, s WireStream) *wireRun {
	b.Helper()
	r := &wireRun{p: c.New(), s: s, wantErr: make([]bool, len(s.Parts))}
	for i, part := range s.Parts {
		calls, err := r.p.Read(part)
		switch {
		case err != nil && (c.Name == "sdk" || s.Files == nil || !errors.Is(err, io.ErrUnexpectedEOF)):
			b.Fatal(err)
		case len(calls) == 0:
			b.Fatalf("part %d: no tool call", i)
		}
		r.wantErr[i] = err != nil
	}
	return r
}

// run reads every part of the stream.
func (r *wireRun) run(b *testing.B) {
	for i, part := range r.s.Parts {
		calls, err := r.p.Read(part)
		if (err != nil) != r.wantErr[i] || len(calls) == 0 {
			b.Fatalf("part %d: %d calls, error %v; the first time %v", i, len(calls), err, r.wantErr[i])
		}
	}
}

func benchWire(b *testing.B, c WireContender, s WireStream, ref WireContender) {
	r := newWireRun(b, c, s)
	b.SetBytes(int64(s.Bytes()))
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	cpu := ProcessCPU()
	for b.Loop() {
		r.run(b)
	}
	// b.Loop has stopped the timer, and set b.N to the iterations run.
	cpu = ProcessCPU() - cpu
	runtime.ReadMemStats(&after)
	deltas := float64(b.N) * float64(s.Deltas)
	nsPerOp := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	cpuPerOp := float64(cpu.Nanoseconds()) / float64(b.N)
	b.ReportMetric(nsPerOp/float64(s.Deltas), "ns/delta")
	b.ReportMetric(cpuPerOp/float64(s.Deltas), "cpu-ns/delta")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/deltas, "allocs/delta")
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/deltas, "B/delta")
	if c.Name == ref.Name {
		return
	}
	refRun := &wireRun{p: ref.New(), s: s, wantErr: make([]bool, len(s.Parts))}
	for i, part := range s.Parts {
		_, err := refRun.p.Read(part)
		refRun.wantErr[i] = err != nil
	}
	b.ReportMetric(cpuPerOp/medianCPU(func() { refRun.run(b) }), "vs-argstream")
}

// medianCPU times f in process CPU time: the median of five batches of at
// least 10 ms, in ns per call.
func medianCPU(f func()) float64 {
	const batches, minBatch = 5, 10 * time.Millisecond
	var per [batches]float64
	for i := range per {
		start, runs := ProcessCPU(), 0
		for runs == 0 || ProcessCPU()-start < minBatch {
			f()
			runs++
		}
		per[i] = float64((ProcessCPU() - start).Nanoseconds()) / float64(runs)
	}
	slices.Sort(per[:])
	return per[batches/2]
}
