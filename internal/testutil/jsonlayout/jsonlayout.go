// Package jsonlayout writes a JSON text again in another layout, the same
// value to a reader that follows RFC 8259: members in another order, white
// space between tokens, members added, strings escaped as Python's
// json.dumps escapes them. The wire adapters' fast-path tests generate
// their events' layouts with it, and the benchmarks (module bench) the
// streams of BenchmarkWire's layouts.
//
// Relayout is for one goroutine at a time (its Layout's Rand).
package jsonlayout

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"slices"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// Order is the order in which Relayout writes an object's members.
type Order uint8

const (
	Documented Order = iota // as they are in the input
	Sorted                  // by their names' JSON text, byte by byte
	Shuffled                // at random, drawn from Layout.Rand for each object
	// Reordered: by a hash of their names seeded with Layout.Seed, so that
	// the same names come in the same order in every value written (as an
	// encoder of its own structs writes them), an order other than sorted.
	Reordered
)

// Layout says how [Relayout] writes a value.
type Layout struct {
	Order Order
	// Spaces, if not empty, are the white space written after each ':'
	// and ',', one drawn at random from it each time (always the first if
	// Rand is nil).
	Spaces []string
	// Unknown are members ("name":value, as JSON text) written first in
	// each object nested at most UnknownDepth deep (0: the root only), one
	// drawn at random from it (the first if Rand is nil). An object that
	// has a member of the same name gets none.
	Unknown      []string
	UnknownDepth int
	// ASCII writes every string as Python's json.dumps(ensure_ascii=True)
	// does: each character outside ASCII as \uXXXX escapes (a surrogate
	// pair past U+FFFF), control characters as \n, \r, \t, \b, \f or
	// \u00XX, '"' and '\' escaped, nothing else. Otherwise strings and
	// names keep their JSON text.
	ASCII bool
	Rand  *rand.Rand
	Seed  uint64 // Reordered's
}

// Relayout writes the JSON text data again in layout l. Numbers and
// literals keep their text. It fails on data that is not one valid JSON
// value.
func Relayout(data []byte, l Layout) ([]byte, error) {
	d := jsontext.NewDecoder(bytes.NewReader(data), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(false))
	v, err := read(d)
	if err != nil {
		return nil, err
	}
	if _, err := d.ReadToken(); err != io.EOF {
		return nil, fmt.Errorf("jsonlayout: bytes after the value")
	}
	var out []byte
	return l.write(out, v, 0), nil
}

// node is a value: a scalar's JSON text, or an object's members, or an
// array's elements.
type node struct {
	kind  jsontext.Kind
	raw   []byte   // a scalar's text
	names [][]byte // an object's names, as JSON text
	elems []node   // an object's values, an array's elements
}

func read(d *jsontext.Decoder) (node, error) {
	switch k := d.PeekKind(); k {
	case '{', '[':
		if _, err := d.ReadToken(); err != nil {
			return node{}, err
		}
		n := node{kind: k}
		for d.PeekKind() != k+2 { // '}' is '{'+2, ']' is '['+2
			if k == '{' {
				name, err := d.ReadValue()
				if err != nil {
					return n, err
				}
				n.names = append(n.names, bytes.Clone(name))
			}
			e, err := read(d)
			if err != nil {
				return n, err
			}
			n.elems = append(n.elems, e)
		}
		_, err := d.ReadToken()
		return n, err
	default:
		v, err := d.ReadValue()
		return node{kind: v.Kind(), raw: bytes.Clone(v)}, err
	}
}

func (l *Layout) draw(s []string) string {
	if l.Rand == nil {
		return s[0]
	}
	return s[l.Rand.IntN(len(s))]
}

func (l *Layout) space(out []byte) []byte {
	if len(l.Spaces) == 0 {
		return out
	}
	return append(out, l.draw(l.Spaces)...)
}

func (l *Layout) write(out []byte, n node, depth int) []byte {
	switch n.kind {
	case '"':
		return l.str(out, n.raw)
	case '[':
		out = append(out, '[')
		for i, e := range n.elems {
			if i > 0 {
				out = l.space(append(out, ','))
			}
			out = l.write(out, e, depth+1)
		}
		return append(out, ']')
	case '{':
	default:
		return append(out, n.raw...)
	}
	order := make([]int, len(n.names))
	for i := range order {
		order[i] = i
	}
	switch l.Order {
	case Sorted:
		slices.SortStableFunc(order, func(a, b int) int { return bytes.Compare(n.names[a], n.names[b]) })
	case Shuffled:
		if l.Rand != nil {
			l.Rand.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		}
	case Reordered:
		rank := func(name []byte) uint64 {
			h := fnv.New64a()
			h.Write(binary.LittleEndian.AppendUint64(nil, l.Seed))
			h.Write(name)
			// splitmix64's finalizer: FNV alone keeps names of one letter
			// in their order.
			x := h.Sum64()
			x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
			x = (x ^ x>>27) * 0x94d049bb133111eb
			return x ^ x>>31
		}
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(rank(n.names[a]), rank(n.names[b])) })
	}
	out = append(out, '{')
	first := true
	if len(l.Unknown) > 0 && depth <= l.UnknownDepth {
		m := l.draw(l.Unknown)
		clash := false
		for _, name := range n.names {
			clash = clash || bytes.HasPrefix([]byte(m), append(name, ':'))
		}
		if !clash {
			out, first = append(out, m...), false
		}
	}
	for _, i := range order {
		if !first {
			out = l.space(append(out, ','))
		}
		first = false
		out = l.str(out, n.names[i])
		out = l.space(append(out, ':'))
		out = l.write(out, n.elems[i], depth+1)
	}
	return append(out, '}')
}

// str writes the string whose JSON text is raw.
func (l *Layout) str(out, raw []byte) []byte {
	if !l.ASCII {
		return append(out, raw...)
	}
	text, err := jsontext.AppendUnquote(nil, raw)
	if err != nil {
		return append(out, raw...)
	}
	return AppendASCII(out, text)
}

// AppendASCII appends s, valid UTF-8, as a JSON string written as
// Python's json.dumps(ensure_ascii=True) writes it.
func AppendASCII(out, s []byte) []byte {
	const hex = "0123456789abcdef"
	u := func(out []byte, r rune) []byte {
		return append(out, '\\', 'u', hex[r>>12&15], hex[r>>8&15], hex[r>>4&15], hex[r&15])
	}
	out = append(out, '"')
	for len(s) > 0 {
		r, size := utf8.DecodeRune(s)
		s = s[size:]
		switch {
		case r == '"' || r == '\\':
			out = append(out, '\\', byte(r))
		case r == '\n':
			out = append(out, '\\', 'n')
		case r == '\r':
			out = append(out, '\\', 'r')
		case r == '\t':
			out = append(out, '\\', 't')
		case r == '\b':
			out = append(out, '\\', 'b')
		case r == '\f':
			out = append(out, '\\', 'f')
		case r < ' ':
			out = u(out, r)
		case r < utf8.RuneSelf:
			out = append(out, byte(r))
		case r > 0xFFFF:
			hi, lo := utf16.EncodeRune(r)
			out = u(u(out, hi), lo)
		default:
			out = u(out, r)
		}
	}
	return append(out, '"')
}
