package genaisdk

import (
	"strconv"
	"unicode/utf8"

	"google.golang.org/genai"
)

// seg is one segment of a jsonPath: a member name, or an array index.
type seg struct {
	name    string
	index   int64
	isIndex bool
}

// streamed is a call whose arguments stream, and the JSON text written of
// them so far: the path of the last value (whose containers are open), the
// member names of each open object, and the string left open, if any.
type streamed struct {
	index int64
	id    string

	started bool              // the root object is open
	last    []seg             // the path of the last value
	keys    []map[string]bool // by depth j: the names of the members of the object holding segment j (nil for an array)
	strPath string            // the jsonPath of the string that goes on, if any
	strOpen bool
}

// add appends the JSON text of args to b.
func (s *streamed) add(b []byte, args []*genai.PartialArg) ([]byte, error) {
	for _, a := range args {
		if a == nil {
			return nil, malformed("call %d: a null partialArg", s.index)
		}
		var err error
		if b, err = s.arg(b, a); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// end appends the text that closes the arguments: {} for a call without
// values.
func (s *streamed) end(b []byte) ([]byte, error) {
	if s.strOpen {
		return nil, malformed("call %d: string at %s ended before it said", s.index, s.strPath)
	}
	if !s.started {
		return append(b, "{}"...), nil
	}
	b = s.close(b, 0)
	s.started = false
	return append(b, '}'), nil
}

// close appends the closers of the containers of s.last below depth k
// (the container holding segment j is closed for j > k), and forgets
// their members.
func (s *streamed) close(b []byte, k int) []byte {
	for j := len(s.last) - 1; j > k; j-- {
		if s.last[j].isIndex {
			b = append(b, ']')
		} else {
			b = append(b, '}')
		}
	}
	if len(s.keys) > k+1 {
		s.keys = s.keys[:k+1]
	}
	return b
}

func (s *streamed) arg(b []byte, a *genai.PartialArg) ([]byte, error) {
	kinds := 0
	if a.NumberValue != nil {
		kinds++
	}
	if a.BoolValue != nil {
		kinds++
	}
	if a.NULLValue != "" {
		kinds++
	}
	if a.StringValue != "" {
		kinds++
	}
	if kinds > 1 {
		return nil, malformed("call %d: partialArg at %s has two values", s.index, a.JsonPath)
	}
	isString := a.NumberValue == nil && a.BoolValue == nil && a.NULLValue == ""
	more := a.WillContinue != nil && *a.WillContinue
	if more && !isString {
		return nil, malformed("call %d: willContinue on a value at %s that is not a string", s.index, a.JsonPath)
	}
	if s.strOpen { // the string goes on
		if a.JsonPath != s.strPath || !isString {
			return nil, malformed("call %d: the string at %s does not go on", s.index, s.strPath)
		}
		b = quote(b, a.StringValue, true)
		if !more {
			b = append(b, '"')
			s.strOpen = false
		}
		return b, nil
	}
	path, ok := parsePath(a.JsonPath)
	if !ok {
		return nil, malformed("call %d: jsonPath %q", s.index, a.JsonPath)
	}
	if path[0].isIndex {
		return nil, malformed("call %d: jsonPath %q: the arguments are an object", s.index, a.JsonPath)
	}
	k := 0 // the depth of the container the new path enters
	if !s.started {
		b = append(b, '{')
		s.started = true
		s.keys = []map[string]bool{{}}
	} else {
		for k < len(s.last) && k < len(path) && s.last[k] == path[k] {
			k++
		}
		if k == len(s.last) || k == len(path) {
			return nil, malformed("call %d: jsonPath %q goes back to a value written", s.index, a.JsonPath)
		}
		if s.last[k].isIndex != path[k].isIndex {
			return nil, malformed("call %d: jsonPath %q: a name in an array or an index in an object", s.index, a.JsonPath)
		}
		if path[k].isIndex && path[k].index != s.last[k].index+1 {
			return nil, malformed("call %d: jsonPath %q: index %d after %d", s.index, a.JsonPath, path[k].index, s.last[k].index)
		}
		b = s.close(b, k)
		b = append(b, ',')
	}
	for j := k; j < len(path); j++ {
		if j > k { // a container opened by the path
			var names map[string]bool
			if path[j].isIndex {
				if path[j].index != 0 {
					return nil, malformed("call %d: jsonPath %q: an array begins at index %d", s.index, a.JsonPath, path[j].index)
				}
				b = append(b, '[')
			} else {
				b = append(b, '{')
				names = map[string]bool{}
			}
			s.keys = append(s.keys[:j], names)
		}
		if !path[j].isIndex {
			if s.keys[j][path[j].name] {
				return nil, malformed("call %d: jsonPath %q: member %q repeated", s.index, a.JsonPath, path[j].name)
			}
			s.keys[j][path[j].name] = true
			b = quote(b, path[j].name, false)
			b = append(b, ':')
		}
	}
	s.last = path
	switch {
	case a.NumberValue != nil:
		var err error
		if b, err = number(b, *a.NumberValue); err != nil {
			return nil, malformed("call %d: number at %s: %v", s.index, a.JsonPath, err)
		}
	case a.BoolValue != nil:
		b = strconv.AppendBool(b, *a.BoolValue)
	case a.NULLValue != "":
		b = append(b, "null"...)
	default:
		b = append(b, '"')
		b = quote(b, a.StringValue, true)
		if more {
			s.strOpen, s.strPath = true, a.JsonPath
		} else {
			b = append(b, '"')
		}
	}
	return b, nil
}

// parsePath parses a jsonPath of the grammar wire/geministream reads: $
// then segments .name, ['name'] or ["name"], and [N].
func parsePath(p string) ([]seg, bool) {
	if len(p) < 2 || p[0] != '$' {
		return nil, false
	}
	var out []seg
	i := 1
	for i < len(p) {
		switch {
		case p[i] == '.':
			j := i + 1
			for j < len(p) {
				r, n := utf8.DecodeRuneInString(p[j:])
				if !nameRune(r, j == i+1) {
					break
				}
				j += n
			}
			if j == i+1 {
				return nil, false
			}
			out = append(out, seg{name: p[i+1 : j]})
			i = j
		case p[i] == '[' && i+1 < len(p) && (p[i+1] == '\'' || p[i+1] == '"'):
			name, n, ok := quoted(p[i+1:])
			if !ok || i+1+n >= len(p) || p[i+1+n] != ']' {
				return nil, false
			}
			out = append(out, seg{name: name})
			i += n + 2
		case p[i] == '[':
			j := i + 1
			for j < len(p) && p[j] >= '0' && p[j] <= '9' {
				j++
			}
			if j == i+1 || j >= len(p) || p[j] != ']' || (j > i+2 && p[i+1] == '0') {
				return nil, false
			}
			n, err := strconv.ParseInt(p[i+1:j], 10, 64)
			if err != nil || n > 1<<53-1 {
				return nil, false
			}
			out = append(out, seg{index: n, isIndex: true})
			i = j + 1
		default:
			return nil, false
		}
	}
	return out, true
}

func nameRune(r rune, first bool) bool {
	switch {
	case r == utf8.RuneError:
		return false
	case r == '_', r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= 0x80:
		return true
	}
	return !first && r >= '0' && r <= '9'
}

// quoted reads a quoted name of a jsonPath (RFC 9535's escapes) from the
// quote that begins p, and returns it and the bytes read, quotes included.
func quoted(p string) (string, int, bool) {
	q := p[0]
	var name []byte
	for i := 1; i < len(p); i++ {
		c := p[i]
		switch {
		case c == q:
			return string(name), i + 1, true
		case c < 0x20:
			return "", 0, false
		case c != '\\':
			name = append(name, c)
			continue
		}
		i++
		if i >= len(p) {
			return "", 0, false
		}
		switch e := p[i]; e {
		case 'b':
			name = append(name, '\b')
		case 'f':
			name = append(name, '\f')
		case 'n':
			name = append(name, '\n')
		case 'r':
			name = append(name, '\r')
		case 't':
			name = append(name, '\t')
		case '/', '\\', '\'', '"':
			if (e == '\'' || e == '"') && e != q {
				return "", 0, false
			}
			name = append(name, e)
		case 'u':
			r, n, ok := hex4(p[i+1:])
			if !ok {
				return "", 0, false
			}
			i += n
			if r >= 0xD800 && r < 0xDC00 { // a high surrogate: its low one follows
				if i+2 >= len(p) || p[i+1] != '\\' || p[i+2] != 'u' {
					return "", 0, false
				}
				lo, m, ok := hex4(p[i+3:])
				if !ok || lo < 0xDC00 || lo > 0xDFFF {
					return "", 0, false
				}
				i += 2 + m
				r = 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00)
			} else if r >= 0xDC00 && r <= 0xDFFF {
				return "", 0, false
			}
			name = utf8.AppendRune(name, r)
		default:
			return "", 0, false
		}
	}
	return "", 0, false
}

func hex4(p string) (rune, int, bool) {
	if len(p) < 4 {
		return 0, 0, false
	}
	v, err := strconv.ParseUint(p[:4], 16, 32)
	if err != nil {
		return 0, 0, false
	}
	return rune(v), 4, true
}
