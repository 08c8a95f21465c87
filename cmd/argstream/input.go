package main

// This file is structured in the following way:
//
//   - input, the input flags of the single-call commands (fragments,
//     fields, aggregate, policy), openCallInput, the start they share, and
//     source, the input the flags name (FILE, stdin or --chunks), opened;
//   - source.feed, which feeds the input to a stream as it arrives, read by
//     read, and flushes the output after each read;
//   - chunker, which re-cuts the bytes as they arrive into the chunks
//     --split asks for, and split, the same cut of bytes already in memory.
//
// The flags' parsing and the messages are flags.go's; replay's input, read
// a line at a time and sniffed for its wire, is input_replay.go's.

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/dialect"
	"github.com/argstream/argstream/schema"
	"github.com/go-json-experiment/json"
)

const inputUsage = "[--syntax json|SYNTAX [--schema TOOLS.json]] [--split N | --split random:SEED | --chunks CHUNKS.json]"

// stdinName names standard input in messages.
const stdinName = "stdin"

// readSize is the size of a read from a pipe or a terminal: what a read
// returns is fed at once, however little.
const readSize = 64 << 10

// input is the input flags the single-call commands share.
type input struct {
	split  string
	chunks string
	syntax string
	schema string
}

func (in *input) register(fs *flag.FlagSet) {
	fs.StringVar(&in.syntax, "syntax", "json", "the arguments' syntax: json, or one call written in text in `SYNTAX`: "+syntaxList)
	fs.StringVar(&in.schema, "schema", "", "with --syntax of calls in text: the tools' definitions, `TOOLS.json`, whose JSON Schemas type the values written as text (without it every such value is a string)")
	fs.StringVar(&in.split, "split", "", "feed `N`-byte chunks, or random:SEED for random lengths 0..64 (default: each read as it arrives)")
	fs.StringVar(&in.chunks, "chunks", "", "feed the strings of the JSON array in `CHUNKS.json`, in order")
}

// openCallInput is the start of a single-call command: it adds the input
// flags to fs, which holds the command's own, parses args, calls check (if
// not nil) once the flags are parsed, and opens the input. If ok is false,
// the command returns code: what went wrong is reported already, check's
// failure by check.
func openCallInput(e env, fs *flag.FlagSet, usage string, args []string, check func() (code int, ok bool)) (src *source, code int, ok bool) {
	var in input
	in.register(fs)
	files, code, ok := parseFlags(e, fs, usage, args)
	if !ok {
		return nil, code, false
	}
	if check != nil {
		if code, ok := check(); !ok {
			return nil, code, false
		}
	}
	src, err := in.open(e, files)
	if err != nil {
		return nil, usageError(e, err), false
	}
	return src, exitOK, true
}

// source is a subcommand's input, opened.
type source struct {
	name   string    // for messages: the file name, or stdinName
	r      io.Reader // nil for --chunks
	file   *os.File  // to close, if FILE was opened
	chunks [][]byte  // --chunks
	size   int64     // the input's length, or -1 if unknown before reading it all
	cut    *chunker  // nil for --chunks
	// opts configure the Stream the input is fed to: its syntax's tokenizer.
	opts []argstream.Option
}

// open checks the input flags and opens the input that they and the
// positional args name. Its errors are usage errors, except an *ioError for
// a file that cannot be read.
func (in *input) open(e env, args []string) (*source, error) {
	opts, err := in.syntaxOptions()
	if err != nil {
		return nil, err
	}
	src, err := in.openInput(e, args)
	if src != nil {
		src.opts = opts
	}
	return src, err
}

// syntaxOptions returns the Stream options of --syntax and --schema.
func (in *input) syntaxOptions() ([]argstream.Option, error) {
	if in.syntax == "" || in.syntax == "json" {
		if in.schema != "" {
			return nil, errors.New("--schema needs --syntax of calls written in text")
		}
		return nil, nil
	}
	syn, tools, err := textSyntax(in.syntax, in.schema)
	if err != nil {
		return nil, err
	}
	return []argstream.Option{argstream.WithTokenizer(syn.Tokenizer(tools))}, nil
}

// syntaxList names the syntaxes of calls written in text, for usage and
// errors: caret (^^^ blocks), xml (<tool:NAME> tags), qwen, and the
// open-weight families.
var syntaxList = strings.Join(dialect.SyntaxNames(), ", ")

// textSyntax reads the flags of a syntax of calls written in text: its
// name, and the file of the tools' definitions ("" for none).
func textSyntax(name, schemaFile string) (dialect.Syntax, *schema.Tools, error) {
	syn, err := dialect.ParseSyntax(name)
	if err != nil {
		return 0, nil, fmt.Errorf("--syntax %s: want json or one of %s", name, syntaxList)
	}
	if schemaFile == "" {
		return syn, nil, nil
	}
	data, err := os.ReadFile(schemaFile)
	if err != nil {
		return 0, nil, &ioError{schemaFile, err}
	}
	tools, err := schema.Parse(data)
	if err != nil {
		return 0, nil, &ioError{schemaFile, err}
	}
	return syn, tools, nil
}

