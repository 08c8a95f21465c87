package glm

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
		s := "<tool_call>" + tool + sep
		for _, p := range params {
			s += "<arg_key>" + p[0] + "</arg_key>" + sep + "<arg_value>" + p[1] + "</arg_value>" + sep
		}
		return s + "</tool_call>"
	},
	Near:      "a < b <x </arg_value <arg_key <arg_val </arg_k <tool_call </tool_call\n<\n<<",
	TypedCall: "<tool_call>typed\n<arg_key>n</arg_key>\n<arg_value>3</arg_value>\n<arg_key>paths</arg_key>\n<arg_value>[\"a\", \"b\"]</arg_value>\n<arg_key>o</arg_key>\n<arg_value>{\"k\": [1, \"x\"]}</arg_value>\n<arg_key>b</arg_key>\n<arg_value>false</arg_value>\n</tool_call>",
	Tags:      []string{"</arg_value>", "<tool_call>", "</tool_call>", "<arg_key>", "</arg_key>", "<arg_value>"},
}

// tools are tool definitions in OpenAI's form, as GLM is served.
const tools = `{"tools": [
 {"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {
   "location": {"type": "string"}, "days": {"type": "integer"}}, "required": ["location"]}}},
 {"type": "function", "function": {"name": "read_files", "parameters": {"type": "object", "properties": {
   "paths": {"type": "array", "items": {"type": "string"}}}}}},
 {"type": "function", "function": {"name": "list_files", "parameters": {"type": "object", "properties": {
   "max_depth": {"type": "integer"}, "ratio": {"type": "number"}, "hidden": {"type": "boolean"},
   "filter": {"type": "object"}, "edits": {"type": "array", "items": {"type": "object"}}}}}}
]}`

// glm45 is a call as GLM-4.5's and GLM-4.6's chat template writes it
// (the layout of Ollama's glm46 parser tests), glm47 as GLM-4.7's does.
const (
	glm45 = "<tool_call>get_weather\n<arg_key>location</arg_key>\n<arg_value>Paris</arg_value>\n<arg_key>days</arg_key>\n<arg_value>3</arg_value>\n</tool_call>"
	glm47 = "<tool_call>get_weather<arg_key>location</arg_key><arg_value>Paris</arg_value><arg_key>days</arg_key><arg_value>3</arg_value></tool_call>"
)

