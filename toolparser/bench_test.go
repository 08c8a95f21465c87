package toolparser_test

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/dialect"
	"github.com/argstream/argstream/internal/testutil/wiretest"
	"github.com/argstream/argstream/internal/timing"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/toolparser"
	"github.com/argstream/argstream/wire"
	"github.com/argstream/argstream/wire/openaistream"
)

// benchMessages are messages of a Qwen3-Coder model: a sentence, then a
// call with one long string (a file's content) or with many small typed
// values, as the workloads' createFile and structured.
func benchMessages(b *testing.B) map[string]string {
	line := "\tfmt.Println(\"hello, world\") // a line of Go, with \"quotes\" & <angles>\n"
	file := strings.Repeat(line, 100<<10/len(line))
	var values strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&values, "<parameter=k%d>\n%d\n</parameter>\n", i, i*7)
	}
	return map[string]string{
		"createFile": "I'll create the file.\n<tool_call>\n<function=write_file>\n<parameter=path>\nsrc/main.go\n</parameter>\n<parameter=content>\n" +
			file + "</parameter>\n<parameter=count>\n3\n</parameter>\n</function>\n</tool_call>",
		// Each value a token or two, as structured arguments stream.
		"structured": "Tagging.\n<tool_call>\n<function=tag>\n" + values.String() + "</function>\n</tool_call>",
	}
}

var benchTools = mustTools(`[{"type": "function", "function": {"name": "write_file", "parameters": {"properties": {
	"path": {"type": "string"}, "content": {"type": "string"}, "count": {"type": "integer"}}}}},
	{"type": "function", "function": {"name": "tag", "parameters": {"additionalProperties": {"type": "integer"}}}}]`)

// BenchmarkToolParser: the tool-parser path per delta of a model's text,
// Qwen3-Coder's syntax, in deltas of 7 bytes (the median real providers
// send). path=reader is the reference: the dialect's Reader driving a
// Response with the call's tokenizer, what reading the calls costs;
// path=writer adds the chunks (toolparser.Writer, each chunk given to a
// function that drops it). path=readchat is the upstream's stream read
// (openaistream) into the dialect's Reader, the reference of path=stream,
// the whole rewrite of one stream (toolparser.Stream, SSE in and out).
// Beside ns/op, ns/delta, and x_ref: the time over that of the reference,
// measured in the same process right after (the median of a few short
// batches).
func BenchmarkToolParser(b *testing.B) {
	for name, text := range benchMessages(b) {
		var deltas []string
		for i := 0; i < len(text); i += 7 {
			deltas = append(deltas, text[i:min(i+7, len(text))])
		}
		sse := []byte(wiretest.DataSSE(wiretest.RawChat(deltas, "stop")...))
		reader := readerPath(b, deltas)
		readchat := readChatPath(b, sse)
		for _, p := range []struct {
			name string
			run  func()
			ref  func()
		}{
			{"reader", reader, reader},
			{"writer", writerPath(b, deltas), reader},
			{"readchat", readchat, readchat},
			{"stream", streamPath(b, sse), readchat},
		} {
			b.Run("args="+name+"/path="+p.name, func(b *testing.B) {
				b.SetBytes(int64(len(text)))
				b.ReportAllocs()
				for b.Loop() {
					p.run()
				}
				ns := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
				b.ReportMetric(ns/float64(len(deltas)), "ns/delta")
				b.ReportMetric(ns/timing.MedianNs(p.ref), "x_ref")
			})
		}
	}
}

// readerPath reads the deltas with a reused dialect Reader and Response.
func readerPath(b *testing.B, deltas []string) func() {
	resp := toolcall.New(toolcall.WithStreamOptions(argstream.WithTokenizer(dialect.Qwen.Tokenizer(benchTools))), toolcall.WithDigestOnly())
	rd := dialect.NewReader(dialect.Qwen, resp, dialect.OnText(func([]byte) {}))
	return func() {
		for _, d := range deltas {
			if _, err := rd.WriteString(d); err != nil {
				b.Fatal(err)
			}
		}
		endMessage(b, rd, resp)
	}
}

// writerPath writes the deltas' chunks with a reused Writer.
func writerPath(b *testing.B, deltas []string) func() {
	w := toolparser.NewWriter(dialect.Qwen, func([]byte) error { return nil }, toolparser.WithTools(benchTools),
		toolparser.WithCallIDs(func() string { return "call_0123456789abcdefghijklmn" }))
	w.SetEnvelope([]byte(wiretest.RawChatHead + `"choices":[]}`))
	return func() {
		for _, d := range deltas {
			if _, err := w.WriteString(d); err != nil {
				b.Fatal(err)
			}
		}
		if err := w.Finish("stop"); err != nil {
			b.Fatal(err)
		}
		w.Reset()
	}
}

// readChatPath reads the upstream's stream, its text into a dialect
// Reader.
func readChatPath(b *testing.B, sse []byte) func() {
	resp := toolcall.New(toolcall.WithStreamOptions(argstream.WithTokenizer(dialect.Qwen.Tokenizer(benchTools))), toolcall.WithDigestOnly())
	rd := dialect.NewReader(dialect.Qwen, resp, dialect.OnText(func([]byte) {}))
	up := toolcall.New()
	opt := wire.OnText(func(_ int64, text []byte) { rd.Write(text) })
	return func() {
		if err := openaistream.ReadChat(b.Context(), bytes.NewReader(sse), up, opt); err != nil {
			b.Fatal(err)
		}
		up.End()
		up.Reset()
		endMessage(b, rd, resp)
	}
}

// streamPath rewrites the upstream's stream, read whole by the client.
func streamPath(b *testing.B, sse []byte) func() {
	buf := make([]byte, 32<<10)
	return func() {
		body := toolparser.Stream(dialect.Qwen, io.NopCloser(bytes.NewReader(sse)), toolparser.WithTools(benchTools))
		for {
			_, err := body.Read(buf)
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
		}
		body.Close()
		if bytes.Contains(buf, []byte(toolparser.ErrType)) {
			b.Fatalf("%s", buf)
		}
	}
}

// endMessage ends the message rd read into resp, fails b if a call
// failed, and readies both for the next.
func endMessage(b *testing.B, rd *dialect.Reader, resp *toolcall.Response) {
	rd.Close()
	for _, r := range resp.End() {
		if r.Err != nil {
			b.Fatal(r.Err)
		}
	}
	resp.Reset()
	rd.Reset()
}
