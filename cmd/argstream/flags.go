package main

// This file is the command line that every subcommand shares: flags before
// or after the positional args (newFlags, parseFlags), --help (printHelp),
// and the messages on stderr with the exit status they give (usageError,
// ioError, report).

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"strings"
)

// newFlags returns a flag set for a subcommand; parseFlags reports its
// errors and prints its help.
func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// parseFlags parses args, with flags before or after the positional args,
// up to a "--" after which every arg is positional, and returns the
// positional args. If it returns false, the caller returns code: after
// --help, printed with usage to stdout, 0; after a wrong flag, reported,
// exitUsage.
func parseFlags(e env, fs *flag.FlagSet, usage string, args []string) (pos []string, code int, ok bool) {
	for {
		err := fs.Parse(args)
		if errors.Is(err, flag.ErrHelp) {
			printHelp(e.stdout, fs, usage)
			return nil, exitOK, false
		}
		if err != nil {
			return nil, usageError(e, flagError(err, args)), false
		}
		rest := fs.Args()
		if endsWithDashes(fs, args[:len(args)-len(rest)]) {
			return append(pos, rest...), 0, true
		}
		if len(rest) == 0 {
			return pos, 0, true
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// flagError is err of the flag package, which spells every flag -flag,
// with the flag spelt as it was typed (-x.json), or --flag.
func flagError(err error, args []string) error {
	msg := err.Error()
	for _, prefix := range []string{"flag provided but not defined: -", "for flag -", "flag needs an argument: -"} {
		i := strings.Index(msg, prefix)
		if i < 0 {
			continue
		}
		at := i + len(prefix) - 1
		name, _, _ := strings.Cut(msg[at+1:], ":")
		typed := "--" + name
		for _, a := range args {
			if n, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "="); n == name && strings.HasPrefix(a, "-") {
				typed, _, _ = strings.Cut(a, "=")
				break
			}
		}
		return errors.New(msg[:at] + typed + msg[at+1+len(name):])
	}
	return err
}

// endsWithDashes says whether fs.Parse stopped at a "--", given the flags
// and values it read.
func endsWithDashes(fs *flag.FlagSet, read []string) bool {
	for i := 0; i < len(read); i++ {
		a := read[i]
		if a == "--" {
			return true
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if f := fs.Lookup(name); f != nil && !hasValue && !isBool(f) {
			i++ // the value
		}
	}
	return false
}

func isBool(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// printHelp prints a subcommand's usage line, what it does, and its flags,
// spelt --flag as the usage line spells them, each with its default.
func printHelp(w io.Writer, fs *flag.FlagSet, usage string) {
	fmt.Fprintf(w, "usage: argstream %s\n", usage)
	if s := summaries[fs.Name()]; s != "" {
		fmt.Fprintf(w, "\n%s\n", s)
	}
	first := true
	fs.VisitAll(func(f *flag.Flag) {
		if first {
			fmt.Fprintln(w, "\nflags:")
			first = false
		}
		name, text := flag.UnquoteUsage(f)
		switch {
		case isBool(f):
			name = ""
		case name == "value" || name == "string":
			// The values, as the usage line spells them.
			name = "VALUE"
			if _, after, ok := strings.Cut(usage, "--"+f.Name+" "); ok {
				if i := strings.IndexAny(after, " ]"); i > 0 {
					name = after[:i]
				}
			}
		}
		fmt.Fprintf(w, "  --%s %s\n", f.Name, name)
		if f.DefValue != "" && !isBool(f) && !strings.Contains(text, "(default") {
			text += " (default " + f.DefValue + ")"
		}
		fmt.Fprintf(w, "        %s\n", text)
	})
}

// flagSet reports whether the flag name was given.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// An ioError is an input that cannot be read or an output that cannot be
// written: exitUsage, where an invalid input is exitInvalid.
type ioError struct {
	name string
	err  error
}

func (e *ioError) Error() string { return e.name + ": " + message(e.err) }

// message returns err's text for a message that names its file already:
// without a [*fs.PathError]'s operation and path, and without the package
// prefix of the library's errors ("token: " for a [*token.SyntaxError],
// "argstream: " for a Stream's own), which the command's "argstream: "
// replaces.
func message(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	s := err.Error()
	for _, prefix := range libraryPrefixes {
		if rest, ok := strings.CutPrefix(s, prefix); ok {
			return rest
		}
	}
	return s
}

// libraryPrefixes are the package prefixes of the library's error messages.
var libraryPrefixes = []string{"token: ", "argstream: "}

// usageError reports a usage error, or an *ioError, and returns exitUsage.
func usageError(e env, err error) int {
	fmt.Fprintf(e.stderr, "argstream: %s\n", esc(err.Error()))
	return exitUsage
}

// report reports the error that ended the input named name, if any, and
// returns the exit status.
func report(e env, name string, err error) int {
	var ioe *ioError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ioe):
		return usageError(e, ioe)
	}
	fmt.Fprintf(e.stderr, "argstream: %s: %s\n", esc(name), shown(err))
	return exitInvalid
}
