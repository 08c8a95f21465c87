package fuzz

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// seed is a fuzz input: a document and the chunk lengths to feed it in
// (see chunksOf; none means whole).
type seed struct {
	data, cuts []byte
}

// seeds returns the inputs the fuzz targets start from: every file under
// ../testdata (the conformance corpora, the examples, the recorded streams'
// index), and the arguments of each recorded provider stream cut where its
// deltas were.
func seeds(t testing.TB) []seed {
	var out []seed
	err := filepath.WalkDir("../testdata", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		out = append(out, seed{data: data})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile("../testdata/llm_streams/DELTAS.json")
	if err != nil {
		t.Fatal(err)
	}
	var files map[string]struct {
		Calls []struct {
			Deltas []string `json:"deltas"`
		} `json:"calls"`
	}
	if err := json.Unmarshal(data, &files); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		for _, c := range f.Calls {
			var s seed
			for _, d := range c.Deltas {
				s.data = append(s.data, d...)
				for n := len(d); ; n -= 255 {
					s.cuts = append(s.cuts, byte(min(n, 255)))
					if n <= 255 {
						break
					}
				}
			}
			out = append(out, s)
		}
	}
	if len(out) < 400 {
		t.Fatalf("only %d seeds: is ../testdata complete?", len(out))
	}
	return out
}

// chunksOf cuts data where the bytes of cuts say: each byte of cuts is the
// length of the next chunk, 0 to 255, repeating, so that the fuzzer explores
// chunkings as it explores inputs. No cuts means the whole input at once.
func chunksOf(data, cuts []byte) [][]byte {
	if len(cuts) == 0 {
		return [][]byte{data}
	}
	var out [][]byte
	for i := 0; len(data) > 0; i++ {
		n := min(int(cuts[i%len(cuts)]), len(data))
		if n == 0 && i >= len(data)+len(cuts) {
			n = 1 // cuts of zeros only: still end
		}
		out = append(out, data[:n])
		data = data[n:]
	}
	return out
}
