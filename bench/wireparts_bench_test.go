package bench

import (
	"bytes"
	"testing"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/internal/handrolled"
	"github.com/argstream/argstream/token"
	"github.com/argstream/argstream/token/jsontoken"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire/sse"
)

// BenchmarkWireParts splits argstream's whole path of BenchmarkWire into
// its parts, on the synthetic streams, to show where a delta's time goes
// and what the 20× target leaves for each:
// BenchmarkWireParts/wire=W/stream=S/part=P, where P is
//
//   - sse: sse.Reader reading every event of the body, and nothing more;
//   - arguments: the stream's argument deltas, already out of their
//     envelopes, given to a reused toolcall.Response (Start, Chunk for each,
//     End): the tokenizer, the translator, the aggregator and the call
//     layer, without any wire;
//   - arguments-handrolled: the same with the hand-written baseline
//     tokenizer instead of the jsontext adapter;
//   - tokenizer, tokenizer-handrolled: the deltas given to a reused
//     jsontoken.Tokenizer alone, or the baseline's, with a handler that
//     does nothing;
//   - sdk: the SDK contender of BenchmarkWire, whose CPU time over 20 is
//     the budget of argstream's whole path.
//
// Each reports cpu-ns/delta and of-whole: its CPU time over that of
// BenchmarkWire's argstream contender on the same stream, measured in the
// same process right after it (the median of five batches). The envelope
// is what is left: whole minus sse minus arguments.
func BenchmarkWireParts(b *testing.B) {
	for _, wire := range Wires {
		b.Run("wire="+wire, func(b *testing.B) {
			ss, err := LoadWireStreams(wire, "testdata", []string{"1k", "100k"}, false)
			if err != nil {
				b.Fatal(err)
			}
			cs := WireContenders(wire, nil)
			whole, sdk := cs[0], cs[len(cs)-1]
			for _, s := range ss {
				ws, err := LoadDir("testdata", s.Name+".json")
				if err != nil {
					b.Fatal(err)
				}
				deltas := CutDeltas(ws[0].Data)
				name := ToolName(s.Name)
				wholeRun := newWireRun(b, whole, s)
				parts := []struct {
					name string
					run  func() func()
				}{
					{"sse", func() func() { return sseOnly(s.Parts[0]) }},
					{"arguments", func() func() { return argumentsOnly(b, name, deltas) }},
					{"arguments-handrolled", func() func() {
						return argumentsOnly(b, name, deltas, toolcall.WithStreamOptions(argstream.WithTokenizer(handrolled.NewFunc)))
					}},
					{"tokenizer", func() func() { return tokenizerOnly(b, deltas, jsontoken.New(nil)) }},
					{"tokenizer-handrolled", func() func() { return tokenizerOnly(b, deltas, handrolled.New(nil)) }},
					{"sdk", func() func() { r := newWireRun(b, sdk, s); return func() { r.run(b) } }},
				}
				b.Run("stream="+s.Name, func(b *testing.B) {
					for _, p := range parts {
						b.Run("part="+p.name, func(b *testing.B) {
							f := p.run()
							cpu := ProcessCPU()
							for b.Loop() {
								f()
							}
							cpuPerOp := float64((ProcessCPU() - cpu).Nanoseconds()) / float64(b.N)
							b.ReportMetric(cpuPerOp/float64(len(deltas)), "cpu-ns/delta")
							b.ReportMetric(cpuPerOp/medianCPU(func() { wholeRun.run(b) }), "of-whole")
						})
					}
				})
			}
		})
	}
}

// sseOnly reads every event of body.
func sseOnly(body []byte) func() {
	var br bytes.Reader
	rd := sse.NewReader(&br)
	return func() {
		br.Reset(body)
		rd.Reset(&br)
		for rd.Next() {
		}
		if rd.Err() != nil {
			panic(rd.Err())
		}
	}
}

// argumentsOnly gives deltas to one call of a reused toolcall.Response.
func argumentsOnly(b *testing.B, name string, deltas [][]byte, opts ...toolcall.Option) func() {
	resp := toolcall.New(opts...)
	f := func() {
		resp.Reset()
		if err := resp.Start(fragment.Call{Index: 0, ID: "call_1", Name: name}, nil); err != nil {
			b.Fatal(err)
		}
		for _, d := range deltas {
			if err := resp.Chunk(0, d); err != nil {
				b.Fatal(err)
			}
		}
		if r := resp.End(); len(r) != 1 || r[0].Err != nil {
			b.Fatalf("%+v", r)
		}
	}
	f()
	return f
}

// tokenizerOnly gives deltas to t, reset for each run to report to a
// handler that does nothing.
func tokenizerOnly(b *testing.B, deltas [][]byte, t interface {
	token.Tokenizer
	Reset(token.Handler)
}) func() {
	h := token.HandlerFunc(func(token.Event) error { return nil })
	f := func() {
		t.Reset(h)
		for _, d := range deltas {
			if err := t.Feed(d); err != nil {
				b.Fatal(err)
			}
		}
		if err := t.Close(); err != nil {
			b.Fatal(err)
		}
	}
	f()
	return f
}
