package adapter

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/bits"
	"slices"
	"unicode/utf8"

	"github.com/argstream/argstream/internal/jsonwire"
)

// This file holds the adapters' fast paths' shared reader, which reads the
// data of the common events by scanning bytes, in any layout: members in
// any order, JSON white space between tokens, escapes in strings, members
// the adapter does not know of any kind (skipped after one validation).
// Each function reports failure (-1 or false) on what it cannot read
// exactly as the [Decoder] would, and the adapter then gives the data to
// the Decoder, whose answer is the answer: an error there, or what the
// fast path would not take (a name written with an escape, an object of
// more than [FastMaxMembers] members, nesting deeper than fastMaxDepth, an
// index of more than 15 digits).
//
// What the Decoder refuses the fast path never takes: a member name
// repeated, at any depth; in an object the adapter reads, two names equal
// under case folding, or a name equal under case folding to one of the
// adapter's [Names] without being it; a string that is not valid UTF-8 or
// holds a lone surrogate escape or a control byte; a number or literal
// that is not JSON; bytes after the root object.

// FastMaxMembers is the most members an object may have for the fast path,
// which compares each name with the ones before it that may be equal to
// it. It is enough for the response objects of OpenAI's Responses events
// (about 30 members).
const FastMaxMembers = 64

// fastMaxDepth is the deepest nesting of the values that [Skip] skips.
const fastMaxDepth = 16

// FastRoot reads data as one JSON object with [Members], white space
// around it allowed, and reports whether it read all of data.
func FastRoot(data []byte, known Names, member func(name []byte, i int) int) bool {
	i := Members(data, SkipSpace(data, 0), known, member)
	return i >= 0 && SkipSpace(data, i) == len(data)
}

// Members reads the object at data[i:], an object the adapter reads with
// known as its [Names], calling member with the name of each of its members
// and the index of the first byte of its value; member reads the value and
// returns the index of the byte after it, or -1. Members returns the index
// of the byte after the object, or -1: also for a name written with an
// escape or holding a byte that is not printable ASCII, two names equal
// under case folding, a name equal under case folding to one of known but
// not it, or more than [FastMaxMembers] members, which the [Decoder]
// decides. The names of known are in lower case, as the adapters' are
// (TestNamesLowerCase in each): a name without an upper-case letter is then
// equal to one of them under case folding only if it is that one.
func Members(data []byte, i int, known Names, member func(name []byte, i int) int) int {
	if i >= len(data) || data[i] != '{' {
		return -1
	}
	if i = SkipSpace(data, i+1); i < len(data) && data[i] == '}' {
		return i + 1
	}
	var names names
	folded := false // a name of the object has an upper-case letter
	for {
		// The name, printable ASCII in quotes, and its colon.
		if i >= len(data) || data[i] != '"' {
			return -1
		}
		start := i + 1
		k, upper := nameEnd(data, start) // a name is printable ASCII: it ends at its quote
		if k >= len(data) || data[k] != '"' || k-start > maxNameLen {
			return -1
		}
		name := data[start:k]
		if i = k + 1; i < len(data) && data[i] == ':' {
			i++
		} else if i = SkipSpace(data, i); i < len(data) && data[i] == ':' {
			i++
		} else {
			return -1
		}
		if i < len(data) && jsonwire.IsSpace(data[i]) {
			i = SkipSpace(data, i)
		}
		if upper {
			folded = true
			for _, k := range known {
				if len(k) == len(name) && string(name) != k && bytes.EqualFold(name, []byte(k)) {
					return -1
				}
			}
		}
		// Compared with the names before it only if one may be equal to
		// it (under case folding): nameHash ignores case.
		if h := uint64(1) << nameHash(name); names.seen&h == 0 && names.n < namesInPlace {
			names.seen |= h
			names.at[names.n] = uint32(start)
			names.n++
		} else if names.repeated(data, name, start, folded) {
			return -1
		}
		// The value, then ',' or '}'.
		if i = member(name, i); i < 0 {
			return -1
		}
		if i < len(data) && data[i] == ',' {
			if i++; i < len(data) && jsonwire.IsSpace(data[i]) {
				i = SkipSpace(data, i)
			}
			continue
		}
		if i < len(data) && data[i] == '}' {
			return i + 1
		}
		var more bool
		if i, more = Next(data, i, '}'); !more {
			return i
		}
	}
}

