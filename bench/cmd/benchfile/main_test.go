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

// runBenchCmd runs benchfile with a fast measurement and returns its exit
// status, stdout and stderr.
func runBenchCmd(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	args = append([]string{"--runs", "3", "--time", "1ms"}, args...)
	code := runBench(env{strings.NewReader(""), &stdout, &stderr}, args)
	return code, stdout.String(), stderr.String()
}

// writeFile writes data to a file in a test directory and returns its path.
func writeFile(t *testing.T, name, data string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func lines(s string) []string { return strings.Split(strings.TrimSuffix(s, "\n"), "\n") }

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

// wireStreams are small streams of one tool call with the arguments
// benchDoc1, in four deltas (the first empty but on Responses), on each
// wire.
var wireStreams = map[string]string{
	"anthropic": "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"content\":[]}}\n\n" +
		"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"write\",\"input\":{}}}\n\n" +
		"event: ping\ndata: {\"type\": \"ping\"}\n\n" +
		wireDeltas("event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":%s}}\n\n", true) +
		"event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n" +
		"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
	"openai-chat": "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"tool_calls\":[{\"index\":0,\"id\":\"call_1\",\"type\":\"function\",\"function\":{\"name\":\"write\",\"arguments\":\"\"}}]},\"finish_reason\":null}]}\n\n" +
		wireDeltas("data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":%s}}]},\"finish_reason\":null}]}\n\n", false) +
		"data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n" +
		"data: [DONE]\n\n",
	"openai-responses": "event: response.created\ndata: {\"type\":\"response.created\",\"sequence_number\":0,\"response\":{\"id\":\"resp_1\",\"object\":\"response\",\"status\":\"in_progress\",\"output\":[]}}\n\n" +
		"event: response.output_item.added\ndata: {\"type\":\"response.output_item.added\",\"sequence_number\":1,\"output_index\":0,\"item\":{\"id\":\"fc_1\",\"type\":\"function_call\",\"status\":\"in_progress\",\"arguments\":\"\",\"call_id\":\"call_1\",\"name\":\"write\"}}\n\n" +
		wireDeltas("event: response.function_call_arguments.delta\ndata: {\"type\":\"response.function_call_arguments.delta\",\"sequence_number\":2,\"item_id\":\"fc_1\",\"output_index\":0,\"delta\":%s}\n\n", false) +
		"event: response.output_item.done\ndata: {\"type\":\"response.output_item.done\",\"sequence_number\":3,\"output_index\":0,\"item\":{\"id\":\"fc_1\",\"type\":\"function_call\",\"status\":\"completed\",\"arguments\":" + quoteJSON(benchDoc1) + ",\"call_id\":\"call_1\",\"name\":\"write\"}}\n\n" +
		"event: response.completed\ndata: {\"type\":\"response.completed\",\"sequence_number\":4,\"response\":{\"id\":\"resp_1\",\"object\":\"response\",\"status\":\"completed\",\"output\":[{\"id\":\"fc_1\",\"type\":\"function_call\",\"status\":\"completed\",\"arguments\":" + quoteJSON(benchDoc1) + ",\"call_id\":\"call_1\",\"name\":\"write\"}]}}\n\n",
}

// wireDeltaCount is the number of deltas of wireStreams: Chat's first
// chunk carries an empty arguments delta too.
var wireDeltaCount = map[string]int{"anthropic": 4, "openai-chat": 4, "openai-responses": 3}

// wireDeltas formats event with each delta of benchDoc1 cut in three
// (after an empty one if empty), quoted.
func wireDeltas(event string, empty bool) string {
	cuts := []string{benchDoc1[:20], benchDoc1[20:50], benchDoc1[50:]}
	if empty {
		cuts = append([]string{""}, cuts...)
	}
	var b strings.Builder
	for _, c := range cuts {
		b.WriteString(strings.Replace(event, "%s", quoteJSON(c), 1))
	}
	return b.String()
}

