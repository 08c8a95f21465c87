package ollamastream

import "github.com/argstream/argstream/wire/internal/adapter"

// The fast path. A line carries text, thinking, or whole tool calls whose
// arguments object may be large (a file's content), so fastParse reads the
// lines with the adapters' shared byte scanner, in any layout (members in
// any order, white space, escapes, members it does not read, of any kind,
// skipped after one validation), and a call's arguments object is checked
// once by adapter.Skip and handed to the Response as it is in the line,
// never copied: the token decoder would validate it, and then copy it. It
// takes only what it can read exactly as the token decoder does, and
// declines anything else (an error member, a null where an object is
// expected, a call without its function, name or arguments, what
// adapter.Members or adapter.Skip decline, and what the decoder refuses),
// which the token decoder then reads: its answer is the answer.

// fastParse reads the line b into r as parse does, and reports whether it
// did; false on any difference, having set nothing that parse does not
// set again.
func (r *Reader) fastParse(b []byte) bool {
	r.resetLine()
	return adapter.FastRoot(b, lineNames, func(name []byte, i int) int {
		switch string(name) {
		case "message":
			if i >= len(b) || b[i] != '{' {
				return -1
			}
			return adapter.Members(b, i, messageNames, func(name []byte, i int) int { return r.fastMessageField(b, name, i) })
		case "done":
			return adapter.Bool(b, i, &r.isDone)
		case "done_reason":
			var j int
			r.reason, _, j = adapter.NullableString(r.reason, b, i)
			return j
		case "error":
			return -1
		}
		return adapter.Skip(b, i)
	})
}

// fastMessageField reads the value at b[i:] of the member name of the
// line's message, as messageField does, and returns the index of the byte
// after it, or -1.
func (r *Reader) fastMessageField(b, name []byte, i int) int {
	var j int
	switch string(name) {
	case "content":
		r.text, _, j = adapter.NullableString(r.text, b, i)
	case "thinking":
		r.thinking, _, j = adapter.NullableString(r.thinking, b, i)
	case "tool_calls":
		if j = adapter.Null(b, i); j >= 0 {
			return j
		}
		j = adapter.Elements(b, i, func(_, i int) int { return r.fastCall(b, i) })
	default:
		j = adapter.Skip(b, i)
	}
	return j
}

// fastCall reads the element of message.tool_calls at b[i:] into the next
// call of r.calls, as call does, if it has a function with a name and
// arguments, and returns the index of the byte after it, or -1. The
// arguments object is kept in the call's whole as it is in b.
func (r *Reader) fastCall(b []byte, i int) int {
	c := r.nextCall()
	if i >= len(b) || b[i] != '{' {
		return -1
	}
	i = adapter.Members(b, i, callNames, func(name []byte, i int) int {
		switch string(name) {
		case "id":
			var j int
			c.id, _, j = adapter.NullableString(c.id, b, i)
			return j
		case "function":
			if i >= len(b) || b[i] != '{' {
				return -1
			}
			c.hasFunction = true
			return adapter.Members(b, i, functionNames, func(name []byte, i int) int {
				switch string(name) {
				case "index":
					_, j, ok := adapter.Index(b, i)
					if !ok {
						return -1
					}
					return j
				case "name":
					var j int
					c.name, j = adapter.Unquote(c.name, b, i)
					c.hasName = j >= 0
					return j
				case "arguments":
					if i >= len(b) || b[i] != '{' {
						return -1
					}
					j := adapter.Skip(b, i)
					if j >= 0 {
						c.whole, c.hasArgs = b[i:j], true
					}
					return j
				}
				return adapter.Skip(b, i)
			})
		}
		return adapter.Skip(b, i)
	})
	if !c.hasFunction || !c.hasName || !c.hasArgs {
		return -1 // an error of parse's
	}
	return i
}
