package argstream_test

import (
	"errors"
	"fmt"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/aggregate"
	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/sink"
	"github.com/go-json-experiment/json/jsontext"
)

// Feed the argument deltas as the provider sends them; act on "path" the
// moment it is complete, while "content" is still arriving.
func Example() {
	deltas := []string{`{"path": "src/ma`, `in.go", "content": "package main\n`, `func main() {}\n"}`}

	agg := aggregate.New(aggregate.OnValue(func(p fragment.Path, v jsontext.Value) error {
		if p.Pointer() == "/path" {
			fmt.Println("path is", v)
		}
		return nil
	}))
	s := argstream.New(agg)
	for i, d := range deltas {
		if err := s.Feed([]byte(d)); err != nil {
			fmt.Println("bad arguments:", err)
			return
		}
		fmt.Println("fed delta", i)
	}
	if err := s.Close(); err != nil {
		fmt.Println("bad arguments:", err)
		return
	}
	args, _ := agg.Value()
	fmt.Println(args)
	// Output:
	// fed delta 0
	// path is "src/main.go"
	// fed delta 1
	// fed delta 2
	// {"path":"src/main.go","content":"package main\nfunc main() {}\n"}
}

// Print each fragment in RFD 043's notation (docs/design.md, "The fragment
// protocol") as the chunks determine it.
func ExampleNew() {
	s := argstream.New(sink.PushFunc(func(p *fragment.Progress) error {
		fmt.Printf("%d: %v\n", p.Offset, &p.Fragment)
		return nil
	}))
	s.Feed([]byte(`{"dry_run": tr`))
	s.Feed([]byte(`ue, "files": ["a", "b`))
	s.Feed([]byte(`c"]}`))
	s.Close()
	// Output:
	// 16: ObjectEntry { key: "dry_run", value: Scalar(Bool(true)) }
	// 16: ObjectEntry { key: "dry_run", value: Done }
	// 30: ObjectEntry { key: "files", value: ArrayItem { index: 0, value: String("a") } }
	// 31: ObjectEntry { key: "files", value: ArrayItem { index: 0, value: Done } }
	// 35: ObjectEntry { key: "files", value: ArrayItem { index: 1, value: String("b") } }
	// 36: ObjectEntry { key: "files", value: ArrayItem { index: 1, value: String("c") } }
	// 37: ObjectEntry { key: "files", value: ArrayItem { index: 1, value: Done } }
	// 38: ObjectEntry { key: "files", value: Done }
	// 39: Done
}

// Every fragment carries the identity of its tool call.
func ExampleWithCall() {
	call := fragment.Call{ID: "call_7", Name: "get_weather"}
	s := argstream.New(sink.PushFunc(func(p *fragment.Progress) error {
		fmt.Println(p.Call.Name, p.Call.ID, &p.Fragment)
		return nil
	}), argstream.WithCall(call))
	s.Feed([]byte(`{"city":"Oslo"}`))
	s.Close()
	// Output:
	// get_weather call_7 ObjectEntry { key: "city", value: String("Oslo") }
	// get_weather call_7 ObjectEntry { key: "city", value: Done }
	// get_weather call_7 Done
}

// Bad input ends the stream with an error that says what and where; the
// fragments delivered before it stay delivered.
func ExampleStream_Feed_error() {
	s := argstream.New(sink.PushFunc(func(p *fragment.Progress) error {
		fmt.Println(&p.Fragment)
		return nil
	}))
	err := s.Feed([]byte(`{"a": 1, "a": 2}`))
	fmt.Println(err)
	// Output:
	// ObjectEntry { key: "a", value: Scalar(Number(1)) }
	// ObjectEntry { key: "a", value: Done }
	// token: invalid JSON at byte 9 ("/a"): duplicate object key "a"
}

// A sink stops the stream when it has seen enough: the caller gets
// sink.ErrStop from Feed and can cancel the request upstream.
func ExampleStream_Feed_stop() {
	s := argstream.New(sink.PushFunc(func(p *fragment.Progress) error {
		if p.Fragment.Kind == fragment.String && string(p.Fragment.Text) == "rm -rf /" {
			return fmt.Errorf("refused: %w", sink.ErrStop)
		}
		return nil
	}))
	err := s.Feed([]byte(`{"command":"rm -rf /","timeout":`))
	fmt.Println(err, errors.Is(err, sink.ErrStop))
	// Output:
	// refused: sink: stop true
}

// Reuse one Stream and Aggregator for call after call, as a gateway does:
// after the first call, parsing allocates nothing.
func ExampleStream_Reset() {
	calls := []struct {
		call fragment.Call
		args string
	}{
		{fragment.Call{ID: "call_1", Name: "read_file"}, `{"path": "a.go"}`},
		{fragment.Call{ID: "call_2", Name: "read_file"}, `{"path": "b.go"}`},
	}
	agg := aggregate.New()
	s := argstream.New(agg)
	for _, c := range calls {
		agg.Reset()
		s.Reset(c.call)
		if err := s.Feed([]byte(c.args)); err != nil {
			fmt.Println(err)
			continue
		}
		if err := s.Close(); err != nil {
			fmt.Println(err)
			continue
		}
		v, _ := agg.Value()
		fmt.Println(s.Call().ID, v)
	}
	// Output:
	// call_1 {"path":"a.go"}
	// call_2 {"path":"b.go"}
}