// Next reads what follows a member or an element whose value ends at
// data[i:] (i -1 for one not read), white space around it allowed: a ','
// then more (the index of the next one's first byte, and true), or end, the
// object's or array's closing byte (the index of the byte after it, and
// false); -1 and false for anything else.
func Next(data []byte, i int, end byte) (int, bool) {
	if i < 0 {
		return -1, false
	}
	switch i = SkipSpace(data, i); {
	case i >= len(data):
		return -1, false
	case data[i] == ',':
		return SkipSpace(data, i+1), true
	case data[i] == end:
		return i + 1, false
	}
	return -1, false
}

// names are the names of an object read so far, each its place in the
// data (a name has no escape: it is the bytes up to the next quote): the
// first namesInPlace in place, as names is made for every object, and
// those of the rare larger objects in more.
type names struct {
	at   [namesInPlace]uint32
	n    int
	more []uint32
	seen uint64 // a bit for each name read, by nameHash
}

const namesInPlace = 16

// repeated reports whether name, at data[start:], repeats a name of the
// object read before it: the same bytes, or, with folded, the same under
// ASCII case folding. If not, it adds name, and reports false; it reports
// true too for a name past the FastMaxMembers-th, longer than maxNameLen,
// or in data past 4 GiB, which the fast path does not read.
func (ns *names) repeated(data, name []byte, start int, folded bool) bool {
	if ns.n == FastMaxMembers || len(name) > maxNameLen || start > math.MaxUint32 {
		return true
	}
	if h := uint64(1) << nameHash(name); ns.seen&h == 0 {
		ns.seen |= h
	} else {
		equal := func(at uint32) bool {
			end := int(at) + len(name)
			if end >= len(data) || data[end] != '"' {
				return false // longer, or shorter: it ends before
			}
			earlier := data[at:end]
			return string(earlier) == string(name) || folded && bytes.EqualFold(earlier, name)
		}
		if slices.ContainsFunc(ns.at[:min(ns.n, namesInPlace)], equal) || slices.ContainsFunc(ns.more, equal) {
			return true
		}
	}
	if ns.n < namesInPlace {
		ns.at[ns.n] = uint32(start)
	} else {
		ns.more = append(ns.more, uint32(start))
	}
	ns.n++
	return false
}

// nameEnd returns plainEnd(data, j), and whether the bytes before it hold
// a letter from 'A' to 'Z': a name's end and whether it may equal another
// under case folding, in one pass, eight bytes at a time.
func nameEnd(data []byte, j int) (int, bool) {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	upper := uint64(0)
	for ; j+8 <= len(data); j += 8 {
		x := binary.LittleEndian.Uint64(data[j:])
		// For bytes below 0x80, x + (0x80 - c) sets a byte's high bit
		// exactly where it is c or above. Only bytes from 0x80 carry into
		// the byte above, and PlainMask flags them: below the first byte
		// it flags, the upper-case bytes are exact.
		u := (x + ones*(0x80-'A')) &^ (x + ones*(0x80-'Z'-1)) & highs
		if m := jsonwire.PlainMask(x); m != 0 {
			k := bits.TrailingZeros64(m) >> 3
			return j + k, upper|u&(1<<(8*k)-1) != 0
		}
		upper |= u
	}
	// Fewer than eight bytes remain.
	k := plainEnd(data, j)
	for _, c := range data[j:k] {
		if 'A' <= c && c <= 'Z' {
			upper = 1
		}
	}
	return k, upper != 0
}

// nameHash is a hash of name from 0 to 63, the same for names equal under
// ASCII case folding: its length, its first and last bytes in lower case.
func nameHash(name []byte) uint {
	if len(name) == 0 {
		return 0
	}
	return uint(len(name)*7+int(name[0]|0x20)*3+int(name[len(name)-1]|0x20)) & 63
}

// maxNameLen is the longest name the fast path reads.
const maxNameLen = 1<<16 - 1

