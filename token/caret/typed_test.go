package caret_test

import (
	"strings"
	"testing"

	"github.com/argstream/argstream/schema"
	"github.com/argstream/argstream/token"
	"github.com/argstream/argstream/token/caret"
)

// tools is the schemas the typed tests use: "t" declares a parameter of
// each kind and is closed; "open" allows parameters it does not declare.
var tools = mustParse(`[
  {"name": "t", "input_schema": {"type": "object", "properties": {
    "n": {"type": "number"}, "i": {"type": "integer"}, "b": {"type": "boolean"}, "z": {"type": "null"},
    "s": {"type": "string"}, "content": {"type": "string"}, "paths": {"type": "array", "items": {"type": "string"}},
    "nums": {"type": "array", "items": {"type": "integer"}}, "o": {"type": "object"},
    "objs": {"type": "array", "items": {"type": "object"}}, "grid": {"type": "array", "items": {"type": "array"}},
    "u": {"type": ["string", "null"]}, "m": {"type": ["number", "null"]}}}},
  {"type": "function", "function": {"name": "open", "parameters": {"type": "object",
    "properties": {"n": {"type": "number"}}, "additionalProperties": true}}}
]`)

func mustParse(defs string) *schema.Tools {
	ts, err := schema.Parse([]byte(defs))
	if err != nil {
		panic(err)
	}
	return ts
}

var typedCases = []struct{ name, block, want string }{
	{"number", "^^^t\nn: 3.5\n^^^", `{"n":3.5}`},
	{"number with white space", "^^^t\nn:  -1e3 \t\n^^^", `{"n":-1e3}`},
	{"integer", "^^^t\ni: 42\n^^^", `{"i":42}`},
	{"booleans and null", "^^^t\nb: true\nz: null\n^^^", `{"b":true,"z":null}`},
	{"string that looks like a number", "^^^t\ns: 3\n^^^", `{"s":"3"}`},
	{"multi-line number", "^^^t\nn ---\n12\n--- n\n^^^", `{"n":12}`},
	{"array as a list", "^^^t\npaths: [\na.go\nb.go\n]\n^^^", `{"paths":["a.go","b.go"]}`},
	{"array as one value", "^^^t\npaths: src/a.go\n^^^", `{"paths":["src/a.go"]}`},
	{"array as one multi-line value", "^^^t\npaths ---\nx\ny\n--- paths\n^^^", `{"paths":["x\ny"]}`},
	{"array of integers", "^^^t\nnums: [\n1\n-2\n\n3\n]\n^^^", `{"nums":[1,-2,3]}`},
	{"empty array", "^^^t\nnums: [\n]\n^^^", `{"nums":[]}`},
	{"object", "^^^t\no: {\"a\": [1, \"x\"], \"b\": {}}\n^^^", `{"o":{"a":[1,"x"],"b":{}}}`},
	{"multi-line object", "^^^t\no ---\n{\n  \"a\": 1,\n  \"s\": \"x\\ny\"\n}\n--- o\n^^^", `{"o":{"a":1,"s":"x\ny"}}`},
	{"array of objects", "^^^t\nobjs: [\n{\"a\":1}\n{}\n]\n^^^", `{"objs":[{"a":1},{}]}`},
	{"array of arrays, as JSON", "^^^t\ngrid: [[1,2],[3]]\n^^^", `{"grid":[[1,2],[3]]}`},
	{"string or null: a string", "^^^t\nu: null\n^^^", `{"u":"null"}`},
	{"number or null: JSON", "^^^t\nm: null\nn: 1\n^^^", `{"m":null,"n":1}`},
	{"tool not in the schemas", "^^^other\nn: 3\nx: [\n1\n]\n^^^", `{"n":"3","x":["1"]}`},
	{"open tool", "^^^open\nn: 3\nextra: 4\n^^^", `{"n":3,"extra":"4"}`},
}

// TestTyped parses blocks with a schema, whole and one byte at a time.
func TestTyped(t *testing.T) {
	nf := caret.Typed(tools)
	for _, tc := range typedCases {
		t.Run(tc.name, func(t *testing.T) { checkParse(t, nf, tc.block, tc.want) })
	}
}

var typedErrors = []struct {
	errorCase
	detail string // a part of the message
}{
	{errorCase{"^^^t\ni: " + at + "3.0\n^^^", token.ErrSchema, "/i"}, "integer"},
	{errorCase{"^^^t\ni: " + at + "3e2\n^^^", token.ErrSchema, "/i"}, "integer"},
	{errorCase{"^^^t\nn: " + at + "abc\n^^^", token.ErrSchema, "/n"}, "number"},
	{errorCase{"^^^t\nn:" + at + "\n^^^", token.ErrSchema, "/n"}, "number"},
	{errorCase{"^^^t\nb: " + at + "yes\n^^^", token.ErrSchema, "/b"}, "boolean"},
	{errorCase{"^^^t\nz: " + at + "nil\n^^^", token.ErrSchema, "/z"}, "null"},
	{errorCase{"^^^t\ns: x\nn ---\n" + at + "1\n2\n--- n\n^^^", token.ErrSchema, "/n"}, "number"},
	{errorCase{"^^^t\nnums: [\n1\n" + at + "x\n]\n^^^", token.ErrSchema, "/nums/1"}, "integer"},
	{errorCase{"^^^t\n" + at + "path: a.go\n^^^", token.ErrSchema, "/path"}, `"paths"`},
	{errorCase{"^^^t\ns: x\n" + at + "path ---\na.go\n--- path\n^^^", token.ErrSchema, "/path"}, `"paths"`},
	{errorCase{"^^^t\n" + at + "n: [\n1\n]\n^^^", token.ErrSchema, "/n"}, "list"},
	{errorCase{"^^^t\no: {\"a\": " + at + "x}\n^^^", token.ErrSyntax, "/o/a"}, "JSON"},
	{errorCase{"^^^t\no ---\n{\n\"a\": 1,\n\"b\": " + at + "x\n}\n--- o\n^^^", token.ErrSyntax, "/o/b"}, "JSON"},
	{errorCase{"^^^t\no: {\"a\": 1" + at + "\n^^^", token.ErrTruncated, "/o/a"}, "JSON"},
	{errorCase{"^^^t\no: {\"a\": 1, " + at + "\"A\": 2}\n^^^", token.ErrCaseFoldedKey, "/o/A"}, ""},
}

// TestTypedErrors checks values that do not fit the schema: category,
// offset, line, column, pointer, and that the message names the problem.
func TestTypedErrors(t *testing.T) {
	nf := caret.Typed(tools)
	for _, tc := range typedErrors {
		in, off, line, col := place(t, tc.block)
		for _, chunks := range [][]string{{in}, strings.Split(in, "")} {
			_, err := parse(nf, chunks...)
			checkError(t, in, err, tc.cat, off, line, col, tc.ptr)
			if err != nil && !strings.Contains(err.Error(), tc.detail) {
				t.Errorf("%q: %v does not say %s", in, err, tc.detail)
			}
		}
	}
}
