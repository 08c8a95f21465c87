package schema

import (
	"fmt"
	"sort"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Kind is the JSON type of a parameter's value, as its schema declares it.
type Kind uint8

// Kinds. String, the zero [Kind], is the type of a parameter without a schema.
const (
	String  Kind = iota // the text as it is
	Number              // a JSON number
	Integer             // a JSON number without fraction or exponent
	Boolean             // true or false
	Null                // null
	Array               // an array of Items
	JSON                // JSON text, parsed as such (objects, unions)
)

var kindNames = [...]string{String: "string", Number: "number", Integer: "integer",
	Boolean: "boolean", Null: "null", Array: "array", JSON: "JSON"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Type is a parameter's type: its Kind and, for an [Array], the Kind of its
// elements (never Array: an array of arrays is [JSON]).
type Type struct {
	Kind  Kind
	Items Kind
}

// Tool is the schema of one tool's parameters.
type Tool struct {
	// Name is the tool's name.
	Name string
	// Params holds the declared parameters' types.
	Params map[string]Type
	// Closed says a parameter not in Params is an error: the schema lists
	// properties and does not allow others.
	Closed bool
}

// Param returns the type of the named parameter and whether t may have it:
// a declared parameter, or any other if t is nil (no schema: a [String]) or
// not [Tool.Closed].
func (t *Tool) Param(name []byte) (Type, bool) {
	if t == nil {
		return Type{}, true
	}
	if p, ok := t.Params[string(name)]; ok {
		return p, true
	}
	return Type{}, !t.Closed
}

// Near returns a declared parameter that name was probably meant to be,
// name with an "s" added or removed ("path" for "paths"), or "".
func (t *Tool) Near(name string) string {
	if t == nil {
		return ""
	}
	if _, ok := t.Params[name+"s"]; ok {
		return name + "s"
	}
	if n := len(name); n > 1 && name[n-1] == 's' {
		if _, ok := t.Params[name[:n-1]]; ok {
			return name[:n-1]
		}
	}
	return ""
}

// Tools is the schemas of a set of tools, by name.
type Tools struct {
	tools map[string]*Tool
}

// Tool returns the schema of the named tool, or nil if the set has none
// (nil [Tools] included): its parameters are then all strings, any name
// allowed.
func (ts *Tools) Tool(name []byte) *Tool {
	if ts == nil {
		return nil
	}
	return ts.tools[string(name)]
}

// Names returns the tools' names, sorted.
func (ts *Tools) Names() []string {
	var names []string
	if ts != nil {
		for n := range ts.tools {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

// definition is a tool definition in any of the providers' forms.
type definition struct {
	Type        string         `json:"type"`
	Name        string         `json:"name"`
	InputSchema jsontext.Value `json:"input_schema"`
	Parameters  jsontext.Value `json:"parameters"`
	Function    *definition    `json:"function"`
}

// node is the part of a JSON Schema that [Parse] reads.
type node struct {
	Type                 jsontext.Value   `json:"type"`
	Properties           map[string]*node `json:"properties"`
	AdditionalProperties jsontext.Value   `json:"additionalProperties"`
	Items                *node            `json:"items"`
}

// Parse reads tool definitions: a JSON array of them, or an object with
// one under "tools" (see the package documentation). It returns an error
// for a definition without a name, a name given twice, or a schema that
// is not a JSON object where one is expected.
func Parse(data []byte) (*Tools, error) {
	var defs []definition
	if err := json.Unmarshal(data, &defs); err != nil {
		var body struct {
			Tools []definition `json:"tools"`
		}
		if err2 := json.Unmarshal(data, &body); err2 != nil || body.Tools == nil {
			return nil, fmt.Errorf("schema: want a JSON array of tool definitions, or an object with one in \"tools\": %w", err)
		}
		defs = body.Tools
	}
	ts := &Tools{tools: make(map[string]*Tool, len(defs))}
	for i, d := range defs {
		if d.Function != nil {
			d = *d.Function
		}
		if d.Name == "" {
			return nil, fmt.Errorf("schema: tool %d has no name", i)
		}
		if _, dup := ts.tools[d.Name]; dup {
			return nil, fmt.Errorf("schema: tool %q is defined twice", d.Name)
		}
		raw := d.InputSchema
		if raw == nil {
			raw = d.Parameters
		}
		t := &Tool{Name: d.Name, Params: map[string]Type{}}
		if raw != nil && string(raw) != "null" {
			var n node
			if err := json.Unmarshal(raw, &n); err != nil {
				return nil, fmt.Errorf("schema: tool %q: %w", d.Name, err)
			}
			for name, p := range n.Properties {
				t.Params[name] = typeOf(p)
			}
			open := n.AdditionalProperties
			t.Closed = n.Properties != nil && (open == nil || string(open) == "false")
		}
		ts.tools[d.Name] = t
	}
	return ts, nil
}

// typeOf returns the type a property's schema declares.
func typeOf(n *node) Type {
	k := kindOf(n)
	if k != Array {
		return Type{Kind: k}
	}
	items := String
	if n.Items != nil {
		items = kindOf(n.Items)
	}
	if items == Array {
		return Type{Kind: JSON} // an array of arrays is written as JSON
	}
	return Type{Kind: Array, Items: items}
}

// kindOf returns the [Kind] of a schema's "type": a name, or a list of names.
func kindOf(n *node) Kind {
	if n == nil || n.Type == nil {
		return String
	}
	var one string
	if json.Unmarshal(n.Type, &one) == nil {
		return kindNamed(one)
	}
	var many []string
	if json.Unmarshal(n.Type, &many) != nil {
		return String
	}
	switch len(many) {
	case 0:
		return String
	case 1:
		return kindNamed(many[0])
	}
	for _, m := range many {
		if m == "string" {
			return String
		}
	}
	return JSON
}

func kindNamed(name string) Kind {
	switch name {
	case "number":
		return Number
	case "integer":
		return Integer
	case "boolean":
		return Boolean
	case "null":
		return Null
	case "array":
		return Array
	case "object":
		return JSON
	}
	return String
}
