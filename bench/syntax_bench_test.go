package bench

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/aggregate"
	"github.com/argstream/argstream/dialect"
	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/internal/timing"
	"github.com/argstream/argstream/schema"
	"github.com/argstream/argstream/token/dsml"
	"github.com/argstream/argstream/token/minimax"
)

// BenchmarkSyntax streams the arguments of each workload written in each
// text syntax whose calls a tokenizer of tags reads (by its Format, as a
// model would write them; the JSON families' calls are JSON text, and
// BenchmarkDialect measures their framing) through a Stream
// with the syntax's tokenizer, typed by a schema of the workload's
// parameters (so that the arrays of objects are parsed as JSON, as they
// are in JSON), into an aggregator, in chunks of
// the median size real providers send (7 bytes) and of 1 KiB:
// BenchmarkSyntax/file=F/chunk=N/syntax=S. Beside ns/op and MB/s (of the
// arguments as JSON, so that the syntaxes compare), it reports x_json: its
// time over that of the same arguments as JSON through the JSON tokenizer,
// in the same chunks, measured in the same process right after (the median
// of a few short batches).
func BenchmarkSyntax(b *testing.B) {
	for _, w := range loadWorkloads(b, "createFile-100k.json", "modifyFile-100k.json", "structured-100k.json") {
		tools := schemaOf(b, w.Data)
		for _, n := range []int{7, 1024} {
			for _, syn := range []dialect.Syntax{dialect.Caret, dialect.XML, dialect.Qwen, dialect.GLM45, dialect.MiniMaxM2, dialect.DeepSeekDSML} {
				name := fmt.Sprintf("file=%s/chunk=%d/syntax=%s", strings.TrimSuffix(w.Name, ".json"), n, syn)
				text, err := callSource(syn, w.Data)
				if err != nil {
					b.Run(name, func(b *testing.B) { b.Skipf("%s cannot carry it: %v", syn, err) })
					continue
				}
				b.Run(name, func(b *testing.B) {
					feed := streamer(b, text, n, argstream.WithTokenizer(syn.Tokenizer(tools)))
					b.SetBytes(int64(len(w.Data)))
					b.ReportAllocs()
					for b.Loop() {
						feed()
					}
					ns := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
					b.ReportMetric(ns/timing.MedianNs(streamer(b, w.Data, n)), "x_json")
				})
			}
		}
	}
}

// callSource is one call of the tool "tool" with the arguments args as its
// tokenizer reads it: Format's text, but for the syntaxes whose calls a
// section gathers, which the dialect's Reader frames (MiniMax, DSML).
func callSource(syn dialect.Syntax, args []byte) ([]byte, error) {
	switch syn {
	case dialect.MiniMaxM2:
		return minimax.Format("tool", args)
	case dialect.DeepSeekDSML:
		return dsml.Format("tool", args)
	}
	return syn.Format("tool", args)
}

// streamer returns a func that streams data in chunks of n through a
// reused Stream into an aggregator, and fails b on an error.
func streamer(b *testing.B, data []byte, n int, opts ...argstream.Option) func() {
	agg := aggregate.New()
	s := argstream.New(agg, opts...)
	return func() {
		s.Reset(fragment.Call{})
		agg.Reset()
		for i := 0; i < len(data); i += n {
			if err := s.Feed(data[i:min(i+n, len(data))]); err != nil {
				b.Fatal(err)
			}
		}
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

// schemaOf returns the schema of a tool whose arguments are doc, a JSON
// object: each parameter typed as its value is.
func schemaOf(b *testing.B, doc []byte) *schema.Tools {
	var args map[string]any
	if err := json.Unmarshal(doc, &args); err != nil {
		b.Fatal(err)
	}
	typeOf := func(v any) string {
		switch v.(type) {
		case string:
			return "string"
		case float64:
			return "number"
		case bool:
			return "boolean"
		case nil:
			return "null"
		case []any:
			return "array"
		}
		return "object"
	}
	props := map[string]any{}
	for k, v := range args {
		p := map[string]any{"type": typeOf(v)}
		if a, ok := v.([]any); ok && len(a) > 0 {
			p["items"] = map[string]any{"type": typeOf(a[0])}
		}
		props[k] = p
	}
	def, err := json.Marshal([]any{map[string]any{"name": "tool", "input_schema": map[string]any{"properties": props}}})
	if err != nil {
		b.Fatal(err)
	}
	tools, err := schema.Parse(def)
	if err != nil {
		b.Fatal(err)
	}
	return tools
}
