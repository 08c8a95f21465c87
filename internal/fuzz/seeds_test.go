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
// ../../testdata (the conformance corpora, the examples, the recorded streams'
// index), the arguments of each recorded provider stream cut where its
// deltas were, and keySeeds.
func seeds(t testing.TB) []seed {
	var out []seed
	err := filepath.WalkDir("../../testdata", func(path string, d fs.DirEntry, err error) error {
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
	data, err := os.ReadFile("../../testdata/llm_streams/DELTAS.json")
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
	for _, s := range keySeeds {
		out = append(out, seed{data: []byte(s.data), cuts: []byte(s.cuts)})
	}
	if len(out) < 400 {
		t.Fatalf("only %d seeds: is ../../testdata complete?", len(out))
	}
	return out
}

// keySeeds are objects with keys that a tool runtime would confuse (equal
// under case folding, holding NUL) and keys that only look so, some cut
// inside a key or an escape in it.
var keySeeds = []struct{ data, cuts string }{
	{`{"path":"src/a","PATH":"/etc/passwd"}`, ""},
	{`{"path":"src/a","PATH":"/etc/passwd"}`, "\x05\x0c\x03"},
	{`{"path\u0000":"x","path":"y"}`, ""},
	{`{"path\u0000":"x"}`, "\x08\x02"},
	{`{"p\u0061th":1,"PATH":2}`, "\x04\x01"},
	{`{"k":1,"\u212a":2}`, ""},
	{"{\"k\":1,\"\u212a\":2}", "\x09\x01"}, // the Kelvin sign cut in its UTF-8
	{`{"ǅ":1,"ǆ":2,"Ǆ":3}`, ""},
	{`{"straße":1,"STRASSE":2,"i":3,"İ":4,"ı":5}`, ""},
	{`{"straße":1,"STRAẞE":2}`, ""},
	{`{"σ":1,"ς":2}`, ""},
	{`{"a":{"p":1},"P":2,"b":[{"q":1},{"Q":2}]}`, ""},
	{`{"k00":0,"k01":0,"k02":0,"k03":0,"k04":0,"k05":0,"k06":0,"k07":0,"k08":0,"k09":0,"k10":0,"k11":0,"k12":0,"k13":0,"k14":0,"k15":0,"k16":0,"k17":0,"K03":0}`, ""},
	{`{"":0,"\u0000":1}`, ""},
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
