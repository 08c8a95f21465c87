package toolparser_test

import (
	"fmt"
	"io"
	"strings"

	"github.com/argstream/argstream/dialect"
	"github.com/argstream/argstream/schema"
	"github.com/argstream/argstream/toolparser"
)

// A Qwen3-Coder model writes a call in its text, a few bytes at a time:
// the Writer emits the prose as content and the call as tool_calls, its
// arguments as JSON text typed by the tool's schema, as soon as they are
// known.
func ExampleWriter() {
	tools, err := schema.Parse([]byte(`[{"type": "function", "function": {"name": "read_file",
		"parameters": {"properties": {"path": {"type": "string"}, "max_lines": {"type": "integer"}}}}}]`))
	if err != nil {
		panic(err)
	}
	ids := 0
	w := toolparser.NewWriter(dialect.Qwen, func(chunk []byte) error {
		fmt.Printf("%s\n", chunk)
		return nil
	}, toolparser.WithTools(tools), toolparser.WithCallIDs(func() string { ids++; return fmt.Sprint("call_", ids) }))
	w.SetEnvelope([]byte(`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":"qwen3-coder"}`))
	for _, delta := range []string{
		"Let me read it.\n<tool_call>\n<function=read_file>\n<parameter=path>\nsrc/",
		"main.go\n</parameter>\n<parameter=max_lines>\n50\n</parameter>\n</function>\n</tool_call>",
	} {
		if _, err := w.WriteString(delta); err != nil {
			fmt.Println(err)
			return
		}
	}
	if err := w.Finish("stop"); err != nil {
		fmt.Println(err)
	}
	// Output:
	// {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":"qwen3-coder","choices":[{"index":0,"delta":{"role":"assistant","content":"Let me read it.\n"},"finish_reason":null}]}
	// {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":"qwen3-coder","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"read_file","arguments":""}}]},"finish_reason":null}]}
	// {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":"qwen3-coder","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"path\":\"src/"}}]},"finish_reason":null}]}
	// {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":"qwen3-coder","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"main.go\",\"max_lines\":50}"}}]},"finish_reason":null}]}
	// {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":"qwen3-coder","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}
}

// Stream rewrites an upstream's stream of raw text into the stream of a
// server that parses tool calls.
func ExampleStream() {
	chunk := func(delta string) string {
		return `data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":` + delta + "}]}\n\n"
	}
	upstream := chunk(`{"role":"assistant","content":"<tool:list_files>\n"}`) +
		chunk(`{"content":"<param:path>src</param:path>\n</tool:list_files>"}`) +
		chunk(`{},"finish_reason":"stop"`) + "data: [DONE]\n\n"
	body := toolparser.Stream(dialect.XML, io.NopCloser(strings.NewReader(upstream)),
		toolparser.WithCallIDs(func() string { return "call_1" }))
	out, _ := io.ReadAll(body)
	fmt.Print(string(out))
	// Output:
	// data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"list_files","arguments":""}}]},"finish_reason":null}]}
	//
	// data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"path\":\"src\"}"}}]},"finish_reason":null}]}
	//
	// data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}
	//
	// data: [DONE]
	//
}

// Whole rewrites a whole response.
func ExampleWhole() {
	body := `{"id":"c1","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"On it.\n<tool:list_files>\n<param:path>src</param:path>\n</tool:list_files>"},"finish_reason":"stop"}],"usage":{"total_tokens":9}}`
	out, err := toolparser.Whole(dialect.XML, []byte(body), toolparser.WithCallIDs(func() string { return "call_1" }))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(out))
	// Output:
	// {"choices":[{"index":0,"message":{"role":"assistant","content":"On it.\n","tool_calls":[{"id":"call_1","type":"function","function":{"name":"list_files","arguments":"{\"path\":\"src\"}"}}]},"finish_reason":"tool_calls"}],"id":"c1","object":"chat.completion","created":1,"model":"m","usage":{"total_tokens":9}}
}
