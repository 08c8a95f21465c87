package adapter

import (
	"math/rand/v2"
	"testing"

	"github.com/argstream/argstream/internal/testutil/jsonlayout"
)

// BenchmarkLayout: Anthropic's content_block_delta events read as an
// adapter reads them, in the documented order (Match, the layout learned)
// and with the members of each object in a random order in each event
// (FastRoot, as a Layout does not learn such events but now and then).
//
//	go test -run '^$' -bench Layout -benchmem ./wire/internal/adapter
func BenchmarkLayout(b *testing.B) {
	ev := []byte(`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"ab\ncd"}}`)
	for _, tc := range []struct {
		name  string
		order jsonlayout.Order
	}{{"documented", jsonlayout.Documented}, {"shuffled", jsonlayout.Shuffled}} {
		rng := rand.New(rand.NewPCG(1, 2))
		events := make([][]byte, 64)
		for k := range events {
			var err error
			if events[k], err = jsonlayout.Relayout(ev, jsonlayout.Layout{Order: tc.order, Rand: rng}); err != nil {
				b.Fatal(err)
			}
		}
		b.Run(tc.name, func(b *testing.B) {
			var l Layout
			var data []byte
			var member func(name []byte, i int) int
			slot := func(id uint8, i int) int {
				if i < 0 {
					return 0
				}
				kind := Kept
				if id == 3 {
					kind = Read
				}
				return l.Record(id, kind, i, Skip(data, i))
			}
			member = func(name []byte, i int) int {
				switch string(name) {
				case "type":
					return slot(1, i)
				case "index":
					return slot(2, i)
				case "partial_json":
					return slot(3, i)
				case "delta":
					return Members(data, i, nil, member)
				}
				return -1
			}
			read := func(d []byte) {
				data = d
				if l.Match(d, slot) {
					return
				}
				l.Begin()
				if !FastRoot(d, nil, member) {
					b.Fatal("declined")
				}
				l.Learn(d)
			}
			for _, d := range events {
				read(d)
			}
			n := 0
			for b.Loop() {
				read(events[n%len(events)])
				n++
			}
		})
	}
}
