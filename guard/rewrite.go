package guard

import (
	"bytes"
	"io"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"
)

// rewrite copies the JSON text data, handing to fn each value whose pointer
// want selects (the value whole, borrowed until fn returns); fn returns the
// value to write in its place, or keep false to leave it out (an array
// element, or an object member with its name). The values want does not
// select are copied token by token; the result is compact. A value fn
// rewrites is not looked into further.
//
// It is for the few events a gateway rewrites (a blocked call's, a stop
// reason): the rest are forwarded as they came.
func rewrite(data []byte, want func(p jsontext.Pointer) bool, fn func(p jsontext.Pointer, v jsontext.Value) (out jsontext.Value, keep bool)) ([]byte, error) {
	dec := jsontext.NewDecoder(bytes.NewReader(data))
	var buf bytes.Buffer
	enc := jsontext.NewEncoder(&buf)
	type level struct {
		array bool
		n     int // the next element's index
	}
	var stack []level
	ptr := jsontext.Pointer("")
	var lens []int // len(ptr) at each level
	for {
		// The pointer of the value that comes next, if a value comes.
		kind := dec.PeekKind()
		if kind == 0 {
			if _, err := dec.ReadToken(); err != io.EOF {
				return nil, err
			}
			break
		}
		if kind == ']' || kind == '}' {
			tok, err := dec.ReadToken()
			if err != nil {
				return nil, err
			}
			if err := enc.WriteToken(tok); err != nil {
				return nil, err
			}
			stack = stack[:len(stack)-1]
			ptr = ptr[:lens[len(lens)-1]]
			lens = lens[:len(lens)-1]
			continue
		}
		var name jsontext.Token
		here := ptr
		if n := len(stack); n > 0 {
			top := &stack[n-1]
			if top.array {
				here = ptr.AppendToken(strconv.Itoa(top.n))
				top.n++
			} else {
				tok, err := dec.ReadToken()
				if err != nil {
					return nil, err
				}
				name = tok.Clone()
				here = ptr.AppendToken(tok.String())
				kind = dec.PeekKind()
			}
		}
		if want(here) {
			v, err := dec.ReadValue()
			if err != nil {
				return nil, err
			}
			out, keep := fn(here, v)
			if !keep {
				continue
			}
			if name.Kind() != 0 {
				if err := enc.WriteToken(name); err != nil {
					return nil, err
				}
			}
			if err := enc.WriteValue(out); err != nil {
				return nil, err
			}
			continue
		}
		if name.Kind() != 0 {
			if err := enc.WriteToken(name); err != nil {
				return nil, err
			}
		}
		if kind == '[' || kind == '{' {
			tok, err := dec.ReadToken()
			if err != nil {
				return nil, err
			}
			if err := enc.WriteToken(tok); err != nil {
				return nil, err
			}
			stack = append(stack, level{array: kind == '['})
			lens = append(lens, len(ptr))
			ptr = here
			continue
		}
		v, err := dec.ReadValue()
		if err != nil {
			return nil, err
		}
		if err := enc.WriteValue(v); err != nil {
			return nil, err
		}
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
