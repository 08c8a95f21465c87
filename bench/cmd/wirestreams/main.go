// Command wirestreams writes the synthetic provider streams of the bench
// module's BenchmarkWire as files, for argstream bench --wire: for each wire
// (anthropic, openai-chat, openai-responses) and each workload of
// testdata at each size, DIR/WIRE/WORKLOAD-SIZE.sse.gz, one tool call whose
// arguments are the workload cut into deltas of the recordings' sizes (see
// bench.DeltaSizes and bench.SyntheticStream).
//
//	go run ./cmd/wirestreams [-sizes 1k,100k] [-testdata testdata] DIR
//
// Run it from the bench directory.
package main

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/argstream/argstream/bench"
)

func main() {
	sizes := flag.String("sizes", "1k,100k", "the workload `sizes`, comma-separated (1k, 100k, 1m)")
	testdata := flag.String("testdata", "testdata", "the `directory` of the workloads")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: wirestreams [-sizes 1k,100k] [-testdata DIR] DIR")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	if err := write(flag.Arg(0), *testdata, strings.Split(*sizes, ",")); err != nil {
		fmt.Fprintln(os.Stderr, "wirestreams:", err)
		os.Exit(1)
	}
}

func write(dir, testdata string, sizes []string) error {
	for _, wire := range bench.Wires {
		ss, err := bench.LoadWireStreams(wire, testdata, sizes, false)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Join(dir, wire), 0o755); err != nil {
			return err
		}
		for _, s := range ss {
			var buf bytes.Buffer
			zw := gzip.NewWriter(&buf)
			zw.Write(s.Parts[0])
			if err := zw.Close(); err != nil {
				return err
			}
			path := filepath.Join(dir, wire, s.Name+".sse.gz")
			if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
				return err
			}
			fmt.Printf("%s: %d bytes, %d deltas\n", path, s.Bytes(), s.Deltas)
		}
	}
	return nil
}
