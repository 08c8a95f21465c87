package xmltag_test

import (
	"fmt"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/aggregate"
	"github.com/argstream/argstream/schema"
	"github.com/argstream/argstream/token"
	"github.com/argstream/argstream/token/xmltag"
)

// A call in XML tags, in the chunks a model streams, read into its JSON
// arguments: without schemas every value is a string.
func ExampleNew() {
	agg := aggregate.New()
	s := argstream.New(agg, argstream.WithTokenizer(func(h token.Handler, opts ...token.Option) token.Tokenizer {
		return xmltag.New(h, opts...)
	}))
	for _, chunk := range []string{
		"<tool:write_file>\n<param:path>src/ma", "in.rs</param:path>\n<param:con",
		"tent>\nfn main() {\n    if a < b {}\n}\n</param:content>\n</tool:write_file>",
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

// With the tools' schemas, values take their declared types, and a
// parameter repeated in a row is an array.
func ExampleTyped() {
	tools, err := schema.Parse([]byte(`[{"name": "read_files", "input_schema": {"type": "object", "properties": {
		"paths": {"type": "array", "items": {"type": "string"}}, "max_lines": {"type": "integer"}}}}]`))
	if err != nil {
		fmt.Println(err)
		return
	}
	agg := aggregate.New()
	s := argstream.New(agg, argstream.WithTokenizer(xmltag.Typed(tools)))
	s.Feed([]byte("<tool:read_files>\n<param:paths>src/main.rs</param:paths>\n<param:paths>Cargo.toml</param:paths>\n<param:max_lines>100</param:max_lines>\n</tool:read_files>"))
	if err := s.Close(); err != nil {
		fmt.Println(err)
		return
	}
	v, _ := agg.Value()
	fmt.Printf("%s\n", v)

	// "path" for "paths" is an error, not a guess.
	s.Reset(s.Call())
	agg.Reset()
	s.Feed([]byte("<tool:read_files><param:path>a</param:path></tool:read_files>"))
	fmt.Println(s.Close())
	// Output:
	// {"paths":["src/main.rs","Cargo.toml"],"max_lines":100}
	// token: invalid XML tags at byte 17 (line 1, column 18) ("/path"): parameter "path" is not in the schema of read_files (it has "paths")
}

// Format writes JSON arguments as XML tags.
func ExampleFormat() {
	text, err := xmltag.Format("write_file", []byte(`{"path": "a.txt", "content": "one\ntwo", "paths": ["x", "y"], "n": 3}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(text))
	// Output:
	// <tool:write_file>
	// <param:path>a.txt</param:path>
	// <param:content>
	// one
	// two
	// </param:content>
	// <param:paths>x</param:paths>
	// <param:paths>y</param:paths>
	// <param:n>3</param:n>
	// </tool:write_file>
}
