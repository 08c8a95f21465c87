package main

import (
	"bufio"
	"fmt"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/render"
	"github.com/argstream/argstream/sink"
)

const fragmentsUsage = "fragments " + inputUsage + " [--format rfd|jsonl] [FILE]"

// runFragments prints the fragments of the input as they are produced:
// those of each read are on stdout before the next read waits.
func runFragments(e env, args []string) int {
	fs := newFlags("fragments")
	format := fs.String("format", "rfd", "rfd (RFD 043 notation) or jsonl (one JSON object per fragment)")
	src, code, ok := openCallInput(e, fs, fragmentsUsage, args, func() (int, bool) {
		if *format != "rfd" && *format != "jsonl" {
			return usageError(e, fmt.Errorf("--format %s: want rfd or jsonl", *format)), false
		}
		return exitOK, true
	})
	if !ok {
		return code
	}
	defer src.close()
	w := bufio.NewWriter(e.stdout)
	var line, shown []byte
	// What the model wrote is in the fragments' strings: every character
	// that could act on a terminal, or hide or reorder text, is an escape,
	// as Go and JSON write it (which keeps the strings' values).
	mode := render.Line
	if *format == "jsonl" {
		mode = render.JSONText
	}
	print := sink.PushFunc(func(p *fragment.Progress) error {
		var err error
		if *format == "jsonl" {
			line, err = p.AppendJSON(line[:0])
		} else {
			line, err = p.AppendText(line[:0])
		}
		shown = render.AppendEscaped(shown[:0], line, mode)
		w.Write(append(shown, '\n'))
		return err
	})
	return report(e, src.name, src.feed(argstream.New(print, src.opts...), w.Flush))
}
