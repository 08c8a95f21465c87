package render

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/sink"
	"github.com/argstream/argstream/toolcall"
)

// createFile is an fs_create_file call whose content is lines of code,
// about 40 bytes each.
func createFile(lines int) []byte {
	var b strings.Builder
	b.WriteString(`{"path": "src/generated.go", "content": "package main\n\n`)
	for i := range lines {
		fmt.Fprintf(&b, `\tfmt.Println(\"line %d\", x[%d]) // é\n`, i, i%7)
	}
	b.WriteString(`"}`)
	return []byte(b.String())
}

// modifyFile is an fs_modify_file call of n patterns with medium strings.
func modifyFile(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"path": "lib.rs", "patterns": [`)
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, `{"old": "let x = %d;\nlet y = x + 1;", "new": "let x = %d;", "paths": ["src/a%d.rs"]}`, i, i+1, i)
	}
	b.WriteString(`], "dry_run": false}`)
	return []byte(b.String())
}

// renderer is a reused Response and Renderer rendering one call of doc in
// chunks, as a program showing response after response does.
type renderer struct {
	r      *Renderer
	resp   *toolcall.Response
	chunks [][]byte
}

func newRenderer(doc []byte, chunk int, opts ...Option) *renderer {
	r := New(io.Discard, opts...)
	return &renderer{r: r, resp: toolcall.New(toolcall.WithSinks(r.Sink)), chunks: testutil.SplitEvery(doc, chunk)}
}

func (x *renderer) run() {
	x.resp.Start(fragment.Call{Index: 0, ID: "call_0", Name: "fs_create_file"}, nil)
	for _, c := range x.chunks {
		x.resp.Chunk(0, c)
	}
	x.resp.Stop(0)
	x.resp.End()
	x.resp.Reset()
	x.r.Reset()
}

// TestAllocsPerFragment: once its memory has grown, rendering allocates
// the same for a call four times as long: nothing per fragment.
func TestAllocsPerFragment(t *testing.T) {
	for _, st := range styles {
		for _, color := range []bool{false, true} {
			for name, doc := range map[string]func(int) []byte{"createFile": createFile, "modifyFile": modifyFile} {
				var allocs [2]float64
				for i, n := range []int{100, 400} {
					x := newRenderer(doc(n), 16, WithStyle(st), WithColor(color), WithWidth(80))
					x.run()
					allocs[i] = testing.AllocsPerRun(20, x.run)
				}
				if allocs[1] > allocs[0] {
					t.Errorf("%s %v colour %v: %v allocations for n, %v for 4n", name, st, color, allocs[0], allocs[1])
				}
				t.Logf("%s %v colour %v: %v allocations per call", name, st, color, allocs[1])
			}
		}
	}
}

// BenchmarkRender renders 100 KB calls in 16-byte chunks to io.Discard:
// the renderer's cost with toolcall's and argstream's, per fragment.
func BenchmarkRender(b *testing.B) {
	for _, st := range styles {
		for name, doc := range map[string][]byte{"createFile": createFile(2500), "modifyFile": modifyFile(1000)} {
			for _, color := range []bool{false, true} {
				b.Run(fmt.Sprintf("%s/%v/color=%v", name, st, color), func(b *testing.B) {
					frags := countFragments(doc)
					x := newRenderer(doc, 16, WithStyle(st), WithColor(color), WithWidth(80))
					x.run()
					b.SetBytes(int64(len(doc)))
					b.ReportAllocs()
					b.ResetTimer()
					for b.Loop() {
						x.run()
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(frags), "ns/fragment")
				})
			}
		}
	}
}

// BenchmarkNoRender is BenchmarkRender's pipeline without the renderer,
// to tell the renderer's share.
func BenchmarkNoRender(b *testing.B) {
	for name, doc := range map[string][]byte{"createFile": createFile(2500), "modifyFile": modifyFile(1000)} {
		b.Run(name, func(b *testing.B) {
			resp := toolcall.New()
			chunks := testutil.SplitEvery(doc, 16)
			b.SetBytes(int64(len(doc)))
			b.ReportAllocs()
			for b.Loop() {
				resp.Start(fragment.Call{Index: 0, ID: "call_0", Name: "fs_create_file"}, nil)
				for _, c := range chunks {
					resp.Chunk(0, c)
				}
				resp.Stop(0)
				resp.End()
				resp.Reset()
			}
		})
	}
}

func countFragments(doc []byte) int {
	n := 0
	resp := toolcall.New(toolcall.WithSinks(func(c fragment.Call) sink.Sink {
		return sink.PushFunc(func(*fragment.Progress) error { n++; return nil })
	}))
	resp.Start(fragment.Call{Index: 0, ID: "c", Name: "t"}, nil)
	for _, c := range testutil.SplitEvery(doc, 16) {
		resp.Chunk(0, c)
	}
	resp.End()
	return n
}
