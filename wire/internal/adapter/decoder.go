package adapter

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/go-json-experiment/json/jsontext"
)

// Decoder decodes one event's data at a time. Its zero value is ready to
// use; its errors say what is wrong and where (a JSON pointer into the
// data), and the adapter wraps them in its ErrMalformed.
type Decoder struct {
	// buf holds the data: jsontext parses a *bytes.Buffer in place, where
	// any other io.Reader is copied into a buffer of its own, as large as
	// the largest event.
	buf bytes.Buffer
	dec jsontext.Decoder
	key []byte
}

// Providers repeat no names, but nothing is gained by rejecting a data
// object that does: the adapters read the fields they know.
var decOpts = []jsontext.Options{jsontext.AllowDuplicateNames(true)}

// Reset readies d to read data, which must stay unchanged until the next
// Reset.
func (d *Decoder) Reset(data []byte) {
	d.buf = *bytes.NewBuffer(data)
	d.dec.Reset(&d.buf, decOpts...)
}

// Kind is the kind of the next value: '{', '[', '"', '0', 't', 'f', 'n',
// or 0 at the end or on an error.
func (d *Decoder) Kind() jsontext.Kind { return d.dec.PeekKind() }

// Root reads the whole data as one JSON object, calling field for each of
// its names, and then checks that nothing but white space follows.
func (d *Decoder) Root(field func(key []byte) error) error {
	if d.dec.PeekKind() != '{' {
		if _, err := d.dec.ReadToken(); err != nil {
			return err
		}
		return errors.New("not a JSON object")
	}
	if err := d.Object(field); err != nil {
		return err
	}
	if _, err := d.dec.ReadToken(); err != io.EOF {
		if err == nil {
			return errors.New("bytes after the JSON object")
		}
		return err
	}
	return nil
}

// Object reads an object value, calling field for each of its names; field
// must read or skip the name's value. The name is decoded, and borrowed
// until field returns. A null is taken as an empty object; any other kind
// is an error.
func (d *Decoder) Object(field func(key []byte) error) error {
	switch d.dec.PeekKind() {
	case 'n':
		return d.dec.SkipValue()
	case '{':
	default:
		return d.wrongKind("an object")
	}
	if _, err := d.dec.ReadToken(); err != nil {
		return err
	}
	for {
		if d.dec.PeekKind() == '}' {
			_, err := d.dec.ReadToken()
			return err
		}
		v, err := d.dec.ReadValue()
		if err != nil {
			return err
		}
		if d.key, err = jsontext.AppendUnquote(d.key[:0], v); err != nil {
			return err
		}
		if err := field(d.key); err != nil {
			return err
		}
	}
}

// Array reads an array value, calling elem for each element, with its
// position; elem must read or skip the element. A null is taken as an empty
// array; any other kind is an error.
func (d *Decoder) Array(elem func(i int) error) error {
	switch d.dec.PeekKind() {
	case 'n':
		return d.dec.SkipValue()
	case '[':
	default:
		return d.wrongKind("an array")
	}
	if _, err := d.dec.ReadToken(); err != nil {
		return err
	}
	for i := 0; ; i++ {
		if d.dec.PeekKind() == ']' {
			_, err := d.dec.ReadToken()
			return err
		}
		if err := elem(i); err != nil {
			return err
		}
	}
}

func (d *Decoder) wrongKind(want string) error {
	if err := d.dec.SkipValue(); err != nil {
		return err
	}
	return fmt.Errorf("%s is not %s", d.dec.StackPointer(), want)
}

// String reads a string value, decoded and appended to dst[:0]. Any other
// kind, null included, is an error.
func (d *Decoder) String(dst []byte) ([]byte, error) {
	dst, ok, err := d.NullableString(dst)
	if err == nil && !ok {
		return dst, fmt.Errorf("%s is null, not a string", d.dec.StackPointer())
	}
	return dst, err
}

// NullableString reads a string value as String does, or a null, for which
// it returns dst[:0] and ok false.
func (d *Decoder) NullableString(dst []byte) (_ []byte, ok bool, err error) {
	dst = dst[:0]
	if d.dec.PeekKind() == 'n' {
		return dst, false, d.dec.SkipValue()
	}
	v, err := d.dec.ReadValue()
	if err != nil {
		return dst, false, err
	}
	if v.Kind() != '"' {
		return dst, false, fmt.Errorf("%s is not a string", d.dec.StackPointer())
	}
	dst, err = jsontext.AppendUnquote(dst, v)
	return dst, err == nil, err
}

// Index reads an integer from 0 to the largest int64, written in plain
// digits (no sign, fraction or exponent).
func (d *Decoder) Index() (int64, error) {
	v, err := d.dec.ReadValue()
	if err != nil {
		return 0, err
	}
	bad := func() (int64, error) {
		return 0, fmt.Errorf("%s is %s, not an integer from 0", d.dec.StackPointer(), v)
	}
	if v.Kind() != '0' || len(v) == 0 {
		return bad()
	}
	var n int64
	for _, c := range v {
		if c < '0' || c > '9' {
			return bad()
		}
		digit := int64(c - '0')
		if n > (1<<63-1-digit)/10 {
			return bad()
		}
		n = n*10 + digit
	}
	return n, nil
}

// Value reads any value and returns its JSON text, borrowed until the next
// call of d.
func (d *Decoder) Value() (jsontext.Value, error) {
	v, err := d.dec.ReadValue()
	return v, err
}

// Skip skips a value.
func (d *Decoder) Skip() error { return d.dec.SkipValue() }
