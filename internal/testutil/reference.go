package testutil

import (
	"bytes"
	"errors"
	"io"
	"strings"

	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/token"
	"github.com/go-json-experiment/json/jsontext"
)

// Valid reports whether data is one JSON value as argstream accepts it by
// default: according to jsontext, RFC 8259, valid UTF-8, no duplicate keys,
// no lone surrogate escapes, nothing after the value; and no key that a tool
// runtime would confuse (see [ConfusableKey]).
func Valid(data []byte) bool {
	return jsontext.Value(data).IsValid() && ConfusableKey(data) == nil
}

// KeyError is where [ConfusableKey] finds a key that argstream rejects.
type KeyError struct {
	Cat     error            // token.ErrCaseFoldedKey or token.ErrNULInKey
	Offset  int64            // of the key's opening quote
	Pointer jsontext.Pointer // of the member the key names
}

// ConfusableKey returns the first object key of data, in the order of the
// text, that holds U+0000 or that is equal under [strings.EqualFold] (but not
// exactly) to an earlier key of its object; or nil if there is none, or if
// jsontext cannot read data that far. It is the reference for the checks of
// [token.ErrNULInKey] and [token.ErrCaseFoldedKey], written apart from them:
// jsontext reads the document, and each key is compared with every earlier
// key of its object.
func ConfusableKey(data []byte) *KeyError {
	dec := jsontext.NewDecoder(bytes.NewReader(data))
	var open [][]string // the keys of every open array (none) and object
	for {
		kind, n := dec.StackIndex(dec.StackDepth())
		if kind == '{' && n%2 == 0 && dec.PeekKind() == '"' {
			raw, err := dec.ReadValue()
			if err != nil {
				return nil
			}
			name, err := jsontext.AppendUnquote(nil, raw)
			if err != nil {
				return nil
			}
			key := string(name)
			// The pointer is built only for the key returned: building it
			// costs the depth, at every key of a deep document.
			at := func(cat error) *KeyError {
				return &KeyError{Cat: cat, Offset: dec.InputOffset() - int64(len(raw)), Pointer: dec.StackPointer()}
			}
			if strings.Contains(key, "\x00") {
				return at(token.ErrNULInKey)
			}
			keys := &open[len(open)-1]
			for _, k := range *keys {
				if k != key && strings.EqualFold(k, key) {
					return at(token.ErrCaseFoldedKey)
				}
			}
			*keys = append(*keys, key)
			continue
		}
		tok, err := dec.ReadToken()
		if err != nil {
			return nil
		}
		switch tok.Kind() {
		case '{', '[':
			open = append(open, nil)
		case '}', ']':
			open = open[:len(open)-1]
		}
	}
}

// Canonical returns data written compactly with strings quoted as jsontext
// quotes them and numbers unchanged: what the aggregator must produce.
func Canonical(data []byte) ([]byte, error) {
	v := jsontext.Value(bytes.Clone(data))
	err := v.Format(jsontext.PreserveRawStrings(false))
	return v, err
}

// ReferenceFragments returns the fragments of data, merged (see [Merge]), as
// computed from a whole-document jsontext parse.
func ReferenceFragments(data []byte) ([]fragment.Fragment, error) {
	if !Valid(data) {
		return nil, errors.New("invalid JSON")
	}
	dec := jsontext.NewDecoder(bytes.NewReader(data))
	type level struct {
		object bool
		n      int
	}
	var (
		out     []fragment.Fragment
		levels  []level
		path    fragment.Path
		keyNext bool // the next string is an object key
	)
	emit := func(k fragment.Kind, text string, empty fragment.Empty) {
		f := fragment.Fragment{Path: path.Clone(), Kind: k, Empty: empty}
		if text != "" {
			f.Text = []byte(text)
		}
		out = append(out, f)
	}
	begin := func() { // a value starts
		if len(levels) == 0 {
			return
		}
		top := &levels[len(levels)-1]
		if !top.object {
			path[len(path)-1] = fragment.IndexSegment(top.n)
		}
		top.n++
	}
	ended := func() { // a value ended
		keyNext = len(levels) > 0 && levels[len(levels)-1].object
	}
	for {
		tok, err := dec.ReadToken()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		switch tok.Kind() {
		case '{', '[':
			begin()
			levels = append(levels, level{object: tok.Kind() == '{'})
			path = append(path, fragment.Segment{Index: -1})
			keyNext = tok.Kind() == '{'
		case '}', ']':
			top := levels[len(levels)-1]
			levels, path = levels[:len(levels)-1], path[:len(path)-1]
			empty := fragment.NotEmpty
			switch {
			case top.n == 0 && top.object:
				empty = fragment.EmptyObject
			case top.n == 0:
				empty = fragment.EmptyArray
			}
			emit(fragment.Done, "", empty)
			ended()
		case '"':
			if keyNext {
				path[len(path)-1] = fragment.KeySegment(tok.String())
				keyNext = false
				continue
			}
			begin()
			if s := tok.String(); s != "" {
				emit(fragment.String, s, fragment.NotEmpty)
				emit(fragment.Done, "", fragment.NotEmpty)
			} else {
				emit(fragment.Done, "", fragment.EmptyString)
			}
			ended()
		default:
			begin()
			kind := fragment.Number
			switch tok.Kind() {
			case 'n':
				kind = fragment.Null
			case 't':
				kind = fragment.True
			case 'f':
				kind = fragment.False
			}
			emit(kind, tok.String(), fragment.NotEmpty)
			emit(fragment.Done, "", fragment.NotEmpty)
			ended()
		}
	}
}
