package differ

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// Kind is the kind of a Node.
type Kind uint8

const (
	Object Kind = iota
	Array
	String
	Number  // Raw is its text
	Literal // Raw is true, false or null
)

// Node is a JSON value whose objects keep their members in order,
// repeated names included, so that a mutation can write any envelope a
// hostile or sloppy server might: repeated members, names that differ only
// in case, escapes in names.
type Node struct {
	Kind    Kind
	Members []Member // Object
	Elems   []*Node  // Array
	Str     string   // String: the decoded value
	Raw     string   // Number, Literal; for a String or a name, the exact text to write if not ""
}

// Member is one member of an object. RawName, if not "", is written in
// place of Name quoted (a name with escapes).
type Member struct {
	Name    string
	RawName string
	Value   *Node
}

// Obj, Arr, Str, Num, Null, Bool and M build Nodes.
func Obj(ms ...Member) *Node        { return &Node{Kind: Object, Members: ms} }
func Arr(es ...*Node) *Node         { return &Node{Kind: Array, Elems: append([]*Node{}, es...)} }
func Str(s string) *Node            { return &Node{Kind: String, Str: s} }
func Num(n int64) *Node             { return &Node{Kind: Number, Raw: fmt.Sprint(n)} }
func Null() *Node                   { return &Node{Kind: Literal, Raw: "null"} }
func Bool(b bool) *Node             { return &Node{Kind: Literal, Raw: fmt.Sprint(b)} }
func M(name string, v *Node) Member { return Member{Name: name, Value: v} }

// Get returns the value of the first member named name, or nil.
func (n *Node) Get(name string) *Node {
	if n == nil || n.Kind != Object {
		return nil
	}
	for _, m := range n.Members {
		if m.Name == name {
			return m.Value
		}
	}
	return nil
}

// Set sets the value of the first member named name, or appends one.
func (n *Node) Set(name string, v *Node) {
	for i := range n.Members {
		if n.Members[i].Name == name {
			n.Members[i].Value = v
			return
		}
	}
	n.Members = append(n.Members, M(name, v))
}

// Delete removes every member named name.
func (n *Node) Delete(name string) {
	ms := n.Members[:0]
	for _, m := range n.Members {
		if m.Name != name {
			ms = append(ms, m)
		}
	}
	n.Members = ms
}

// String returns the string value of a String node, "" otherwise.
func (n *Node) String() string {
	if n == nil || n.Kind != String {
		return ""
	}
	return n.Str
}

// Clone returns a deep copy of n.
func (n *Node) Clone() *Node {
	if n == nil {
		return nil
	}
	c := *n
	if n.Members != nil {
		c.Members = make([]Member, len(n.Members))
		for i, m := range n.Members {
			c.Members[i] = Member{Name: m.Name, RawName: m.RawName, Value: m.Value.Clone()}
		}
	}
	if n.Elems != nil {
		c.Elems = make([]*Node, len(n.Elems))
		for i, e := range n.Elems {
			c.Elems[i] = e.Clone()
		}
	}
	return &c
}

// Style is how a Node is written.
type Style struct {
	Space   bool // a space after each colon and comma
	Newline bool // a newline after each comma (the data then takes several data lines)
}

// JSON returns n written in style st.
func (n *Node) JSON(st Style) string {
	var b strings.Builder
	n.write(&b, st)
	return b.String()
}

func (n *Node) write(b *strings.Builder, st Style) {
	sep := func() {
		b.WriteByte(',')
		if st.Newline {
			b.WriteByte('\n')
		} else if st.Space {
			b.WriteByte(' ')
		}
	}
	switch n.Kind {
	case Object:
		b.WriteByte('{')
		for i, m := range n.Members {
			if i > 0 {
				sep()
			}
			if m.RawName != "" {
				b.WriteString(m.RawName)
			} else {
				b.WriteString(Quote(m.Name))
			}
			b.WriteByte(':')
			if st.Space {
				b.WriteByte(' ')
			}
			m.Value.write(b, st)
		}
		b.WriteByte('}')
	case Array:
		b.WriteByte('[')
		for i, e := range n.Elems {
			if i > 0 {
				sep()
			}
			e.write(b, st)
		}
		b.WriteByte(']')
	case String:
		if n.Raw != "" {
			b.WriteString(n.Raw)
		} else {
			b.WriteString(Quote(n.Str))
		}
	default:
		b.WriteString(n.Raw)
	}
}

// Quote returns s as a JSON string, escaping only what JSON requires (no
// HTML escapes), as the providers write.
func Quote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		panic(err) // a string always encodes
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// EscapeAll returns s as a JSON string with every character \u-escaped, a
// name or value any conforming reader decodes to s.
func EscapeAll(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		if r > 0xFFFF {
			r1, r2 := utf16Pair(r)
			fmt.Fprintf(&b, `\u%04x\u%04x`, r1, r2)
			continue
		}
		fmt.Fprintf(&b, `\u%04x`, r)
	}
	b.WriteByte('"')
	return b.String()
}

func utf16Pair(r rune) (rune, rune) {
	r -= 0x10000
	return 0xD800 + (r>>10)&0x3FF, 0xDC00 + r&0x3FF
}

// Parse reads one JSON value, keeping its objects' members in order and
// their repeated names.
func Parse(data []byte) (*Node, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	n, err := parseValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("differ: data after the JSON value")
	}
	return n, nil
}

func parseValue(dec *json.Decoder) (*Node, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			n := Obj()
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := parseValue(dec)
				if err != nil {
					return nil, err
				}
				n.Members = append(n.Members, M(k.(string), v))
			}
			_, err := dec.Token()
			return n, err
		case '[':
			n := Arr()
			for dec.More() {
				v, err := parseValue(dec)
				if err != nil {
					return nil, err
				}
				n.Elems = append(n.Elems, v)
			}
			_, err := dec.Token()
			return n, err
		}
	case string:
		if !utf8.ValidString(t) {
			return nil, errors.New("differ: invalid UTF-8")
		}
		return Str(t), nil
	case json.Number:
		return &Node{Kind: Number, Raw: string(t)}, nil
	case bool:
		return Bool(t), nil
	case nil:
		return Null(), nil
	}
	return nil, fmt.Errorf("differ: unexpected token %v", tok)
}

// Walk calls fn for n and each value within it, depth first, with its
// path (".name" and "[i]" steps).
func (n *Node) Walk(fn func(path string, v *Node)) {
	n.walk("", fn)
}

func (n *Node) walk(path string, fn func(string, *Node)) {
	fn(path, n)
	switch n.Kind {
	case Object:
		for _, m := range n.Members {
			m.Value.walk(path+"."+m.Name, fn)
		}
	case Array:
		for i, e := range n.Elems {
			e.walk(fmt.Sprintf("%s[%d]", path, i), fn)
		}
	}
}

// RawJSON returns a node written as text, as it is: JSON in a layout the
// other constructors do not write ("{ }"), or not JSON at all.
func RawJSON(text string) *Node { return &Node{Kind: Literal, Raw: text} }

// Items returns the elements of an array, nil for any other node.
func (n *Node) Items() []*Node {
	if n == nil || n.Kind != Array {
		return nil
	}
	return n.Elems
}
