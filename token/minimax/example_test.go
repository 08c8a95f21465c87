package minimax_test

import (
	"fmt"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/aggregate"
	"github.com/argstream/argstream/schema"
	"github.com/argstream/argstream/token"
	"github.com/argstream/argstream/token/minimax"
)

// A call in MiniMax-M2's format, in the chunks a model streams, read into
// its JSON arguments: without schemas every value is a string, kept as it
// is.
func ExampleNew() {
	agg := aggregate.New()
	s := argstream.New(agg, argstream.WithTokenizer(func(h token.Handler, opts ...token.Option) token.Tokenizer {
		return minimax.New(h, opts...)
	}))
	for _, chunk := range []string{
		"<invoke name=\"write_file\">\n<parameter name=\"path\">src/ma", "in.rs</parameter>\n<parame",
		"ter name=\"content\">fn main() {\n    if a < b {}\n}\n</parameter>\n</invoke>",
	} {
		if err := s.Feed([]byte(chunk)); err != nil {
			fmt.Println(err)
			return
		}
	}
	if err := s.Close(); err != nil {
		fmt.Println(err)
		return
	}
	v, _ := agg.Value()
	fmt.Printf("%s\n", v)
	// Output:
	// {"path":"src/main.rs","content":"fn main() {\n    if a < b {}\n}\n"}
}

// With the tools' schemas, values take their declared types; arrays and
// objects are JSON text.
func ExampleTyped() {
	tools, err := schema.Parse([]byte(`[{"type": "function", "function": {"name": "read_files", "parameters": {"type": "object", "properties": {
		"paths": {"type": "array", "items": {"type": "string"}}, "max_lines": {"type": "integer"}}}}}]`))
	if err != nil {
		fmt.Println(err)
		return
	}
	agg := aggregate.New()
	s := argstream.New(agg, argstream.WithTokenizer(minimax.Typed(tools)))
	s.Feed([]byte("<invoke name=\"read_files\">\n<parameter name=\"paths\">[\"src/main.rs\", \"Cargo.toml\"]</parameter>\n<parameter name=\"max_lines\">100</parameter>\n</invoke>"))
	if err := s.Close(); err != nil {
		fmt.Println(err)
		return
	}
	v, _ := agg.Value()
	fmt.Printf("%s\n", v)
	// Output:
	// {"paths":["src/main.rs","Cargo.toml"],"max_lines":100}
}

// Format writes JSON arguments as MiniMax-M2's chat template does.
func ExampleFormat() {
	text, err := minimax.Format("write_file", []byte(`{"path": "a.txt", "content": "one\ntwo", "paths": ["x", "y"]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(text))
	// Output:
	// <invoke name="write_file">
	// <parameter name="path">a.txt</parameter>
	// <parameter name="content">one
	// two</parameter>
	// <parameter name="paths">["x","y"]</parameter>
	// </invoke>
}
