package geministream

// The arguments of a call that Vertex AI streams (streamFunctionCallArguments):
// path-addressed values ("partialArgs") turned into one JSON text, written
// in document order as they come. See the package documentation, "Streamed
// arguments", for what is accepted.

import (
	"errors"
	"fmt"
	"hash/maphash"
	"unicode/utf8"

	"github.com/argstream/argstream/internal/jsonwire"
	"github.com/go-json-experiment/json/jsontext"
)

// partialArg is one element of a functionCall's "partialArgs".
type partialArg struct {
	path   []byte // its jsonPath, decoded
	kind   byte   // the kind of its value: 's', 'n' (number), 'b', 'z' (null); 0 if none
	values int    // how many typed values it has: one is accepted
	val    []byte // a string's text, decoded; a number's or a boolean's JSON text
	more   bool   // willContinue: the string at path goes on in the next partialArg
}

// seg is one segment of a parsed jsonPath: a member name (index -1), its
// bytes at segs.buf[off:end], or an array index.
type seg struct {
	index    int64
	off, end int
}

// level is a container of the arguments being written, still open: the
// root object, or a member or element of an open container (its segment
// there, the key's bytes at builder.keyPath[off:end]).
type level struct {
	array    bool
	n        int64 // the members or elements written so far
	index    int64 // its segment in its parent: an index, or -1 for a name
	off, end int
	keys     int // the first of its names in builder.keys
}

// keyRef identifies a member name in an open object: the object's depth
// (only one object of each depth is open), the name's hash.
type keyRef struct {
	depth int
	hash  uint64
}

// keyEnt is a member name written in an open object; the names of one
// keyRef are chained, the latest first.
type keyEnt struct {
	ref      keyRef
	off, end int // in builder.keyBuf
	next     int // the previous name of the same keyRef, or -1
}

// builder writes the JSON text of one streamed call at a time. Its memory
// is kept from call to call.
type builder struct {
	open    bool   // a call streams its arguments
	index   int64  // its index
	id      []byte // its id, "" if none
	started bool   // its root object is written ('{')
	levels  []level
	keyPath []byte // the names of the open containers' segments

	strOpen bool   // a string value is open: its closing quote not written
	strPath []byte // its jsonPath

	segs   []seg
	segBuf []byte

	seed   maphash.Seed
	keyMap map[keyRef]int // the latest keyEnt of each keyRef
	keys   []keyEnt
	keyBuf []byte
}

// reset drops the call being built, keeping the memory.
func (b *builder) reset() {
	b.open, b.started, b.strOpen = false, false, false
	b.id = b.id[:0]
	b.levels, b.keyPath = b.levels[:0], b.keyPath[:0]
	b.strPath = b.strPath[:0]
	b.dropKeys(0)
}

// dropKeys forgets the member names from keys[from:], those of objects
// that closed.
func (b *builder) dropKeys(from int) {
	for i := len(b.keys) - 1; i >= from; i-- {
		e := &b.keys[i]
		if e.next < 0 {
			delete(b.keyMap, e.ref)
		} else {
			b.keyMap[e.ref] = e.next
		}
	}
	if from < len(b.keys) {
		b.keyBuf = b.keyBuf[:b.keys[from].off]
		b.keys = b.keys[:from]
	}
}

// addKey records the member name key of the open object at depth, and
// reports false if that object already has it.
func (b *builder) addKey(depth int, key []byte) bool {
	if b.keyMap == nil {
		b.keyMap = map[keyRef]int{}
		b.seed = maphash.MakeSeed()
	}
	ref := keyRef{depth, maphash.Bytes(b.seed, key)}
	head, ok := b.keyMap[ref]
	if ok {
		for i := head; i >= 0; i = b.keys[i].next {
			if e := &b.keys[i]; string(b.keyBuf[e.off:e.end]) == string(key) {
				return false
			}
		}
	} else {
		head = -1
	}
	off := len(b.keyBuf)
	b.keyBuf = append(b.keyBuf, key...)
	b.keys = append(b.keys, keyEnt{ref: ref, off: off, end: len(b.keyBuf), next: head})
	b.keyMap[ref] = len(b.keys) - 1
	return true
}

// errPath is the error of a jsonPath outside the grammar Read accepts.
var errPath = errors.New(`not a path of the form $, then .name, ['name'] or [N]`)

