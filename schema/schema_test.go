package schema_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/argstream/argstream/schema"
)

// The three providers' forms of one tool give one schema.
func TestParseForms(t *testing.T) {
	props := `{"type": "object", "properties": {
		"paths": {"type": "array", "items": {"type": "string"}},
		"count": {"type": "integer"}, "ratio": {"type": "number"}, "all": {"type": "boolean"},
		"opts": {"type": "object"}, "grid": {"type": "array", "items": {"type": "array"}},
		"maybe": {"type": ["string", "null"]}, "either": {"type": ["integer", "boolean"]},
		"free": {}, "rows": {"type": "array", "items": {"type": "object"}}},
		"required": ["paths"]}`
	want := &schema.Tool{Name: "read_files", Closed: true, Params: map[string]schema.Type{
		"paths": {Kind: schema.Array, Items: schema.String},
		"count": {Kind: schema.Integer}, "ratio": {Kind: schema.Number}, "all": {Kind: schema.Boolean},
		"opts": {Kind: schema.JSON}, "grid": {Kind: schema.JSON},
		"maybe": {Kind: schema.String}, "either": {Kind: schema.JSON},
		"free": {Kind: schema.String}, "rows": {Kind: schema.Array, Items: schema.JSON},
	}}
	for _, form := range []string{
		`[{"name": "read_files", "description": "d", "input_schema": ` + props + `}]`,
		`[{"type": "function", "function": {"name": "read_files", "parameters": ` + props + `}}]`,
		`[{"type": "function", "name": "read_files", "parameters": ` + props + `}]`,
		`{"model": "m", "tools": [{"name": "read_files", "input_schema": ` + props + `}]}`,
	} {
		ts, err := schema.Parse([]byte(form))
		if err != nil {
			t.Fatalf("%s: %v", form, err)
		}
		if diff := cmp.Diff(want, ts.Tool([]byte("read_files"))); diff != "" {
			t.Errorf("%s: (-want +got):\n%s", form, diff)
		}
		if ts.Tool([]byte("other")) != nil {
			t.Errorf("a tool not defined has a schema")
		}
	}
}

// A schema is closed when it lists properties and allows no others; the
// near miss of a plural is found both ways.
func TestClosedAndNear(t *testing.T) {
	ts, err := schema.Parse([]byte(`[
		{"name": "a", "input_schema": {"properties": {"paths": {}, "file": {}}}},
		{"name": "b", "input_schema": {"properties": {"x": {}}, "additionalProperties": true}},
		{"name": "c", "input_schema": {"properties": {"x": {}}, "additionalProperties": {"type": "string"}}},
		{"name": "d", "input_schema": {"type": "object"}},
		{"name": "e"}]`))
	if err != nil {
		t.Fatal(err)
	}
	for name, closed := range map[string]bool{"a": true, "b": false, "c": false, "d": false, "e": false} {
		if got := ts.Tool([]byte(name)).Closed; got != closed {
			t.Errorf("%s: Closed %v, want %v", name, got, closed)
		}
	}
	a := ts.Tool([]byte("a"))
	if _, ok := a.Param([]byte("path")); ok {
		t.Errorf("a undeclared parameter of a closed schema is allowed")
	}
	if got := a.Near("path"); got != "paths" {
		t.Errorf("Near(path) = %q", got)
	}
	if got := a.Near("files"); got != "file" {
		t.Errorf("Near(files) = %q", got)
	}
	if got := a.Near("dir"); got != "" {
		t.Errorf("Near(dir) = %q", got)
	}
	var none *schema.Tool
	if typ, ok := none.Param([]byte("x")); !ok || typ.Kind != schema.String {
		t.Errorf("without a schema every parameter is a string")
	}
	if diff := cmp.Diff([]string{"a", "b", "c", "d", "e"}, ts.Names()); diff != "" {
		t.Errorf("Names: %s", diff)
	}
}

func TestParseErrors(t *testing.T) {
	for _, bad := range []string{
		``, `{}`, `3`, `[{"input_schema": {}}]`,
		`[{"name": "a"}, {"name": "a"}]`,
		`[{"name": "a", "input_schema": [1]}]`,
	} {
		if _, err := schema.Parse([]byte(bad)); err == nil {
			t.Errorf("Parse(%s): no error", bad)
		}
	}
}
