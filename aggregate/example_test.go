package aggregate_test

import (
	"fmt"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/aggregate"
	"github.com/argstream/argstream/fragment"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// OnValue hands over every value the moment it completes, at any depth.
func ExampleOnValue() {
	agg := aggregate.New(aggregate.OnValue(func(p fragment.Path, v jsontext.Value) error {
		fmt.Printf("%q = %s\n", p.Pointer(), v)
		return nil
	}))
	s := argstream.New(agg)
	s.Feed([]byte(`{"path": "lib.rs", "patterns": [{"old": "lo`))
	s.Feed([]byte(`ng", "new": "short"}]}`))
	s.Close()
	// Output:
	// "/path" = "lib.rs"
	// "/patterns/0/old" = "long"
	// "/patterns/0/new" = "short"
	// "/patterns/0" = {"old":"long","new":"short"}
	// "/patterns" = [{"old":"long","new":"short"}]
	// "" = {"path":"lib.rs","patterns":[{"old":"long","new":"short"}]}
}

// The complete arguments decode into the tool's own type.
func ExampleAggregator_Value() {
	agg := aggregate.New()
	s := argstream.New(agg)
	s.Feed([]byte(`{"city": "Paris", "days": 3}`))
	if err := s.Close(); err != nil {
		fmt.Println(err)
		return
	}
	v, _ := agg.Value()
	var args struct {
		City string `json:"city"`
		Days int    `json:"days"`
	}
	if err := json.Unmarshal(v, &args); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%+v\n", args)
	// Output:
	// {City:Paris Days:3}
}