// plainEnd returns j+jsonwire.ScanPlain(data[j:]): the index of the first
// byte of data[j:] that is not plain ([jsonwire.PlainMask]: a quote, a
// backslash, a control byte or a byte of a multi-byte UTF-8 sequence), or
// len(data). It is ScanPlain with its last bytes read one by one, which
// skipString and nameEnd call at each escape or name: ScanPlain's call and
// tail word cost a fifth more on short strings.
func plainEnd(data []byte, j int) int {
	for ; j+8 <= len(data); j += 8 {
		if m := jsonwire.PlainMask(binary.LittleEndian.Uint64(data[j:])); m != 0 {
			return j + bits.TrailingZeros64(m)>>3
		}
	}
	for ; j < len(data); j++ {
		if !plain(data[j]) {
			return j
		}
	}
	return j
}

// Unquote decodes the JSON string that begins at data[i], a quote, into
// dst[:0], and returns dst with the index of the byte after the string, or
// -1 if there is no valid string there: one that ends, with no control
// byte, valid UTF-8, and valid escapes, a surrogate escape only in a pair.
// Its plain runs ([jsonwire.ScanPlain]: no escape, control or non-ASCII
// byte) are read and copied eight bytes at a time.
func Unquote(dst, data []byte, i int) ([]byte, int) {
	return appendUnquoted(dst[:0], data, i)
}

// UnquoteWhole is [Unquote] for a string that may be long (a call's whole
// arguments): dst grows at once, not by doubling as its runs are appended,
// at the cost of a first scan for the string's length, with an eighth more
// room. A dst kept from string to string that can hold the rest of data
// (the string is no longer) needs neither: the done events that restate a
// call's arguments, each a little longer than them, are read without the
// scan once a reader has read one of their size.
func UnquoteWhole(dst, data []byte, i int) ([]byte, int) {
	if cap(dst) < len(data)-i {
		if j := SkipString(data, i); j >= 0 {
			dst = slices.Grow(dst[:0], j-i+(j-i)/8)
		}
	}
	return Unquote(dst, data, i)
}

// SkipString is [Unquote] for a string whose text is not needed: it is
// checked, not copied.
func SkipString(data []byte, i int) int {
	return skipString(data, i)
}

// NullableString reads the string or null at data[i:] as [Unquote] does, a
// null as empty, and reports which it read: ok is false for a null. j is
// -1 for anything else.
func NullableString(dst, data []byte, i int) (_ []byte, ok bool, j int) {
	if HasAt(data, i, "null") {
		return dst[:0], false, i + 4
	}
	dst, j = Unquote(dst, data, i)
	return dst, true, j
}

// appendUnquoted is [Unquote], appending to dst. Its plain runs are read
// a word of eight bytes at a time, each word stored whole into dst before
// it is tested, and the bytes stored past the run written over next: dst
// has room for a word before each run, hence for the byte of a one-letter
// escape after it (the rarer \u escapes and multi-byte runes append). On
// the partial_json of a delta, a few bytes between escapes, that costs a
// quarter less than scanning each run and then appending it
// (BenchmarkUnquote).
func appendUnquoted(dst, data []byte, i int) ([]byte, int) {
	if i >= len(data) || data[i] != '"' {
		return dst, -1
	}
	n := len(dst) // dst[:n] is the text decoded
	for j := i + 1; ; {
		if cap(dst)-n < 8 {
			// Room for a word, and at once for the rest of a string
			// of up to 120 bytes: a new dst grows once for the names
			// and ids of an event, not by doubling from eight bytes.
			dst = slices.Grow(dst[:n], 8+min(len(data)-j, 120))
		}
		dst = dst[:cap(dst)]
		var m uint64 // the bytes of the last word read that are not plain
		for j+8 <= len(data) && n+8 <= len(dst) {
			x := binary.LittleEndian.Uint64(data[j:])
			binary.LittleEndian.PutUint64(dst[n:], x)
			if m = jsonwire.PlainMask(x); m != 0 {
				break
			}
			j, n = j+8, n+8
		}
		switch {
		case m != 0:
			k := bits.TrailingZeros64(m) >> 3
			j, n = j+k, n+k
		case n+8 > len(dst):
			continue // dst is full: it grows
		default:
			// The last bytes, fewer than a word.
			for ; j < len(data) && plain(data[j]); j, n = j+1, n+1 {
				dst[n] = data[j]
			}
			if j == len(data) {
				return dst[:n], -1
			}
		}
		switch c := data[j]; {
		case c == '"':
			return dst[:n], j + 1
		case c == '\\':
			// The escapes of one byte, most of those in a call's
			// arguments (\\ and \" of escaped strings, \n), first;
			// then a \u escape, or a pair of them.
			if e := escapeAt(data, j+1); e != 0 {
				dst[n] = e
				j, n = j+2, n+1
				continue
			}
			r, size := jsonwire.UnicodeEscape(data[j:])
			if size == 0 {
				return dst[:n], -1
			}
			dst = utf8.AppendRune(dst[:n], r)
			j, n = j+size, len(dst)
		case c < utf8.RuneSelf: // a control byte
			return dst[:n], -1
		default:
			size := jsonwire.RuneLen(data[j:])
			if size == 0 {
				return dst[:n], -1
			}
			dst = append(dst[:n], data[j:j+size]...)
			j, n = j+size, len(dst)
		}
	}
}

