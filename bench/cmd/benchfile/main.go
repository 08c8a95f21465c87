// Command benchfile measures argstream on files, outside the Go test
// harness: for each FILE, the full pipeline (tokenizer, fragments,
// aggregator) fed in chunks against whole-document jsontext tokenization
// of the same bytes in the same process, or, with --wire, the whole path
// from a provider's SSE stream to each call's aggregated arguments. It
// prints one JSON line per file; bench/README.md says what each field is.
//
//	benchfile [--chunk N] [--impl jsontext|handrolled] [--runs N] [--time D] FILE...
//	benchfile --wire anthropic|openai-chat|openai-responses [--impl jsontext|handrolled] [--runs N] [--time D] FILE...
//
// It was argstream bench, the shipped command's, until the command stopped
// linking the benchmark baseline (internal/handrolled, internal/wirecount):
// it lives in the bench module, beside the benchmarks it complements. Run
// it from bench/: go run ./cmd/benchfile --chunk 16 testdata/createFile-1m.json.gz.
//
// A FILE ending in .gz is decompressed first; "-" is stdin. Exit status 0;
// 1 if a file is not valid arguments (or, with --wire, a stream that cannot
// be measured: the other files are still measured); 2 on a usage error or
// an unreadable file (nothing is measured).
package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/aggregate"
	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/internal/handrolled"
	"github.com/argstream/argstream/internal/wirecount"
	"github.com/argstream/argstream/token"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire/anthropicstream"
	"github.com/argstream/argstream/wire/openaistream"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

const usage = "benchfile [--chunk N | --wire anthropic|openai-chat|openai-responses] [--impl jsontext|handrolled] [--runs N] [--time D] FILE..."

// Exit statuses.
const (
	exitOK      = 0
	exitInvalid = 1 // a file is not valid arguments, or a stream cannot be measured
	exitUsage   = 2 // the command line is wrong, or a file unreadable
)

// env is what the command reads and writes.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

func main() {
	os.Exit(runBench(env{os.Stdin, os.Stdout, os.Stderr}, os.Args[1:]))
}

// A wireReader reads one response of a provider's stream from body into
// resp.
type wireReader func(ctx context.Context, body io.Reader, resp *toolcall.Response) error

// wireReaders are the wires of --wire, by name.
var wireReaders = map[string]wireReader{
	"anthropic": func(ctx context.Context, body io.Reader, resp *toolcall.Response) error {
		return anthropicstream.Read(ctx, body, resp)
	},
	"openai-chat": func(ctx context.Context, body io.Reader, resp *toolcall.Response) error {
		return openaistream.ReadChat(ctx, body, resp)
	},
	"openai-responses": func(ctx context.Context, body io.Reader, resp *toolcall.Response) error {
		return openaistream.ReadResponses(ctx, body, resp)
	},
}

// split cuts data into chunks of n bytes, the last one shorter; n 0 is
// the whole document in one chunk.
func split(data []byte, n int) [][]byte {
	if n <= 0 {
		return [][]byte{data}
	}
	var chunks [][]byte
	for len(data) > 0 {
		k := min(n, len(data))
		chunks = append(chunks, data[:k])
		data = data[k:]
	}
	return chunks
}

// readAll reads a FILE whole: a file, or stdin for "-".
func readAll(e env, name string) ([]byte, error) {
	var data []byte
	var err error
	if name == "-" {
		name = "stdin"
		data, err = io.ReadAll(e.stdin)
	} else {
		data, err = os.ReadFile(name)
	}
	if err != nil {
		return nil, &ioError{name, err}
	}
	return data, nil
}

// An ioError is a file that cannot be read: exitUsage.
type ioError struct {
	name string
	err  error
}

func (e *ioError) Error() string {
	err := e.err
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return e.name + ": " + err.Error()
}

// usageError reports a usage error, or an *ioError, and returns exitUsage.
func usageError(e env, err error) int {
	fmt.Fprintf(e.stderr, "benchfile: %v\n", err)
	return exitUsage
}

// report reports the error of the file named name and returns exitInvalid.
func report(e env, name string, err error) int {
	fmt.Fprintf(e.stderr, "benchfile: %s: %v\n", name, err)
	return exitInvalid
}

// flagSet reports whether the flag name was given.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// benchImpls are the tokenizers --impl selects; nil is argstream's default,
// the jsontext-backed jsontoken.New.
var benchImpls = map[string]token.NewFunc{
	"jsontext":   nil,
	"handrolled": handrolled.NewFunc,
}

