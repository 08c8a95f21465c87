package bench

import (
	"fmt"
	"strings"
	"testing"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/dialect"
	"github.com/argstream/argstream/internal/timing"
	"github.com/argstream/argstream/schema"
	"github.com/argstream/argstream/toolcall"
)

// BenchmarkDialect reads the arguments of each workload written in each
// syntax of calls in text (by its Format, as a model would write them, in
// a message with a line of prose before and after), through a
// dialect.Reader driving a toolcall.Response (a Stream and an aggregator
// per call), typed by a schema of the workload's parameters, in chunks of 7
// bytes and 1 KiB: BenchmarkDialect/file=F/chunk=N/syntax=S. It reports
// x_json: its time over that of the same arguments as JSON streamed
// through the JSON tokenizer into an aggregator, in the same chunks,
// measured right after in the same process. Where BenchmarkSyntax measures
// a call's tokenizer alone, this measures the whole reading of a raw
// model's text: framing, markers and all.
func BenchmarkDialect(b *testing.B) {
	for _, w := range loadWorkloads(b, "createFile-100k.json", "modifyFile-100k.json", "structured-100k.json") {
		tools := schemaOf(b, w.Data)
		for _, n := range []int{7, 1024} {
			for _, name := range dialect.SyntaxNames() {
				syn, err := dialect.ParseSyntax(name)
				if err != nil {
					b.Fatal(err)
				}
				bname := fmt.Sprintf("file=%s/chunk=%d/syntax=%s", strings.TrimSuffix(w.Name, ".json"), n, syn)
				call, err := syn.Format("tool", w.Data)
				if err != nil {
					b.Run(bname, func(b *testing.B) { b.Skipf("%s cannot carry it: %v", syn, err) })
					continue
				}
				text := []byte("I'll call the tool now.\n" + string(call) + "\nDone.\n")
				b.Run(bname, func(b *testing.B) {
					read := textReader(b, syn, tools, text, n)
					b.SetBytes(int64(len(w.Data)))
					b.ReportAllocs()
					for b.Loop() {
						read()
					}
					ns := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
					b.ReportMetric(ns/timing.MedianNs(streamer(b, w.Data, n)), "x_json")
				})
			}
		}
	}
}

// textReader returns a func that reads text in chunks of n through a
// reused dialect.Reader and Response, and fails b unless the text held one
// executable call.
func textReader(b *testing.B, syn dialect.Syntax, tools *schema.Tools, text []byte, n int) func() {
	calls := toolcall.New(toolcall.WithStreamOptions(argstream.WithTokenizer(syn.Tokenizer(tools))))
	r := dialect.NewReader(syn, calls)
	return func() {
		r.Reset()
		calls.Reset()
		for i := 0; i < len(text); i += n {
			if _, err := r.Write(text[i:min(i+n, len(text))]); err != nil {
				b.Fatal(err)
			}
		}
		if err := r.Close(); err != nil {
			b.Fatal(err)
		}
		res := calls.End()
		if len(res) != 1 || !res[0].Executable {
			b.Fatalf("%v: %+v", syn, res)
		}
	}
}
