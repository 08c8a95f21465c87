package handrolled_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/argstream/argstream/internal/handrolled"
	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/token"
	"github.com/argstream/argstream/token/jsontoken"
)

// resettable is what both tokenizers offer for reuse.
type resettable interface {
	token.Tokenizer
	Reset(h token.Handler)
}

var tokenizers = []struct {
	name string
	make func(h token.Handler) resettable
}{
	{"tok=json", func(h token.Handler) resettable { return jsontoken.New(h) }},
	{"tok=handrolled", func(h token.Handler) resettable { return handrolled.New(h) }},
}

type benchInput struct {
	name string
	data []byte
}

// benchInputs returns the example tool-call arguments, a synthetic 1 MB
// string-heavy document (a file's content in one string, with escapes and
// non-ASCII text) and a synthetic 1 MB document of small scalars, and, when
// the repository sits next to ../shared, the shared 1 MB workloads.
func benchInputs(b *testing.B) []benchInput {
	var ins []benchInput
	examples, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "examples", "*.json"))
	for _, p := range examples {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		ins = append(ins, benchInput{filepath.Base(p), data})
	}
	line := `\tfmt.Println(\"héllo, wörld\", x[i]) // 😀 \u00e9\n`
	content := strings.Repeat(line, (1<<20)/len(line))
	ins = append(ins, benchInput{"strings-1m", []byte(`{"path":"src/main.go","content":"` + content + `"}`)})
	var sb strings.Builder
	sb.WriteString(`{"rows":[`)
	for i := 0; sb.Len() < 1<<20; i++ {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `{"id":%d,"x":%d.5,"ok":true,"tag":"t%d","v":[null,-1e3]}`, i, i*7, i%10)
	}
	sb.WriteString(`]}`)
	ins = append(ins, benchInput{"scalars-1m", []byte(sb.String())})
	for _, w := range []string{"createFile-1m", "modifyFile-1m", "structured-1m"} {
		if data, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "workloads", w+".json")); err == nil {
			ins = append(ins, benchInput{w, data})
		}
	}
	return ins
}

// BenchmarkTokenizer compares handrolled with jsontoken.Tokenizer, each reused with
// Reset, at 16-byte and 1 KiB chunks. Run with -benchmem: both must show 0
// allocs/op.
//
//	go test ./internal/handrolled -run '^$' -bench Tokenizer -benchmem
func BenchmarkTokenizer(b *testing.B) {
	nop := token.HandlerFunc(func(token.Event) error { return nil })
	for _, in := range benchInputs(b) {
		for _, size := range []int{16, 1024} {
			chunks := testutil.SplitEvery(in.data, size)
			for _, tk := range tokenizers {
				b.Run(fmt.Sprintf("%s/chunk=%d/%s", in.name, size, tk.name), func(b *testing.B) {
					tok := tk.make(nop)
					feed := func() {
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
					feed() // grow the buffers
					b.SetBytes(int64(len(in.data)))
					b.ReportAllocs()
					b.ResetTimer()
					for b.Loop() {
						feed()
					}
				})
			}
		}
	}
}
