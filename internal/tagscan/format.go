package tagscan

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/argstream/argstream/internal/textargs"
)

// Format writes a call of the tool name with the JSON object args in syn,
// as the [Scanner] reads it back: written from the same [Syntax], the writer
// cannot drift from the reader. The [Syntax.Open] tags, each parameter and the
// [Syntax.Close] tags are each on a line of their own, as are a parameter's
// [Syntax.ParamNext] tags; a tag with a Name holds the tool's name, or the
// parameter's, and its first end, but a Param tag with [Syntax.Forms] the
// first end whose form is the value's (a string: textargs.Text; any other:
// JSONText). Its errors begin with pkg, the package whose Format it is.
func (syn *Syntax) Format(pkg, name string, args jsontext.Value) ([]byte, error) {
	if err := syn.CheckTool(name); err != nil {
		return nil, fmt.Errorf("%s: %w", pkg, err)
	}
	out := appendTags(nil, syn.Open, name)
	out = append(out, '\n')
	err := ParamsKind(args, syn.Repeat, func(key string, kind jsontext.Kind, text []byte) error {
		if err := syn.CheckParam(key, text); err != nil {
			return err
		}
		out = appendTagEnd(out, syn.Param, key, syn.endFor(kind))
		for _, t := range syn.ParamNext {
			out = appendTag(append(out, '\n'), t, key)
		}
		out = AppendValue(out, text, !syn.Raw && (syn.FrameAll || hasLineBreak(text)))
		out = append(appendTag(out, syn.EndParam, key), '\n')
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", pkg, err)
	}
	return appendTags(out, syn.Close, name), nil
}

// appendTags appends tags, one per line, each as appendTag writes it.
func appendTags(dst []byte, tags []Tag, name string) []byte {
	for i, t := range tags {
		if i > 0 {
			dst = append(dst, '\n')
		}
		dst = appendTag(dst, t, name)
	}
	return dst
}

// appendTag appends t, with name and its first end in it if it has a Name.
func appendTag(dst []byte, t Tag, name string) []byte { return appendTagEnd(dst, t, name, 0) }

// appendTagEnd appends t, with name and its end e in it if it has a Name.
func appendTagEnd(dst []byte, t Tag, name string, e int) []byte {
	dst = append(dst, t.Lit...)
	if t.Name == NoName {
		return dst
	}
	return append(append(dst, name...), t.ends()[e]...)
}

// endFor returns the end of the Param tag for a value of the JSON kind k:
// the first whose form is k's (see [Syntax.Format]).
func (syn *Syntax) endFor(k jsontext.Kind) int {
	form := textargs.Text
	if k != '"' {
		form = textargs.JSONText
	}
	for e, f := range syn.Forms {
		if f == form {
			return e
		}
	}
	return 0
}

func hasLineBreak(text []byte) bool {
	for _, c := range text {
		if c == '\n' || c == '\r' {
			return true
		}
	}
	return false
}

// Params calls f with each parameter of args, a JSON object, in order:
// its key and the text of its value. A string's text is its content;
// a number's, true's, false's and null's their JSON text; an object's its
// compact JSON text. An array is, with repeat, one call per element (each
// as above, an array element as compact JSON), and an empty array is an
// error, since it would vanish; without repeat, its compact JSON text.
// The text is f's during the call only.
func Params(args jsontext.Value, repeat bool, f func(key string, text []byte) error) error {
	return ParamsKind(args, repeat, func(key string, _ jsontext.Kind, text []byte) error { return f(key, text) })
}

// ParamsKind is [Params], which also tells f the JSON kind of each value
// ('"' for a string, '0' for a number...).
func ParamsKind(args jsontext.Value, repeat bool, f func(key string, kind jsontext.Kind, text []byte) error) error {
	dec := jsontext.NewDecoder(bytes.NewReader(args))
	tok, err := dec.ReadToken()
	if err != nil {
		return err
	}
	if tok.Kind() != '{' {
		return errors.New("the arguments are not a JSON object")
	}
	var buf []byte
	for dec.PeekKind() != '}' {
		tok, err := dec.ReadToken()
		if err != nil {
			return err
		}
		key := tok.String()
		v, err := dec.ReadValue()
		if err != nil {
			return err
		}
		if !repeat || v.Kind() != '[' {
			if buf, err = appendText(buf[:0], v); err != nil {
				return err
			}
			if err := f(key, v.Kind(), buf); err != nil {
				return err
			}
			continue
		}
		elems := jsontext.NewDecoder(bytes.NewReader(v))
		if _, err := elems.ReadToken(); err != nil {
			return err
		}
		if elems.PeekKind() == ']' {
			return errors.New("parameter " + strconv.Quote(key) + " is an empty array, which repeated tags cannot write")
		}
		for elems.PeekKind() != ']' {
			e, err := elems.ReadValue()
			if err != nil {
				return err
			}
			if buf, err = appendText(buf[:0], e); err != nil {
				return err
			}
			if err := f(key, e.Kind(), buf); err != nil {
				return err
			}
		}
	}
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return errors.New("data after the arguments object")
	}
	return nil
}