// parsePath parses path into b.segs: "$" then segments ".name" (a name
// that starts with a letter, "_" or a non-ASCII character, and goes on with
// those or digits), "['name']" or `["name"]` (with the escapes of RFC 9535)
// and "[N]" (N an index in plain digits, at most 2^53-1).
func (b *builder) parsePath(path []byte) error {
	b.segs, b.segBuf = b.segs[:0], b.segBuf[:0]
	if len(path) == 0 || path[0] != '$' {
		return errPath
	}
	for i := 1; i < len(path); {
		switch path[i] {
		case '.':
			j := i + 1
			for j < len(path) && nameChar(path[j], j == i+1) {
				j++
			}
			if j == i+1 {
				return errPath
			}
			off := len(b.segBuf)
			b.segBuf = append(b.segBuf, path[i+1:j]...)
			b.segs = append(b.segs, seg{index: -1, off: off, end: len(b.segBuf)})
			i = j
		case '[':
			if i+1 < len(path) && (path[i+1] == '\'' || path[i+1] == '"') {
				off := len(b.segBuf)
				j, err := b.quoted(path, i+1)
				if err != nil {
					return err
				}
				if j >= len(path) || path[j] != ']' {
					return errPath
				}
				b.segs = append(b.segs, seg{index: -1, off: off, end: len(b.segBuf)})
				i = j + 1
				continue
			}
			j, n := i+1, int64(0)
			for j < len(path) && '0' <= path[j] && path[j] <= '9' {
				if j > i+1 && path[i+1] == '0' || n > (maxIndex-9)/10 {
					return errPath // a leading zero, or too large
				}
				n = n*10 + int64(path[j]-'0')
				j++
			}
			if j == i+1 || j >= len(path) || path[j] != ']' {
				return errPath
			}
			b.segs = append(b.segs, seg{index: n})
			i = j + 1
		default:
			return errPath
		}
	}
	return nil
}

const maxIndex = 1<<53 - 1

// nameChar reports whether c may be in a name of a ".name" segment, first
// or not.
func nameChar(c byte, first bool) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || c >= 0x80 || !first && '0' <= c && c <= '9'
}

// quoted decodes the quoted name that starts at path[i], a quote, onto
// b.segBuf, and returns the index after its closing quote.
func (b *builder) quoted(path []byte, i int) (int, error) {
	q := path[i]
	for j := i + 1; j < len(path); j++ {
		c := path[j]
		switch {
		case c == q:
			return j + 1, nil
		case c < 0x20:
			return 0, errPath
		case c != '\\':
			b.segBuf = append(b.segBuf, c)
			continue
		}
		if j++; j == len(path) {
			return 0, errPath
		}
		switch c = path[j]; c {
		case 'b':
			b.segBuf = append(b.segBuf, '\b')
		case 'f':
			b.segBuf = append(b.segBuf, '\f')
		case 'n':
			b.segBuf = append(b.segBuf, '\n')
		case 'r':
			b.segBuf = append(b.segBuf, '\r')
		case 't':
			b.segBuf = append(b.segBuf, '\t')
		case '/', '\\', q:
			b.segBuf = append(b.segBuf, c)
		case 'u':
			// A \uXXXX escape or a surrogate pair of them; not a lone
			// surrogate.
			r, n := jsonwire.UnicodeEscape(path[j-1:])
			if n == 0 {
				return 0, errPath
			}
			j += n - 2 // to its last byte
			b.segBuf = utf8.AppendRune(b.segBuf, r)
		default:
			return 0, errPath
		}
	}
	return 0, errPath
}

// segName is the name of a member segment.
func (b *builder) segName(s seg) []byte { return b.segBuf[s.off:s.end] }

// describe writes segment s for an error.
func (b *builder) describe(s seg) string {
	if s.index >= 0 {
		return fmt.Sprintf("[%d]", s.index)
	}
	return fmt.Sprintf("[%q]", b.segName(s))
}

