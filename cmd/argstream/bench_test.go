package main

import (
	"bytes"
	"compress/gzip"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// benchDoc1 is a tiny document with every kind of value.
const benchDoc1 = `{"path":"src/main.rs","content":"fn main() {\n\tprintln!(\"héllo 😀\");\n}\n","n":[1,-2.5e3,true,false,null],"o":{}}`

// benchFiles writes benchDoc1 as a.json and gzipped as b.json.gz.
func benchFiles(t *testing.T) (plain, gz string) {
	t.Helper()
	dir := t.TempDir()
	plain = filepath.Join(dir, "a.json")
	if err := os.WriteFile(plain, []byte(benchDoc1), 0o644); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte(benchDoc1))
	zw.Close()
	gz = filepath.Join(dir, "b.json.gz")
	if err := os.WriteFile(gz, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return plain, gz
}

// runBenchCmd runs argstream bench with a fast measurement and returns its
// exit status, stdout and stderr.
func runBenchCmd(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	args = append([]string{"bench", "--runs", "3", "--time", "1ms"}, args...)
	code := run(args, env{strings.NewReader(""), &stdout, &stderr})
	return code, stdout.String(), stderr.String()
}

func TestBench(t *testing.T) {
	plain, gz := benchFiles(t)
	for _, impl := range []string{"jsontext", "handrolled"} {
		for _, chunk := range []string{"1", "16", "0"} {
			code, out, errOut := runBenchCmd("--impl", impl, "--chunk", chunk, plain, gz)
			if code != exitOK || errOut != "" {
				t.Fatalf("--impl %s --chunk %s: exit %d, stderr %q", impl, chunk, code, errOut)
			}
			lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			if len(lines) != 2 {
				t.Fatalf("--impl %s --chunk %s: %d lines, want 2:\n%s", impl, chunk, len(lines), out)
			}
			for i, name := range []string{"a.json", "b.json"} {
				checkBenchLine(t, lines[i], name, chunk, impl)
			}
		}
	}
}

// checkBenchLine checks one output line: its fields, in order, and their
// values.
func checkBenchLine(t *testing.T, line, name, chunk, impl string) {
	t.Helper()
	var keys []string
	dec := jsontext.NewDecoder(strings.NewReader(line)) // keys in their order
	if _, err := dec.ReadToken(); err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	for dec.PeekKind() != '}' {
		k, err := dec.ReadToken()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k.String())
		if err := dec.SkipValue(); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"file", "bytes", "chunk", "impl", "pipeline_mb_s", "whole_jsontext_mb_s", "ratio", "allocs_per_chunk", "bytes_per_chunk", "reused_mb_s", "reused_ratio"}
	if !slices.Equal(keys, want) {
		t.Fatalf("keys %q, want %q", keys, want)
	}
	var r benchResult
	if err := json.Unmarshal([]byte(line), &r); err != nil {
		t.Fatal(err)
	}
	if r.File != name || r.Bytes != len(benchDoc1) || strconv.Itoa(r.Chunk) != chunk || r.Impl != impl {
		t.Errorf("%s: want file %s, bytes %d, chunk %s, impl %s", line, name, len(benchDoc1), chunk, impl)
	}
	if r.PipelineMBs <= 0 || r.WholeMBs <= 0 || r.Ratio <= 0 || r.ReusedMBs <= 0 || r.ReusedRatio <= 0 {
		t.Errorf("%s: throughputs and ratios must be positive", line)
	}
	// The figures are rounded to 0.01 MB/s and the ratios to 0.0001.
	for _, x := range []struct{ ratio, mbs float64 }{{r.Ratio, r.PipelineMBs}, {r.ReusedRatio, r.ReusedMBs}} {
		if want := x.mbs / r.WholeMBs; math.Abs(x.ratio-want) > 1e-4+want*(0.01/x.mbs+0.01/r.WholeMBs) {
			t.Errorf("%s: ratio %v, but %v/%v = %v", line, x.ratio, x.mbs, r.WholeMBs, want)
		}
	}
	// At least the Stream and the aggregator are allocated once per
	// document; a document is at most len(benchDoc1) chunks.
	if r.AllocsPerChunk <= 0 || r.BytesPerChunk <= 0 || r.AllocsPerChunk > 1000 {
		t.Errorf("%s: allocations per chunk out of range", line)
	}
}

func TestBenchErrors(t *testing.T) {
	plain, gz := benchFiles(t)
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"path":"a","content":"unfinished`), 0o644)
	notGzip := filepath.Join(dir, "not.json.gz")
	os.WriteFile(notGzip, []byte(benchDoc1), 0o644)

	usage := [][]string{
		{},                            // no FILE
		{"--chunk", "-1", plain},      // negative chunk
		{"--chunk", "x", plain},       // not a number
		{"--impl", "simdjson", plain}, // unknown tokenizer
		{"--runs", "0", plain},
		{"--time", "-1s", plain},
		{"--nope", plain},
		{plain, filepath.Join(dir, "missing.json")}, // unreadable: nothing measured
		{notGzip},
	}
	for _, args := range usage {
		code, out, errOut := runBenchCmd(args...)
		if code != exitUsage || out != "" || errOut == "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit %d, a message and no output", args, code, out, errOut, exitUsage)
		}
	}

	// Invalid input: reported, and the other files still measured.
	code, out, errOut := runBenchCmd(bad, gz)
	if code != exitInvalid || !strings.Contains(errOut, "bad.json") || strings.Count(out, "\n") != 1 || !strings.Contains(out, `"file":"b.json"`) {
		t.Errorf("invalid input: exit %d, stdout %q, stderr %q; want exit %d, the error and b.json measured", code, out, errOut, exitInvalid)
	}
}
