package qwen_test

import (
	"fmt"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/aggregate"
	"github.com/argstream/argstream/schema"
	"github.com/argstream/argstream/token"
	"github.com/argstream/argstream/token/qwen"
)

// A call in Qwen3-Coder's format, in the chunks a model streams, read into
// its JSON arguments: without schemas every value is a string.
func ExampleNew() {
	agg := aggregate.New()
	s := argstream.New(agg, argstream.WithTokenizer(func(h token.Handler, opts ...token.Option) token.Tokenizer {
		return qwen.New(h, opts...)
	}))
	for _, chunk := range []string{
		"<tool_call>\n<function=write_file>\n<parameter=path>\nsrc/ma", "in.rs\n</parameter>\n<parame",
		"ter=content>\nfn main() {\n    if a < b {}\n}\n</parameter>\n</function>\n</tool_call>",
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
	// {"path":"src/main.rs","content":"fn main() {\n    if a < b {}\n}"}
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
	s := argstream.New(agg, argstream.WithTokenizer(qwen.Typed(tools)))
	s.Feed([]byte("<tool_call>\n<function=read_files>\n<parameter=paths>\n[\"src/main.rs\", \"Cargo.toml\"]\n</parameter>\n<parameter=max_lines>\n100\n</parameter>\n</function>\n</tool_call>"))
	if err := s.Close(); err != nil {
		fmt.Println(err)
		return
	}
	v, _ := agg.Value()
	fmt.Printf("%s\n", v)
	// Output:
	// {"paths":["src/main.rs","Cargo.toml"],"max_lines":100}
}

// Format writes JSON arguments as Qwen3-Coder's chat template does.
func ExampleFormat() {
	text, err := qwen.Format("write_file", []byte(`{"path": "a.txt", "content": "one\ntwo", "paths": ["x", "y"]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(text))
	// Output:
	// <tool_call>
	// <function=write_file>
	// <parameter=path>
	// a.txt
	// </parameter>
	// <parameter=content>
	// one
	// two
	// </parameter>
	// <parameter=paths>
	// ["x","y"]
	// </parameter>
	// </function>
	// </tool_call>
}