// benchResult is the line printed for one file.
type benchResult struct {
	File           string  `json:"file"`  // base name, without .gz
	Bytes          int     `json:"bytes"` // the document's size (decompressed)
	Chunk          int     `json:"chunk"` // 0: the whole document in one chunk
	Impl           string  `json:"impl"`
	PipelineMBs    float64 `json:"pipeline_mb_s"`
	WholeMBs       float64 `json:"whole_jsontext_mb_s"`
	Ratio          float64 `json:"ratio"`
	AllocsPerChunk float64 `json:"allocs_per_chunk"`
	BytesPerChunk  float64 `json:"bytes_per_chunk"`
	// After the original fields, which keep their order: the pipeline reused.
	ReusedMBs   float64 `json:"reused_mb_s"`
	ReusedRatio float64 `json:"reused_ratio"`
}

// benchDoc is one document to measure.
type benchDoc struct {
	path, name string
	data       []byte
}

// runBench measures, for each FILE, the full pipeline (tokenizer,
// fragments, aggregator, as argstream.New(aggregate.New()) builds it) fed in
// chunks, against whole-document jsontext tokenization of the same bytes,
// and prints one JSON line per file.
//
// Each figure is the median of --runs runs; a run repeats the document,
// with a fresh pipeline each time, for at least --time, and the two
// measurements alternate run by run so that machine drift touches both.
// MB/s counts 10^6 bytes. allocs_per_chunk and bytes_per_chunk are
// runtime.MemStats Mallocs and TotalAlloc over every pipeline run divided by
// the chunks fed: they include building the pipeline and the aggregated
// value, once per document. A FILE ending in .gz is decompressed first; file
// and bytes then name and count the decompressed document.
func runBench(e env, args []string) int {
	fs := flag.NewFlagSet("benchfile", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "usage: %s\n", usage)
		fs.PrintDefaults()
	}
	chunk := fs.Int("chunk", 16, "feed `N`-byte chunks; 0 feeds each document whole")
	impl := fs.String("impl", "jsontext", "the tokenizer: jsontext (jsontoken.New, the default) or handrolled (the baseline, internal/handrolled)")
	runs := fs.Int("runs", 5, "report the median of `N` runs of each measurement")
	minTime := fs.Duration("time", 200*time.Millisecond, "repeat the document for at least `D` in each run")
	wire := fs.String("wire", "", "read each FILE as the SSE stream of a provider `API` (anthropic, openai-chat or openai-responses) and measure the whole path: adapter, reused toolcall.Response, End")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	files := fs.Args()
	switch {
	case *chunk < 0:
		return usageError(e, fmt.Errorf("--chunk %d: want a size of at least 1, or 0 for whole documents", *chunk))
	case *runs < 1:
		return usageError(e, fmt.Errorf("--runs %d: want at least 1", *runs))
	case *minTime < 0:
		return usageError(e, fmt.Errorf("--time %v: want a duration of 0 or more", *minTime))
	case len(files) == 0:
		return usageError(e, errors.New("benchfile needs at least one FILE"))
	}
	newTok, ok := benchImpls[*impl]
	if !ok {
		return usageError(e, fmt.Errorf("--impl %s: want jsontext or handrolled", *impl))
	}
	var opts []argstream.Option
	if newTok != nil {
		opts = append(opts, argstream.WithTokenizer(newTok))
	}
	if *wire != "" || flagSet(fs, "wire") {
		return runWireBench(e, fs, *wire, *impl, opts, *runs, *minTime, files)
	}

	docs, err := readBenchDocs(e, files)
	if err != nil {
		return usageError(e, err)
	}

	status := exitOK
	for _, d := range docs {
		r, err := measureBench(d, *chunk, opts, *runs, *minTime)
		if err != nil {
			status = report(e, d.path, err)
			continue
		}
		r.Impl = *impl
		line, err := json.Marshal(r)
		if err != nil {
			panic(err) // a benchResult always marshals
		}
		fmt.Fprintf(e.stdout, "%s\n", line)
	}
	return status
}

// readBenchDoc reads path ("-" for stdin) whole, bench measures whole
// documents, and decompresses it if its name ends in .gz.
// readBenchDocs reads every file before anything is measured, so that an
// unreadable one is a usage error, reported at once.
func readBenchDocs(e env, files []string) ([]benchDoc, error) {
	docs := make([]benchDoc, 0, len(files))
	for _, path := range files {
		d, err := readBenchDoc(e, path)
		if err != nil {
			return nil, err
		}
		docs = append(docs, d)
	}
	return docs, nil
}

