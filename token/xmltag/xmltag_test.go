package xmltag

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
		s := "<tool:" + tool + ">" + sep
		for _, p := range params {
			s += "<param:" + p[0] + ">" + p[1] + "</param:" + p[0] + ">" + sep
		}
		return s + "</tool:" + tool + ">"
	},
	Repeat:    true,
	Near:      "a < b <x </param:b </param:abc <tool <param:a> </tool </param:x\n<\n<<",
	TypedCall: "<tool:typed>\n<param:n>3</param:n>\n<param:paths>a</param:paths>\n<param:paths>b</param:paths>\n<param:o>{\"k\": [1, \"x\"]}</param:o>\n<param:b>false</param:b>\n</tool:typed>",
	Tags:      []string{"</param:", "<tool:", "</tool:", "<param:"},
}

// codeAssistant are tool definitions in the manner of code-assistant's.
const codeAssistant = `[
 {"name": "read_files", "input_schema": {"type": "object", "properties": {
   "project": {"type": "string"}, "paths": {"type": "array", "items": {"type": "string"}}}}},
 {"name": "write_file", "input_schema": {"type": "object", "properties": {
   "project": {"type": "string"}, "path": {"type": "string"}, "content": {"type": "string"},
   "append": {"type": "boolean"}}}},
 {"name": "list_files", "input_schema": {"type": "object", "properties": {
   "paths": {"type": "array", "items": {"type": "string"}}, "max_depth": {"type": "integer"},
   "ratio": {"type": "number"}, "filter": {"type": "object"},
   "edits": {"type": "array", "items": {"type": "object"}}}}}
]`

func TestCalls(t *testing.T) {
	long := strings.Repeat("a", 129)
	dialect.Cases(t, []tagscantest.Case{
		{Name: "read_files", In: "<tool:read_files>\n<param:project>code-assistant</param:project>\n<param:paths>src/main.rs</param:paths>\n</tool:read_files>",
			Want: `{"project":"code-assistant","paths":"src/main.rs"}`},
		{Name: "write_file multi-line", In: "<tool:write_file>\n<param:path>src/main.rs</param:path>\n<param:content>\nfn main() {\n    if a < b && c > d { println!(\"<div>\"); }\n}\n</param:content>\n</tool:write_file>",
			Want: `{"path":"src/main.rs","content":"fn main() {\n    if a < b && c > d { println!(\"<div>\"); }\n}"}`},
		{Name: "no parameters", In: "<tool:t></tool:t>", Want: `{}`},
		{Name: "white space between tags", In: "<tool:t> \t\r\n<param:a>1</param:a>\n\n</tool:t>\n", Want: `{"a":"1"}`},
		{Name: "names", In: "<tool:my-tool_2><param:a.b-c_D9>v</param:a.b-c_D9></tool:my-tool_2>", Want: `{"a.b-c_D9":"v"}`},
		{Name: "empty value", In: "<tool:t><param:a></param:a></tool:t>", Want: `{"a":""}`},
		{Name: "framing only", In: "<tool:t><param:a>\n</param:a></tool:t>", Want: `{"a":""}`},
		{Name: "two framing line breaks", In: "<tool:t><param:a>\n\n</param:a></tool:t>", Want: `{"a":""}`},
		{Name: "one line break kept", In: "<tool:t><param:a>\n\n\n</param:a></tool:t>", Want: `{"a":"\n"}`},
		{Name: "framing kept once", In: "<tool:t><param:a>\n\nx\n\n</param:a></tool:t>", Want: `{"a":"\nx\n"}`},
		{Name: "CRLF framing", In: "<tool:t><param:a>\r\nx\r\n</param:a></tool:t>", Want: `{"a":"x"}`},
		{Name: "lone CR is text", In: "<tool:t><param:a>\rx\r</param:a></tool:t>", Want: `{"a":"\rx\r"}`},
		{Name: "CR before framing", In: "<tool:t><param:a>\n\r\r\n</param:a></tool:t>", Want: `{"a":"\r"}`},
		{Name: "unframed", In: "<tool:t><param:a> x </param:a></tool:t>", Want: `{"a":" x "}`},
		{Name: "less-than kept", In: "<tool:t><param:a>a < b</param:a></tool:t>", Want: `{"a":"a < b"}`},
		{Name: "tags as text", In: "<tool:t><param:a><div><param:y></param:<</param:a.b</para<tool<param:a></param:a></tool:t>",
			Want: `{"a":"<div><param:y></param:<</param:a.b</para<tool<param:a>"}`},
		{Name: "trailing less-than", In: "<tool:t><param:a>a<</param:a></tool:t>", Want: `{"a":"a<"}`},
		{Name: "name too long is text", In: "<tool:t><param:a></param:" + long + "></param:a></tool:t>", Want: `{"a":"</param:` + long + `>"}`},
		{Name: "unicode", In: "<tool:t><param:a>héllo 😀 \u2028</param:a></tool:t>", Want: "{\"a\":\"héllo 😀 \u2028\"}"},
		{Name: "untyped numbers are strings", In: "<tool:list_files><param:max_depth>2</param:max_depth></tool:list_files>", Want: `{"max_depth":"2"}`},

		{Name: "typed read_files", Tools: codeAssistant,
			In:   "<tool:read_files>\n<param:project>p</param:project>\n<param:paths>src/main.rs</param:paths>\n<param:paths>Cargo.toml</param:paths>\n</tool:read_files>",
			Want: `{"project":"p","paths":["src/main.rs","Cargo.toml"]}`},
		{Name: "typed one path", Tools: codeAssistant, In: "<tool:read_files><param:paths>a</param:paths><param:project>p</param:project></tool:read_files>",
			Want: `{"paths":["a"],"project":"p"}`},
		{Name: "typed scalars", Tools: codeAssistant,
			In:   "<tool:list_files><param:max_depth>\n 2 \n</param:max_depth><param:ratio>-1.5e3</param:ratio></tool:list_files>",
			Want: `{"max_depth":2,"ratio":-1.5e3}`},
		{Name: "typed boolean", Tools: codeAssistant, In: "<tool:write_file><param:append>true</param:append></tool:write_file>", Want: `{"append":true}`},
		{Name: "typed object", Tools: codeAssistant, In: "<tool:list_files><param:filter>\n{\"ext\": [\"go\", \"rs\"], \"n\": 1}\n</param:filter></tool:list_files>",
			Want: `{"filter":{"ext":["go","rs"],"n":1}}`},
		{Name: "typed array of objects", Tools: codeAssistant,
			In:   "<tool:list_files><param:edits>{\"a\":1}</param:edits>\n<param:edits>{\"b\":\"<x>\"}</param:edits></tool:list_files>",
			Want: `{"edits":[{"a":1},{"b":"<x>"}]}`},
		{Name: "typed string keeps text", Tools: codeAssistant, In: "<tool:write_file><param:content> 3 </param:content></tool:write_file>",
			Want: `{"content":" 3 "}`},
		{Name: "tool not in tools", Tools: codeAssistant, In: "<tool:other><param:n>3</param:n></tool:other>", Want: `{"n":"3"}`},
	})
}

