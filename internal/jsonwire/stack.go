package jsonwire

import (
	"strconv"

	"github.com/go-json-experiment/json/jsontext"
)

// Stack is the nesting of the open objects and arrays of a JSON text, and
// how much each holds, counted as jsontext counts it: what a tokenizer that
// finds the tokens itself needs to know which delimiter comes next
// ([Stack.Expect]) and to name the value of an error ([Stack.Pointer]). It
// checks nothing: the tokenizer pushes and counts what its grammar accepted.
// It does not hold the keys: the JSON pointers ask the tokenizer for them.
//
// The zero value is an empty stack. A Stack may not be used from several
// goroutines at once.
type Stack struct {
	frames []frame // the open containers, outermost first
}

// frame is one open object or array.
type frame struct {
	// n counts what the container holds so far: an array's elements, an
	// object's keys and values each (odd: a key is waiting for its value).
	n   int64
	obj bool
}

// Reset empties s, keeping its memory.
func (s *Stack) Reset() { s.frames = s.frames[:0] }

// Depth returns the number of open containers.
func (s *Stack) Depth() int { return len(s.frames) }

// Push opens an object (obj) or an array, counted as a value of the
// container open before, if any.
func (s *Stack) Push(obj bool) {
	s.Count()
	s.frames = append(s.frames, frame{obj: obj})
}

// Pop closes the innermost open container.
func (s *Stack) Pop() { s.frames = s.frames[:len(s.frames)-1] }

// Count counts a key or a value in the innermost open container, if any:
// the value is counted where jsontext counts it, a string or container at
// its start, a number or literal once read.
func (s *Stack) Count() {
	if n := len(s.frames); n > 0 {
		s.frames[n-1].n++
	}
}

// Top reports whether the innermost open container is an object and how
// much it holds (see [Stack.Count]); ok is false if none is open.
func (s *Stack) Top() (obj bool, n int64, ok bool) {
	if len(s.frames) == 0 {
		return false, 0, false
	}
	f := s.frames[len(s.frames)-1]
	return f.obj, f.n, true
}

// Expect returns the delimiter the grammar requires before the next token
// (',' or ':', or 0 for none), and whether that token must be an object
// key.
func (s *Stack) Expect() (want byte, keyPos bool) {
	if len(s.frames) == 0 {
		return 0, false
	}
	f := &s.frames[len(s.frames)-1]
	switch {
	case f.obj && f.n&1 == 1:
		return ':', false
	case f.n > 0:
		return ',', f.obj
	}
	return 0, f.obj
}

// Pointer returns the JSON pointer of a value relative to the stack, as
// jsontext computes it: where < 0 is the value read last (the container
// itself if it holds nothing yet), where == 0 the open container (or the
// member whose key was just read), where > 0 the next value (or, in an
// object expecting a key, the object). name(k) returns the current key
// (the latest) of the k-th open object, counting objects only, outermost
// first.
func (s *Stack) Pointer(where int, name func(k int) []byte) jsontext.Pointer {
	var p jsontext.Pointer
	objects := 0
	for i := range s.frames {
		f := &s.frames[i]
		delta := int64(-1) // the element read last
		if i == len(s.frames)-1 {
			needValue := f.obj && f.n&1 == 1
			if where < 0 && f.n == 0 || where == 0 && !needValue || where > 0 && f.obj && !needValue {
				break
			}
			if where > 0 && !f.obj {
				delta = 0 // the next element
			}
		}
		if f.obj {
			p = p.AppendToken(string(name(objects)))
			objects++
		} else {
			p = p.AppendToken(strconv.FormatInt(f.n+delta, 10))
		}
	}
	return p
}

// Named returns p, a JSON pointer that names values of the open
// containers (jsontext's, for an error), with the token of each object
// replaced by its current key, name(k) as for [Stack.Pointer]: for a
// tokenizer that hands jsontext a stand-in for every key, whose pointers
// name each member "".
func (s *Stack) Named(p jsontext.Pointer, name func(k int) []byte) jsontext.Pointer {
	var q jsontext.Pointer
	i, objects := 0, 0
	for tok := range p.Tokens() {
		if i < len(s.frames) && s.frames[i].obj {
			tok = string(name(objects))
			objects++
		}
		q = q.AppendToken(tok)
		i++
	}
	return q
}
