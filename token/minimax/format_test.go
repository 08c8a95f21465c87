package minimax

import (
	"testing"
)

func TestEvents(t *testing.T) {
	// Begin at <invoke …>'s '>', Key and the text's start right after
	// <parameter …>, EndString past </parameter>, EndObject past </invoke>.
	dialect.Events(t, "<invoke name=\"t\">\n<parameter name=\"a\">\nx<y</parameter>\n</invoke>", []string{
		`BeginObject "" @17`, `Key "a" @38`, `BeginString "" @38`, `StringData "\nx<y"`,
		`EndString "" @54`, `EndObject "" @64`})
}

func TestLife(t *testing.T) { dialect.Life(t, call, "search_web") }

func TestFormat(t *testing.T) {
	dialect.Formats(t, [][2]string{
		{`{}`, "<invoke name=\"t\">\n</invoke>"},
		{`{"location": "San Francisco, CA", "unit": "celsius"}`,
			"<invoke name=\"t\">\n<parameter name=\"location\">San Francisco, CA</parameter>\n<parameter name=\"unit\">celsius</parameter>\n</invoke>"},
		{`{"path": "a.go", "n": 3, "ok": true, "z": null}`,
			"<invoke name=\"t\">\n<parameter name=\"path\">a.go</parameter>\n<parameter name=\"n\">3</parameter>\n<parameter name=\"ok\">true</parameter>\n<parameter name=\"z\">null</parameter>\n</invoke>"},
		{`{"a": ""}`, "<invoke name=\"t\">\n<parameter name=\"a\"></parameter>\n</invoke>"},
		{`{"a": "\nx\r"}`, "<invoke name=\"t\">\n<parameter name=\"a\">\nx\r</parameter>\n</invoke>"},
		{`{"paths": ["a", 1], "o": {"k": [ ]}}`,
			"<invoke name=\"t\">\n<parameter name=\"paths\">[\"a\",1]</parameter>\n<parameter name=\"o\">{\"k\":[]}</parameter>\n</invoke>"},
		{`{"a": "</param <parameter <invoke"}`, "<invoke name=\"t\">\n<parameter name=\"a\"></param <parameter <invoke</parameter>\n</invoke>"},
	})
	dialect.FormatErrors(t, [][4]string{
		{"not an object", "t", `"a"`, "not a JSON object"},
		{"bad tool name", "a\"b", `{}`, `"a\"b"`},
		{"bad key", "t", `{"a b": 1}`, `"a b"`},
		{"closing tag", "t", `{"k": "x</parameter>y"}`, `</parameter>`},
		{"parameter", "t", `{"k": "<parameter name=\"x\">"}`, `<parameter name=`},
		{"invoke", "t", `{"k": "<invoke name="}`, `<invoke name=`},
		{"invoke end", "t", `{"k": ["</invoke>"]}`, `</invoke>`},
		{"wrapper", "t", `{"k": "<minimax:tool_call>"}`, `<minimax:tool_call>`},
		{"wrapper end", "t", `{"k": "</minimax:tool_call>"}`, `</minimax:tool_call>`},
	})
}

func BenchmarkCall(b *testing.B) {
	b.Run("chunk=16", func(b *testing.B) { dialect.Bench(b, 16) })
	b.Run("chunk=1024", func(b *testing.B) { dialect.Bench(b, 1024) })
}
