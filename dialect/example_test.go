package dialect_test

import (
	"bytes"
	"fmt"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/dialect"
	"github.com/argstream/argstream/schema"
	"github.com/argstream/argstream/toolcall"
)

// An assistant writes its call as a caret block inside its text, a few
// bytes at a time: the prose comes out as text, the call goes to the
// Response, typed by the tool's schema.
func Example() {
	tools, err := schema.Parse([]byte(`[{"name": "read_files", "input_schema": {"properties": {
		"project": {"type": "string"}, "paths": {"type": "array", "items": {"type": "string"}},
		"max_lines": {"type": "integer"}}}}]`))
	if err != nil {
		panic(err)
	}
	calls := toolcall.New(toolcall.WithStreamOptions(argstream.WithTokenizer(dialect.Caret.Tokenizer(tools))))
	rd := dialect.NewReader(dialect.Caret, calls,
		dialect.OnText(func(text []byte) { fmt.Printf("text %q\n", text) }),
		dialect.OnSource(func(i int64, src []byte) { fmt.Printf("call %d %q\n", i, src) }))

	for _, delta := range []string{
		"I'll read it.\n^^^read", "_files\nproject: my_proj\n",
		"paths: src/main.rs\nmax_lines: 50\n^^^\n", "Reading now ^^^ wait.",
	} {
		if _, err := rd.WriteString(delta); err != nil {
			fmt.Println(err)
			return
		}
	}
	rd.Close()
	for _, res := range calls.End() {
		fmt.Printf("%d %s %s executable=%v\n", res.Call.Index, res.Call.Name, res.Arguments, res.Executable)
	}
	// Output:
	// text "I'll read it.\n"
	// call 0 "^^^read_files\n"
	// call 0 "project: my_proj\n"
	// call 0 "paths: src/main.rs\nmax_lines: 50\n^^^\n"
	// text "Reading now ^^^ wait."
	// 0 read_files {"project":"my_proj","paths":["src/main.rs"],"max_lines":50} executable=true
}

// The same arguments in the three syntaxes, as Format writes them.
func ExampleSyntax_Format() {
	for _, syn := range []dialect.Syntax{dialect.Caret, dialect.XML, dialect.Qwen} {
		text, err := syn.Format("write_file", []byte(`{"path": "a.txt", "content": "one\ntwo"}`))
		if err != nil {
			panic(err)
		}
		fmt.Printf("== %s\n%s\n", syn, bytes.TrimSuffix(text, []byte("\n")))
	}
	// Output:
	// == caret
	// ^^^write_file
	// path: a.txt
	// content ---
	// one
	// two
	// --- content
	// ^^^
	// == xml
	// <tool:write_file>
	// <param:path>a.txt</param:path>
	// <param:content>
	// one
	// two
	// </param:content>
	// </tool:write_file>
	// == qwen
	// <tool_call>
	// <function=write_file>
	// <parameter=path>
	// a.txt
	// </parameter>
	// <parameter=content>
	// one
	// two
	// </parameter>
	// </function>
	// </tool_call>
}
