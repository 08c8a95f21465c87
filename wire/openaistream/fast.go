package openaistream

import "github.com/argstream/argstream/wire/internal/adapter"

// The helpers of the fast paths of chat.go and responses.go, which read
// the data of the common events by comparing bytes: an object written as
// the API writes it, with no white space and plain member names, and
// scalar values. Each reports failure (-1) on anything else, and the
// token decoder then reads the event.

// fastMembers reads the object at data[i:], with no white space in it,
// calling member with the name of each of its members (as fastName reads
// it) and the index of its value; member reads the value and returns the
// index of the byte after it, or -1. fastMembers returns the index of the
// byte after the object, or -1: also for an object that repeats a name,
// which the token decoder refuses, or that has more than fastMaxMembers.
func fastMembers(data []byte, i int, member func(name []byte, i int) int) int {
	if i >= len(data) || data[i] != '{' {
		return -1
	}
	if i++; i < len(data) && data[i] == '}' {
		return i + 1
	}
	var names [fastMaxMembers][]byte
	n := 0
	for {
		var name []byte
		if name, i = fastName(data, i); i < 0 || n == len(names) {
			return -1
		}
		for _, earlier := range names[:n] {
			if len(earlier) == len(name) && string(earlier) == string(name) {
				return -1
			}
		}
		names[n] = name
		n++
		if i = member(name, i); i < 0 || i >= len(data) {
			return -1
		}
		switch data[i] {
		case '}':
			return i + 1
		case ',':
			i++
		default:
			return -1
		}
	}
}

// fastMaxMembers is the most members an object may have for the fast path,
// which compares each name with the ones before it.
const fastMaxMembers = 16

// fastSeen is the set of the members of an object that the fast path has
// read, by number, so that it declines an object that repeats one:
// parseSlow would read the last one, or both.
type fastSeen uint8

// once adds member n to s and returns i, or -1 if s had it, or if i is -1.
func (s *fastSeen) once(n uint, i int) int {
	if *s&(1<<n) != 0 {
		return -1
	}
	*s |= 1 << n
	return i
}

// fastNullableString reads the string or null at data[i:] as
// [adapter.Unquote] does, a null as empty.
func fastNullableString(dst, data []byte, i int) ([]byte, int) {
	if hasAt(data, i, "null") {
		return dst[:0], i + 4
	}
	return adapter.Unquote(dst, data, i)
}

// fastName reads the name of a member at data[i:], plain lower-case
// letters and underscores in quotes, and its colon, and returns it with
// the index of the byte after the colon, or -1.
func fastName(data []byte, i int) ([]byte, int) {
	if i >= len(data) || data[i] != '"' {
		return nil, -1
	}
	k := i + 1
	for k < len(data) && ('a' <= data[k] && data[k] <= 'z' || data[k] == '_') {
		k++
	}
	if k >= len(data) || data[k] != '"' || k+1 >= len(data) || data[k+1] != ':' {
		return nil, -1
	}
	return data[i+1 : k], k + 2
}

// hasAt reports whether data[i:] begins with s.
func hasAt(data []byte, i int, s string) bool {
	return len(data)-i >= len(s) && string(data[i:i+len(s)]) == s
}

// fastScalar skips the value at data[i:] if it is a string (checked by
// [adapter.SkipString], with *scratch), an integer in plain digits, true,
// false or null, and returns the index of the byte after it, or -1.
func fastScalar(data []byte, i int, scratch *[]byte) int {
	if i >= len(data) {
		return -1
	}
	switch data[i] {
	case '"':
		return adapter.SkipString(data, i, scratch)
	case 't':
		if hasAt(data, i, "true") {
			return i + 4
		}
	case 'f':
		if hasAt(data, i, "false") {
			return i + 5
		}
	case 'n':
		if hasAt(data, i, "null") {
			return i + 4
		}
	default:
		if _, j, ok := adapter.Index(data, i); ok {
			return j
		}
	}
	return -1
}
