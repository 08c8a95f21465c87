package minimax

import (
	"strings"
	"testing"

	"github.com/argstream/argstream/internal/tagscan/tagscantest"
	"github.com/argstream/argstream/token"
)

var dialect = tagscantest.Dialect{
	New:    func(h token.Handler, opts ...token.Option) tagscantest.Tokenizer { return New(h, opts...) },
	Typed:  Typed,
	Format: Format,
	Call: func(tool string, params [][2]string, sep string) string {
		s := `<invoke name="` + tool + `">` + sep
		for _, p := range params {
			s += `<parameter name="` + p[0] + `">` + p[1] + "</parameter>" + sep
		}
		return s + "</invoke>"
	},
	Near:      `a < b <x </parameter <parameter name <invoke </invoke <minimax:tool_call </minimax:tool <param name="x">` + "\n<\n<<",
	TypedCall: "<invoke name=\"typed\">\n<parameter name=\"n\">3</parameter>\n<parameter name=\"paths\">[\"a\", \"b\"]</parameter>\n<parameter name=\"o\">{\"k\": [1, \"x\"]}</parameter>\n<parameter name=\"b\">false</parameter>\n</invoke>",
	Tags:      []string{"</parameter>", "<invoke name=", "</invoke>", "<parameter name=", "<minimax:tool_call>", "</minimax:tool_call>", `">`},
}

// tools are tool definitions in OpenAI's form, as MiniMax-M2 is served.
const tools = `{"tools": [
 {"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {
   "location": {"type": "string"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}},
   "required": ["location", "unit"]}}},
 {"type": "function", "function": {"name": "read_files", "parameters": {"type": "object", "properties": {
   "paths": {"type": "array", "items": {"type": "string"}}}}}},
 {"type": "function", "function": {"name": "list_files", "parameters": {"type": "object", "properties": {
   "max_depth": {"type": "integer"}, "ratio": {"type": "number"}, "hidden": {"type": "boolean"},
   "filter": {"type": "object"}, "edits": {"type": "array", "items": {"type": "object"}}}}}}
]}`

// call is a call as MiniMax-M2's chat template writes it (the template's
// own example, from MiniMax-M2's tool calling guide, inside
// <minimax:tool_call>).
const call = "<invoke name=\"search_web\">\n<parameter name=\"query_tag\">[\"technology\", \"events\"]</parameter>\n<parameter name=\"query_list\">[\"\\\"OpenAI\\\" \\\"latest\\\" \\\"release\\\"\"]</parameter>\n</invoke>"

