package main

import (
	"bufio"
	"fmt"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/sink"
)

const fragmentsUsage = "fragments " + inputUsage + " [--format rfd|jsonl] [FILE]"

func runFragments(e env, args []string) int {
	var in input
	fs := newFlags(e, "fragments", fragmentsUsage)
	in.register(fs)
	format := fs.String("format", "rfd", "rfd (RFD 043 notation) or jsonl (one JSON object per fragment)")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if *format != "rfd" && *format != "jsonl" {
		return usageError(e, fmt.Errorf("--format %s: want rfd or jsonl", *format))
	}
	chunks, err := in.load(e, fs.Args())
	if err != nil {
		return usageError(e, err)
	}
	w := bufio.NewWriter(e.stdout)
	var line []byte
	print := sink.PushFunc(func(p *fragment.Progress) error {
		var err error
		if *format == "jsonl" {
			line, err = p.AppendJSON(line[:0])
		} else {
			line, err = p.AppendText(line[:0])
		}
		w.Write(append(line, '\n'))
		return err
	})
	err = feed(argstream.New(print), chunks)
	w.Flush()
	return report(e, err)
}

// feed feeds every chunk to s and closes it.
func feed(s *argstream.Stream, chunks [][]byte) error {
	for _, c := range chunks {
		if err := s.Feed(c); err != nil {
			return err
		}
	}
	return s.Close()
}

// report prints a stream error, if any, and returns the exit status.
func report(e env, err error) int {
	if err == nil {
		return exitOK
	}
	fmt.Fprintln(e.stderr, err)
	return exitInvalid
}
