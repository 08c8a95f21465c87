package main

import (
	"fmt"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/aggregate"
	"github.com/argstream/argstream/render"
)

const aggregateUsage = "aggregate " + inputUsage + " [FILE]"

// runAggregate prints the complete arguments at the end of the input. It
// reads the input as it arrives all the same, so that an invalid input is
// reported as soon as it is read.
func runAggregate(e env, args []string) int {
	src, code, ok := openCallInput(e, newFlags("aggregate"), aggregateUsage, args, nil)
	if !ok {
		return code
	}
	defer src.close()
	agg := aggregate.New()
	if err := src.feed(argstream.New(agg, src.opts...), func() error { return nil }); err != nil {
		return report(e, src.name, err)
	}
	v, err := agg.Value()
	if err != nil {
		return report(e, src.name, err)
	}
	// The same JSON, every character a terminal could act on, or that
	// hides or reorders text, as a \u escape.
	if _, err := fmt.Fprintf(e.stdout, "%s\n", render.AppendEscaped(nil, v, render.JSONText)); err != nil {
		return report(e, src.name, &ioError{"stdout", err})
	}
	return exitOK
}
