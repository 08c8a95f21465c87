package caret_test

import (
	"fmt"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/aggregate"
	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/schema"
	"github.com/argstream/argstream/token"
	"github.com/argstream/argstream/token/caret"
)

// A caret block, read in chunks through argstream, becomes the JSON
// arguments of its call. Each value is complete (OnValue) as soon as its
// line, or its end marker, has arrived.
func ExampleNew() {
	agg := aggregate.New(aggregate.OnValue(func(p fragment.Path, v jsontext.Value) error {
		if len(p) > 0 {
			fmt.Printf("%s = %s\n", p.Pointer(), v)
		}
		return nil
	}))
	s := argstream.New(agg, argstream.WithTokenizer(func(h token.Handler, opts ...token.Option) token.Tokenizer {
		return caret.New(h, opts...)
	}))
	for _, chunk := range []string{"^^^write_file\npath: src/", "main.rs\ncontent ---\nfn main() {\n", "}\n--- content\n^^^\n"} {
		if err := s.Feed([]byte(chunk)); err != nil {
			fmt.Println(err)
			return
		}
	}
	if err := s.Close(); err != nil {
		fmt.Println(err)
		return
	}
	args, _ := agg.Value()
	fmt.Println(args)
	// Output:
	// /path = "src/main.rs"
	// /content = "fn main() {\n}"
	// {"path":"src/main.rs","content":"fn main() {\n}"}
}

// With the tools' schemas, each value has the type its parameter
// declares: a number, an array (also from a single value), JSON text.
// A value that does not fit is an error that says where.
func ExampleTyped() {
	tools, err := schema.Parse([]byte(`[{"name": "read_files", "input_schema": {"type": "object", "properties": {
		"paths": {"type": "array", "items": {"type": "string"}},
		"limit": {"type": "integer"},
		"options": {"type": "object"}}}}]`))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, block := range []string{
		"^^^read_files\npaths: [\nsrc/main.rs\nCargo.toml\n]\nlimit: 100\noptions: {\"hidden\": true}\n^^^",
		"^^^read_files\npaths: src/main.rs\n^^^",
		"^^^read_files\npaths: src/main.rs\nlimit: 1.5\n^^^",
		"^^^read_files\npath: src/main.rs\n^^^",
	} {
		agg := aggregate.New()
		s := argstream.New(agg, argstream.WithTokenizer(caret.Typed(tools)))
		s.Write([]byte(block))
		if err := s.Close(); err != nil {
			fmt.Println(err)
			continue
		}
		args, _ := agg.Value()
		fmt.Println(args)
	}
	// Output:
	// {"paths":["src/main.rs","Cargo.toml"],"limit":100,"options":{"hidden":true}}
	// {"paths":["src/main.rs"]}
	// token: invalid caret block at byte 40 (line 3, column 8) ("/limit"): value "1.5" is not an integer
	// token: invalid caret block at byte 14 (line 2, column 1) ("/path"): parameter "path" is not in the schema of read_files (it has "paths")
}

// Format writes JSON arguments as a caret block: a string with line
// breaks as a multi-line value, an array as a list.
func ExampleFormat() {
	block, err := caret.Format("write_file", jsontext.Value(`{"path": "notes.md", "content": "# Title\nbody", "tags": ["a", "b"], "draft": true}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(string(block))
	// Output:
	// ^^^write_file
	// path: notes.md
	// content ---
	// # Title
	// body
	// --- content
	// tags: [
	// a
	// b
	// ]
	// draft: true
	// ^^^
}
