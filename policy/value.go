package policy

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/go-json-experiment/json/jsontext"
)

// value is a decoded JSON value that keeps numbers exact, so that const,
// enum and the bounds compare what the tool will read rather than a float64
// rounding of it.
type value struct {
	kind  jsontext.Kind // 'n', 'f', 't', '"', '0', '{' or '['
	str   string        // a string's content
	num   decimal       // a number's value
	long  bool          // a number's text is longer than strconvExact: tools may misread it
	keys  []string      // an object's member names, in order
	items []value       // an array's elements, or an object's member values
}

// parseValue decodes one JSON value.
func parseValue(text []byte) (value, error) {
	var p parser
	return p.parse(text)
}

// parser decodes JSON values with a decoder it keeps, so that an [Evaluator],
// which decodes every value a rule's pointer reaches, does not make a new
// one (a few KB) for each. The zero parser is ready.
type parser struct {
	rd  bytes.Reader
	dec *jsontext.Decoder
}

// parse decodes one JSON value.
func (p *parser) parse(text []byte) (value, error) {
	p.rd.Reset(text)
	if p.dec == nil {
		p.dec = jsontext.NewDecoder(&p.rd)
	} else {
		p.dec.Reset(&p.rd)
	}
	v, err := readValue(p.dec)
	if err != nil {
		return value{}, err
	}
	if _, err := p.dec.ReadToken(); err != io.EOF {
		return value{}, errors.New("more than one JSON value")
	}
	return v, nil
}

func readValue(d *jsontext.Decoder) (value, error) {
	tok, err := d.ReadToken()
	if err != nil {
		return value{}, err
	}
	v := value{kind: tok.Kind()}
	switch v.kind {
	case '"':
		v.str = tok.String()
	case '0':
		text := tok.String() // a copy: read it once
		var ok bool
		if v.num, ok = parseDecimal(text); !ok {
			return value{}, fmt.Errorf("bad number %s", text)
		}
		v.long = len(text) > strconvExact
	case '{':
		for d.PeekKind() != '}' {
			name, err := d.ReadToken()
			if err != nil {
				return value{}, err
			}
			v.keys = append(v.keys, name.String()) // before the next read voids name
			item, err := readValue(d)
			if err != nil {
				return value{}, err
			}
			v.items = append(v.items, item)
		}
		if _, err := d.ReadToken(); err != nil {
			return value{}, err
		}
	case '[':
		for d.PeekKind() != ']' {
			item, err := readValue(d)
			if err != nil {
				return value{}, err
			}
			v.items = append(v.items, item)
		}
		if _, err := d.ReadToken(); err != nil {
			return value{}, err
		}
	}
	return v, nil
}

// equal reports whether v and w are the same JSON value: same kind, strings
// equal code point for code point, numbers equal as exact decimals (1, 1.0
// and 10e-1 are equal), arrays equal element by element, objects with the
// same members whatever their order.
func (v *value) equal(w *value) bool {
	if v.kind != w.kind {
		return false
	}
	switch v.kind {
	case '"':
		return v.str == w.str
	case '0':
		return v.num.cmp(w.num) == 0
	case '[':
		if len(v.items) != len(w.items) {
			return false
		}
		for i := range v.items {
			if !v.items[i].equal(&w.items[i]) {
				return false
			}
		}
	case '{':
		if len(v.items) != len(w.items) {
			return false
		}
		// Member names are unique (the tokenizer and jsontext reject
		// duplicates), so equal sizes and every member found is equality.
		for i, k := range v.keys {
			j := slices.Index(w.keys, k)
			if j < 0 || !v.items[i].equal(&w.items[j]) {
				return false
			}
		}
	}
	return true
}

// describe names v's type and, for a scalar, v itself, for error messages.
func (v *value) describe(text []byte) string {
	switch v.kind {
	case '"':
		return "string " + string(text)
	case '0':
		return "number " + string(text)
	case '{':
		return "an object"
	case '[':
		return "an array"
	}
	return string(text)
}
