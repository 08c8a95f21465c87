package main

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
)

// Exit statuses.
const (
	exitOK      = 0
	exitInvalid = 1 // the input is not valid arguments
	exitUsage   = 2 // the command line is wrong, or a file unreadable or unwritable
)

// env is what a subcommand reads and writes.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// console is the terminal replay --render asks on: nil for stdin's,
	// if stdin and stdout are terminals; a fake one in tests.
	console console
}

// command is one subcommand: it parses args and returns the exit status.
type command struct {
	name    string
	summary string // what it does, in one line
	usage   string
	run     func(e env, args []string) int
}

// commands lists the subcommands, one line each.
var commands = []command{
	{"replay", summaries["replay"], replayUsage, runReplay},
	{"fragments", summaries["fragments"], fragmentsUsage, runFragments},
	{"fields", summaries["fields"], fieldsUsage, runFields},
	{"aggregate", summaries["aggregate"], aggregateUsage, runAggregate},
	{"policy", summaries["policy"], policyUsage, runPolicy},
	{"proxy", summaries["proxy"], proxyUsage, runProxy},
	{"version", summaries["version"], versionUsage, runVersion},
}

// summaries say what each command does, in one line.
var summaries = map[string]string{
	"replay":    "replay a provider's streamed response: calls, policy decisions, text; --render shows it with the permission prompt",
	"fragments": "print the fragments of one call's arguments as they stream",
	"fields":    "print the events of each top-level argument of one call, as they stream",
	"aggregate": "print one call's complete arguments as compact JSON",
	"policy":    "decide a policy on one call's arguments while they stream",
	"proxy":     "a gateway in front of a provider's API: enforce the policy on every tool call while the response streams",
	"version":   "print the version of argstream and of Go",
}

func main() {
	os.Exit(run(os.Args[1:], env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr}))
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
	switch args[0] {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 && args[0] == "help" {
			// "argstream help CMD" is "argstream CMD --help".
			for _, c := range commands {
				if c.name == args[1] {
					return c.run(e, []string{"--help"})
				}
			}
			return usageError(e, fmt.Errorf("unknown command %q (commands: %s)", args[1], commandNames()))
		}
		usage(e.stdout)
		return exitOK
	case "-version", "--version":
		return runVersion(e, args[1:])
	}
	return usageError(e, fmt.Errorf("unknown command %q (commands: %s)", args[0], commandNames()))
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: argstream COMMAND [flags] [FILE]")
	fmt.Fprintln(w, "\ncommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun argstream help COMMAND (or argstream COMMAND --help) for a command's usage and flags.")
	fmt.Fprintln(w, "The benchmark command is in the bench module: see bench/README.md.")
}

func commandNames() string {
	names := make([]string, len(commands))
	for i, c := range commands {
		names[i] = c.name
	}
	return strings.Join(names, ", ")
}

const versionUsage = "version"

// runVersion prints the version argstream was built from: the module
// version, or the commit of the checkout it was built in, and the Go
// version and target (see versionLine).
func runVersion(e env, args []string) int {
	fs := newFlags("version")
	rest, code, ok := parseFlags(e, fs, versionUsage, args)
	if !ok {
		return code
	}
	if len(rest) > 0 {
		return usageError(e, fmt.Errorf("version takes no arguments, got %s", strings.Join(rest, " ")))
	}
	bi, _ := debug.ReadBuildInfo()
	fmt.Fprintln(e.stdout, versionLine(bi))
	return exitOK
}
