package caret

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// Format writes the arguments args, a JSON object, as a caret block calling
// the tool name, the way [New] and [Typed] read it back:
//
//   - a string without a line break: "key: value" ("key:" for ""); the
//     string "[" is written as a multi-line value, since "key: [" begins
//     a list;
//   - a string with a line break: "key ---", its lines, "--- key";
//   - a number, true, false, null: its JSON text, "key: 3";
//   - an array whose elements are not arrays: a list, "key: [", one element
//     per line (a string as it is, anything else as compact JSON text), "]";
//     the empty array is "key: [" then "]";
//   - an object, or an array with an array in it: compact JSON text on one
//     line.
//
// Without a schema, the tokenizer reads back every value as a string; with
// one that declares each parameter's type (Typed), the same JSON arguments.
// Keys equal under case folding are written as they are: the tokenizer
// rejects them unless given token.WithConfusableKeys(true).
//
// Format returns an error, naming the key, for what a caret block cannot
// carry: arguments that are not one JSON object; a tool name or key that is
// empty, longer than 128 bytes or has a byte outside [A-Za-z0-9_-] (keys:
// [A-Za-z0-9_.-]); a string that ends with "\r" (the line end after it
// would take the "\r"); a multi-line string with a line "--- key" (its own
// end marker; "--- key\r" too); a list element that is the empty string,
// has a line break, ends with "\r", is "]" or begins with "] ", "]\t" or
// "^^^".
func Format(name string, args jsontext.Value) ([]byte, error) {
	if err := checkName(name, maxName, isName); err != nil {
		return nil, fmt.Errorf("caret: tool name %q: %v", name, err)
	}
	dec := jsontext.NewDecoder(bytes.NewReader(args))
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return nil, errors.New("caret: the arguments are not a JSON object")
	}
	out := append(append([]byte("^^^"), name...), '\n')
	for dec.PeekKind() != '}' {
		tok, err := dec.ReadToken()
		if err != nil {
			return nil, fmt.Errorf("caret: %v", err)
		}
		key := tok.String()
		if err := checkName(key, maxKey, isKey); err != nil {
			return nil, fmt.Errorf("caret: key %q: %v", key, err)
		}
		v, err := dec.ReadValue()
		if err != nil {
			return nil, fmt.Errorf("caret: %v", err)
		}
		if out, err = appendParam(out, key, v); err != nil {
			return nil, fmt.Errorf("caret: key %q: %v", key, err)
		}
	}
	if _, err := dec.ReadToken(); err != nil {
		return nil, fmt.Errorf("caret: %v", err)
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return nil, errors.New("caret: data after the arguments' JSON object")
	}
	return append(out, "^^^\n"...), nil
}

// appendParam appends the parameter key of value v.
func appendParam(out []byte, key string, v jsontext.Value) ([]byte, error) {
	switch v.Kind() {
	case '"':
		s, err := jsontext.AppendUnquote(nil, v)
		if err != nil {
			return nil, err
		}
		return appendString(out, key, string(s))
	case '[':
		if hasArray(v) {
			return appendLine(out, key, compact(v)), nil
		}
		return appendList(out, key, v)
	case '{':
		return appendLine(out, key, compact(v)), nil
	}
	return appendLine(out, key, v), nil // a number, true, false, null
}

func appendLine(out []byte, key string, text []byte) []byte {
	out = append(append(out, key...), ':')
	if len(text) > 0 {
		out = append(append(out, ' '), text...)
	}
	return append(out, '\n')
}

func appendString(out []byte, key, s string) ([]byte, error) {
	if strings.HasSuffix(s, "\r") {
		return nil, errors.New("the value ends with \"\\r\", which a line end after it would take")
	}
	if !strings.Contains(s, "\n") && s != "[" {
		return appendLine(out, key, []byte(s)), nil
	}
	marker := "--- " + key
	for line := range strings.SplitSeq(s, "\n") {
		if line == marker || line == marker+"\r" {
			return nil, fmt.Errorf("a line of the value is its end marker %q", marker)
		}
	}
	out = append(append(out, key...), " ---\n"...)
	out = append(append(out, s...), '\n')
	return append(append(out, marker...), '\n'), nil
}

func appendList(out []byte, key string, v jsontext.Value) ([]byte, error) {
	out = append(append(out, key...), ": [\n"...)
	dec := jsontext.NewDecoder(bytes.NewReader(v))
	if _, err := dec.ReadToken(); err != nil {
		return nil, err
	}
	for i := 0; dec.PeekKind() != ']'; i++ {
		e, err := dec.ReadValue()
		if err != nil {
			return nil, err
		}
		if e.Kind() != '"' {
			out = append(append(out, compact(e)...), '\n')
			continue
		}
		s, err := jsontext.AppendUnquote(nil, e)
		if err != nil {
			return nil, err
		}
		if err := checkElement(s); err != nil {
			return nil, fmt.Errorf("element %d: %v", i, err)
		}
		out = append(append(out, s...), '\n')
	}
	return append(out, "]\n"...), nil
}

func checkElement(s []byte) error {
	switch {
	case len(s) == 0:
		return errors.New("empty (an empty line in a list is skipped)")
	case bytes.ContainsAny(s, "\n"):
		return errors.New("a line break in a list element")
	case s[len(s)-1] == '\r':
		return errors.New("ends with \"\\r\", which the line end after it would take")
	case string(s) == "]", bytes.HasPrefix(s, []byte("] ")), bytes.HasPrefix(s, []byte("]\t")):
		return fmt.Errorf("%q would end the list", s)
	case bytes.HasPrefix(s, []byte("^^^")):
		return errors.New("begins with \"^^^\", a fence")
	}
	return nil
}

// hasArray reports whether the array v has an array among its elements.
func hasArray(v jsontext.Value) bool {
	dec := jsontext.NewDecoder(bytes.NewReader(v))
	dec.ReadToken()
	for dec.PeekKind() != ']' && dec.PeekKind() != 0 {
		if dec.PeekKind() == '[' {
			return true
		}
		if dec.SkipValue() != nil {
			return false
		}
	}
	return false
}

func compact(v jsontext.Value) []byte {
	c := v.Clone()
	c.Compact()
	return c
}

func checkName(s string, most int, ok func(byte) bool) error {
	if s == "" {
		return errors.New("empty")
	}
	if len(s) > most {
		return fmt.Errorf("longer than %d bytes", most)
	}
	for i := 0; i < len(s); i++ {
		if !ok(s[i]) {
			return fmt.Errorf("invalid character %s", quoteByte(s[i]))
		}
	}
	return nil
}
