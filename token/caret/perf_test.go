package caret_test

import (
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/internal/testutil/tokentest"
	"github.com/argstream/argstream/token"
	"github.com/argstream/argstream/token/caret"
	"github.com/argstream/argstream/token/jsontoken"
)

var nop = token.HandlerFunc(func(token.Event) error { return nil })

// feeder returns work that parses block, cut into chunks of size bytes,
// with a tokenizer made ready again by Reset each time.
func feeder(t testing.TB, tok *caret.Tokenizer, block []byte, size int) func() {
	chunks := testutil.SplitEvery(block, size)
	return func() {
		tok.Reset(nop)
		for _, c := range chunks {
			if err := tok.Feed(c); err != nil {
				t.Fatal(err)
			}
		}
		if err := tok.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// longValue is a block with a multi-line value of n lines, with near
// misses of its end marker.
func longValue(n int) []byte {
	var b strings.Builder
	b.WriteString("^^^write_file\npath: src/main.rs\ncontent ---\n")
	for i := range n {
		fmt.Fprintf(&b, "fn f%d() { println!(\"héllo\"); }\r\n--- conten\n-\n\n", i)
	}
	b.WriteString("--- content\n^^^\n")
	return []byte(b.String())
}

// manyParams is a block of n parameters of every form.
func manyParams(n int) []byte {
	var b strings.Builder
	b.WriteString("^^^t\n")
	for i := range n {
		switch i % 4 {
		case 0:
			fmt.Fprintf(&b, "k%d: value %d\n", i, i)
		case 1:
			fmt.Fprintf(&b, "k%d: [\na\n\nb\n]\n", i)
		case 2:
			fmt.Fprintf(&b, "k%d ---\nx\ny\n--- k%d\n", i, i)
		default:
			fmt.Fprintf(&b, "k%d:\n\n", i)
		}
	}
	b.WriteString("^^^\n")
	return []byte(b.String())
}

// longKeys is a block of parameters whose names are the longest allowed,
// and one long multi-line value whose lines all begin its end marker.
func longKeys(n int) []byte {
	var b strings.Builder
	b.WriteString("^^^t\n")
	key := strings.Repeat("k", 120)
	for i := range n / 8 {
		fmt.Fprintf(&b, "%s%d: v\n", key, i)
	}
	fmt.Fprintf(&b, "%s ---\n", key)
	for range n {
		fmt.Fprintf(&b, "--- %s\r\r\n", key[:119])
	}
	fmt.Fprintf(&b, "--- %s\n^^^", key)
	return []byte(b.String())
}

// TestLinear checks invariant 9 (docs/design.md, "Invariants": linear for
// every input): the time grows linearly with the size, for a long multi-line
// value, many parameters and long names, in small chunks and in one.
func TestLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("timing")
	}
	for _, shape := range []struct {
		name  string
		block func(int) []byte
		n     int
	}{{"long value", longValue, 1000}, {"many parameters", manyParams, 1000}, {"long keys", longKeys, 300}} {
		for _, size := range []int{7, 1 << 20} {
			t.Run(fmt.Sprintf("%s/%d", shape.name, size), func(t *testing.T) {
				tok := caret.New(nop)
				testutil.CheckLinear(t, shape.n, func(n int) func() {
					return feeder(t, tok, shape.block(n), size)
				})
			})
		}
	}
}

// TestNoAllocs checks that a tokenizer made ready again with Reset
// allocates nothing, typed and not, in chunks of any size.
func TestNoAllocs(t *testing.T) {
	block := []byte("^^^t\r\nn: 3.5\ni: 4\nb: true\nz: null\ns: héllo\npaths: [\na.go\n\nb.go\n]\nnums: [\n1\n]\n" +
		"o: {\"a\": [1, \"x\"]}\nobjs: [\n{\"a\":1}\n]\nu ---\nline\r\n--- un\n--- u\n" +
		string(longValue(20)[len("^^^write_file\npath: src/main.rs\n"):]))
	for _, nf := range []token.NewFunc{untyped, caret.Typed(tools)} {
		tokentest.Suite{New: nf}.NoAllocs(t, block, 1, 7, 16, 1024)
	}
}

// BenchmarkLongValue measures a block that is mostly a file's content,
// in chunks of the median size real providers send and in one.
func BenchmarkLongValue(b *testing.B) {
	block := longValue(2000)
	for _, size := range []int{7, 1024, len(block)} {
		b.Run(fmt.Sprint(size), func(b *testing.B) {
			tok := caret.New(nop)
			feed := feeder(b, tok, block, size)
			b.SetBytes(int64(len(block)))
			b.ReportAllocs()
			for b.Loop() {
				feed()
			}
		})
	}
}

// BenchmarkCreateFile measures the createFile workload of the benchmarks
// (bench/testdata), written as a caret block by Format, against the JSON
// tokenizer on the same arguments as JSON, in chunks of the median size
// real providers send and of 1 KiB.
func BenchmarkCreateFile(b *testing.B) {
	f, err := os.Open("../../bench/testdata/createFile-100k.json.gz")
	if err != nil {
		b.Skip(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		b.Fatal(err)
	}
	doc, err := io.ReadAll(zr)
	if err != nil {
		b.Fatal(err)
	}
	block, err := caret.Format("write_file", doc)
	if err != nil {
		b.Fatal(err)
	}
	for _, size := range []int{7, 1024} {
		b.Run(fmt.Sprintf("caret/%d", size), func(b *testing.B) {
			feed := feeder(b, caret.New(nop), block, size)
			b.SetBytes(int64(len(block)))
			b.ReportAllocs()
			for b.Loop() {
				feed()
			}
		})
		b.Run(fmt.Sprintf("json/%d", size), func(b *testing.B) {
			tok := jsontoken.New(nop)
			chunks := testutil.SplitEvery(doc, size)
			b.SetBytes(int64(len(doc)))
			b.ReportAllocs()
			for b.Loop() {
				tok.Reset(nop)
				for _, c := range chunks {
					if err := tok.Feed(c); err != nil {
						b.Fatal(err)
					}
				}
				if err := tok.Close(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