// appendText appends the text of the JSON value v (see [Params]) to dst.
func appendText(dst []byte, v jsontext.Value) ([]byte, error) {
	switch v.Kind() {
	case '"':
		return jsontext.AppendUnquote(dst, v)
	case '{', '[':
		n := len(dst)
		dst = append(dst, v...)
		w := jsontext.Value(dst[n:])
		if err := w.Compact(); err != nil {
			return dst, err
		}
		return append(dst[:n], w...), nil
	}
	return append(dst, v...), nil
}

// CheckParam returns an error if the parameter key, whose value is text,
// cannot be written in syn: a key that is not a name of syn.Param, or a
// value holding a complete [Syntax.EndParam] (with any name) or
// [Syntax.Reserved] tag, which would end it or break the call.
func (syn *Syntax) CheckParam(key string, text []byte) error {
	if !syn.Param.Name.Valid(key) {
		return errors.New("parameter name " + strconv.Quote(key) + " cannot be written in " + syn.Name +
			" (1 to " + strconv.Itoa(MaxName) + " of " + syn.Param.Name.set() + ")")
	}
	if at, k := Find(text, syn.inValue); at >= 0 {
		end := bytes.IndexByte(text[at:], '>') + 1
		if end == 0 || k > 0 && syn.inValue[k].Name == NoName {
			end = len(syn.inValue[k].Lit)
		}
		return errors.New("the value of parameter " + strconv.Quote(key) + " holds " +
			strconv.Quote(string(text[at:at+end])) + ", which " + syn.Name + " cannot carry in a value")
	}
	return nil
}

// CheckTool returns an error if name cannot be a tool's name in syn.
func (syn *Syntax) CheckTool(name string) error {
	for _, t := range syn.Open {
		if t.Name != NoName && !t.Name.Valid(name) {
			return errors.New("tool name " + strconv.Quote(name) + " cannot be written in " + syn.Name +
				" (1 to " + strconv.Itoa(MaxName) + " of " + t.Name.set() + ")")
		}
	}
	return nil
}

func (n Names) set() string {
	if n == Dotted {
		return "[A-Za-z0-9_.-]"
	}
	return "[A-Za-z0-9_-]"
}

// AppendValue appends a value's text to dst as it goes between its tags:
// framed by line breaks if frame, which the scanner drops (a "\r\n" after
// a text that ends in '\r', so that the '\r' stays the text's).
func AppendValue(dst, text []byte, frame bool) []byte {
	if !frame {
		return append(dst, text...)
	}
	dst = append(append(dst, '\n'), text...)
	if len(text) > 0 && text[len(text)-1] == '\r' {
		dst = append(dst, '\r')
	}
	return append(dst, '\n')
}