func TestCalls(t *testing.T) {
	dialect.Cases(t, []tagscantest.Case{
		{Name: "GLM-4.5 template", In: glm45, Want: `{"location":"Paris","days":"3"}`},
		{Name: "GLM-4.7 template", In: glm47, Want: `{"location":"Paris","days":"3"}`},
		{Name: "GLM-4.5 template typed", Tools: tools, In: glm45, Want: `{"location":"Paris","days":3}`},
		{Name: "GLM-4.7 template typed", Tools: tools, In: glm47, Want: `{"location":"Paris","days":3}`},
		{Name: "no arguments, GLM-4.5", In: "<tool_call>t\n</tool_call>", Want: `{}`},
		{Name: "no arguments, GLM-4.7", In: "<tool_call>t</tool_call>", Want: `{}`},
		{Name: "white space", In: "<tool_call>t \r\n\t<arg_key>a</arg_key> \n <arg_value>1</arg_value>\n\n</tool_call>\n", Want: `{"a":"1"}`},
		{Name: "names", In: "<tool_call>ns.my-tool_2<arg_key>a.b-c_D9</arg_key><arg_value>v</arg_value></tool_call>", Want: `{"a.b-c_D9":"v"}`},
		{Name: "empty value", In: "<tool_call>t<arg_key>a</arg_key><arg_value></arg_value></tool_call>", Want: `{"a":""}`},
		{Name: "line breaks kept", In: "<tool_call>t\n<arg_key>a</arg_key>\n<arg_value>\nx\r\n</arg_value>\n</tool_call>", Want: `{"a":"\nx\r\n"}`},
		{Name: "tags as text", In: "<tool_call>t<arg_key>a</arg_key><arg_value><div></arg_val</arg_value <arg_ke <tool_cal</tool</arg_value></tool_call>",
			Want: `{"a":"<div></arg_val</arg_value <arg_ke <tool_cal</tool"}`},
		{Name: "code", In: "<tool_call>write_file\n<arg_key>content</arg_key>\n<arg_value>if a < b && c > d {\n\tfmt.Println(\"<b>\")\n}\n</arg_value>\n</tool_call>",
			Want: `{"content":"if a < b && c > d {\n\tfmt.Println(\"<b>\")\n}\n"}`},
		{Name: "untyped JSON is a string", In: "<tool_call>read_files<arg_key>paths</arg_key><arg_value>[\"a\"]</arg_value></tool_call>", Want: `{"paths":"[\"a\"]"}`},
		{Name: "typed array as JSON", Tools: tools, In: "<tool_call>read_files\n<arg_key>paths</arg_key>\n<arg_value>[\"src/main.rs\", \"Cargo.toml\"]</arg_value>\n</tool_call>",
			Want: `{"paths":["src/main.rs","Cargo.toml"]}`},
		{Name: "typed scalars", Tools: tools,
			In:   "<tool_call>list_files<arg_key>max_depth</arg_key><arg_value>2</arg_value><arg_key>ratio</arg_key><arg_value> 0.5\n</arg_value><arg_key>hidden</arg_key><arg_value>false</arg_value></tool_call>",
			Want: `{"max_depth":2,"ratio":0.5,"hidden":false}`},
		{Name: "typed object", Tools: tools, In: "<tool_call>list_files<arg_key>filter</arg_key><arg_value>{\"ext\": [\"go\"], \"x\": \"</arg_v\"}</arg_value></tool_call>",
			Want: `{"filter":{"ext":["go"],"x":"</arg_v"}}`},
		{Name: "typed array of objects", Tools: tools, In: "<tool_call>list_files<arg_key>edits</arg_key><arg_value>[{\"a\": 1}, {}]</arg_value></tool_call>",
			Want: `{"edits":[{"a":1},{}]}`},
		{Name: "typed string keeps its white space", Tools: tools, In: "<tool_call>get_weather<arg_key>location</arg_key><arg_value> Paris\n</arg_value></tool_call>",
			Want: `{"location":" Paris\n"}`},
		{Name: "tool not in tools", Tools: tools, In: "<tool_call>other<arg_key>n</arg_key><arg_value>3</arg_value></tool_call>", Want: `{"n":"3"}`},
	})
}