// plain reports whether c is plain ([jsonwire.PlainMask]).
func plain(c byte) bool {
	return c != '"' && c != '\\' && c >= ' ' && c < utf8.RuneSelf
}

// skipString is [SkipString]: appendUnquoted's checks, without the text.
func skipString(data []byte, i int) int {
	if i >= len(data) || data[i] != '"' {
		return -1
	}
	for j := i + 1; ; {
		if j = plainEnd(data, j); j >= len(data) {
			return -1
		}
		switch c := data[j]; {
		case c == '"':
			return j + 1
		case c == '\\':
			if escapeAt(data, j+1) != 0 {
				j += 2
				continue
			}
			_, size := jsonwire.UnicodeEscape(data[j:])
			if size == 0 {
				return -1
			}
			j += size
		case c < utf8.RuneSelf: // a control byte
			return -1
		default:
			size := jsonwire.RuneLen(data[j:])
			if size == 0 {
				return -1
			}
			j += size
		}
	}
}

// escapeAt returns the byte that the one-letter escape whose letter is at
// data[i] stands for, or 0 ([jsonwire.SimpleEscape]; also past data).
func escapeAt(data []byte, i int) byte {
	if i >= len(data) {
		return 0
	}
	return jsonwire.SimpleEscape(data[i])
}

// Skip skips the value at data[i:], of any kind, and returns the index of
// the byte after it, or -1 if it is not valid JSON (strings are checked as
// [Unquote] checks them, numbers by the JSON grammar) or if it is not one
// the fast path takes: an object that repeats a name, has a name written
// with an escape or more than [FastMaxMembers] members, or values nested
// deeper than fastMaxDepth.
func Skip(data []byte, i int) int { return skip(data, i, 0) }

func skip(data []byte, i, depth int) int {
	if i >= len(data) {
		return -1
	}
	switch c := data[i]; c {
	case '"':
		return SkipString(data, i)
	case '{':
		if depth == fastMaxDepth {
			return -1
		}
		return skipObject(data, i, depth+1)
	case '[':
		if depth == fastMaxDepth {
			return -1
		}
		return skipArray(data, i, depth+1)
	case 't':
		return literal(data, i, "true")
	case 'f':
		return literal(data, i, "false")
	case 'n':
		return literal(data, i, "null")
	}
	return number(data, i)
}

// skipObject skips the object at data[i:], a '{', at depth.
func skipObject(data []byte, i, depth int) int {
	if i = SkipSpace(data, i+1); i < len(data) && data[i] == '}' {
		return i + 1
	}
	var names names
	for {
		j := SkipString(data, i)
		if j < 0 {
			return -1
		}
		name := data[i+1 : j-1]
		if bytes.IndexByte(name, '\\') >= 0 {
			return -1 // compared as written, so not escaped
		}
		if names.repeated(data, name, i+1, false) {
			return -1
		}
		if i = SkipSpace(data, j); i >= len(data) || data[i] != ':' {
			return -1
		}
		var more bool
		if i, more = Next(data, skip(data, SkipSpace(data, i+1), depth), '}'); !more {
			return i
		}
	}
}