// add writes the JSON text of partial argument a onto out. Its errors
// begin with the rest of a JSON pointer ("/jsonPath") or a space.
func (b *builder) add(out []byte, a *partialArg) ([]byte, error) {
	switch {
	case a.values == 0:
		return out, errors.New(" has no value (stringValue, numberValue, boolValue or nullValue)")
	case a.values > 1:
		return out, fmt.Errorf(" has %d values: one of stringValue, numberValue, boolValue and nullValue is one value", a.values)
	case a.more && a.kind != 's':
		return out, errors.New(" continues (willContinue) a value that is not a string")
	}
	if b.strOpen {
		// The string of the last partialArg goes on.
		if string(a.path) != string(b.strPath) || a.kind != 's' {
			return out, fmt.Errorf(" is not the rest of the string at %q, which continues (willContinue)", b.strPath)
		}
		out = appendStringText(out, a.val)
		if !a.more {
			out = append(out, '"')
			b.strOpen = false
		}
		return out, nil
	}
	if err := b.parsePath(a.path); err != nil {
		return out, fmt.Errorf("/jsonPath %q: %w", a.path, err)
	}
	if len(b.segs) == 0 {
		return out, fmt.Errorf("/jsonPath %q: the arguments themselves, which are an object", a.path)
	}
	if !b.started {
		b.started = true
		out = append(out, '{')
		b.levels = append(b.levels[:0], level{index: -1})
	}
	// The containers of the value that are open already.
	n := len(b.segs)
	c := 0
	for c < n-1 && c+1 < len(b.levels) {
		l, s := &b.levels[c+1], b.segs[c]
		if l.index != s.index || s.index < 0 && string(b.keyPath[l.off:l.end]) != string(b.segName(s)) {
			break
		}
		c++
	}
	// Close the others.
	for len(b.levels) > c+1 {
		out = b.closeLevel(out)
	}
	// Open the containers below, and write the value.
	for i := c; i < n; i++ {
		p, s := &b.levels[len(b.levels)-1], b.segs[i]
		depth := len(b.levels) - 1
		switch {
		case p.array && s.index < 0:
			return out, fmt.Errorf("/jsonPath %q: %s is a name in an array", a.path, b.describe(s))
		case !p.array && s.index >= 0:
			return out, fmt.Errorf("/jsonPath %q: %s is an index in an object", a.path, b.describe(s))
		case p.array && s.index < p.n:
			return out, fmt.Errorf("/jsonPath %q: %s goes back to an element already written (the array is at element %d)", a.path, b.describe(s), p.n)
		case p.array && s.index > p.n:
			return out, fmt.Errorf("/jsonPath %q: %s skips elements (the array is at element %d)", a.path, b.describe(s), p.n)
		case !p.array && !b.addKey(depth, b.segName(s)):
			return out, fmt.Errorf("/jsonPath %q: %s goes back to a member already written", a.path, b.describe(s))
		}
		if p.n > 0 {
			out = append(out, ',')
		}
		p.n++
		if !p.array {
			out, _ = jsontext.AppendQuote(out, b.segName(s))
			out = append(out, ':')
		}
		if i == n-1 {
			break
		}
		l := level{array: b.segs[i+1].index >= 0, index: s.index, off: len(b.keyPath), keys: len(b.keys)}
		if s.index < 0 {
			b.keyPath = append(b.keyPath, b.segName(s)...)
		}
		l.end = len(b.keyPath)
		b.levels = append(b.levels, l)
		if l.array {
			out = append(out, '[')
		} else {
			out = append(out, '{')
		}
	}
	switch a.kind {
	case 's':
		out = append(out, '"')
		out = appendStringText(out, a.val)
		if a.more {
			b.strOpen = true
			b.strPath = append(b.strPath[:0], a.path...)
		} else {
			out = append(out, '"')
		}
	case 'z':
		out = append(out, "null"...)
	default:
		out = append(out, a.val...)
	}
	return out, nil
}

// closeLevel closes the innermost open container.
func (b *builder) closeLevel(out []byte) []byte {
	l := b.levels[len(b.levels)-1]
	b.levels = b.levels[:len(b.levels)-1]
	b.keyPath = b.keyPath[:l.off]
	if l.array {
		return append(out, ']')
	}
	b.dropKeys(l.keys)
	return append(out, '}')
}

// end writes the end of the call's arguments: every container closed, or
// {} if it had none.
func (b *builder) end(out []byte) ([]byte, error) {
	if b.strOpen {
		return out, fmt.Errorf("ends while the string at %q continues (willContinue)", b.strPath)
	}
	if !b.started {
		out = append(out, "{}"...)
	}
	for len(b.levels) > 0 {
		out = b.closeLevel(out)
	}
	b.reset()
	return out, nil
}

// appendStringText appends the text s of a string, escaped as in a JSON
// string, without its quotes.
func appendStringText(out, s []byte) []byte {
	start := len(out)
	out, _ = jsontext.AppendQuote(out, s) // s is valid UTF-8: it was decoded from a JSON string
	copy(out[start:], out[start+1:len(out)-1])
	return out[:len(out)-2]
}
