package fragment

import (
	"strconv"

	"github.com/go-json-experiment/json/jsontext"
)

// String returns f in RFD 043's notation (docs/design.md, "The fragment
// protocol"), on one line:
//
//	ObjectEntry { key: "path", value: String("/tmp/foo.rs") }
//
// Strings are quoted as Go quotes them ([strconv.Quote]), which agrees with the
// RFD's Rust notation on every example it gives.
func (f *Fragment) String() string {
	b, _ := f.AppendText(nil)
	return string(b)
}

// AppendText appends f in RFD 043's notation (see [Fragment.String]). It
// implements [encoding.TextAppender] and never fails.
func (f *Fragment) AppendText(b []byte) ([]byte, error) {
	for _, s := range f.Path {
		if s.IsIndex() {
			b = append(b, "ArrayItem { index: "...)
			b = strconv.AppendInt(b, int64(s.Index), 10)
		} else {
			b = append(b, "ObjectEntry { key: "...)
			b = strconv.AppendQuote(b, string(s.Key))
		}
		b = append(b, ", value: "...)
	}
	switch f.Kind {
	case Null:
		b = append(b, "Scalar(Null)"...)
	case False:
		b = append(b, "Scalar(Bool(false))"...)
	case True:
		b = append(b, "Scalar(Bool(true))"...)
	case Number:
		b = append(b, "Scalar(Number("...)
		b = append(b, f.Text...)
		b = append(b, "))"...)
	case String:
		b = append(b, "String("...)
		b = strconv.AppendQuote(b, string(f.Text))
		b = append(b, ')')
	case Done:
		b = append(b, "Done"...)
		if f.Empty != NotEmpty {
			b = append(b, '(')
			b = append(b, f.Empty.JSON()...)
			b = append(b, ')')
		}
	default:
		b = append(b, f.Kind.String()...)
	}
	for range f.Path {
		b = append(b, " }"...)
	}
	return b, nil
}

// AppendJSON appends f as one JSON object, the JSON Lines form:
//
//	{"path":["patterns",0,"old"],"string":"lo"}
//
// Keys are JSON strings and indexes JSON numbers in "path". The leaf is one
// of "string" (the piece), "number" (the exact text, as a string), "bool",
// "null":true, or "done":true, which for an empty value adds "empty" with the
// empty value itself. It fails only on text that is not valid UTF-8, which the
// tokenizers never produce.
func (f *Fragment) AppendJSON(b []byte) ([]byte, error) {
	var err error
	b = append(b, `{"path":[`...)
	for i, s := range f.Path {
		if i > 0 {
			b = append(b, ',')
		}
		if s.IsIndex() {
			b = strconv.AppendInt(b, int64(s.Index), 10)
		} else if b, err = jsontext.AppendQuote(b, s.Key); err != nil {
			return b, err
		}
	}
	b = append(b, "],"...)
	switch f.Kind {
	case Null:
		b = append(b, `"null":true`...)
	case False:
		b = append(b, `"bool":false`...)
	case True:
		b = append(b, `"bool":true`...)
	case Number:
		b = append(b, `"number":`...)
		b, err = jsontext.AppendQuote(b, f.Text)
	case String:
		b = append(b, `"string":`...)
		b, err = jsontext.AppendQuote(b, f.Text)
	default:
		b = append(b, `"done":true`...)
		if f.Empty != NotEmpty {
			b = append(b, `,"empty":`...)
			b = append(b, f.Empty.JSON()...)
		}
	}
	return append(b, '}'), err
}
