package handrolled_test

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/argstream/argstream/internal/handrolled/handrolledtest"
	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/token"
)

// corpus returns every file under ../../testdata, by path.
func corpus(t testing.TB) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	root := filepath.Join("..", "..", "testdata")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		files[filepath.ToSlash(path[len(root)+1:])] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 400 {
		t.Fatalf("only %d corpus files under %s", len(files), root)
	}
	return files
}

// chunkings returns the ways a corpus file is fed: whole, one byte at a
// time, random chunks of up to 16 bytes and of up to 1 KiB (seeded by the
// name), and, for small files, cut once at every offset with an empty chunk
// in the cut.
func chunkings(name string, data []byte) map[string][][]byte {
	h := fnv.New64a()
	h.Write([]byte(name))
	rng := rand.New(rand.NewPCG(h.Sum64(), 2))
	all := map[string][][]byte{
		"whole":       {data},
		"bytes":       testutil.SplitEvery(data, 1),
		"random0-16":  testutil.SplitRandom(data, rng, 16),
		"random0-16b": testutil.SplitRandom(data, rng, 16),
		"random0-1k":  testutil.SplitRandom(data, rng, 1024),
	}
	if len(data) <= 512 {
		for i := 0; i <= len(data); i++ {
			all[fmt.Sprint("cut", i)] = [][]byte{data[:i], {}, data[i:]}
		}
	}
	return all
}

// TestCorpora feeds every corpus file to both tokenizers in every chunking,
// with the default options and with tight limits.
func TestCorpora(t *testing.T) {
	t.Parallel()
	files := corpus(t)
	for name, data := range files {
		for how, chunks := range chunkings(name, data) {
			optSets := [][]token.Option{nil}
			if how == "whole" || how == "bytes" || how == "random0-16" {
				optSets = append(optSets,
					[]token.Option{token.WithMaxDepth(3)},
					[]token.Option{token.WithMaxSize(int64(len(data) / 2))},
					[]token.Option{token.WithMaxDepth(1), token.WithMaxSize(int64(len(data)))})
			}
			for _, opts := range optSets {
				if d := handrolledtest.Diff(chunks, opts...); d != "" {
					t.Errorf("%s fed %s with %d options:\n%s", name, how, len(opts), d)
				}
			}
		}
	}
}

// TestLLMStreams feeds the recorded tool-call streams delta by delta, as the
// providers sent them.
func TestLLMStreams(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "llm_streams", "DELTAS.json"))
	if err != nil {
		t.Fatal(err)
	}
	var streams map[string]struct {
		Calls []struct {
			Key    string   `json:"key"`
			Deltas []string `json:"deltas"`
		} `json:"calls"`
	}
	if err := json.Unmarshal(data, &streams); err != nil {
		t.Fatal(err)
	}
	n := 0
	for name, s := range streams {
		for _, c := range s.Calls {
			var chunks [][]byte
			for _, d := range c.Deltas {
				chunks = append(chunks, []byte(d))
			}
			n++
			if d := handrolledtest.Diff(chunks); d != "" {
				t.Errorf("%s %s:\n%s", name, c.Key, d)
			}
		}
	}
	if n < 20 {
		t.Errorf("only %d recorded calls", n)
	}
}

// TestExhaustive feeds every string of up to 3 bytes over an alphabet of
// JSON's structural bytes and then some, whole and byte by byte, inside a
// few contexts, and every string of 4 bytes whole.
func TestExhaustive(t *testing.T) {
	t.Parallel()
	alphabet := []byte(`{}[],:"1-.e0tnx \` + "\xc3")
	contexts := []struct{ pre, post string }{
		{"", ""}, {"[", "]"}, {`{"a":`, "}"}, {`{"a":1,`, "}"}, {`[0,`, ""}, {"{", ""}, {`{"a"`, ""},
	}
	n := 0
	var walk func(prefix []byte)
	walk = func(prefix []byte) {
		for ci, c := range contexts {
			if len(prefix) == 4 && ci != 0 {
				continue // 4 bytes at the root only, whole
			}
			in := []byte(c.pre + string(prefix) + c.post)
			ways := [][][]byte{{in}, testutil.SplitEvery(in, 1)}
			if len(prefix) == 4 {
				ways = ways[:1]
			}
			for _, chunks := range ways {
				n++
				if d := handrolledtest.Diff(chunks, token.WithMaxDepth(4)); d != "" {
					t.Fatalf("%q in %d chunks:\n%s", in, len(chunks), d)
				}
			}
		}
		if len(prefix) < 4 {
			for _, c := range alphabet {
				walk(append(prefix[:len(prefix):len(prefix)], c))
			}
		}
	}
	if testing.Short() {
		alphabet = alphabet[:8]
	}
	walk(nil)
	t.Logf("%d inputs", n)
}