func TestCalls(t *testing.T) {
	dialect.Cases(t, []tagscantest.Case{
		{Name: "template", In: call,
			Want: `{"query_tag":"[\"technology\", \"events\"]","query_list":"[\"\\\"OpenAI\\\" \\\"latest\\\" \\\"release\\\"\"]"}`},
		{Name: "template typed", Tools: `[{"type": "function", "function": {"name": "search_web", "parameters": {"type": "object", "properties": {
			"query_tag": {"type": "array", "items": {"type": "string"}}, "query_list": {"type": "array", "items": {"type": "string"}}}}}}]`,
			In: call, Want: `{"query_tag":["technology","events"],"query_list":["\"OpenAI\" \"latest\" \"release\""]}`},
		{Name: "weather", Tools: tools, In: "<invoke name=\"get_weather\">\n<parameter name=\"location\">San Francisco, CA</parameter>\n<parameter name=\"unit\">celsius</parameter>\n</invoke>",
			Want: `{"location":"San Francisco, CA","unit":"celsius"}`},
		{Name: "no parameters", In: `<invoke name="t"></invoke>`, Want: `{}`},
		{Name: "no parameters, template", In: "<invoke name=\"t\">\n</invoke>\n", Want: `{}`},
		{Name: "white space", In: "<invoke name=\"t\"> \r\n\t<parameter name=\"a\">1</parameter>\n\n</invoke>\n", Want: `{"a":"1"}`},
		{Name: "names", In: `<invoke name="ns.my-tool_2"><parameter name="a.b-c_D9">v</parameter></invoke>`, Want: `{"a.b-c_D9":"v"}`},
		{Name: "empty value", In: `<invoke name="t"><parameter name="a"></parameter></invoke>`, Want: `{"a":""}`},
		{Name: "line breaks kept", In: "<invoke name=\"t\"><parameter name=\"a\">\nx\r\n</parameter></invoke>", Want: `{"a":"\nx\r\n"}`},
		{Name: "white space kept", In: "<invoke name=\"t\"><parameter name=\"a\">  x  </parameter></invoke>", Want: `{"a":"  x  "}`},
		{Name: "tags as text", In: `<invoke name="t"><parameter name="a"><div></param</parameter <param name="b"><invoke</minimax:tool <tool</parameter></invoke>`,
			Want: `{"a":"<div></param</parameter <param name=\"b\"><invoke</minimax:tool <tool"}`},
		{Name: "quotes and angle brackets", In: `<invoke name="t"><parameter name="a">">" name="x"> a > b</parameter></invoke>`, Want: `{"a":"\">\" name=\"x\"> a > b"}`},
		{Name: "untyped JSON is a string", In: `<invoke name="read_files"><parameter name="paths">["a"]</parameter></invoke>`, Want: `{"paths":"[\"a\"]"}`},
		{Name: "typed array as JSON", Tools: tools, In: "<invoke name=\"read_files\">\n<parameter name=\"paths\">[\"src/main.rs\", \"Cargo.toml\"]</parameter>\n</invoke>",
			Want: `{"paths":["src/main.rs","Cargo.toml"]}`},
		{Name: "typed scalars", Tools: tools,
			In:   `<invoke name="list_files"><parameter name="max_depth">2</parameter><parameter name="ratio"> 0.5 </parameter><parameter name="hidden">false</parameter></invoke>`,
			Want: `{"max_depth":2,"ratio":0.5,"hidden":false}`},
		{Name: "typed object", Tools: tools, In: `<invoke name="list_files"><parameter name="filter">{"ext": ["go"], "x": "</param"}</parameter></invoke>`,
			Want: `{"filter":{"ext":["go"],"x":"</param"}}`},
		{Name: "typed array of objects", Tools: tools, In: `<invoke name="list_files"><parameter name="edits">[{"a": 1}, {}]</parameter></invoke>`,
			Want: `{"edits":[{"a":1},{}]}`},
		{Name: "typed string keeps its white space", Tools: tools, In: "<invoke name=\"get_weather\"><parameter name=\"location\">\nParis\n</parameter></invoke>",
			Want: `{"location":"\nParis\n"}`},
		{Name: "tool not in tools", Tools: tools, In: `<invoke name="other"><parameter name="n">3</parameter></invoke>`, Want: `{"n":"3"}`},
	})
}

