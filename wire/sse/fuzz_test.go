package sse

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzReads: a stream read in one read and in reads of 1, 2, 3 and 7 bytes
// gives the same events (borrowed data and types copied when the buffer is
// read into again) and the same error, at the same offset and line.
//
//	go test -run '^$' -fuzz FuzzReads ./wire/sse
func FuzzReads(f *testing.F) {
	for _, tc := range specCases {
		f.Add(tc.in)
	}
	f.Add("event: a\ndata: 1\n\nevent: bb\r\ndata: 2\r\n\r\nevent: c\rdata: 3\r\r")
	f.Add("event: content_block_delta\ndata: {\"type\":\"content_block_delta\"}\n\nevent: ping\n")
	f.Fuzz(func(t *testing.T, in string) {
		read := func(size int) ([]ev, string) {
			got, err := readAll(NewReader(&chunkReader{data: []byte(in), sizes: []int{size}}))
			return got, fmt.Sprint(err)
		}
		want, wantErr := read(1 << 20)
		for _, size := range []int{1, 2, 3, 7} {
			got, err := read(size)
			if diff := cmp.Diff(want, got); diff != "" || err != wantErr {
				t.Fatalf("%q in reads of %d: events differ (-whole +reads):\n%s\nerror %s, whole %s", in, size, diff, err, wantErr)
			}
		}
	})
}