func TestErrors(t *testing.T) {
	long := strings.Repeat("a", 129)
	dialect.Errors(t, []tagscantest.ErrCase{
		{Name: "empty input", In: "", Err: token.ErrTruncated, Offset: 0, Line: 1, Column: 1},
		{Name: "white space first", In: " <tool_call>t</tool_call>", Err: token.ErrSyntax, Offset: 0, Line: 1, Column: 1},
		{Name: "no name", In: "<tool_call>\n<arg_key>a</arg_key>", Err: token.ErrSyntax, Offset: 11, Line: 1, Column: 12},
		{Name: "space before the name", In: "<tool_call> t</tool_call>", Err: token.ErrSyntax, Offset: 11, Line: 1, Column: 12},
		{Name: "bad function name", In: "<tool_call>a b\n</tool_call>", Err: token.ErrSyntax, Offset: 13, Line: 1, Column: 14},
		{Name: "function name too long", In: "<tool_call>" + long + "</tool_call>", Err: token.ErrSyntax, Offset: 11 + 128, Line: 1, Column: 12 + 128},
		{Name: "text between parameters", In: "<tool_call>t\n<arg_key>a</arg_key><arg_value>1</arg_value>\nx", Err: token.ErrSyntax, Offset: 58, Line: 3, Column: 1, Says: "between parameters"},
		{Name: "text between key and value", In: "<tool_call>t<arg_key>a</arg_key>x<arg_value>1</arg_value></tool_call>", Err: token.ErrSyntax, Offset: 32, Line: 1, Column: 33, Pointer: "/a"},
		{Name: "key without value", In: "<tool_call>t<arg_key>a</arg_key></tool_call>", Err: token.ErrSyntax, Offset: 33, Line: 1, Column: 34, Pointer: "/a"},
		{Name: "space in key", In: "<tool_call>t<arg_key> a</arg_key>", Err: token.ErrSyntax, Offset: 21, Line: 1, Column: 22},
		{Name: "missing </arg_value>", In: "<tool_call>t\n<arg_key>a</arg_key>\n<arg_value>x\n</tool_call>", Err: token.ErrSyntax, Offset: 47, Line: 4, Column: 1, Pointer: "/a", Says: "</arg_value>"},
		{Name: "next key in value", In: "<tool_call>t\n<arg_key>a</arg_key>\n<arg_value>x\n<arg_key>b</arg_key>\n<arg_value>y</arg_value>\n</tool_call>",
			Err: token.ErrSyntax, Offset: 47, Line: 4, Column: 1, Pointer: "/a"},
		{Name: "nested tool call", In: "<tool_call>t<arg_key>a</arg_key><arg_value>x<tool_call>", Err: token.ErrSyntax, Offset: 44, Line: 1, Column: 45, Pointer: "/a"},
		{Name: "trailing data", In: "<tool_call>t</tool_call>\nx", Err: token.ErrTrailingData, Offset: 25, Line: 2, Column: 1},
		{Name: "truncated in name", In: "<tool_call>get_wea", Err: token.ErrTruncated, Offset: 18, Line: 1, Column: 19},
		{Name: "truncated in value", In: "<tool_call>t<arg_key>a</arg_key><arg_value>\nx\n", Err: token.ErrTruncated, Offset: 46, Line: 3, Column: 1, Pointer: "/a"},
		{Name: "truncated in closing tag", In: "<tool_call>t<arg_key>a</arg_key><arg_value>x</arg_val", Err: token.ErrTruncated, Offset: 53, Line: 1, Column: 54, Pointer: "/a"},
		{Name: "truncated before <arg_value>", In: "<tool_call>t<arg_key>a</arg_key>\n", Err: token.ErrTruncated, Offset: 33, Line: 2, Column: 1, Pointer: "/a"},
		{Name: "truncated before </tool_call>", In: "<tool_call>t\n", Err: token.ErrTruncated, Offset: 13, Line: 2, Column: 1},
		{Name: "duplicate", In: "<tool_call>t<arg_key>a</arg_key><arg_value>x</arg_value>\n<arg_key>a</arg_key><arg_value>y</arg_value></tool_call>",
			Err: token.ErrDuplicateKey, Offset: 57, Line: 2, Column: 1, Pointer: "/a"},
		{Name: "confusable", In: "<tool_call>t<arg_key>path</arg_key><arg_value>x</arg_value>\n<arg_key>Path</arg_key><arg_value>y</arg_value></tool_call>",
			Err: token.ErrCaseFoldedKey, Offset: 60, Line: 2, Column: 1, Pointer: "/Path"},
		{Name: "duplicate, value lines later", In: "<tool_call>t<arg_key>a</arg_key><arg_value>x</arg_value>\n<arg_key>a</arg_key>\n\n\n<arg_value>y</arg_value></tool_call>",
			Err: token.ErrDuplicateKey, Offset: 57, Line: 2, Column: 1, Pointer: "/a"},
		{Name: "unknown parameter, value lines later", Tools: tools, In: "<tool_call>get_weather\n<arg_key>city</arg_key>\n\n\n<arg_value>Paris</arg_value></tool_call>",
			Err: token.ErrSchema, Offset: 23, Line: 2, Column: 1, Pointer: "/city"},
		{Name: "unknown parameter", Tools: tools, In: "<tool_call>get_weather<arg_key>city</arg_key><arg_value>Paris</arg_value></tool_call>",
			Err: token.ErrSchema, Offset: 22, Line: 1, Column: 23, Pointer: "/city"},
		{Name: "not an integer", Tools: tools, In: "<tool_call>get_weather\n<arg_key>days</arg_key>\n<arg_value>3.5</arg_value>\n</tool_call>",
			Err: token.ErrSchema, Offset: 58, Line: 3, Column: 12, Pointer: "/days"},
		{Name: "array not JSON", Tools: tools, In: "<tool_call>read_files<arg_key>paths</arg_key><arg_value>a.go</arg_value></tool_call>",
			Err: token.ErrSyntax, Offset: 56, Line: 1, Column: 57, Pointer: "/paths"},
		{Name: "invalid UTF-8", In: "<tool_call>t<arg_key>a</arg_key><arg_value>\xc3(</arg_value></tool_call>",
			Err: token.ErrInvalidUTF8, Offset: 43, Line: 1, Column: 44, Pointer: "/a"},
	})
}

// TestShared runs the tests every tag dialect passes (tagscantest.Dialect.Test).
func TestShared(t *testing.T) { dialect.Test(t) }

func FuzzGLM(f *testing.F) { dialect.FuzzTarget(f) }