func TestErrors(t *testing.T) {
	long := strings.Repeat("a", 129)
	dialect.Errors(t, []tagscantest.ErrCase{
		{Name: "empty input", In: "", Err: token.ErrTruncated, Offset: 0, Line: 1, Column: 1},
		{Name: "white space first", In: " <tool:t></tool:t>", Err: token.ErrSyntax, Offset: 0, Line: 1, Column: 1},
		{Name: "not a tool tag", In: "<tool t></tool:t>", Err: token.ErrSyntax, Offset: 5, Line: 1, Column: 6},
		{Name: "dot in tool name", In: "<tool:a.b></tool:a.b>", Err: token.ErrSyntax, Offset: 7, Line: 1, Column: 8},
		{Name: "empty tool name", In: "<tool:></tool:>", Err: token.ErrSyntax, Offset: 6, Line: 1, Column: 7},
		{Name: "tool name too long", In: "<tool:" + long + ">", Err: token.ErrSyntax, Offset: 6 + 128, Line: 1, Column: 7 + 128},
		{Name: "space in parameter name", In: "<tool:t>\n<param:a b>", Err: token.ErrSyntax, Offset: 17, Line: 2, Column: 9},
		{Name: "text between parameters", In: "<tool:t>\n<param:a>1</param:a>\nx</tool:t>", Err: token.ErrSyntax, Offset: 30, Line: 3, Column: 1, Says: "between parameters"},
		{Name: "text first", In: "<tool:t>x", Err: token.ErrSyntax, Offset: 8, Line: 1, Column: 9},
		{Name: "nested tool", In: "<tool:t>\n<param:a>\nx\n<tool:u></tool:u>\n</param:a>\n</tool:t>", Err: token.ErrSyntax, Offset: 21, Line: 4, Column: 1, Pointer: "/a"},
		{Name: "unclosed parameter", In: "<tool:t><param:a>x</tool:t>", Err: token.ErrSyntax, Offset: 18, Line: 1, Column: 19, Pointer: "/a", Says: "</param:a>"},
		{Name: "mismatched parameter", In: "<tool:t><param:a>x\n</param:b></tool:t>", Err: token.ErrSyntax, Offset: 19, Line: 2, Column: 1, Pointer: "/a"},
		{Name: "mismatched tool", In: "<tool:t><param:a>x</param:a></tool:u>", Err: token.ErrSyntax, Offset: 28, Line: 1, Column: 29},
		{Name: "trailing data", In: "<tool:t></tool:t>\n x", Err: token.ErrTrailingData, Offset: 19, Line: 2, Column: 2},
		{Name: "second call", In: "<tool:t></tool:t><tool:t></tool:t>", Err: token.ErrTrailingData, Offset: 17, Line: 1, Column: 18},
		{Name: "truncated in opening tag", In: "<tool:t", Err: token.ErrTruncated, Offset: 7, Line: 1, Column: 8},
		{Name: "truncated before closing tag", In: "<tool:t>\n<param:a>x</param:a>\n", Err: token.ErrTruncated, Offset: 30, Line: 3, Column: 1},
		{Name: "truncated in value", In: "<tool:t>\n<param:a>\nx\n", Err: token.ErrTruncated, Offset: 21, Line: 4, Column: 1, Pointer: "/a"},
		{Name: "truncated in closing parameter tag", In: "<tool:t><param:a>x</param:a", Err: token.ErrTruncated, Offset: 27, Line: 1, Column: 28, Pointer: "/a"},
		{Name: "truncated in closing tag", In: "<tool:t></tool:t", Err: token.ErrTruncated, Offset: 16, Line: 1, Column: 17},
		{Name: "duplicate untyped", In: "<tool:read_files>\n<param:path>a</param:path>\n<param:path>b</param:path>\n</tool:read_files>",
			Err: token.ErrDuplicateKey, Offset: 45, Line: 3, Column: 1, Pointer: "/path"},
		{Name: "case-folded keys", In: "<tool:t><param:path>a</param:path><param:PATH>b</param:PATH></tool:t>",
			Err: token.ErrCaseFoldedKey, Offset: 34, Line: 1, Column: 35, Pointer: "/PATH"},
		{Name: "invalid UTF-8", In: "<tool:t><param:a>\nab\xff</param:a></tool:t>", Err: token.ErrInvalidUTF8, Offset: 20, Line: 2, Column: 3, Pointer: "/a"},
		{Name: "unfinished UTF-8 at the end", In: "<tool:t><param:a>ab\xc3\n</param:a></tool:t>", Err: token.ErrInvalidUTF8, Offset: 19, Line: 1, Column: 20, Pointer: "/a"},
		{Name: "unfinished UTF-8 before a line break", In: "<tool:t><param:a>\nab\xf4\n\n</param:a></tool:t>", Err: token.ErrInvalidUTF8, Offset: 20, Line: 2, Column: 3, Pointer: "/a"},
		{Name: "too large", In: "<tool:t>\n<param:a>abcdef</param:a></tool:t>", Opts: []token.Option{token.WithMaxSize(22)},
			Err: token.ErrTooLarge, Offset: 22, Line: 2, Column: 14, Pointer: "/a"},

		{Name: "repeat not in a row", Tools: codeAssistant,
			In:  "<tool:read_files><param:paths>a</param:paths><param:project>p</param:project><param:paths>b</param:paths></tool:read_files>",
			Err: token.ErrDuplicateKey, Offset: 77, Line: 1, Column: 78, Pointer: "/paths"},
		{Name: "path for paths", Tools: codeAssistant, In: "<tool:read_files>\n<param:path>a</param:path></tool:read_files>",
			Err: token.ErrSchema, Offset: 18, Line: 2, Column: 1, Pointer: "/path", Says: `"paths"`},
		{Name: "not an integer", Tools: codeAssistant, In: "<tool:list_files><param:max_depth>\n2.5\n</param:max_depth></tool:list_files>",
			Err: token.ErrSchema, Offset: 35, Line: 2, Column: 1, Pointer: "/max_depth"},
		{Name: "not a boolean", Tools: codeAssistant, In: "<tool:write_file><param:append>yes</param:append></tool:write_file>",
			Err: token.ErrSchema, Offset: 31, Line: 1, Column: 32, Pointer: "/append"},
		{Name: "bad JSON object", Tools: codeAssistant, In: "<tool:list_files><param:filter>\n{\"a\":\n x}\n</param:filter></tool:list_files>",
			Err: token.ErrSyntax, Offset: 39, Line: 3, Column: 2, Pointer: "/filter/a"},
		{Name: "object not closed", Tools: codeAssistant, In: "<tool:list_files><param:filter>{\"a\":1</param:filter></tool:list_files>",
			Err: token.ErrTruncated, Offset: 37, Line: 1, Column: 38, Pointer: "/filter/a"},
		{Name: "too deep", Tools: codeAssistant, In: "<tool:read_files><param:paths>a</param:paths></tool:read_files>", Opts: []token.Option{token.WithMaxDepth(1)},
			Err: token.ErrTooDeep, Offset: 30, Line: 1, Column: 31, Pointer: "/paths"},
	})
}

// TestShared runs the tests both dialects pass (tagscantest.Dialect.Test).
func TestShared(t *testing.T) { dialect.Test(t) }

func FuzzXMLTag(f *testing.F) { dialect.FuzzTarget(f) }
