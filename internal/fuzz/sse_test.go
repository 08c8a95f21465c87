package fuzz

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/argstream/argstream/wire/sse"
	"github.com/google/go-cmp/cmp"
)

// sseOutcome is everything a Reader says of a stream: its events and how it
// ended.
type sseOutcome struct {
	Events []sseEvent
	Err    string // the category
	Offset int64
	Line   int64
}

type sseEvent struct{ Type, Data, ID string }

// sameOutcome is cmp.Equal, faster: the fuzzer minimizes large inputs by
// running the target thousands of times.
func sameOutcome(a, b sseOutcome) bool {
	return slices.Equal(a.Events, b.Events) && a.Err == b.Err && a.Offset == b.Offset && a.Line == b.Line
}

// readSSE reads chunks, one Read each (an empty chunk an empty Read, but
// never two in a row: a reader that keeps returning nothing is an error of
// its own, io.ErrNoProgress).
func readSSE(t *testing.T, chunks [][]byte, opts ...sse.Option) sseOutcome {
	r := sse.NewReader(&chunkSource{chunks: chunks}, opts...)
	var out sseOutcome
	for r.Next() {
		ev := r.Event()
		out.Events = append(out.Events, sseEvent{string(ev.Type), string(ev.Data), string(ev.ID)})
	}
	if err := r.Err(); err != nil {
		var e *sse.Error
		if !errors.As(err, &e) {
			t.Fatalf("Err() = %v, not an *sse.Error", err)
		}
		out.Err, out.Offset, out.Line = e.Err.Error(), e.Offset, e.Line
	}
	if r.Next() {
		t.Fatal("Next returned true after returning false")
	}
	return out
}

type chunkSource struct {
	chunks    [][]byte
	lastEmpty bool
}

func (c *chunkSource) Read(p []byte) (int, error) {
	for len(c.chunks) > 0 {
		ch := c.chunks[0]
		if len(ch) == 0 && c.lastEmpty {
			c.chunks = c.chunks[1:]
			continue
		}
		n := copy(p, ch)
		if n == len(ch) {
			c.chunks = c.chunks[1:]
		} else {
			c.chunks[0] = ch[n:]
		}
		c.lastEmpty = n == 0
		return n, nil
	}
	return 0, io.EOF
}

// sseSeeds are streams at the edges of the format, besides the recordings.
var sseSeeds = []string{
	"data: YHOO\ndata: +2\ndata: 10\n\n",
	": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n",
	"data\n\ndata\ndata\n\ndata:\n",
	"\xEF\xBB\xBFevent: a\r\ndata: 1\r\n\r\nid: 2\x00\rdata: 2\r\r",
	"\xEF\xBB\xEF\xBB\xBFdata: x\n\n",
	"retry: 10\nfoo\nevent\ndata: [DONE]\n\n",
	"data: x\r",
}

// FuzzSSE feeds any input to an sse.Reader in the reads the fuzzer chooses,
// and checks that it never panics or hangs and gives the same events and
// the same end (category, offset, line) as the whole input in one read and
// in one-byte reads, with the default limit and with a small one (which
// Data never exceeds).
func FuzzSSE(f *testing.F) {
	paths, err := filepath.Glob("../../testdata/llm_streams/*.sse")
	if err != nil || len(paths) == 0 {
		f.Fatalf("no recordings: %v", err)
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, []byte(nil))
		f.Add(data, []byte{7, 0, 3})
	}
	for _, s := range sseSeeds {
		f.Add([]byte(s), []byte(nil))
		f.Add([]byte(s), []byte{1})
	}
	f.Fuzz(func(t *testing.T, data, cuts []byte) {
		for _, opts := range [][]sse.Option{nil, {sse.WithMaxEventSize(64)}} {
			whole := readSSE(t, [][]byte{data}, opts...)
			for _, chunks := range [][][]byte{chunksOf(data, cuts), chunksOf(data, []byte{1})} {
				got := readSSE(t, chunks, opts...)
				if !sameOutcome(whole, got) {
					diff := cmp.Diff(whole, got)
					t.Fatalf("%q in %d reads (%d options) differs from one read (-whole +chunked):\n%s", data, len(chunks), len(opts), diff)
				}
			}
			if opts != nil {
				for _, ev := range whole.Events {
					if len(ev.Data) > 64 {
						t.Fatalf("%q: an event of %d bytes passed the limit of 64", data, len(ev.Data))
					}
				}
			}
		}
	})
}