func readBenchDoc(e env, path string) (benchDoc, error) {
	data, err := readAll(e, path)
	if err != nil {
		return benchDoc{}, err
	}
	d := benchDoc{path: path, name: filepath.Base(path), data: data}
	if base, ok := strings.CutSuffix(d.name, ".gz"); ok {
		zr, err := gzip.NewReader(bytes.NewReader(d.data))
		if err == nil {
			d.data, err = io.ReadAll(zr)
		}
		if err != nil {
			return benchDoc{}, &ioError{path, err}
		}
		d.name = base
	}
	return d, nil
}

// measureBench measures one document. It returns the pipeline's error if
// the document is not valid arguments.
func measureBench(d benchDoc, chunk int, opts []argstream.Option, runs int, minTime time.Duration) (benchResult, error) {
	chunks := split(d.data, chunk)
	pipeline := func() error {
		agg := aggregate.New()
		if err := feedChunks(argstream.New(agg, opts...), chunks); err != nil {
			return err
		}
		_, err := agg.Value()
		return err
	}
	// The same pipeline kept from document to document (Stream.Reset and
	// Aggregator.Reset), as a gateway keeps it from call to call: it does
	// not pay for new memory to build the aggregate in.
	agg := aggregate.New()
	s := argstream.New(agg, opts...)
	reused := func() error {
		agg.Reset()
		s.Reset(fragment.Call{})
		if err := feedChunks(s, chunks); err != nil {
			return err
		}
		_, err := agg.Value()
		return err
	}
	whole := func() error { return wholeJSONText(d.data) }
	// One run of each outside the measurements: it checks the document and
	// warms up.
	if err := pipeline(); err != nil {
		return benchResult{}, err
	}
	if err := reused(); err != nil {
		return benchResult{}, err
	}
	if err := whole(); err != nil {
		return benchResult{}, err
	}

	pipeNs := make([]float64, runs)
	reusedNs := make([]float64, runs)
	wholeNs := make([]float64, runs)
	var mallocs, allocBytes uint64
	var docs int
	for i := range runs {
		wholeNs[i], _ = timeRuns(whole, minTime)
		reusedNs[i], _ = timeRuns(reused, minTime)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		var n int
		pipeNs[i], n = timeRuns(pipeline, minTime)
		runtime.ReadMemStats(&after)
		mallocs += after.Mallocs - before.Mallocs
		allocBytes += after.TotalAlloc - before.TotalAlloc
		docs += n
	}
	// bytes per ns is GB/s: times 1000 for MB/s.
	pipeMBs := float64(len(d.data)) / median(pipeNs) * 1e3
	wholeMBs := float64(len(d.data)) / median(wholeNs) * 1e3
	reusedMBs := float64(len(d.data)) / median(reusedNs) * 1e3
	fed := float64(docs) * float64(len(chunks))
	return benchResult{
		File:           d.name,
		Bytes:          len(d.data),
		Chunk:          chunk,
		PipelineMBs:    round(pipeMBs, 2),
		WholeMBs:       round(wholeMBs, 2),
		Ratio:          round(pipeMBs/wholeMBs, 4),
		AllocsPerChunk: round(float64(mallocs)/fed, 4),
		BytesPerChunk:  round(float64(allocBytes)/fed, 2),
		ReusedMBs:      round(reusedMBs, 2),
		ReusedRatio:    round(reusedMBs/wholeMBs, 4),
	}, nil
}

// timeRuns calls f until at least minTime has passed, and at least once,
// and returns the mean ns per call and the number of calls. f has already
// succeeded once on the same input, so its errors are not expected here.
func timeRuns(f func() error, minTime time.Duration) (nsPerCall float64, calls int) {
	start := time.Now()
	for calls == 0 || time.Since(start) < minTime {
		if err := f(); err != nil {
			panic(err)
		}
		calls++
	}
	return float64(time.Since(start).Nanoseconds()) / float64(calls), calls
}

// feedChunks feeds every chunk to s and closes it.
func feedChunks(s *argstream.Stream, chunks [][]byte) error {
	for _, c := range chunks {
		if err := s.Feed(c); err != nil {
			return err
		}
	}
	return s.Close()
}

