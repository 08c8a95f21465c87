package glm

import (
	"testing"
)

func TestEvents(t *testing.T) {
	// Begin where the name ends, Key and the text's start right after
	// <arg_value>, EndString past </arg_value>, EndObject past </tool_call>.
	dialect.Events(t, "<tool_call>t\n<arg_key>a</arg_key>\n<arg_value>\nx<y</arg_value>\n</tool_call>", []string{
		`BeginObject "" @12`, `Key "a" @45`, `BeginString "" @45`, `StringData "\nx<y"`,
		`EndString "" @61`, `EndObject "" @74`})
}

func TestLife(t *testing.T) { dialect.Life(t, glm45, "get_weather") }

func TestFormat(t *testing.T) {
	dialect.Formats(t, [][2]string{
		{`{}`, "<tool_call>t\n</tool_call>"},
		{`{"location": "Paris", "days": 3}`, "<tool_call>t\n<arg_key>location</arg_key>\n<arg_value>Paris</arg_value>\n<arg_key>days</arg_key>\n<arg_value>3</arg_value>\n</tool_call>"},
		{`{"ok": true, "z": null}`, "<tool_call>t\n<arg_key>ok</arg_key>\n<arg_value>true</arg_value>\n<arg_key>z</arg_key>\n<arg_value>null</arg_value>\n</tool_call>"},
		{`{"a": ""}`, "<tool_call>t\n<arg_key>a</arg_key>\n<arg_value></arg_value>\n</tool_call>"},
		{`{"a": "\nx\r"}`, "<tool_call>t\n<arg_key>a</arg_key>\n<arg_value>\nx\r</arg_value>\n</tool_call>"},
		{`{"paths": ["a", 1], "o": {"k": [ ]}}`,
			"<tool_call>t\n<arg_key>paths</arg_key>\n<arg_value>[\"a\",1]</arg_value>\n<arg_key>o</arg_key>\n<arg_value>{\"k\":[]}</arg_value>\n</tool_call>"},
		{`{"a": "</arg_v <arg_ke <tool_call"}`, "<tool_call>t\n<arg_key>a</arg_key>\n<arg_value></arg_v <arg_ke <tool_call</arg_value>\n</tool_call>"},
	})
	dialect.FormatErrors(t, [][4]string{
		{"not an object", "t", `"a"`, "not a JSON object"},
		{"bad tool name", "a b", `{}`, `"a b"`},
		{"bad key", "t", `{"a<b": 1}`, `"a<b"`},
		{"closing tag", "t", `{"k": "x</arg_value>y"}`, `</arg_value>`},
		{"tool call", "t", `{"k": "<tool_call>"}`, `<tool_call>`},
		{"tool call end", "t", `{"k": "</tool_call>"}`, `</tool_call>`},
		{"key", "t", `{"k": "<arg_key>"}`, `<arg_key>`},
		{"key end", "t", `{"k": ["</arg_key>"]}`, `</arg_key>`},
		{"value", "t", `{"k": {"x": "<arg_value>"}}`, `<arg_value>`},
	})
}

func BenchmarkCall(b *testing.B) {
	b.Run("chunk=16", func(b *testing.B) { dialect.Bench(b, 16) })
	b.Run("chunk=1024", func(b *testing.B) { dialect.Bench(b, 1024) })
}
