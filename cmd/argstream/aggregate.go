package main

import (
	"fmt"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/aggregate"
)

const aggregateUsage = "aggregate " + inputUsage + " [FILE]"

func runAggregate(e env, args []string) int {
	var in input
	fs := newFlags(e, "aggregate", aggregateUsage)
	in.register(fs)
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	chunks, err := in.load(e, fs.Args())
	if err != nil {
		return usageError(e, err)
	}
	agg := aggregate.New()
	if err := feed(argstream.New(agg), chunks); err != nil {
		return report(e, err)
	}
	v, err := agg.Value()
	if err != nil {
		return report(e, err)
	}
	fmt.Fprintf(e.stdout, "%s\n", v)
	return exitOK
}