// wholeJSONText reads every token of a complete document with jsontext, the
// way the bench module's reference does: from a bytes.Buffer, which
// jsontext takes whole without copying.
func wholeJSONText(data []byte) error {
	dec := jsontext.NewDecoder(bytes.NewBuffer(data))
	for {
		if _, err := dec.ReadToken(); err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// round rounds x to digits decimal places.
func round(x float64, digits int) float64 {
	p := math.Pow10(digits)
	return math.Round(x*p) / p
}

// wireBenchResult is the line printed for one stream with --wire.
type wireBenchResult struct {
	File           string  `json:"file"`  // base name, without .gz
	Bytes          int     `json:"bytes"` // the stream's size (decompressed)
	Wire           string  `json:"wire"`
	Impl           string  `json:"impl"`
	Calls          int     `json:"calls"`  // tool calls in the response
	Deltas         int     `json:"deltas"` // argument delta events, empty ones included
	NsPerDelta     float64 `json:"ns_per_delta"`
	AllocsPerDelta float64 `json:"allocs_per_delta"`
	BytesPerDelta  float64 `json:"bytes_per_delta"`
	MBs            float64 `json:"mb_s"` // SSE bytes read per second
}

// runWireBench is bench --wire: for each FILE, the SSE stream of one
// response of the API, it measures the whole path a gateway runs: the
// wire's adapter reading the stream from a bytes.Reader and driving a
// toolcall.Response kept from run to run with Reset, then End, which gives
// each call's aggregated compact arguments. It prints one JSON line per
// file: ns_per_delta, the median of --runs runs (each repeating the stream
// for at least --time) divided by the argument delta events of the stream
// (deltas); allocs_per_delta and bytes_per_delta, runtime.MemStats Mallocs
// and TotalAlloc over all the runs divided by the deltas read; mb_s, the
// stream's bytes per second. A stream the adapter reports an error for
// (one cut short included), or a call whose arguments are not complete and
// valid, is reported and not measured (exit status 1).
func runWireBench(e env, fs *flag.FlagSet, wire, impl string, opts []argstream.Option, runs int, minTime time.Duration, files []string) int {
	read, ok := wireReaders[wire]
	switch {
	case !ok:
		return usageError(e, fmt.Errorf("--wire %s: want anthropic, openai-chat or openai-responses", wire))
	case flagSet(fs, "chunk"):
		return usageError(e, errors.New("--chunk does not apply with --wire: the stream's deltas are the chunks"))
	}
	docs, err := readBenchDocs(e, files)
	if err != nil {
		return usageError(e, err)
	}
	status := exitOK
	for _, d := range docs {
		r, err := measureWire(d, wire, read, opts, runs, minTime)
		if err != nil {
			status = report(e, d.path, err)
			continue
		}
		r.Impl = impl
		line, err := json.Marshal(r)
		if err != nil {
			panic(err) // a wireBenchResult always marshals
		}
		fmt.Fprintf(e.stdout, "%s\n", line)
	}
	return status
}

// measureWire measures one stream.
func measureWire(d benchDoc, wire string, read wireReader, opts []argstream.Option, runs int, minTime time.Duration) (wireBenchResult, error) {
	deltas, err := wirecount.Deltas(wire, d.data)
	if err != nil {
		return wireBenchResult{}, err
	}
	if deltas == 0 {
		return wireBenchResult{}, fmt.Errorf("no tool-call argument delta in the %s stream", wire)
	}
	resp := toolcall.New(toolcall.WithStreamOptions(opts...))
	var body bytes.Reader
	calls := 0
	once := func() error {
		resp.Reset()
		body.Reset(d.data)
		err := read(context.Background(), &body, resp)
		results := resp.End()
		if err != nil {
			return err
		}
		for _, r := range results {
			if r.Err != nil {
				return fmt.Errorf("tool call %d (%s): %w", r.Call.Index, r.Call.Name, r.Err)
			}
		}
		calls = len(results)
		return nil
	}
	// One run outside the measurements: it checks the stream and warms the
	// Response up.
	if err := once(); err != nil {
		return wireBenchResult{}, err
	}
	if calls == 0 {
		return wireBenchResult{}, fmt.Errorf("no tool call in the %s stream", wire)
	}
	ns := make([]float64, runs)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	streams := 0
	for i := range runs {
		var n int
		ns[i], n = timeRuns(once, minTime)
		streams += n
	}
	runtime.ReadMemStats(&after)
	perStream := median(ns)
	fed := float64(streams) * float64(deltas)
	return wireBenchResult{
		File:           d.name,
		Bytes:          len(d.data),
		Wire:           wire,
		Calls:          calls,
		Deltas:         deltas,
		NsPerDelta:     round(perStream/float64(deltas), 2),
		AllocsPerDelta: round(float64(after.Mallocs-before.Mallocs)/fed, 4),
		BytesPerDelta:  round(float64(after.TotalAlloc-before.TotalAlloc)/fed, 2),
		MBs:            round(float64(len(d.data))/perStream*1e3, 2),
	}, nil
}
