package dsml

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/argstream/argstream/internal/tagscan/tagscantest"
	"github.com/argstream/argstream/token"
)

var dialect = tagscantest.Dialect{
	New:    func(h token.Handler, opts ...token.Option) tagscantest.Tokenizer { return New(h, opts...) },
	Typed:  Typed,
	Format: Format,
	// A value that is JSON text other than a string is written with
	// string="false", any other with string="true".
	Call: func(tool string, params [][2]string, sep string) string {
		s := `<｜DSML｜invoke name="` + tool + `">` + sep
		for _, p := range params {
			kind := "true"
			if json.Valid([]byte(p[1])) && !strings.HasPrefix(strings.TrimSpace(p[1]), `"`) {
				kind = "false"
			}
			s += `<｜DSML｜parameter name="` + p[0] + `" string="` + kind + `">` + p[1] + "</｜DSML｜parameter>" + sep
		}
		return s + "</｜DSML｜invoke>"
	},
	Near:      "a < b <x </｜DSML｜param <｜DSM </｜DSML｜invok <｜ </｜DSML｜function_c </｜DSML｜tool_c </｜\n<\n<<",
	TypedCall: "<｜DSML｜invoke name=\"typed\">\n<｜DSML｜parameter name=\"n\" string=\"false\">3</｜DSML｜parameter>\n<｜DSML｜parameter name=\"paths\" string=\"false\">[\"a\", \"b\"]</｜DSML｜parameter>\n<｜DSML｜parameter name=\"o\" string=\"false\">{\"k\": [1, \"x\"]}</｜DSML｜parameter>\n<｜DSML｜parameter name=\"b\" string=\"false\">false</｜DSML｜parameter>\n<｜DSML｜parameter name=\"s\" string=\"true\">x < y</｜DSML｜parameter>\n</｜DSML｜invoke>",
	Tags:      []string{"</｜DSML｜parameter>", "<｜DSML｜", "</｜DSML｜invoke>", "</｜DSML｜function_calls>", "</｜DSML｜tool_calls>", `" string="true">`, `" string="false">`, "｜"},
}

// tools are tool definitions in OpenAI's form, as DeepSeek is served.
const tools = `{"tools": [
 {"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {
   "location": {"type": "string"}, "date": {"type": "string"}, "days": {"type": "integer"}}, "required": ["location"]}}},
 {"type": "function", "function": {"name": "read_files", "parameters": {"type": "object", "properties": {
   "paths": {"type": "array", "items": {"type": "string"}}}}}},
 {"type": "function", "function": {"name": "list_files", "parameters": {"type": "object", "properties": {
   "max_depth": {"type": "integer"}, "ratio": {"type": "number"}, "hidden": {"type": "boolean"}, "none": {"type": "null"},
   "filter": {"type": "object"}, "label": {"type": ["string", "null"]}, "limit": {"type": ["integer", "null"]},
   "wait": {"anyOf": [{"type": "object", "properties": {"minutes": {"type": "number"}}}, {"type": "null"}]},
   "patches": {"oneOf": [{"type": "array", "items": {"type": "object"}}, {"type": "null"}]}}}}}
]}`

// call is a call as DeepSeek V3.2's encoding writes it (the example of
// vLLM's deepseek_v32 parser).
const call = "<｜DSML｜invoke name=\"get_weather\">\n<｜DSML｜parameter name=\"location\" string=\"true\">杭州</｜DSML｜parameter>\n<｜DSML｜parameter name=\"date\" string=\"true\">2024-01-16</｜DSML｜parameter>\n</｜DSML｜invoke>"

// pre and post write a call of tool with the parameter tags in between.
func pre(tool string) string { return `<｜DSML｜invoke name="` + tool + `">` }

const post = "</｜DSML｜invoke>"

func param(name, kind, value string) string {
	if kind != "" {
		kind = ` string="` + kind + `"`
	}
	return `<｜DSML｜parameter name="` + name + `"` + kind + `>` + value + "</｜DSML｜parameter>"
}

