package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json"
)

const inputUsage = "[--split N | --split random:SEED | --chunks CHUNKS.json]"

// input is the input flags every subcommand shares.
type input struct {
	split  string
	chunks string
}

func (in *input) register(fs *flag.FlagSet) {
	fs.StringVar(&in.split, "split", "", "feed N-byte chunks, or random:SEED for random lengths 0..64 (default: whole input)")
	fs.StringVar(&in.chunks, "chunks", "", "feed the strings of this JSON array in order")
}

// load returns the chunks to feed, from the flags and the positional args.
func (in *input) load(e env, args []string) ([][]byte, error) {
	if in.chunks != "" {
		if in.split != "" || len(args) > 0 {
			return nil, errors.New("--chunks takes no --split and no FILE")
		}
		data, err := os.ReadFile(in.chunks)
		if err != nil {
			return nil, err
		}
		var deltas []string
		if err := json.Unmarshal(data, &deltas); err != nil {
			return nil, fmt.Errorf("%s: want a JSON array of strings: %v", in.chunks, err)
		}
		chunks := make([][]byte, len(deltas))
		for i, d := range deltas {
			chunks[i] = []byte(d)
		}
		return chunks, nil
	}
	if len(args) > 1 {
		return nil, errors.New("more than one FILE")
	}
	var data []byte
	var err error
	if len(args) == 0 || args[0] == "-" {
		data, err = io.ReadAll(e.stdin)
	} else {
		data, err = os.ReadFile(args[0])
	}
	if err != nil {
		return nil, err
	}
	return split(data, in.split)
}

// split cuts data as --split says.
func split(data []byte, how string) ([][]byte, error) {
	if how == "" {
		return [][]byte{data}, nil
	}
	if seed, ok := strings.CutPrefix(how, "random:"); ok {
		s, err := strconv.ParseUint(seed, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("--split %s: SEED must be an unsigned integer", how)
		}
		rng := rand.New(rand.NewPCG(s, 0))
		var chunks [][]byte
		for len(data) > 0 {
			n := min(rng.IntN(65), len(data))
			chunks = append(chunks, data[:n])
			data = data[n:]
		}
		return chunks, nil
	}
	n, err := strconv.Atoi(how)
	if err != nil || n < 1 {
		return nil, fmt.Errorf("--split %s: want a positive size or random:SEED", how)
	}
	var chunks [][]byte
	for len(data) > 0 {
		k := min(n, len(data))
		chunks = append(chunks, data[:k])
		data = data[k:]
	}
	return chunks, nil
}

// newFlags returns a flag set for a subcommand that reports to e.stderr.
func newFlags(e env, name, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "usage: argstream %s\n", usage)
		fs.PrintDefaults()
	}
	return fs
}

// usageError reports a usage error and returns its exit status.
func usageError(e env, err error) int {
	fmt.Fprintf(e.stderr, "argstream: %v\n", err)
	return exitUsage
}