func TestErrors(t *testing.T) {
	long := strings.Repeat("a", 129)
	dialect.Errors(t, []tagscantest.ErrCase{
		{Name: "empty input", In: "", Err: token.ErrTruncated, Offset: 0, Line: 1, Column: 1},
		{Name: "white space first", In: ` <invoke name="t">`, Err: token.ErrSyntax, Offset: 0, Line: 1, Column: 1},
		{Name: "wrapper is not the call's", In: `<minimax:tool_call><invoke name="t"></invoke>`, Err: token.ErrSyntax, Offset: 1, Line: 1, Column: 2},
		{Name: "single quotes", In: `<invoke name='t'></invoke>`, Err: token.ErrSyntax, Offset: 13, Line: 1, Column: 14},
		{Name: "no quotes", In: `<invoke name=t></invoke>`, Err: token.ErrSyntax, Offset: 13, Line: 1, Column: 14},
		{Name: "empty name", In: `<invoke name=""></invoke>`, Err: token.ErrSyntax, Offset: 14, Line: 1, Column: 15},
		{Name: "bad function name", In: `<invoke name="a b">`, Err: token.ErrSyntax, Offset: 15, Line: 1, Column: 16},
		{Name: "function name too long", In: `<invoke name="` + long + `">`, Err: token.ErrSyntax, Offset: 14 + 128, Line: 1, Column: 15 + 128},
		{Name: "text between parameters", In: "<invoke name=\"t\">\n<parameter name=\"a\">1</parameter>\nx", Err: token.ErrSyntax, Offset: 52, Line: 3, Column: 1, Says: "between parameters"},
		{Name: "missing </parameter>", In: "<invoke name=\"t\">\n<parameter name=\"a\">x\n</invoke>", Err: token.ErrSyntax, Offset: 40, Line: 3, Column: 1, Pointer: "/a", Says: "</parameter>"},
		{Name: "next parameter in value", In: "<invoke name=\"t\">\n<parameter name=\"a\">x\n<parameter name=\"b\">y</parameter></invoke>",
			Err: token.ErrSyntax, Offset: 40, Line: 3, Column: 1, Pointer: "/a"},
		{Name: "wrapper end in value", In: `<invoke name="t"><parameter name="a">x</minimax:tool_call>`, Err: token.ErrSyntax, Offset: 38, Line: 1, Column: 39, Pointer: "/a"},
		{Name: "invoke in value", In: `<invoke name="t"><parameter name="a">x<invoke name="u">`, Err: token.ErrSyntax, Offset: 38, Line: 1, Column: 39, Pointer: "/a"},
		{Name: "text after the call", In: `<invoke name="t"></invoke>x`, Err: token.ErrTrailingData, Offset: 26, Line: 1, Column: 27},
		{Name: "wrapper end after the call", In: "<invoke name=\"t\"></invoke>\n</minimax:tool_call>", Err: token.ErrTrailingData, Offset: 27, Line: 2, Column: 1},
		{Name: "truncated in value", In: "<invoke name=\"t\"><parameter name=\"a\">\nx\n", Err: token.ErrTruncated, Offset: 40, Line: 3, Column: 1, Pointer: "/a"},
		{Name: "truncated in closing parameter tag", In: `<invoke name="t"><parameter name="a">x</param`, Err: token.ErrTruncated, Offset: 45, Line: 1, Column: 46, Pointer: "/a"},
		{Name: "truncated in name", In: `<invoke name="t`, Err: token.ErrTruncated, Offset: 15, Line: 1, Column: 16},
		{Name: "truncated before </invoke>", In: `<invoke name="t">`, Err: token.ErrTruncated, Offset: 17, Line: 1, Column: 18},
		{Name: "duplicate", In: "<invoke name=\"t\"><parameter name=\"a\">x</parameter>\n<parameter name=\"a\">y</parameter></invoke>",
			Err: token.ErrDuplicateKey, Offset: 51, Line: 2, Column: 1, Pointer: "/a"},
		{Name: "confusable", In: "<invoke name=\"t\"><parameter name=\"path\">x</parameter>\n<parameter name=\"PATH\">y</parameter></invoke>",
			Err: token.ErrCaseFoldedKey, Offset: 54, Line: 2, Column: 1, Pointer: "/PATH"},
		{Name: "unknown parameter", Tools: tools, In: `<invoke name="get_weather"><parameter name="city">Paris</parameter></invoke>`,
			Err: token.ErrSchema, Offset: 27, Line: 1, Column: 28, Pointer: "/city"},
		{Name: "not a number", Tools: tools, In: "<invoke name=\"list_files\">\n<parameter name=\"ratio\">half</parameter></invoke>",
			Err: token.ErrSchema, Offset: 51, Line: 2, Column: 25, Pointer: "/ratio"},
		{Name: "array not JSON", Tools: tools, In: "<invoke name=\"read_files\"><parameter name=\"paths\">a.go</parameter></invoke>",
			Err: token.ErrSyntax, Offset: 50, Line: 1, Column: 51, Pointer: "/paths"},
		{Name: "invalid UTF-8", In: `<invoke name="t"><parameter name="a">` + "\xc3(</parameter></invoke>",
			Err: token.ErrInvalidUTF8, Offset: 37, Line: 1, Column: 38, Pointer: "/a"},
	})
}

// TestShared runs the tests every tag dialect passes (tagscantest.Dialect.Test).
func TestShared(t *testing.T) { dialect.Test(t) }

func FuzzMiniMax(f *testing.F) { dialect.FuzzTarget(f) }
