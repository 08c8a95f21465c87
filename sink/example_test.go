package sink_test

import (
	"errors"
	"fmt"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/aggregate"
	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/sink"
)

// Several sinks see the same fragments: here a live display and the
// aggregator.
func ExampleMulti() {
	display := sink.PushFunc(func(p *fragment.Progress) error {
		if p.Fragment.Kind == fragment.String {
			fmt.Printf("%s", p.Fragment.Text)
		}
		return nil
	})
	agg := aggregate.New()
	s := argstream.New(sink.Multi(display, agg))
	s.Feed([]byte(`{"text": "Hello, `))
	s.Feed([]byte(`world"}`))
	s.Close()
	v, _ := agg.Value()
	fmt.Println()
	fmt.Println(v)
	// Output:
	// Hello, world
	// {"text":"Hello, world"}
}

// A sink returns ErrStop, wrapped or not, to stop parsing a call it needs no
// more of.
func ExampleErrStop() {
	skip := sink.PushFunc(func(p *fragment.Progress) error {
		if p.Fragment.Kind == fragment.Done && p.Fragment.Path.Pointer() == "/dry_run" {
			return fmt.Errorf("dry run, not executing: %w", sink.ErrStop)
		}
		return nil
	})
	s := argstream.New(skip)
	err := s.Feed([]byte(`{"dry_run": true, "content": "...`))
	fmt.Println(errors.Is(err, sink.ErrStop), err)
	// Output:
	// true dry run, not executing: sink: stop
}
