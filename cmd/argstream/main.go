package main

import (
	"fmt"
	"io"
	"os"
)

// Exit statuses.
const (
	exitOK      = 0
	exitInvalid = 1 // the input is not valid arguments
	exitUsage   = 2 // the command line is wrong or the input unreadable
)

// env is what a subcommand reads and writes.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

// command is one subcommand: it parses args and returns the exit status.
type command struct {
	name  string
	usage string
	run   func(e env, args []string) int
}

// commands lists the subcommands, one line each.
var commands = []command{
	{"fragments", fragmentsUsage, runFragments},
	{"aggregate", aggregateUsage, runAggregate},
	{"policy", policyUsage, runPolicy},
	{"bench", benchUsage, runBench},
}

func main() {
	os.Exit(run(os.Args[1:], env{os.Stdin, os.Stdout, os.Stderr}))
}

func run(args []string, e env) int {
	if len(args) == 0 {
		usage(e.stderr)
		return exitUsage
	}
	for _, c := range commands {
		if c.name == args[0] {
			return c.run(e, args[1:])
		}
	}
	if args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(e.stdout)
		return exitOK
	}
	fmt.Fprintf(e.stderr, "argstream: unknown command %q\n", args[0])
	usage(e.stderr)
	return exitUsage
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage:")
	for _, c := range commands {
		fmt.Fprintf(w, "  argstream %s\n", c.usage)
	}
}
