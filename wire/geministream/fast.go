package geministream

import (
	"github.com/argstream/argstream/wire/internal/adapter"
)

// The fast path. Most events carry candidate 0 with a few parts: text,
// thoughts, or whole function calls whose args object may be large (a
// file's content). fastParse reads them with the adapters' shared byte
// scanner, in any layout (members in any order, white space, escapes,
// members it does not read, of any kind, skipped after one validation),
// and a function call's args object is checked once by adapter.Skip and
// handed to the Response as it is in the data, never copied: the token
// decoder would validate it, and then copy it. It takes only what it can
// read exactly as the token decoder does, and declines anything else (an
// error member, promptFeedback, partialArgs, a null where an object or an
// array is expected, what adapter.Members or adapter.Skip decline, and
// what the decoder refuses), which the token decoder then reads: its
// answer is the answer.

// fastParse reads data into r as parse does, and reports whether it did;
// false on any difference, having set nothing that parse does not set
// again.
func (r *Reader) fastParse(data []byte) bool {
	r.resetEvent()
	return adapter.FastRoot(data, rootNames, func(name []byte, i int) int {
		switch string(name) {
		case "candidates":
			return adapter.Elements(data, i, func(k, i int) int { return r.fastCandidate(data, k, i) })
		case "error", "promptFeedback":
			return -1
		}
		return fastSkip(data, i, name, rootNames)
	})
}

// fastSkip skips the value at data[i:] of the member name of an object
// whose names are known, name not one of them, or returns -1 if the token
// decoder refuses name: one of known in another case (adapter.Members
// sees that only of a name with an upper-case letter, as it takes known in
// lower case, and Gemini's names are in camel case) or in another spelling
// (see Reader.spelling).
func fastSkip(data []byte, i int, name []byte, known adapter.Names) int {
	if misspelt(name, known) {
		return -1
	}
	return adapter.Skip(data, i)
}

// misspelt reports whether name is one of known, under case folding, once
// its underscores are dropped: name, which is not one of known, is then
// one in another case or spelling, which parse refuses.
func misspelt(name []byte, known adapter.Names) bool {
	for _, k := range known {
		j := 0
		for _, c := range name {
			if c == '_' {
				continue
			}
			if j == len(k) || c|0x20 != k[j]|0x20 || !isLetter(c) && c != k[j] {
				j = -1
				break
			}
			j++
		}
		if j == len(k) {
			return true
		}
	}
	return false
}

// isLetter reports whether c is an ASCII letter: the names of Members are
// printable ASCII, under case folding equal only letter for letter.
func isLetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

// fastCandidate reads the element k of "candidates", at data[i:], as
// candidate does, and returns the index of the byte after it, or -1.
func (r *Reader) fastCandidate(data []byte, k, i int) int {
	c := &r.cur
	c.index, c.finish, c.n, c.calls = 0, c.finish[:0], 0, 0
	if i >= len(data) || data[i] != '{' {
		return -1 // null, or not an object: the decoder decides
	}
	i = adapter.Members(data, i, candNames, func(name []byte, i int) int {
		switch string(name) {
		case "index":
			n, j, ok := adapter.Index(data, i)
			if !ok {
				return -1
			}
			c.index = n
			return j
		case "content":
			if i >= len(data) || data[i] != '{' {
				return -1
			}
			return adapter.Members(data, i, contentNames, func(name []byte, i int) int {
				if string(name) == "parts" {
					return adapter.Elements(data, i, func(_, i int) int { return r.fastPart(data, i) })
				}
				return adapter.Skip(data, i)
			})
		case "finishReason":
			var j int
			c.finish, _, j = adapter.NullableString(c.finish, data, i)
			return j
		}
		return fastSkip(data, i, name, candNames)
	})
	switch {
	case i < 0:
		return -1
	case c.index != 0:
		if c.calls > 0 {
			return -1
		}
		return i
	case r.hasChosen || k != 0:
		return -1
	}
	r.cur, r.chosen, r.hasChosen = r.chosen, r.cur, true
	return i
}

// fastPart reads the element of a candidate's parts at data[i:] into the
// next part of r.cur, as part does, and returns the index of the byte after
// it, or -1.
func (r *Reader) fastPart(data []byte, i int) int {
	p := r.nextPart()
	if i >= len(data) || data[i] != '{' {
		return -1
	}
	i = adapter.Members(data, i, partNames, func(name []byte, i int) int {
		switch string(name) {
		case "text":
			var ok bool
			var j int
			if p.text, ok, j = adapter.NullableString(p.text, data, i); j < 0 || !ok {
				return j
			}
			if p.kind != partOther {
				return -1
			}
			p.kind = partText
			return j
		case "thought":
			return adapter.Bool(data, i, &p.thought)
		case "functionCall":
			if j := adapter.Null(data, i); j >= 0 {
				return j
			}
			if p.kind != partOther || i >= len(data) || data[i] != '{' {
				return -1
			}
			p.kind = partCall
			return adapter.Members(data, i, callNames, func(name []byte, i int) int { return fastCallField(p, data, name, i) })
		}
		return fastSkip(data, i, name, partNames)
	})
	if i >= 0 && p.kind == partCall {
		r.cur.calls++
	}
	return i
}

// fastCallField reads the value at data[i:] of the member name of the
// functionCall of p, as callField does, but for partialArgs, which it
// declines. The args object is checked, and kept in p.whole as it is in
// data. It returns the index of the byte after the value, or -1.
func fastCallField(p *part, data []byte, name []byte, i int) int {
	var j int
	switch string(name) {
	case "name":
		p.name, _, j = adapter.NullableString(p.name, data, i)
	case "id":
		p.id, _, j = adapter.NullableString(p.id, data, i)
	case "args":
		if j := adapter.Null(data, i); j >= 0 {
			return j
		}
		if i >= len(data) || data[i] != '{' {
			return -1
		}
		if j = adapter.Skip(data, i); j >= 0 {
			p.whole, p.hasArgs = data[i:j], true
		}
	case "partialArgs":
		return adapter.Null(data, i)
	case "willContinue":
		j = adapter.Bool(data, i, &p.more)
	default:
		j = fastSkip(data, i, name, callNames)
	}
	return j
}