func quoteJSON(s string) string {
	b, err := jsontext.AppendQuote(nil, s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func TestBenchWire(t *testing.T) {
	for _, wire := range []string{"anthropic", "openai-chat", "openai-responses"} {
		t.Run(wire, func(t *testing.T) {
			plain := writeFile(t, "a.sse", wireStreams[wire])
			var buf bytes.Buffer
			zw := gzip.NewWriter(&buf)
			zw.Write([]byte(wireStreams[wire]))
			zw.Close()
			gz := writeFile(t, "b.sse.gz", buf.String())
			for _, impl := range []string{"jsontext", "handrolled"} {
				code, out, errOut := runBenchCmd("--wire", wire, "--impl", impl, plain, gz)
				if code != exitOK || errOut != "" {
					t.Fatalf("--impl %s: exit %d, stderr %q", impl, code, errOut)
				}
				ls := lines(out)
				if len(ls) != 2 {
					t.Fatalf("--impl %s: %d lines, want 2:\n%s", impl, len(ls), out)
				}
				for i, name := range []string{"a.sse", "b.sse"} {
					checkWireLine(t, ls[i], name, wire, impl)
				}
			}
		})
	}
}

// checkWireLine checks one line of benchfile --wire: its fields, in order, and
// their values.
func checkWireLine(t *testing.T, line, name, wire, impl string) {
	t.Helper()
	var keys []string
	dec := jsontext.NewDecoder(strings.NewReader(line))
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
	want := []string{"file", "bytes", "wire", "impl", "calls", "deltas", "ns_per_delta", "allocs_per_delta", "bytes_per_delta", "mb_s"}
	if !slices.Equal(keys, want) {
		t.Fatalf("keys %q, want %q", keys, want)
	}
	var r wireBenchResult
	if err := json.Unmarshal([]byte(line), &r); err != nil {
		t.Fatal(err)
	}
	if r.File != name || r.Bytes != len(wireStreams[wire]) || r.Wire != wire || r.Impl != impl || r.Calls != 1 || r.Deltas != wireDeltaCount[wire] {
		t.Errorf("%s: want file %s, bytes %d, wire %s, impl %s, calls 1, deltas %d", line, name, len(wireStreams[wire]), wire, impl, wireDeltaCount[wire])
	}
	if r.NsPerDelta <= 0 || r.MBs <= 0 {
		t.Errorf("%s: times must be positive", line)
	}
	// The stream's Reader and buffers are allocated for each run: at
	// least one allocation per run, over a few deltas.
	if r.AllocsPerDelta <= 0 || r.BytesPerDelta <= 0 || r.AllocsPerDelta > 1000 {
		t.Errorf("%s: allocations per delta out of range", line)
	}
}

func TestBenchWireErrors(t *testing.T) {
	good := writeFile(t, "good.sse", wireStreams["anthropic"])
	dir := t.TempDir()
	notGzip := filepath.Join(dir, "not.sse.gz")
	os.WriteFile(notGzip, []byte(wireStreams["anthropic"]), 0o644)

	usage := [][]string{
		{"--wire", "gemini", good},                     // unknown wire
		{"--wire", "", good},                           // empty wire
		{"--wire", "anthropic"},                        // no FILE
		{"--wire", "anthropic", "--chunk", "16", good}, // --chunk is the JSON documents'
		{"--wire", "anthropic", "--impl", "simdjson", good},
		{"--wire", "anthropic", "--runs", "0", good},
		{"--wire", "anthropic", good, filepath.Join(dir, "missing.sse")}, // unreadable: nothing measured
		{"--wire", "anthropic", notGzip},
	}
	for _, args := range usage {
		code, out, errOut := runBenchCmd(args...)
		if code != exitUsage || out != "" || errOut == "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit %d, a message and no output", args, code, out, errOut, exitUsage)
		}
	}

	// Streams that cannot be measured: reported, and the other files still
	// measured.
	invalid := map[string]string{
		// arguments that are not JSON
		"invalid.sse": strings.Replace(wireStreams["anthropic"], `\"path\"`, `path`, 1),
		// cut before message_stop
		"cut.sse": wireStreams["anthropic"][:strings.Index(wireStreams["anthropic"], "event: message_stop")],
		// no tool call
		"text.sse": "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"content\":[]}}\n\n" +
			"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n" +
			"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"hi\"}}\n\n" +
			"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
		// another wire's stream
		"chat.sse": wireStreams["openai-chat"],
	}
	for name, stream := range invalid {
		bad := writeFile(t, name, stream)
		code, out, errOut := runBenchCmd("--wire", "anthropic", bad, good)
		if code != exitInvalid || !strings.Contains(errOut, name) || strings.Count(out, "\n") != 1 || !strings.Contains(out, `"file":"good.sse"`) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit %d, the error and good.sse measured", name, code, out, errOut, exitInvalid)
		}
	}
}
