package adapter

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/argstream/argstream/internal/keyfold"
	"github.com/go-json-experiment/json/jsontext"
)

// Decoder decodes one event's data at a time. Its zero value is ready to
// use; its errors say what is wrong and where (a JSON pointer into the
// data), and the adapter wraps them in wire.ErrMalformed.
type Decoder struct {
	// buf holds the data: jsontext parses a *bytes.Buffer in place, where
	// any other io.Reader is copied into a buffer of its own, as large as
	// the largest event.
	buf  bytes.Buffer
	dec  jsontext.Decoder
	key  []byte
	keys keyfold.Set // the names of the objects being read with Object
}

// Names are the member names an object has for an adapter: the ones it
// reads. A name that differs from one of them only in case is refused (see
// Object).
type Names []string

// Reset readies d to read data, which must stay unchanged until the next
// Reset.
//
// The data must be a JSON text every reader reads the same way: jsontext
// rejects invalid UTF-8, lone surrogates and repeated member names
// anywhere in it (the official Go SDKs take the first of two "partial_json"
// members, the Python and JavaScript ones the last).
func (d *Decoder) Reset(data []byte) {
	d.buf = *bytes.NewBuffer(data)
	d.dec.Reset(&d.buf)
	d.keys.Reset()
}

// Kind is the kind of the next value: '{', '[', '"', '0', 't', 'f', 'n',
// or 0 at the end or on an error.
func (d *Decoder) Kind() jsontext.Kind { return d.dec.PeekKind() }

// Root reads the whole data as one JSON object, calling field for each of
// its names, and then checks that nothing but white space follows.
func (d *Decoder) Root(known Names, field func(key []byte) error) error {
	if d.dec.PeekKind() != '{' {
		if _, err := d.dec.ReadToken(); err != nil {
			return err
		}
		return errors.New("not a JSON object")
	}
	if err := d.Object(known, field); err != nil {
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
//
// [Names] that readers could match differently are errors: a name written
// with an escape (a reader that compares raw names would not see
// "partial\u005fjson" as partial_json), two names equal under case folding
// (Go's encoding/json v1 matches member names to fields so), and a name
// equal under case folding to one of known without being it ("Partial_JSON"
// is partial_json to encoding/json v1, and unknown to the others).
func (d *Decoder) Object(known Names, field func(key []byte) error) error {
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
	d.keys.Open()
	defer d.keys.Close()
	for {
		if d.dec.PeekKind() == '}' {
			_, err := d.dec.ReadToken()
			return err
		}
		v, err := d.dec.ReadValue()
		if err != nil {
			return err
		}
		if bytes.IndexByte(v, '\\') >= 0 {
			return fmt.Errorf("%s: member name %s is written with an escape", d.dec.StackPointer().Parent(), v)
		}
		d.key = append(d.key[:0], v[1:len(v)-1]...)
		if err := d.checkName(known); err != nil {
			return err
		}
		if err := field(d.key); err != nil {
			return err
		}
	}
}

// checkName checks d.key, a member name of the innermost object of
// [Decoder.Object].
func (d *Decoder) checkName(known Names) error {
	if earlier, ok := d.keys.Add(d.key); !ok {
		return fmt.Errorf("%s: member names %q and %q are equal under case folding", d.dec.StackPointer().Parent(), earlier, d.key)
	}
	for _, name := range known {
		if len(name) == len(d.key) && string(d.key) == name {
			return nil
		}
	}
	for _, name := range known {
		if bytes.EqualFold(d.key, []byte(name)) {
			return fmt.Errorf("%s: member name %q is %q in another case", d.dec.StackPointer().Parent(), d.key, name)
		}
	}
	return nil
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

// NullableString reads a string value as [Decoder.String] does, or a null,
// for which it returns dst[:0] and ok false.
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

// MaxIndex is the largest index an event may give: 2⁵³−1, the largest
// integer every reader holds exactly (JavaScript's numbers, and decoders
// that go through float64, round larger ones to another index).
const MaxIndex = 1<<53 - 1

// Index reads an integer from 0 to [MaxIndex], written in plain digits (no
// sign, fraction or exponent).
func (d *Decoder) Index() (int64, error) {
	v, err := d.dec.ReadValue()
	if err != nil {
		return 0, err
	}
	bad := func() (int64, error) {
		return 0, fmt.Errorf("%s is %s, not an integer from 0 to 2^53-1", d.dec.StackPointer(), v)
	}
	if v.Kind() != '0' || len(v) == 0 {
		return bad()
	}
	var n int64
	for _, c := range v {
		if c < '0' || c > '9' {
			return bad()
		}
		if n = n*10 + int64(c-'0'); n > MaxIndex {
			return bad()
		}
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
