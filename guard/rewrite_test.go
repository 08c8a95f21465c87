package guard

import (
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

func TestRewrite(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		at       jsontext.Pointer
		to       string // "" drops the value
	}{
		{`{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":3}}`,
			`{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":3}}`, "/delta/stop_reason", `"end_turn"`},
		{`{"a":[1, {"b":2}, 3], "c":4}`, `{"a":[1,3],"c":4}`, "/a/1", ""},
		{`{"a":[1, {"b":2}, 3], "c":4}`, `{"a":[1,{"b":2},3]}`, "/c", ""},
		{`{"a":[1, {"b":2}, 3], "c":4}`, `{"a":[1,{"b":"x"},3],"c":4}`, "/a/1/b", `"x"`},
		{`{"a~b/c":1}`, `{"a~b/c":2}`, "/a~0b~1c", `2`},
		{`[ ]`, `[]`, "/0", ""},
		{` "s" `, `"t"`, "", `"t"`},
	} {
		got, err := rewrite([]byte(tc.in), func(p jsontext.Pointer) bool { return p == tc.at },
			func(p jsontext.Pointer, v jsontext.Value) (jsontext.Value, bool) {
				return jsontext.Value(tc.to), tc.to != ""
			})
		if err != nil || string(got) != tc.want {
			t.Errorf("rewrite(%s, %s) = %s, %v; want %s", tc.in, tc.at, got, err, tc.want)
		}
	}
	if _, err := rewrite([]byte(`{"a":`), func(jsontext.Pointer) bool { return false }, nil); err == nil {
		t.Error("rewrite of invalid JSON succeeded")
	}
}
