package dialect_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/dialect"
	"github.com/argstream/argstream/schema"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire"
	"github.com/argstream/argstream/wire/openaistream"
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

// A model without native tool calling, served through an OpenAI-compatible
// Chat Completions API (Qwen3-Coder without a server-side tool parser),
// writes its call in its text: the wire adapter hands the text to a Reader,
// which finds the call in it. The native calls of the stream, if any, go
// to a Response of their own.
func Example_chatCompletions() {
	sse := "" +
		`data: {"choices":[{"index":0,"delta":{"content":"Let me look.\n<tool_"}}]}` + "\n\n" +
		`data: {"choices":[{"index":0,"delta":{"content":"call>\n<function=read_file>\n<parameter=path>\nsrc/ma"}}]}` + "\n\n" +
		`data: {"choices":[{"index":0,"delta":{"content":"in.go\n</parameter>\n</function>\n</tool_call>"}}]}` + "\n\n" +
		`data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` + "\n\n" +
		"data: [DONE]\n\n"

	native := toolcall.New()
	written := toolcall.New(toolcall.WithStreamOptions(argstream.WithTokenizer(dialect.Qwen.Tokenizer(nil))))
	rd := dialect.NewReader(dialect.Qwen, written, dialect.OnText(func(text []byte) { fmt.Printf("text %q\n", text) }))
	err := openaistream.ReadChat(context.Background(), strings.NewReader(sse), native,
		wire.OnText(func(_ int64, text []byte) { rd.Write(text) }))
	if err != nil {
		fmt.Println(err)
		return
	}
	rd.Close()
	for _, res := range written.End() {
		fmt.Printf("%d %s %s executable=%v\n", res.Call.Index, res.Call.Name, res.Arguments, res.Executable)
	}
	fmt.Println("native calls:", len(native.End()))
	// Output:
	// text "Let me look.\n"
	// 0 read_file {"path":"src/main.go"} executable=true
	// native calls: 0
}

// gpt-oss served raw writes Harmony messages: its reasoning on the
// analysis channel, its call as a message to functions.NAME, ended by
// <|call|>. The markers are framing; the reasoning goes to OnReasoning.
func ExampleOnReasoning() {
	calls := toolcall.New(toolcall.WithStreamOptions(argstream.WithTokenizer(dialect.Harmony.Tokenizer(nil))))
	rd := dialect.NewReader(dialect.Harmony, calls,
		dialect.OnText(func(text []byte) { fmt.Printf("text %q\n", text) }),
		dialect.OnReasoning(func(text []byte) { fmt.Printf("reasoning %q\n", text) }))
	for _, delta := range []string{
		"<|channel|>analysis<|message|>Need the weather.<|e", "nd|><|start|>assistant<|channel|>commentary to=functions.get_",
		`weather <|constrain|>json<|message|>{"city": "Par`, `is"}<|call|>`,
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
	// reasoning "Need the weather."
	// 0 get_weather {"city":"Paris"} executable=true
}

// Kimi K2's calls carry their own ids; a section gathers them, and only
// white space may stand between them. Text in a section is an error of the
// whole message: no call of it runs.
func Example_kimiK2() {
	for _, text := range []string{
		"<|tool_calls_section_begin|><|tool_call_begin|>functions.search:0<|tool_call_argument_begin|>{\"q\": \"go\"}<|tool_call_end|><|tool_calls_section_end|>",
		"<|tool_calls_section_begin|><|tool_call_begin|>functions.search:0<|tool_call_argument_begin|>{\"q\": \"go\"}<|tool_call_end|>and<|tool_calls_section_end|>",
	} {
		calls := toolcall.New()
		rd := dialect.NewReader(dialect.KimiK2, calls)
		if _, err := rd.WriteString(text); err != nil {
			fmt.Println(err)
		}
		rd.Close()
		for _, res := range calls.End() {
			fmt.Printf("%s %s %s executable=%v\n", res.Call.ID, res.Call.Name, res.Arguments, res.Executable)
		}
	}
	// Output:
	// functions.search:0 search {"q":"go"} executable=true
	// token: invalid kimi-k2 text at byte 121 (line 1, column 122): only white space may separate the calls of a section
	// functions.search:0 search null executable=false
}
