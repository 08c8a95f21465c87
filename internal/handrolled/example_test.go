package handrolled_test

import (
	"fmt"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/aggregate"
	"github.com/argstream/argstream/internal/handrolled"
	"github.com/argstream/argstream/token"
)

// Feed the tokenizer chunks as they arrive; it reports each event as soon as
// the bytes received determine it.
func ExampleNew() {
	tok := handrolled.New(token.HandlerFunc(func(e token.Event) error {
		fmt.Printf("%d %v %q\n", e.Offset, e.Kind, e.Data)
		return nil
	}))
	for _, chunk := range []string{`{"path": "src/ma`, `in.go", "n": 4`, `2}`} {
		if err := tok.Feed([]byte(chunk)); err != nil {
			fmt.Println(err)
			return
		}
	}
	if err := tok.Close(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// 1 BeginObject ""
	// 7 Key "path"
	// 10 BeginString ""
	// 16 StringData "src/ma"
	// 21 StringData "in.go"
	// 22 EndString ""
	// 27 Key "n"
	// 32 Number "42"
	// 32 EndObject ""
}

// Errors have the category, offset and JSON pointer that jsontoken.Tokenizer
// gives: what, where in the stream, and the value concerned.
func ExampleTokenizer_Feed_error() {
	tok := handrolled.New(token.HandlerFunc(func(token.Event) error { return nil }))
	err := tok.Feed([]byte(`{"path": "a", "path": "b"}`))
	fmt.Println(err)
	// Output:
	// token: invalid JSON at byte 14 ("/path"): duplicate object key "path"
}

// NewFunc plugs the tokenizer into the argstream pipeline.
func ExampleNewFunc() {
	agg := aggregate.New()
	s := argstream.New(agg, argstream.WithTokenizer(handrolled.NewFunc))
	s.Feed([]byte(`{"path": "src/main.go", "lines": [1, `))
	s.Feed([]byte(`2]}`))
	if err := s.Close(); err != nil {
		fmt.Println(err)
		return
	}
	v, _ := agg.Value()
	fmt.Println(v)
	// Output:
	// {"path":"src/main.go","lines":[1,2]}
}
