package qwen

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
		s := "<tool_call>" + sep + "<function=" + tool + ">" + sep
		for _, p := range params {
			s += "<parameter=" + p[0] + ">" + p[1] + "</parameter>" + sep
		}
		return s + "</function>" + sep + "</tool_call>"
	},
	Near:      "a < b <x </parameter <parameter=x> </param <tool_call </function <function\n<\n<<",
	TypedCall: "<tool_call>\n<function=typed>\n<parameter=n>\n3\n</parameter>\n<parameter=paths>\n[\"a\", \"b\"]\n</parameter>\n<parameter=o>\n{\"k\": [1, \"x\"]}\n</parameter>\n<parameter=b>\nfalse\n</parameter>\n</function>\n</tool_call>",
	Tags:      []string{"</parameter>", "<tool_call>", "</tool_call>", "<function=", "</function>", "<parameter="},
}

// tools are tool definitions in OpenAI's form, as Qwen3-Coder is served.
const tools = `{"tools": [
 {"type": "function", "function": {"name": "read_files", "parameters": {"type": "object", "properties": {
   "paths": {"type": "array", "items": {"type": "string"}}}}}},
 {"type": "function", "function": {"name": "list_files", "parameters": {"type": "object", "properties": {
   "max_depth": {"type": "integer"}, "ratio": {"type": "number"}, "hidden": {"type": "boolean"},
   "filter": {"type": "object"}, "edits": {"type": "array", "items": {"type": "object"}}}}}}
]}`

// call is a call as Qwen3-Coder's chat template writes it.
const call = "<tool_call>\n<function=write_file>\n<parameter=path>\nsrc/main.rs\n</parameter>\n<parameter=content>\nfn main() {\n    if a < b { println!(\"<div>\"); }\n}\n</parameter>\n</function>\n</tool_call>"

func TestCalls(t *testing.T) {
	dialect.Cases(t, []tagscantest.Case{
		{Name: "template", In: call,
			Want: `{"path":"src/main.rs","content":"fn main() {\n    if a < b { println!(\"<div>\"); }\n}"}`},
		{Name: "no parameters", In: "<tool_call><function=t></function></tool_call>", Want: `{}`},
		{Name: "white space", In: "<tool_call> \r\n\t<function=t>\n\n<parameter=a>1</parameter> </function>\n\n</tool_call>\n", Want: `{"a":"1"}`},
		{Name: "names", In: "<tool_call><function=ns.my-tool_2><parameter=a.b-c_D9>v</parameter></function></tool_call>", Want: `{"a.b-c_D9":"v"}`},
		{Name: "empty value", In: "<tool_call><function=t><parameter=a></parameter></function></tool_call>", Want: `{"a":""}`},
		{Name: "framing only", In: "<tool_call><function=t><parameter=a>\n\n</parameter></function></tool_call>", Want: `{"a":""}`},
		{Name: "framing kept once", In: "<tool_call><function=t><parameter=a>\n\nx\n\n</parameter></function></tool_call>", Want: `{"a":"\nx\n"}`},
		{Name: "CRLF framing", In: "<tool_call><function=t><parameter=a>\r\nx\r\n</parameter></function></tool_call>", Want: `{"a":"x"}`},
		{Name: "lone CR is text", In: "<tool_call><function=t><parameter=a>\rx\r</parameter></function></tool_call>", Want: `{"a":"\rx\r"}`},
		{Name: "tags as text", In: "<tool_call><function=t><parameter=a><div></param</parameter <parameter=b><function</tool_call <tool</parameter></function></tool_call>",
			Want: `{"a":"<div></param</parameter <parameter=b><function</tool_call <tool"}`},
		{Name: "less-than kept", In: "<tool_call><function=t><parameter=a>\na < b\n</parameter></function></tool_call>", Want: `{"a":"a < b"}`},
		{Name: "untyped JSON is a string", In: "<tool_call><function=read_files><parameter=paths>\n[\"a\"]\n</parameter></function></tool_call>", Want: `{"paths":"[\"a\"]"}`},

		{Name: "typed array as JSON", Tools: tools, In: "<tool_call>\n<function=read_files>\n<parameter=paths>\n[\"src/main.rs\", \"Cargo.toml\"]\n</parameter>\n</function>\n</tool_call>",
			Want: `{"paths":["src/main.rs","Cargo.toml"]}`},
		{Name: "typed empty array", Tools: tools, In: "<tool_call><function=read_files><parameter=paths>[]</parameter></function></tool_call>", Want: `{"paths":[]}`},
		{Name: "typed scalars", Tools: tools,
			In:   "<tool_call><function=list_files><parameter=max_depth>\n2\n</parameter><parameter=ratio> 0.5 </parameter><parameter=hidden>\nfalse\n</parameter></function></tool_call>",
			Want: `{"max_depth":2,"ratio":0.5,"hidden":false}`},
		{Name: "typed object", Tools: tools, In: "<tool_call><function=list_files><parameter=filter>\n{\"ext\": [\"go\"], \"x\": \"</param\"}\n</parameter></function></tool_call>",
			Want: `{"filter":{"ext":["go"],"x":"</param"}}`},
		{Name: "typed array of objects", Tools: tools, In: "<tool_call><function=list_files><parameter=edits>\n[{\"a\": 1}, {}]\n</parameter></function></tool_call>",
			Want: `{"edits":[{"a":1},{}]}`},
		{Name: "tool not in tools", Tools: tools, In: "<tool_call><function=other><parameter=n>\n3\n</parameter></function></tool_call>", Want: `{"n":"3"}`},
	})
}