func TestCalls(t *testing.T) {
	dialect.Cases(t, []tagscantest.Case{
		{Name: "template", In: call, Want: `{"location":"杭州","date":"2024-01-16"}`},
		{Name: "template typed", Tools: tools, In: call, Want: `{"location":"杭州","date":"2024-01-16"}`},
		{Name: "JSON values", In: pre("t") + "\n" + param("n", "false", "2") + "\n" + param("b", "false", "true") + "\n" +
			param("o", "false", `{"k": [1, "x"]}`) + "\n" + param("z", "false", "null") + "\n" + param("s", "false", `"a\nb"`) + "\n" + post,
			Want: `{"n":2,"b":true,"o":{"k":[1,"x"]},"z":null,"s":"a\nb"}`},
		{Name: "no string attribute is JSON", In: pre("t") + param("n", "", "[1, 2]") + post, Want: `{"n":[1,2]}`},
		{Name: "JSON with white space", In: pre("t") + param("n", "false", "\n 7 \n") + post, Want: `{"n":7}`},
		{Name: "raw string", In: pre("t") + param("s", "true", " New York \n") + post, Want: `{"s":" New York \n"}`},
		{Name: "raw string that looks like JSON", In: pre("t") + param("s", "true", `{"a": 1}`) + post, Want: `{"s":"{\"a\": 1}"}`},
		{Name: "no parameters", In: pre("t") + post, Want: `{}`},
		{Name: "no parameters, template", In: pre("t") + "\n\n" + post + "\n", Want: `{}`},
		{Name: "names", In: pre("ns.my-tool_2") + param("a.b-c_D9", "true", "v") + post, Want: `{"a.b-c_D9":"v"}`},
		{Name: "empty string", In: pre("t") + param("a", "true", "") + post, Want: `{"a":""}`},
		{Name: "tags as text", In: pre("t") + param("a", "true", "<div></｜DSML｜param <｜DSM｜ </｜DSML｜invok <parameter>") + post,
			Want: `{"a":"<div></｜DSML｜param <｜DSM｜ </｜DSML｜invok <parameter>"}`},
		{Name: "ASCII bars are text", In: pre("t") + param("a", "true", "<|DSML|parameter name=\"x\">") + post, Want: `{"a":"<|DSML|parameter name=\"x\">"}`},
		{Name: "typed scalars", Tools: tools,
			In:   pre("list_files") + param("max_depth", "false", "2") + param("ratio", "false", "0.5") + param("hidden", "false", "false") + param("none", "false", "null") + post,
			Want: `{"max_depth":2,"ratio":0.5,"hidden":false,"none":null}`},
		{Name: "typed array", Tools: tools, In: pre("read_files") + "\n" + param("paths", "false", `["src/main.rs", "Cargo.toml"]`) + "\n" + post,
			Want: `{"paths":["src/main.rs","Cargo.toml"]}`},
		{Name: "typed object", Tools: tools, In: pre("list_files") + param("filter", "false", `{"ext": ["go"], "x": "</｜DSML｜param"}`) + post,
			Want: `{"filter":{"ext":["go"],"x":"</｜DSML｜param"}}`},
		{Name: "object takes any JSON", Tools: tools, In: pre("list_files") + param("filter", "false", `[1]`) + post, Want: `{"filter":[1]}`},
		{Name: "string or null as a string", Tools: tools, In: pre("list_files") + param("label", "true", `x`) + post, Want: `{"label":"x"}`},
		{Name: "string or null as null", Tools: tools, In: pre("list_files") + param("label", "false", `null`) + post, Want: `{"label":null}`},
		{Name: "integer or null", Tools: tools, In: pre("list_files") + param("limit", "false", `null`) + param("max_depth", "false", "-0") + post, Want: `{"limit":null,"max_depth":-0}`},
		{Name: "text typed by the schema", Tools: tools,
			In:   pre("list_files") + param("max_depth", "true", "3") + param("hidden", "true", " true\n") + param("filter", "true", `{"a": [1]}`) + post,
			Want: `{"max_depth":3,"hidden":true,"filter":{"a":[1]}}`},
		{Name: "text array typed by the schema", Tools: tools, In: pre("read_files") + param("paths", "true", `["a"]`) + post, Want: `{"paths":["a"]}`},
		{Name: "anyOf takes any JSON", Tools: tools, In: pre("list_files") + param("wait", "false", `{"type": "for", "minutes": 2880}`) + param("patches", "false", "[]") + post,
			Want: `{"wait":{"type":"for","minutes":2880},"patches":[]}`},
		{Name: "null for a string", Tools: tools, In: pre("get_weather") + param("date", "false", "null") + post, Want: `{"date":null}`},
		{Name: "string as JSON", Tools: tools, In: pre("get_weather") + param("location", "false", `"Paris"`) + post, Want: `{"location":"Paris"}`},
		{Name: "tool not in tools", Tools: tools, In: pre("other") + param("n", "false", "3") + param("s", "true", "3") + post, Want: `{"n":3,"s":"3"}`},
	})
}

