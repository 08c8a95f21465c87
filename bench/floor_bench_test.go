package bench

import (
	"bytes"
	"flag"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"
)

var floorRounds = flag.Int("floorrounds", 9, "the `rounds` of BenchmarkFloor's ratios (0: none, the impls' own figures only)")

// BenchmarkFloor measures the JSON tokenizer against the floor of a
// jsontext-backed tokenizer (docs/design.md's target: at most 1.25 times
// the floor, both measured in the same run), on the 100 KB workloads in
// chunks of 7 bytes (the recordings' median delta) and of 1 KiB:
// BenchmarkFloor/file=F/chunk=N/impl=I, I one of
//
//   - jsontoken: token/jsontoken, reused with Reset, fed the chunks, its
//     handler counting the events;
//   - jsontext-per-read: a jsontext.Decoder fed one token per Read (each
//     Read gives the input from the end of the token before to the end of
//     this one: its white space, its delimiter and the token whole) and
//     read with ReadToken: the validation that a tokenizer built on
//     jsontext cannot do with less, whatever the chunks;
//   - handrolled: internal/handrolled on the same chunks: the least work in
//     the repository that turns them into the same events (finding the
//     tokens, decoding strings, checking keys, reporting);
//   - jsontext-whole: ReadToken over the whole document, the reference of
//     the other benchmarks.
//
// The floor is jsontext-per-read plus handrolled: a design that hands
// jsontext each token and does the rest no dearer than the hand-written
// tokenizer. (The hand-written one also checks the grammar, which jsontext
// checks too; the floor counts that twice, in jsontoken's favour.)
//
// Each reports ns/token (time on the wall in the b.Loop) and allocs/op;
// jsontoken's line adds, from nine rounds (-floorrounds) that each time
// every impl in turn (a batch of at least 10 ms of process CPU time each), the medians
// over the rounds of: x_floor, its time over the floor's in the same round;
// x_per_read and x_whole, over jsontext-per-read's and jsontext-whole's;
// and cpu-ns/token of itself and of the floor.
func BenchmarkFloor(b *testing.B) {
	for _, w := range loadWorkloads(b, "createFile-100k.json", "modifyFile-100k.json", "structured-100k.json") {
		units := tokenUnits(b, w.Data)
		for _, n := range []int{7, 1024} {
			impls := floorImpls(b, w.Data, units, n)
			for _, impl := range impls {
				name := "file=" + strings.TrimSuffix(w.Name, ".json") + "/chunk=" + chunkName(n) + "/impl=" + impl.name
				b.Run(name, func(b *testing.B) {
					impl.run() // warm: buffers grown
					b.ReportAllocs()
					for b.Loop() {
						impl.run()
					}
					perToken := float64(b.Elapsed().Nanoseconds()) / float64(b.N) / float64(len(units))
					b.ReportMetric(perToken, "ns/token")
					if impl.name == "jsontoken" && *floorRounds > 0 {
						reportFloor(b, impls, len(units))
					}
				})
			}
		}
	}
}

// floorImpl is one impl of BenchmarkFloor: run reads the whole document.
type floorImpl struct {
	name string
	run  func()
}

// floorImpls returns BenchmarkFloor's impls for data, whose tokens are
// units, in chunks of n: jsontoken, jsontext-per-read, handrolled,
// jsontext-whole, in that order.
func floorImpls(b *testing.B, data []byte, units [][]byte, n int) []floorImpl {
	var impls []floorImpl
	for _, t := range Tokenizers() {
		name := t.Name
		if name == "argstream" {
			name = "jsontoken"
		}
		s := newTokenizerStreamer(t.New)
		impls = append(impls, floorImpl{name, func() {
			s.tok.Reset(s)
			if err := Stream(s, data, n); err != nil {
				b.Fatal(err)
			}
		}})
	}
	perRead := &unitReader{units: units}
	perReadDec := jsontext.NewDecoder(perRead)
	whole := new(bytes.Buffer)
	wholeDec := jsontext.NewDecoder(whole)
	readAll := func(dec *jsontext.Decoder) {
		for i := range units {
			if _, err := dec.ReadToken(); err != nil {
				b.Fatalf("token %d: %v", i, err)
			}
		}
	}
	impls = slices.Insert(impls, 1, floorImpl{"jsontext-per-read", func() {
		perRead.next, perRead.off = 0, 0
		perReadDec.Reset(perRead)
		readAll(perReadDec)
	}})
	return append(impls, floorImpl{"jsontext-whole", func() {
		whole.Reset()
		whole.Write(data)
		wholeDec.Reset(whole)
		readAll(wholeDec)
	}})
}

// reportFloor times impls (floorImpls') in rounds and reports the ratios
// BenchmarkFloor describes for impls[0].
func reportFloor(b *testing.B, impls []floorImpl, tokens int) {
	rounds := *floorRounds
	floor, perRead, whole := make([]float64, rounds), make([]float64, rounds), make([]float64, rounds)
	self, floorNs := make([]float64, rounds), make([]float64, rounds)
	for r := range rounds {
		var ns [4]float64
		for i, impl := range impls {
			ns[i] = batchCPU(impl.run)
		}
		self[r], floorNs[r] = ns[0], ns[1]+ns[2]
		floor[r], perRead[r], whole[r] = ns[0]/floorNs[r], ns[0]/ns[1], ns[0]/ns[3]
	}
	median := func(v []float64) float64 {
		slices.Sort(v)
		return v[rounds/2]
	}
	b.ReportMetric(median(floor), "x_floor")
	b.ReportMetric(median(perRead), "x_per_read")
	b.ReportMetric(median(whole), "x_whole")
	b.ReportMetric(median(self)/float64(tokens), "cpu-ns/token")
	b.ReportMetric(median(floorNs)/float64(tokens), "floor-cpu-ns/token")
}

// batchCPU runs f for at least 10 ms of process CPU time and returns the CPU
// time of one call, in ns.
func batchCPU(f func()) float64 {
	const minBatch = 10 * time.Millisecond
	start, runs := ProcessCPU(), 0
	for runs == 0 || ProcessCPU()-start < minBatch {
		f()
		runs++
	}
	return float64((ProcessCPU() - start).Nanoseconds()) / float64(runs)
}

// tokenUnits cuts data, one JSON value, into one unit per token: the
// input from the end of the token before to the end of this one.
func tokenUnits(b *testing.B, data []byte) [][]byte {
	dec := jsontext.NewDecoder(bytes.NewReader(data))
	var units [][]byte
	var prev int64
	for {
		if _, err := dec.ReadToken(); err == io.EOF {
			break
		} else if err != nil {
			b.Fatal(err)
		}
		units = append(units, data[prev:dec.InputOffset()])
		prev = dec.InputOffset()
	}
	return units
}

// unitReader gives one unit per Read (a unit longer than the reader's
// buffer in several).
type unitReader struct {
	units [][]byte
	next  int // the unit to read
	off   int // how much of it was read
}

func (r *unitReader) Read(p []byte) (int, error) {
	if r.next == len(r.units) {
		return 0, io.EOF
	}
	n := copy(p, r.units[r.next][r.off:])
	if r.off += n; r.off == len(r.units[r.next]) {
		r.next, r.off = r.next+1, 0
	}
	return n, nil
}
