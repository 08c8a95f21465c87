package sse

import (
	"strings"
	"testing"

	"github.com/argstream/argstream/internal/testutil"
)

// TestLinear checks docs/design.md's invariant 9 for the Reader: one huge event
// given in 16-byte reads costs time linear in its size, so the Reader does
// not rescan the event from its start on every read. Each shape is a way an
// event can be long: one long data line, many data lines, a long comment,
// a long unknown field name, a long id. n is 16 KiB: the input for 4n and
// the event buffered from it stay in the cache, as CheckLinear asks (at
// 64 KiB the ratio came near the limit of 6 on a shared machine, and once
// over it).
func TestLinear(t *testing.T) {
	shapes := []struct {
		name string
		make func(n int) string
	}{
		{"one data line", func(n int) string { return "data: " + strings.Repeat("x", n) + "\n\n" }},
		{"many data lines", func(n int) string { return strings.Repeat("data: xx\n", n/9) + "\n" }},
		{"many CRLF data lines", func(n int) string { return strings.Repeat("data: x\r\n", n/9) + "\r\n" }},
		{"a long comment", func(n int) string { return ":" + strings.Repeat("c", n) + "\ndata: x\n\n" }},
		{"a long field name", func(n int) string { return strings.Repeat("n", n) + ": v\ndata: x\n\n" }},
		{"a long id", func(n int) string { return "id: " + strings.Repeat("1", n) + "\ndata: x\n\n" }},
		{"a long event type", func(n int) string { return "event: " + strings.Repeat("e", n) + "\ndata: x\n\n" }},
	}
	for _, s := range shapes {
		t.Run(s.name, func(t *testing.T) {
			testutil.CheckLinear(t, 16<<10, func(n int) func() {
				in := []byte(s.make(n))
				src := &chunkReader{}
				r := NewReader(src)
				sizes := []int{16}
				return func() {
					*src = chunkReader{data: in, sizes: sizes}
					r.Reset(src)
					for r.Next() {
					}
					if err := r.Err(); err != nil {
						t.Fatal(err)
					}
				}
			})
		})
	}
}
