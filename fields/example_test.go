package fields_test

import (
	"errors"
	"fmt"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/aggregate"
	"github.com/argstream/argstream/fields"
	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/sink"
)

// A live display of a tool call's arguments, field by field, as the
// deltas arrive: axio's usage pattern.
func Example() {
	deltas := []string{`{"path": "src/ma`, `in.go", "content": "package main\n`, `\nfunc main() {}\n", "mode": 420}`}

	show := fields.New(func(e *fields.Event) error {
		switch e.Kind {
		case fields.Start:
			fmt.Printf("%s: ", e.Key)
		case fields.Delta:
			fmt.Printf("%s", e.Text)
		case fields.End:
			fmt.Println()
		}
		return nil
	})
	s := argstream.New(show)
	for _, d := range deltas {
		if err := s.Feed([]byte(d)); err != nil {
			fmt.Println("\ninvalid arguments:", err)
			return
		}
	}
	if err := s.Close(); err != nil {
		fmt.Println("\ninvalid arguments:", err)
	}
	// Output:
	// path: src/main.go
	// content: package main
	//
	// func main() {}
	//
	// mode: 420
}

// Each chunk gives the events it determines: here axio's documented
// example, {"path": "/tmp/file"} arriving as '{"pat', 'h":"/tm' and
// 'p/file"}'.
func ExampleNew() {
	f := fields.New(func(e *fields.Event) error {
		if e.Kind == fields.Delta {
			fmt.Printf("  %v %s %q\n", e.Kind, e.Key, e.Text)
		} else {
			fmt.Printf("  %v %s\n", e.Kind, e.Key)
		}
		return nil
	})
	s := argstream.New(f)
	for _, chunk := range []string{`{"pat`, `h":"/tm`, `p/file"}`} {
		fmt.Printf("%s\n", chunk)
		s.Feed([]byte(chunk))
	}
	s.Close()
	// Output:
	// {"pat
	// h":"/tm
	//   start path
	//   delta path "/tm"
	// p/file"}
	//   delta path "p/file"
	//   end path
}

// A value that is not a string streams as compact JSON text, piece by
// piece as its fragments arrive; Event.JSON says so. Here axio's object
// example, {"config": {"retry": 3}} as '{"config":{"re' and 'try":3}}':
// the first chunk determines nothing yet.
func ExampleEvent_JSON() {
	f := fields.New(func(e *fields.Event) error {
		fmt.Printf("  %v %s json=%v", e.Kind, e.Key, e.JSON)
		if e.Kind == fields.Delta {
			fmt.Printf(" %s", e.Text)
		}
		fmt.Println()
		return nil
	})
	s := argstream.New(f)
	for _, chunk := range []string{`{"config":{"re`, `try":3}}`} {
		fmt.Printf("%s\n", chunk)
		s.Feed([]byte(chunk))
	}
	s.Close()
	// Output:
	// {"config":{"re
	// try":3}}
	//   start config json=true
	//   delta config json=true {"retry":3
	//   delta config json=true }
	//   end config json=true
}

// OnEnd says how the arguments ended: a field cut short never gets its End,
// and bad or truncated input is an error, never displayed as valid.
func ExampleOnEnd() {
	f := fields.New(func(e *fields.Event) error {
		fmt.Printf("%v %s %q\n", e.Kind, e.Key, e.Text)
		return nil
	}, fields.OnEnd(func(err error) {
		if err != nil {
			fmt.Println("cut short:", err)
		}
	}))
	s := argstream.New(f)
	s.Feed([]byte(`{"path": "a.txt", "content": "hello, wor`))
	s.Close() // the model hit max_tokens

	// Arguments that are not an object have no fields.
	s = argstream.New(fields.New(func(*fields.Event) error { return nil }))
	err := s.Feed([]byte(`["a.txt"]`))
	fmt.Println(errors.Is(err, fields.ErrNotObject), err)
	// Output:
	// start path ""
	// delta path "a.txt"
	// end path ""
	// start content ""
	// delta content "hello, wor"
	// cut short: token: invalid JSON at byte 40 ("/content"): unexpected end of input in string
	// true fields: the arguments are an array, not an object
}

// One Sink and one Stream serve call after call, without allocating: reset
// both between calls. Every event carries its call's identity.
func ExampleSink_Reset() {
	f := fields.New(func(e *fields.Event) error {
		if e.Kind == fields.Start {
			fmt.Printf("%s (%s): %s\n", e.Call.Name, e.Call.ID, e.Key)
		}
		return nil
	})
	s := argstream.New(f)
	for _, call := range []struct {
		id, name, args string
	}{
		{"call_1", "read_file", `{"path": "go.mod"}`},
		{"call_2", "search", `{"query": "fields", "limit": 5}`},
	} {
		s.Reset(fragment.Call{ID: call.id, Name: call.name})
		f.Reset()
		s.Feed([]byte(call.args))
		s.Close()
	}
	// Output:
	// read_file (call_1): path
	// search (call_2): query
	// search (call_2): limit
}

// Beside an aggregator: the display streams each field while the complete
// arguments are built for the tool.
func ExampleSink_Push() {
	show := fields.New(func(e *fields.Event) error {
		if e.Kind == fields.End {
			fmt.Printf("%s done\n", e.Key)
		}
		return nil
	})
	agg := aggregate.New()
	s := argstream.New(sink.Multi(show, agg))
	s.Feed([]byte(`{"path": "a.txt", "lines": [1, 2]}`))
	s.Close()
	v, _ := agg.Value()
	fmt.Println(v)
	// Output:
	// path done
	// lines done
	// {"path":"a.txt","lines":[1,2]}
}
