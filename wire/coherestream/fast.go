package coherestream

import "github.com/argstream/argstream/wire/internal/adapter"

// The fast path. Most events of a stream are small deltas (a tool call's
// arguments, text, thinking, the tool plan), so fastParse reads them with
// the adapters' shared byte scanner, which costs a fraction of the token
// decoder, in any layout: members in any order, white space between
// tokens, escapes in strings, members it does not read, of any kind,
// skipped after one validation. It takes only what it can read exactly as
// parseSlow does, and declines anything else (arrays where parseSlow counts
// elements, as message-start has; null objects; an index of more than 15
// digits; and what adapter.Members declines), which parseSlow then reads.

// fastParse reads data into r.f, which parse has reset, as parseSlow
// would, and reports true; or reports false, r.f then holding part of
// data, for parse to reset.
func (r *Reader) fastParse(data []byte) bool {
	f := &r.f
	return adapter.FastRoot(data, rootNames, func(name []byte, i int) int {
		switch string(name) {
		case "type":
			return fastString(&f.typ, data, i)
		case "index":
			if j := adapter.Null(data, i); j >= 0 {
				return j
			}
			return adapter.ReadIndex(data, i, &f.index, &f.hasIndex)
		case "delta":
			return adapter.Members(data, i, deltaNames, func(name []byte, i int) int {
				switch string(name) {
				case "message":
					return r.fastMessage(data, i)
				case "finish_reason":
					return fastString(&f.finish, data, i)
				case "error":
					return fastString(&f.errMsg, data, i)
				}
				return adapter.Skip(data, i)
			})
		}
		return adapter.Skip(data, i)
	})
}

// fastMessage reads the object delta.message at data[i:] as messageField
// does, but for a content or tool_calls that is not an object.
func (r *Reader) fastMessage(data []byte, i int) int {
	f := &r.f
	return adapter.Members(data, i, messageNames, func(name []byte, i int) int {
		switch string(name) {
		case "content":
			f.contentKind = '{'
			return adapter.Members(data, i, contentNames, func(name []byte, i int) int {
				switch string(name) {
				case "type":
					return fastString(&f.contentType, data, i)
				case "text":
					return fastString(&f.text, data, i)
				case "thinking":
					return fastString(&f.thinking, data, i)
				}
				return adapter.Skip(data, i)
			})
		case "tool_plan":
			return fastString(&f.toolPlan, data, i)
		case "tool_calls":
			f.callsKind = '{'
			return adapter.Members(data, i, toolCallNames, func(name []byte, i int) int {
				switch string(name) {
				case "id":
					return fastString(&f.callID, data, i)
				case "type":
					return fastString(&f.callType, data, i)
				case "function":
					f.hasFunc = true
					return adapter.Members(data, i, functionNames, func(name []byte, i int) int {
						switch string(name) {
						case "name":
							return fastString(&f.name, data, i)
						case "arguments":
							return fastString(&f.args, data, i)
						}
						return adapter.Skip(data, i)
					})
				}
				return adapter.Skip(data, i)
			})
		}
		return adapter.Skip(data, i)
	})
}

// fastString reads the string or null at data[i:] into s as field.read
// does, and returns the index of the byte after it, or -1.
func fastString(s *field, data []byte, i int) int {
	var j int
	s.text, s.ok, j = adapter.NullableString(s.text, data, i)
	return j
}
