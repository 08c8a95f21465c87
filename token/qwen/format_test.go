package qwen

import (
	"testing"
)

func TestEvents(t *testing.T) {
	// Begin at <function=t>'s '>', Key and the text's start where the text
	// begins (after the framing line break), EndString past </parameter>,
	// EndObject past </function>.
	dialect.Events(t, "<tool_call>\n<function=t>\n<parameter=a>\r\nx<y\n</parameter>\n</function>\n</tool_call>", []string{
		`BeginObject "" @24`, `Key "a" @40`, `BeginString "" @40`, `StringData "x<y"`,
		`EndString "" @56`, `EndObject "" @68`})
}

func TestLife(t *testing.T) { dialect.Life(t, call, "write_file") }

func TestFormat(t *testing.T) {
	dialect.Formats(t, [][2]string{
		{`{}`, "<tool_call>\n<function=t>\n</function>\n</tool_call>"},
		{`{"path": "a.go", "n": 3, "ok": true, "z": null}`,
			"<tool_call>\n<function=t>\n<parameter=path>\na.go\n</parameter>\n<parameter=n>\n3\n</parameter>\n<parameter=ok>\ntrue\n</parameter>\n<parameter=z>\nnull\n</parameter>\n</function>\n</tool_call>"},
		{`{"a": ""}`, "<tool_call>\n<function=t>\n<parameter=a>\n\n</parameter>\n</function>\n</tool_call>"},
		{`{"a": "x\r"}`, "<tool_call>\n<function=t>\n<parameter=a>\nx\r\r\n</parameter>\n</function>\n</tool_call>"},
		{`{"paths": ["a", 1], "o": {"k": [ ]}}`,
			"<tool_call>\n<function=t>\n<parameter=paths>\n[\"a\",1]\n</parameter>\n<parameter=o>\n{\"k\":[]}\n</parameter>\n</function>\n</tool_call>"},
		{`{"a": "</param <parameter=b> <tool_call"}`, "<tool_call>\n<function=t>\n<parameter=a>\n</param <parameter=b> <tool_call\n</parameter>\n</function>\n</tool_call>"},
	})
	dialect.FormatErrors(t, [][4]string{
		{"not an object", "t", `"a"`, "not a JSON object"},
		{"bad tool name", "a b", `{}`, `"a b"`},
		{"bad key", "t", `{"a=b": 1}`, `"a=b"`},
		{"closing tag", "t", `{"k": "x</parameter>y"}`, `</parameter>`},
		{"tool call", "t", `{"k": "<tool_call>"}`, `<tool_call>`},
		{"tool call end", "t", `{"k": "</tool_call>"}`, `</tool_call>`},
		{"function", "t", `{"k": "<function=x"}`, `<function=`},
		{"function end", "t", `{"k": ["</function>"]}`, `</function>`},
	})
}

func BenchmarkCall(b *testing.B) {
	b.Run("chunk=16", func(b *testing.B) { dialect.Bench(b, 16) })
	b.Run("chunk=1024", func(b *testing.B) { dialect.Bench(b, 1024) })
}
