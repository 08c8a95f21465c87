package sse

import (
	"bytes"
	"strings"
	"testing"
)

// BenchmarkReader: a Reader kept from stream to stream over a stream of
// Anthropic's content_block_delta events, each of an event line and a data
// line of 120 bytes; ns/event.
//
//	go test -run '^$' -bench Reader -benchmem ./wire/sse
func BenchmarkReader(b *testing.B) {
	const event = "event: content_block_delta\n" +
		`data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"fmt.Println(\"hi\")\\n"}}` + "\n\n"
	const n = 1000
	stream := []byte(strings.Repeat(event, n))
	body := bytes.NewReader(stream)
	rd := NewReader(body)
	b.SetBytes(int64(len(stream)))
	b.ReportAllocs()
	for b.Loop() {
		body.Reset(stream)
		rd.Reset(body)
		got := 0
		for rd.Next() {
			got++
		}
		if rd.Err() != nil || got != n {
			b.Fatalf("%d events: %v", got, rd.Err())
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/event")
}
