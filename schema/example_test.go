package schema_test

import (
	"fmt"

	"github.com/argstream/argstream/schema"
)

// The tool definitions a caller sends to Anthropic say which parameters of
// read_files are not strings.
func ExampleParse() {
	tools, err := schema.Parse([]byte(`[{"name": "read_files", "input_schema": {
		"type": "object",
		"properties": {"paths": {"type": "array", "items": {"type": "string"}}, "limit": {"type": "integer"}}}}]`))
	if err != nil {
		panic(err)
	}
	t := tools.Tool([]byte("read_files"))
	for _, p := range []string{"paths", "limit", "path"} {
		typ, ok := t.Param([]byte(p))
		fmt.Printf("%s: %v %v allowed=%v %q\n", p, typ.Kind, typ.Items, ok, t.Near(p))
	}
	// Output:
	// paths: array string allowed=true ""
	// limit: integer string allowed=true ""
	// path: string string allowed=false "paths"
}
