package caret_test

import (
	"strings"
	"testing"

	"github.com/argstream/argstream/token"
)

// valueCases are blocks that parse, with the JSON arguments they give
// without a schema: the grammar's edge cases.
var valueCases = []struct{ name, block, want string }{
	{"no parameters", "^^^t\n^^^", `{}`},
	{"fence with line end", "^^^t\n^^^\n", `{}`},
	{"CRLF everywhere", "^^^t\r\nk: v\r\nm ---\r\na\r\nb\r\n--- m\r\nl: [\r\nx\r\n\r\n]\r\n^^^\r\n",
		`{"k":"v","m":"a\r\nb","l":["x"]}`},
	{"name and key characters", "^^^Tool-name_2\na.b-c_D9: v\n^^^", `{"a.b-c_D9":"v"}`},
	{"empty lines between parameters", "^^^t\n\na: 1\n\n\r\nb: 2\n\n^^^", `{"a":"1","b":"2"}`},
	{"empty value, no space", "^^^t\nk:\nl:\r\n^^^", `{"k":"","l":""}`},
	{"empty value, one space", "^^^t\nk: \n^^^", `{"k":""}`},
	{"white space kept", "^^^t\nk:   a b\t \n^^^", `{"k":"  a b\t "}`},
	{"bare CR in a value", "^^^t\nk: a\rb\r\r\n^^^", `{"k":"a\rb\r"}`},
	{"value beginning with [", "^^^t\nk: [x]\nl: [ \nm: [\rx\n^^^", `{"k":"[x]","l":"[ ","m":"[\rx"}`},
	{"value [ then CR LF is a list", "^^^t\nk: [\r\n]\n^^^", `{"k":[]}`},
	{"caret and markers in one-line values", "^^^t\nk: ^^^\nl: --- k\nm: ]\n^^^", `{"k":"^^^","l":"--- k","m":"]"}`},
	{"empty list", "^^^t\nk: [\n]\n^^^", `{"k":[]}`},
	{"empty lines in a list", "^^^t\nk: [\n\na\n\r\n\nb\n\n]\n^^^", `{"k":["a","b"]}`},
	{"list elements raw", "^^^t\nk: [\n  a \n]x\n^^x\n^\n\rx\n]\rx\n[\n--- k\n]\n^^^",
		`{"k":["  a ","]x","^^x","^","\rx","]\rx","[","--- k"]}`},
	{"empty multi-line value", "^^^t\nk ---\n--- k\n^^^", `{"k":""}`},
	{"multi-line value of one empty line", "^^^t\nk ---\n\n--- k\n^^^", `{"k":""}`},
	{"multi-line value of two empty lines", "^^^t\nk ---\n\n\n--- k\n^^^", `{"k":"\n"}`},
	{"multi-line value ending in a line end", "^^^t\nk ---\na\n\n--- k\n^^^", `{"k":"a\n"}`},
	{"multi-line value of [", "^^^t\nk ---\n[\n--- k\n^^^", `{"k":"["}`},
	{"markers in a multi-line value", "^^^t\nk ---\n^^^\n--- other\n--- k \n--- kk\n--- K\n -- k\n---k\n--- k\rx\n^^^x\n--- k\n^^^",
		`{"k":"^^^\n--- other\n--- k \n--- kk\n--- K\n -- k\n---k\n--- k\rx\n^^^x"}`},
	{"CR kept in a multi-line value", "^^^t\nk ---\na\r\r\nb\rc\r\r\n--- k\n^^^", `{"k":"a\r\r\nb\rc\r"}`},
	{"CRLF before the end marker", "^^^t\nk ---\na\r\n--- k\r\n^^^", `{"k":"a"}`},
	{"end marker of another key", "^^^t\nab ---\nx\n--- a\n--- abc\n--- ab\n^^^", `{"ab":"x\n--- a\n--- abc"}`},
	{"key of dashes", "^^^t\n-: x\n-- ---\ny\n--- --\n^^^", `{"-":"x","--":"y"}`},
	{"UTF-8", "^^^t\nk: é😀\nm ---\n€\n😀\n--- m\n^^^", `{"k":"é😀","m":"€\n😀"}`},
	{"longest name and key", "^^^" + strings.Repeat("n", 128) + "\n" + strings.Repeat("k", 128) + ": v\n^^^",
		`{"` + strings.Repeat("k", 128) + `":"v"}`},
	{"no closing line end after values", "^^^t\nk ---\nx\n--- k\nl: [\n1\n]\n^^^", `{"k":"x","l":["1"]}`},
}

// TestValues parses the edge cases of the grammar, whole and one byte at a
// time.
func TestValues(t *testing.T) {
	for _, tc := range valueCases {
		t.Run(tc.name, func(t *testing.T) { checkParse(t, nil, tc.block, tc.want) })
	}
}

// checkParse checks that block, whole and one byte at a time, parses with
// the tokenizers of nf to the arguments want.
func checkParse(t *testing.T, nf token.NewFunc, block, want string) {
	t.Helper()
	want = canonical(t, want)
	for _, chunks := range [][]string{{block}, strings.Split(block, "")} {
		got, err := parse(nf, chunks...)
		if err != nil {
			t.Fatalf("%q: %v", block, err)
		}
		if got != want {
			t.Errorf("%q in %d chunks:\ngot  %s\nwant %s", block, len(chunks), got, want)
		}
	}
}
