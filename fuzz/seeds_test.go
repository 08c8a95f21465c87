package fuzz

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// seeds returns the documents the fuzz targets start from: every JSON file
// under ../testdata (the conformance corpora and the examples) and the
// arguments of the recorded provider streams.
func seeds(t testing.TB) [][]byte {
	var out [][]byte
	err := filepath.WalkDir("../testdata", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".json") || strings.HasSuffix(path, "DELTAS.json") {
			return err
		}
		data, err := os.ReadFile(path)
		if err == nil && len(data) <= 64<<10 { // the fuzzer works on small inputs
			out = append(out, data)
		}
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
			Joined string `json:"joined"`
		} `json:"calls"`
	}
	if err := json.Unmarshal(data, &files); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		for _, c := range f.Calls {
			out = append(out, []byte(c.Joined))
		}
	}
	if len(out) < 300 {
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
