package caret_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/token/caret"
)

// TestFormat checks what Format writes for each kind of value.
func TestFormat(t *testing.T) {
	for _, tc := range []struct{ args, want string }{
		{`{}`, "^^^t\n^^^\n"},
		{` {"path": "src/a.go", "empty": "", "sp": " x "} `, "^^^t\npath: src/a.go\nempty:\nsp:  x \n^^^\n"},
		{`{"content": "a\nb\n", "crlf": "a\r\nb", "cr": "a\rb"}`,
			"^^^t\ncontent ---\na\nb\n\n--- content\ncrlf ---\na\r\nb\n--- crlf\ncr: a\rb\n^^^\n"},
		{`{"br": "[", "brx": "[x", "end": "--- content"}`, "^^^t\nbr ---\n[\n--- br\nbrx: [x\nend: --- content\n^^^\n"},
		{`{"n": 1.5e3, "t": true, "f": false, "z": null}`, "^^^t\nn: 1.5e3\nt: true\nf: false\nz: null\n^^^\n"},
		{`{"paths": ["a", " b ", "]x"], "nums": [1, true, null, {"a": [1, 2]}], "none": []}`,
			"^^^t\npaths: [\na\n b \n]x\n]\nnums: [\n1\ntrue\nnull\n{\"a\":[1,2]}\n]\nnone: [\n]\n^^^\n"},
		{`{"o": {"a": [1, "x y"], "b": {}}, "grid": [[1], [2, 3]], "mixed": [1, [2]]}`,
			"^^^t\no: {\"a\":[1,\"x y\"],\"b\":{}}\ngrid: [[1],[2,3]]\nmixed: [1,[2]]\n^^^\n"},
	} {
		got, err := caret.Format("t", jsontext.Value(tc.args))
		if err != nil {
			t.Errorf("%s: %v", tc.args, err)
			continue
		}
		if string(got) != tc.want {
			t.Errorf("%s:\ngot  %q\nwant %q", tc.args, got, tc.want)
		}
	}
}

// TestFormatErrors checks that Format refuses what a caret block cannot
// carry, naming the key.
func TestFormatErrors(t *testing.T) {
	for _, tc := range []struct{ name, args, want string }{
		{"t", `[1]`, "not a JSON object"},
		{"t", `"x"`, "not a JSON object"},
		{"t", `{"a": 1} {}`, "after"},
		{"t", `{"a": 1, "a": 2}`, "duplicate"},
		{"t", `{"a": `, ""},
		{"", `{}`, "tool name"},
		{"a b", `{}`, "tool name"},
		{strings.Repeat("n", 129), `{}`, "tool name"},
		{"t", `{"": 1}`, `key ""`},
		{"t", `{"a b": 1}`, `key "a b"`},
		{"t", `{"é": 1}`, `key "é"`},
		{"t", `{"` + strings.Repeat("k", 129) + `": 1}`, "longer than 128"},
		{"t", `{"k": "a\r"}`, `key "k"`},
		{"t", `{"k": "a\nb\r"}`, `key "k"`},
		{"t", `{"k": "a\n--- k\nb"}`, `key "k"`},
		{"t", `{"k": "a\n--- k\r\nb"}`, `key "k"`},
		{"t", `{"k": ["a", ""]}`, `key "k": element 1`},
		{"t", `{"k": ["a\nb"]}`, `key "k": element 0`},
		{"t", `{"k": ["a\r"]}`, `key "k": element 0`},
		{"t", `{"k": ["]"]}`, `key "k": element 0`},
		{"t", `{"k": ["] x"]}`, `key "k": element 0`},
		{"t", `{"k": ["]\tx"]}`, `key "k": element 0`},
		{"t", `{"k": ["^^^x"]}`, `key "k": element 0`},
	} {
		out, err := caret.Format(tc.name, jsontext.Value(tc.args))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Format(%q, %s) = %q, %v; want an error with %q", tc.name, tc.args, out, err, tc.want)
		}
	}
}

// param is a generated parameter: its value's JSON text and its schema.
type param struct {
	kind   int
	value  string
	schema string
}

