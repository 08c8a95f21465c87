package glm_test

import (
	"fmt"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/aggregate"
	"github.com/argstream/argstream/schema"
	"github.com/argstream/argstream/token"
	"github.com/argstream/argstream/token/glm"
)

// A call in GLM-4.5's format, in the chunks a model streams, read into its
// JSON arguments: without schemas every value is a string, kept as it is.
func ExampleNew() {
	agg := aggregate.New()
	s := argstream.New(agg, argstream.WithTokenizer(func(h token.Handler, opts ...token.Option) token.Tokenizer {
		return glm.New(h, opts...)
	}))
	for _, chunk := range []string{
		"<tool_call>write_file\n<arg_key>path</arg_key>\n<arg_value>src/ma", "in.rs</arg_value>\n<arg_",
		"key>content</arg_key>\n<arg_value>fn main() {\n    if a < b {}\n}\n</arg_value>\n</tool_call>",
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
// objects are JSON text. GLM-4.7 writes the call without line breaks.
func ExampleTyped() {
	tools, err := schema.Parse([]byte(`[{"type": "function", "function": {"name": "read_files", "parameters": {"type": "object", "properties": {
		"paths": {"type": "array", "items": {"type": "string"}}, "max_lines": {"type": "integer"}}}}}]`))
	if err != nil {
		fmt.Println(err)
		return
	}
	agg := aggregate.New()
	s := argstream.New(agg, argstream.WithTokenizer(glm.Typed(tools)))
	s.Feed([]byte("<tool_call>read_files<arg_key>paths</arg_key><arg_value>[\"src/main.rs\", \"Cargo.toml\"]</arg_value><arg_key>max_lines</arg_key><arg_value>100</arg_value></tool_call>"))
	if err := s.Close(); err != nil {
		fmt.Println(err)
		return
	}
	v, _ := agg.Value()
	fmt.Printf("%s\n", v)
	// Output:
	// {"paths":["src/main.rs","Cargo.toml"],"max_lines":100}
}

// Format writes JSON arguments as GLM-4.5's chat template does.
func ExampleFormat() {
	text, err := glm.Format("write_file", []byte(`{"path": "a.txt", "content": "one\ntwo", "paths": ["x", "y"]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(text))
	// Output:
	// <tool_call>write_file
	// <arg_key>path</arg_key>
	// <arg_value>a.txt</arg_value>
	// <arg_key>content</arg_key>
	// <arg_value>one
	// two</arg_value>
	// <arg_key>paths</arg_key>
	// <arg_value>["x","y"]</arg_value>
	// </tool_call>
}
