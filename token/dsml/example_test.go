package dsml_test

import (
	"fmt"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/aggregate"
	"github.com/argstream/argstream/schema"
	"github.com/argstream/argstream/token"
	"github.com/argstream/argstream/token/dsml"
)

// A call in DeepSeek's DSML format, in the chunks a model streams, read
// into its JSON arguments: a value with string="true" is a string as it is,
// any other is JSON text.
func ExampleNew() {
	agg := aggregate.New()
	s := argstream.New(agg, argstream.WithTokenizer(func(h token.Handler, opts ...token.Option) token.Tokenizer {
		return dsml.New(h, opts...)
	}))
	for _, chunk := range []string{
		"<｜DSML｜invoke name=\"write_file\">\n<｜DSML｜parameter name=\"path\" string=\"true\">src/ma", "in.rs</｜DSML｜parameter>\n<｜DSML｜para",
		"meter name=\"content\" string=\"true\">fn main() {\n    if a < b {}\n}\n</｜DSML｜parameter>\n<｜DSML｜parameter name=\"mode\" string=\"false\">420</｜DSML｜parameter>\n</｜DSML｜invoke>",
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
	// {"path":"src/main.rs","content":"fn main() {\n    if a < b {}\n}\n","mode":420}
}

// With the tools' schemas, a JSON value must be of its parameter's type,
// and raw text is read as that type.
func ExampleTyped() {
	tools, err := schema.Parse([]byte(`[{"type": "function", "function": {"name": "read_files", "parameters": {"type": "object", "properties": {
		"paths": {"type": "array", "items": {"type": "string"}}, "max_lines": {"type": "integer"}}}}}]`))
	if err != nil {
		fmt.Println(err)
		return
	}
	agg := aggregate.New()
	s := argstream.New(agg, argstream.WithTokenizer(dsml.Typed(tools)))
	s.Feed([]byte("<｜DSML｜invoke name=\"read_files\">\n<｜DSML｜parameter name=\"paths\" string=\"false\">[\"src/main.rs\", \"Cargo.toml\"]</｜DSML｜parameter>\n<｜DSML｜parameter name=\"max_lines\" string=\"true\">100</｜DSML｜parameter>\n</｜DSML｜invoke>"))
	if err := s.Close(); err != nil {
		fmt.Println(err)
		return
	}
	v, _ := agg.Value()
	fmt.Printf("%s\n", v)
	// Output:
	// {"paths":["src/main.rs","Cargo.toml"],"max_lines":100}
}

// Format writes JSON arguments as DeepSeek's encoding does.
func ExampleFormat() {
	text, err := dsml.Format("write_file", []byte(`{"path": "a.txt", "content": "one\ntwo", "paths": ["x", "y"]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(text))
	// Output:
	// <｜DSML｜invoke name="write_file">
	// <｜DSML｜parameter name="path" string="true">a.txt</｜DSML｜parameter>
	// <｜DSML｜parameter name="content" string="true">one
	// two</｜DSML｜parameter>
	// <｜DSML｜parameter name="paths" string="false">["x","y"]</｜DSML｜parameter>
	// </｜DSML｜invoke>
}