// genParam generates parameters that caret can carry, of every kind Format
// writes; stringsOnly keeps to those without a schema.
func genParam(stringsOnly bool) gopter.Gen {
	kinds := gen.IntRange(0, 12)
	if stringsOnly {
		kinds = gen.OneConstOf(0, 1, 6, 11, 12)
	}
	return gopter.CombineGens(kinds, testutil.GenString(), testutil.GenString(), gen.SliceOfN(3, testutil.GenString()),
		gen.SliceOfN(3, testutil.GenNumber()), gen.Int64(), gen.Bool()).Map(func(v []any) param {
		s1, s2, ss, nums := v[1].(string), v[2].(string), v[3].([]string), v[4].([]string)
		switch k := v[0].(int); k {
		case 0:
			return param{k, quote(carried(s1)), `{"type": "string"}`}
		case 1:
			return param{k, quote(carried(s1 + "\n" + s2)), `{"type": "string"}`}
		case 2:
			return param{k, nums[0], `{"type": "number"}`}
		case 3:
			return param{k, fmt.Sprint(v[5].(int64)), `{"type": "integer"}`}
		case 4:
			return param{k, fmt.Sprint(v[6].(bool)), `{"type": "boolean"}`}
		case 5:
			return param{k, "null", `{"type": "null"}`}
		case 6:
			var es []string
			for _, s := range ss {
				es = append(es, quote(element(s)))
			}
			return param{k, "[" + strings.Join(es, ",") + "]", `{"type": "array", "items": {"type": "string"}}`}
		case 7:
			return param{k, "[" + strings.Join(nums, ",") + "]", `{"type": "array", "items": {"type": "number"}}`}
		case 8:
			o := `{"s":` + quote(s1) + `,"n":[` + strings.Join(nums, ",") + `]}`
			return param{k, "[" + o + ",{}]", `{"type": "array", "items": {"type": "object"}}`}
		case 9:
			return param{k, "[[" + strings.Join(nums, ",") + "],[]]", `{"type": "array", "items": {"type": "array"}}`}
		case 10:
			return param{k, `{"s":` + quote(s1) + `,"o":{"n":` + nums[0] + `}}`, `{"type": "object"}`}
		case 11:
			return param{k, "[]", `{"type": "array", "items": {"type": "string"}}`}
		default:
			return param{k, `"["`, `{"type": "string"}`}
		}
	})
}

// carried makes s a string Format can write: not ending with "\r".
func carried(s string) string {
	if strings.HasSuffix(s, "\r") {
		s += "."
	}
	return s
}

// element makes s a list element: one line, not empty, not a marker.
func element(s string) string {
	s = carried(strings.ReplaceAll(s, "\n", " "))
	if s == "" || s[0] == ']' || s[0] == '^' {
		s = "e" + s
	}
	return s
}

func quote(s string) string {
	q, err := jsontext.AppendQuote(nil, s)
	if err != nil {
		panic(err)
	}
	return string(q)
}

// TestPropertyFormat checks that Format and then the tokenizer give back
// the same arguments: typed by a schema that says each parameter's type,
// and, for strings and arrays of strings, without one.
func TestPropertyFormat(t *testing.T) {
	params := testutil.PropertyParameters(300)
	params.MaxSize = 12 // parameters per call
	properties := gopter.NewProperties(params)
	for _, typed := range []bool{true, false} {
		properties.Property(fmt.Sprintf("round trip, typed %v", typed), prop.ForAll(
			func(ps []param) string {
				var members, props []string
				for i, p := range ps {
					key := fmt.Sprintf("%s%d", []string{"k", "path", "a.b", "x-y_z"}[i%4], i)
					members = append(members, quote(key)+":"+p.value)
					props = append(props, quote(key)+":"+p.schema)
				}
				args := "{" + strings.Join(members, ",") + "}"
				block, err := caret.Format("tool", jsontext.Value(args))
				if err != nil {
					return fmt.Sprintf("Format(%s): %v", args, err)
				}
				nf := untyped
				if typed {
					nf = caret.Typed(mustParse(`[{"name": "tool", "input_schema": {"type": "object", "properties": {` +
						strings.Join(props, ",") + `}}}]`))
				}
				got, err := parse(nf, string(block))
				if err != nil {
					return fmt.Sprintf("%s\n%q: %v", args, block, err)
				}
				want, err := testutil.Canonical([]byte(args))
				if err != nil {
					return err.Error()
				}
				if diff := cmp.Diff(string(want), got); diff != "" {
					return fmt.Sprintf("%q (-want +got):\n%s", block, diff)
				}
				return ""
			},
			gen.SliceOf(genParam(!typed)),
		))
	}
	properties.TestingRun(t)
}
