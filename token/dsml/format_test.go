package dsml

import (
	"testing"
)

func TestEvents(t *testing.T) {
	// Begin at the invoke tag's '>', Key and the text's start right after
	// the parameter tag, EndString past its closing tag; a JSON value's
	// events at their own offsets; EndObject past </｜DSML｜invoke>.
	in := pre("t") + "\n" + param("a", "true", "\nx<y") + "\n" + param("n", "false", " 12 ") + "\n" + post
	dialect.Events(t, in, []string{
		`BeginObject "" @27`, `Key "a" @72`, `BeginString "" @72`, `StringData "\nx<y"`, `EndString "" @98`,
		`Key "n" @144`, `Number "12" @148`, `EndObject "" @190`})
}

func TestLife(t *testing.T) { dialect.Life(t, call, "get_weather") }

func TestFormat(t *testing.T) {
	dialect.Formats(t, [][2]string{
		{`{}`, pre("t") + "\n" + post},
		{`{"location": "杭州", "date": "2024-01-16"}`,
			pre("t") + "\n" + param("location", "true", "杭州") + "\n" + param("date", "true", "2024-01-16") + "\n" + post},
		{`{"n": 3, "ok": true, "z": null, "s": "3"}`,
			pre("t") + "\n" + param("n", "false", "3") + "\n" + param("ok", "false", "true") + "\n" + param("z", "false", "null") + "\n" + param("s", "true", "3") + "\n" + post},
		{`{"a": "", "b": "\nx\r"}`, pre("t") + "\n" + param("a", "true", "") + "\n" + param("b", "true", "\nx\r") + "\n" + post},
		{`{"paths": ["a", 1], "o": {"k": [ ]}}`,
			pre("t") + "\n" + param("paths", "false", `["a",1]`) + "\n" + param("o", "false", `{"k":[]}`) + "\n" + post},
		{`{"a": "</｜DSML｜param <｜DSM <|DSML|invoke"}`, pre("t") + "\n" + param("a", "true", "</｜DSML｜param <｜DSM <|DSML|invoke") + "\n" + post},
	})
	dialect.FormatErrors(t, [][4]string{
		{"not an object", "t", `"a"`, "not a JSON object"},
		{"bad tool name", "a\"b", `{}`, `"a\"b"`},
		{"bad key", "t", `{"a b": 1}`, `"a b"`},
		{"closing tag", "t", `{"k": "x</｜DSML｜parameter>y"}`, `</｜DSML｜parameter>`},
		{"any DSML tag", "t", `{"k": "<｜DSML｜x"}`, `<｜DSML｜`},
		{"invoke end", "t", `{"k": ["</｜DSML｜invoke>"]}`, `</｜DSML｜invoke>`},
		{"block end", "t", `{"k": "</｜DSML｜function_calls>"}`, `</｜DSML｜function_calls>`},
		{"V4 block end", "t", `{"k": {"x": "</｜DSML｜tool_calls>"}}`, `</｜DSML｜tool_calls>`},
	})
}

func BenchmarkCall(b *testing.B) {
	b.Run("chunk=16", func(b *testing.B) { dialect.Bench(b, 16) })
	b.Run("chunk=1024", func(b *testing.B) { dialect.Bench(b, 1024) })
}