func TestErrors(t *testing.T) {
	long := strings.Repeat("a", 129)
	p := len(pre("t")) // where the first parameter begins
	dialect.Errors(t, []tagscantest.ErrCase{
		{Name: "empty input", In: "", Err: token.ErrTruncated, Offset: 0, Line: 1, Column: 1},
		{Name: "white space first", In: " " + pre("t") + post, Err: token.ErrSyntax, Offset: 0, Line: 1, Column: 1},
		{Name: "block is not the call's", In: "<｜DSML｜function_calls>" + pre("t") + post, Err: token.ErrSyntax, Offset: 11, Line: 1, Column: 12},
		{Name: "ASCII bars", In: `<|DSML|invoke name="t"></|DSML|invoke>`, Err: token.ErrSyntax, Offset: 1, Line: 1, Column: 2},
		{Name: "bad function name", In: `<｜DSML｜invoke name="a b">`, Err: token.ErrSyntax, Offset: 25, Line: 1, Column: 26},
		{Name: "function name too long", In: `<｜DSML｜invoke name="` + long + `">`, Err: token.ErrSyntax, Offset: 152, Line: 1, Column: 153},
		{Name: "bad string attribute", In: pre("t") + `<｜DSML｜parameter name="a" string="yes">1</｜DSML｜parameter>` + post,
			Err: token.ErrSyntax, Offset: 65, Line: 1, Column: 66},
		{Name: "text between parameters", In: pre("t") + "\n" + param("a", "true", "1") + "\nx", Err: token.ErrSyntax, Offset: 96, Line: 3, Column: 1, Says: "between parameters"},
		{Name: "missing closing tag", In: pre("t") + "\n" + `<｜DSML｜parameter name="a" string="true">x` + "\n" + post,
			Err: token.ErrSyntax, Offset: 74, Line: 3, Column: 1, Pointer: "/a", Says: "</｜DSML｜parameter>"},
		{Name: "next parameter in value", In: pre("t") + "\n" + `<｜DSML｜parameter name="a" string="true">x` + "\n" + param("b", "true", "y") + post,
			Err: token.ErrSyntax, Offset: 74, Line: 3, Column: 1, Pointer: "/a"},
		{Name: "block end in value", In: pre("t") + param("a", "true", "x</｜DSML｜function_calls>") + post,
			Err: token.ErrSyntax, Offset: 72, Line: 1, Column: 73, Pointer: "/a"},
		{Name: "text after the call", In: pre("t") + post + "x", Err: token.ErrTrailingData, Offset: 46, Line: 1, Column: 47},
		{Name: "block end after the call", In: pre("t") + post + "\n</｜DSML｜function_calls>", Err: token.ErrTrailingData, Offset: 47, Line: 2, Column: 1},
		{Name: "truncated in value", In: pre("t") + `<｜DSML｜parameter name="a" string="true">` + "\nx\n", Err: token.ErrTruncated, Offset: 74, Line: 3, Column: 1, Pointer: "/a"},
		{Name: "truncated in JSON", In: pre("t") + `<｜DSML｜parameter name="a" string="false">[1,`, Err: token.ErrTruncated, Offset: 75, Line: 1, Column: 76, Pointer: "/a"},
		{Name: "truncated in closing tag", In: pre("t") + `<｜DSML｜parameter name="a" string="true">x</｜DSML｜par`, Err: token.ErrTruncated, Offset: 87, Line: 1, Column: 88, Pointer: "/a"},
		{Name: "truncated before the closing tag", In: pre("t"), Err: token.ErrTruncated, Offset: int64(p), Line: 1, Column: p + 1},
		{Name: "duplicate", In: pre("t") + param("a", "true", "x") + "\n" + param("a", "false", "1") + post,
			Err: token.ErrDuplicateKey, Offset: 95, Line: 2, Column: 1, Pointer: "/a"},
		{Name: "confusable", In: pre("t") + param("path", "true", "x") + "\n" + param("PATH", "true", "y") + post,
			Err: token.ErrCaseFoldedKey, Offset: 98, Line: 2, Column: 1, Pointer: "/PATH"},
		{Name: "not JSON", In: pre("t") + param("a", "false", "hello") + post, Err: token.ErrSyntax, Offset: 72, Line: 1, Column: 73, Pointer: "/a"},
		{Name: "two JSON values", In: pre("t") + param("a", "false", "1 2") + post, Err: token.ErrTrailingData, Offset: 74, Line: 1, Column: 75, Pointer: "/a"},
		{Name: "unknown parameter", Tools: tools, In: pre("get_weather") + param("city", "true", "Paris") + post,
			Err: token.ErrSchema, Offset: int64(len(pre("get_weather"))), Line: 1, Column: len(pre("get_weather")) + 1, Pointer: "/city"},
		{Name: "text not an integer", Tools: tools, In: pre("get_weather") + "\n" + param("days", "true", "three") + post,
			Err: token.ErrSchema, Offset: 85, Line: 2, Column: 48, Pointer: "/days", Says: `"three" is not an integer`},
		{Name: "text object not JSON", Tools: tools, In: pre("list_files") + param("filter", "true", "{x}") + post,
			Err: token.ErrSyntax, Offset: 86, Line: 1, Column: 87, Pointer: "/filter"},
		{Name: "fraction for an integer", Tools: tools, In: pre("get_weather") + "\n" + param("days", "false", "\n3.5") + post,
			Err: token.ErrSchema, Offset: 86, Line: 2, Column: 49, Pointer: "/days", Says: "not an integer"},
		{Name: "object for an array", Tools: tools, In: pre("read_files") + param("paths", "false", `{"a": 1}`) + post,
			Err: token.ErrSchema, Offset: 85, Line: 1, Column: 86, Pointer: "/paths", Says: "is an object"},
		{Name: "string for a boolean", Tools: tools, In: pre("list_files") + param("hidden", "false", `"true"`) + post,
			Err: token.ErrSchema, Offset: 86, Line: 1, Column: 87, Pointer: "/hidden"},
		{Name: "invalid UTF-8", In: pre("t") + param("a", "true", "\xc3(") + post,
			Err: token.ErrInvalidUTF8, Offset: 71, Line: 1, Column: 72, Pointer: "/a"},
	})
}

// TestShared runs the tests every tag dialect passes (tagscantest.Dialect.Test).
func TestShared(t *testing.T) { dialect.Test(t) }

func FuzzDSML(f *testing.F) { dialect.FuzzTarget(f) }