func (in *input) openInput(e env, args []string) (*source, error) {
	if in.chunks != "" {
		if in.split != "" || len(args) > 0 {
			return nil, errors.New("--chunks takes no --split and no FILE")
		}
		chunks, err := readChunks(in.chunks)
		if err != nil {
			return nil, err
		}
		src := &source{name: in.chunks, chunks: chunks}
		for _, c := range chunks {
			src.size += int64(len(c))
		}
		return src, nil
	}
	if len(args) > 1 {
		return nil, fmt.Errorf("more than one FILE: %q", args)
	}
	cut, err := newChunker(in.split)
	if err != nil {
		return nil, err
	}
	src := &source{name: stdinName, r: e.stdin, size: -1, cut: cut}
	if len(args) == 1 && args[0] != "-" {
		f, err := os.Open(args[0])
		if err != nil {
			return nil, &ioError{args[0], err}
		}
		src.name, src.r, src.file = args[0], f, f
	}
	if f, ok := src.r.(*os.File); ok {
		src.size = regularSize(f)
	}
	return src, nil
}

// readChunks reads a --chunks file.
func readChunks(name string) ([][]byte, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, &ioError{name, err}
	}
	var deltas []string
	if err := json.Unmarshal(data, &deltas); err != nil {
		return nil, &ioError{name, fmt.Errorf("want a JSON array of strings: %v", err)}
	}
	chunks := make([][]byte, len(deltas))
	for i, d := range deltas {
		chunks[i] = []byte(d)
	}
	return chunks, nil
}

// regularSize returns the number of bytes left to read in f if it is a
// regular file, and -1 for anything else: a pipe, a terminal, a socket.
func regularSize(f *os.File) int64 {
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return -1
	}
	at, err := f.Seek(0, io.SeekCurrent)
	if err != nil || at > fi.Size() {
		return -1
	}
	return fi.Size() - at
}

// close closes the file that open opened, if any.
func (src *source) close() {
	if src.file != nil {
		src.file.Close()
	}
}

// feed feeds the input to s as it arrives and closes s. Each read is cut
// into chunks at once, as --split says, and every complete chunk fed; then
// flush is called, before the next read waits for more input. A regular
// file is read in one read (its size, if it is larger than readSize), so
// that without --split it is one chunk.
//
// The error is s's, or an *ioError if the input could not be read or flush
// failed.
func (src *source) feed(s *argstream.Stream, flush func() error) error {
	fed := func(err error) error {
		if ferr := flush(); ferr != nil && err == nil {
			return &ioError{"stdout", ferr}
		}
		return err
	}
	if src.r == nil {
		for _, c := range src.chunks {
			if err := s.Feed(c); err != nil {
				return fed(err)
			}
			if err := fed(nil); err != nil {
				return err
			}
		}
		return fed(s.Close())
	}
	buf := make([]byte, max(readSize, min(src.size, 1<<30)))
	for {
		n, rerr := src.r.Read(buf)
		eof := rerr == io.EOF
		if err := fed(src.cut.write(buf[:n], eof, s.Feed)); err != nil {
			return err
		}
		if eof {
			return fed(s.Close())
		}
		if rerr != nil {
			return &ioError{src.name, rerr}
		}
	}
}

// A chunker re-cuts bytes, as they arrive, into the chunks --split asks
// for: the chunk boundaries are those of the whole input cut at once,
// however the bytes arrive. A chunk that is not complete waits for more
// bytes, or for the end of the input.
type chunker struct {
	next func() int // the length of the next chunk; nil: each write is a chunk
	want int        // the length of the chunk in progress, drawn; -1 if none
	buf  []byte     // the bytes written and not yet cut
}

// newChunker returns the chunker for --split how.
func newChunker(how string) (*chunker, error) {
	c := &chunker{want: -1}
	if how == "" {
		return c, nil
	}
	if seed, ok := strings.CutPrefix(how, "random:"); ok {
		s, err := strconv.ParseUint(seed, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("--split %s: SEED must be an unsigned integer", how)
		}
		rng := rand.New(rand.NewPCG(s, 0))
		c.next = func() int { return rng.IntN(65) }
		return c, nil
	}
	n, err := strconv.Atoi(how)
	if err != nil || n < 1 {
		return nil, fmt.Errorf("--split %s: want a positive size or random:SEED", how)
	}
	c.next = func() int { return n }
	return c, nil
}

// write cuts p, after the bytes written before, and calls emit with each
// chunk it completes, in order, until emit fails. eof says that no bytes
// follow p: the last chunk is then cut short. A chunk is valid only during
// the call to emit.
func (c *chunker) write(p []byte, eof bool, emit func([]byte) error) error {
	if c.next == nil {
		if len(p) == 0 {
			return nil
		}
		return emit(p)
	}
	data := p
	if len(c.buf) > 0 {
		c.buf = append(c.buf, p...)
		data = c.buf
	}
	// A chunk length is drawn only when a byte is there to start the
	// chunk, so that the lengths drawn are the same as for the whole input.
	for len(data) > 0 {
		if c.want < 0 {
			c.want = c.next()
		}
		if c.want > len(data) && !eof {
			break
		}
		n := min(c.want, len(data))
		c.want = -1
		if err := emit(data[:n]); err != nil {
			return err
		}
		data = data[n:]
	}
	c.buf = append(c.buf[:0], data...)
	return nil
}

// split cuts data, the whole input, as --split how says: into the chunks
// a chunker cuts however the bytes arrive. Without how, the chunk is data.
func split(data []byte, how string) ([][]byte, error) {
	c, err := newChunker(how)
	if err != nil {
		return nil, err
	}
	if how == "" {
		return [][]byte{data}, nil
	}
	var chunks [][]byte
	c.write(data, true, func(chunk []byte) error {
		chunks = append(chunks, chunk)
		return nil
	})
	return chunks, nil
}