// skipArray skips the array at data[i:], a '[', at depth.
func skipArray(data []byte, i, depth int) int {
	if i = SkipSpace(data, i+1); i < len(data) && data[i] == ']' {
		return i + 1
	}
	for {
		var more bool
		if i, more = Next(data, skip(data, i, depth), ']'); !more {
			return i
		}
	}
}

// literal returns the index of the byte after lit at data[i:], or -1.
func literal(data []byte, i int, lit string) int {
	if !HasAt(data, i, lit) {
		return -1
	}
	return i + len(lit)
}

// number returns the index of the byte after the JSON number at data[i:],
// or -1. The byte after it is not checked: the caller's next token is.
func number(data []byte, i int) int {
	if i >= len(data) {
		return -1
	}
	k, n := jsonwire.NumStart.Scan(data[i:])
	if k == 0 || !n.Complete() {
		return -1
	}
	return i + k
}

// HasAt reports whether data[i:] begins with s.
func HasAt(data []byte, i int, s string) bool {
	return i >= 0 && len(data)-i >= len(s) && string(data[i:i+len(s)]) == s
}

// SkipSpace returns the index of the first byte of data[i:] that is not
// JSON white space, or len(data).
func SkipSpace(data []byte, i int) int {
	for i < len(data) && jsonwire.IsSpace(data[i]) {
		i++
	}
	return i
}

// ReadIndex reads the index at data[i:] as [Index] does into *n, sets
// *has, and returns the index of the byte after it, or -1.
func ReadIndex(data []byte, i int, n *int64, has *bool) int {
	v, j, ok := Index(data, i)
	if !ok {
		return -1
	}
	*n, *has = v, true
	return j
}

// Index reads the integer written at data[i:] in 1 to 15 plain digits, with
// no leading zero (so that it is at most [MaxIndex]), and returns it with the
// index of the byte after it; ok is false for anything else (the [Decoder]
// decides).
func Index(data []byte, i int) (n int64, j int, ok bool) {
	j = i
	for j < len(data) && j-i < 16 && '0' <= data[j] && data[j] <= '9' {
		n = n*10 + int64(data[j]-'0')
		j++
	}
	if d := j - i; d == 0 || d > 15 || d > 1 && data[i] == '0' {
		return 0, i, false
	}
	return n, j, true
}

// Elements reads the array at data[i:], calling elem with the position of
// each element and the index of its first byte; elem reads the element and
// returns the index of the byte after it, or -1. Elements returns the index
// of the byte after the array, or -1 (also for anything but an array: a
// null is the [Decoder]'s to decide).
func Elements(data []byte, i int, elem func(k, i int) int) int {
	if i >= len(data) || data[i] != '[' {
		return -1
	}
	if i = SkipSpace(data, i+1); i < len(data) && data[i] == ']' {
		return i + 1
	}
	for k := 0; ; k++ {
		var more bool
		if i, more = Next(data, elem(k, i), ']'); !more {
			return i
		}
	}
}

// Bool reads the true, false or null (false) at data[i:] into *b, and
// returns the index of the byte after it, or -1 for anything else.
func Bool(data []byte, i int, b *bool) int {
	switch {
	case HasAt(data, i, "true"):
		*b = true
		return i + 4
	case HasAt(data, i, "false"):
		*b = false
		return i + 5
	case HasAt(data, i, "null"):
		*b = false
		return i + 4
	}
	return -1
}

// Null returns the index of the byte after the null at data[i:], or -1.
func Null(data []byte, i int) int { return literal(data, i, "null") }

// OtherCase reports whether name, printable ASCII (as [Members] gives it),
// is equal under case folding to one of known without being it: a name the
// [Decoder] refuses in an object read with known. [Members] finds those
// only for a name with an upper-case letter, as it takes known in lower
// case; an adapter whose names are in camel case ("toolUse") calls
// OtherCase for each name it does not read.
func OtherCase(name []byte, known Names) bool {
	for _, k := range known {
		if len(k) == len(name) && string(name) != k && bytes.EqualFold(name, []byte(k)) {
			return true
		}
	}
	return false
}