func TestErrors(t *testing.T) {
	long := strings.Repeat("a", 129)
	dialect.Errors(t, []tagscantest.ErrCase{
		{Name: "empty input", In: "", Err: token.ErrTruncated, Offset: 0, Line: 1, Column: 1},
		{Name: "white space first", In: " <tool_call>", Err: token.ErrSyntax, Offset: 0, Line: 1, Column: 1},
		{Name: "function first", In: "<function=t></function>", Err: token.ErrSyntax, Offset: 1, Line: 1, Column: 2},
		{Name: "text before function", In: "<tool_call>\nx<function=t>", Err: token.ErrSyntax, Offset: 12, Line: 2, Column: 1},
		{Name: "bad function name", In: "<tool_call><function=a b>", Err: token.ErrSyntax, Offset: 22, Line: 1, Column: 23},
		{Name: "function name too long", In: "<tool_call><function=" + long + ">", Err: token.ErrSyntax, Offset: 21 + 128, Line: 1, Column: 22 + 128},
		{Name: "text between parameters", In: "<tool_call><function=t>\n<parameter=a>1</parameter>\nx", Err: token.ErrSyntax, Offset: 51, Line: 3, Column: 1, Says: "between parameters"},
		{Name: "missing </parameter>", In: "<tool_call><function=t>\n<parameter=a>\nx\n</function>\n</tool_call>", Err: token.ErrSyntax, Offset: 40, Line: 4, Column: 1, Pointer: "/a", Says: "</parameter>"},
		{Name: "nested tool call", In: "<tool_call><function=t><parameter=a>x<tool_call>", Err: token.ErrSyntax, Offset: 37, Line: 1, Column: 38, Pointer: "/a"},
		{Name: "tool call end in value", In: "<tool_call><function=t><parameter=a>x</tool_call>", Err: token.ErrSyntax, Offset: 37, Line: 1, Column: 38, Pointer: "/a"},
		{Name: "function in value", In: "<tool_call><function=t><parameter=a>x<function=u>", Err: token.ErrSyntax, Offset: 37, Line: 1, Column: 38, Pointer: "/a"},
		{Name: "missing </function>", In: "<tool_call><function=t><parameter=a>x</parameter></tool_call>", Err: token.ErrSyntax, Offset: 51, Line: 1, Column: 52},
		{Name: "text after function", In: "<tool_call><function=t></function>x</tool_call>", Err: token.ErrSyntax, Offset: 34, Line: 1, Column: 35},
		{Name: "trailing data", In: "<tool_call><function=t></function></tool_call>\nx", Err: token.ErrTrailingData, Offset: 47, Line: 2, Column: 1},
		{Name: "truncated in value", In: "<tool_call><function=t><parameter=a>\nx\n", Err: token.ErrTruncated, Offset: 39, Line: 3, Column: 1, Pointer: "/a"},
		{Name: "truncated in closing parameter tag", In: "<tool_call><function=t><parameter=a>x</param", Err: token.ErrTruncated, Offset: 44, Line: 1, Column: 45, Pointer: "/a"},
		{Name: "truncated before </function>", In: "<tool_call><function=t>", Err: token.ErrTruncated, Offset: 23, Line: 1, Column: 24},
		{Name: "truncated before </tool_call>", In: "<tool_call><function=t></function>\n", Err: token.ErrTruncated, Offset: 35, Line: 2, Column: 1},
		{Name: "duplicate", In: "<tool_call><function=t><parameter=a>x</parameter>\n<parameter=a>y</parameter></function></tool_call>",
			Err: token.ErrDuplicateKey, Offset: 50, Line: 2, Column: 1, Pointer: "/a"},
		{Name: "typed duplicate array", Tools: tools, In: "<tool_call><function=read_files><parameter=paths>[]</parameter><parameter=paths>[]</parameter></function></tool_call>",
			Err: token.ErrDuplicateKey, Offset: 63, Line: 1, Column: 64, Pointer: "/paths"},
		{Name: "path for paths", Tools: tools, In: "<tool_call><function=read_files><parameter=path>\na\n</parameter></function></tool_call>",
			Err: token.ErrSchema, Offset: 32, Line: 1, Column: 33, Pointer: "/path", Says: `"paths"`},
		{Name: "not a number", Tools: tools, In: "<tool_call><function=list_files>\n<parameter=ratio>\nhalf\n</parameter></function></tool_call>",
			Err: token.ErrSchema, Offset: 51, Line: 3, Column: 1, Pointer: "/ratio"},
		{Name: "array not JSON", Tools: tools, In: "<tool_call><function=read_files><parameter=paths>\na.go\n</parameter></function></tool_call>",
			Err: token.ErrSyntax, Offset: 50, Line: 2, Column: 1, Pointer: "/paths"},
		{Name: "unfinished UTF-8 at the end", In: "<tool_call><function=t><parameter=a>\nab\xe2\x82\n</parameter></function></tool_call>",
			Err: token.ErrInvalidUTF8, Offset: 39, Line: 2, Column: 3, Pointer: "/a"},
		{Name: "invalid UTF-8", In: "<tool_call><function=t><parameter=a>\xc3(</parameter></function></tool_call>",
			Err: token.ErrInvalidUTF8, Offset: 36, Line: 1, Column: 37, Pointer: "/a"},
	})
}

// TestShared runs the tests both dialects pass (tagscantest.Dialect.Test).
func TestShared(t *testing.T) { dialect.Test(t) }

func FuzzQwen(f *testing.F) { dialect.FuzzTarget(f) }
