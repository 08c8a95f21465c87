package adapter

import (
	"bytes"

	"github.com/argstream/argstream/internal/jsonwire"
	"github.com/go-json-experiment/json/jsontext"
)

// The helpers of the adapters' fast paths, which read the data of the
// common delta events by comparing bytes, and leave anything else to the
// Decoder: each reports failure (-1 or false) on what it does not expect.

// StringEnd returns the index of the quote that ends the JSON string that
// begins at data[i], a quote: the first quote after it that follows an even
// run of backslashes. It returns -1 if data[i] is not a quote or the string
// does not end. It does not check the string: [jsontext.AppendUnquote] does.
func StringEnd(data []byte, i int) int {
	if i >= len(data) || data[i] != '"' {
		return -1
	}
	return stringEnd(data, i+1)
}

// stringEnd is [StringEnd] from data[j], a byte of the string's body that is
// not inside an escape.
func stringEnd(data []byte, j int) int {
	for {
		k := bytes.IndexByte(data[j:], '"')
		if k < 0 {
			return -1
		}
		j += k
		b := j
		for data[b-1] == '\\' {
			b--
		}
		if (j-b)%2 == 0 {
			return j
		}
		j++
	}
}

// Unquote decodes the JSON string that begins at data[i], a quote, into
// dst[:0], and returns dst with the index of the byte after the string, or
// -1 if there is no valid string there. The string's plain prefix
// ([jsonwire.ScanPlain]: no escape, control or non-ASCII byte; eight bytes at
// a time) is its own text: a string that is plain to its end is copied as
// it is, any other is ended from there and decoded, and checked, by
// [jsontext.AppendUnquote].
func Unquote(dst, data []byte, i int) ([]byte, int) {
	j := plainEnd(data, i)
	switch {
	case j < 0:
		return dst[:0], -1
	case data[j] == '"':
		return append(dst[:0], data[i+1:j]...), j + 1
	}
	if j = stringEnd(data, j); j < 0 {
		return dst[:0], -1
	}
	dst, err := jsontext.AppendUnquote(dst[:0], data[i:j+1])
	if err != nil {
		return dst, -1
	}
	return dst, j + 1
}

// SkipString is [Unquote] for a string whose text is not needed: a plain one
// is not copied, any other is decoded into *scratch to check it.
func SkipString(data []byte, i int, scratch *[]byte) int {
	if j := plainEnd(data, i); j >= 0 && data[j] == '"' {
		return j + 1
	}
	var j int
	*scratch, j = Unquote(*scratch, data, i)
	return j
}

// plainEnd returns the index of the first byte after the plain prefix of
// the body of the string that begins at data[i], a quote: its closing
// quote if the whole body is plain. It returns -1 if data[i] is not a
// quote or the data ends within the prefix.
func plainEnd(data []byte, i int) int {
	if i >= len(data) || data[i] != '"' {
		return -1
	}
	if j := i + 1 + jsonwire.ScanPlain(data[i+1:]); j < len(data) {
		return j
	}
	return -1
}

// SkipSpace returns the index of the first byte of data[i:] that is not
// JSON white space, or len(data).
func SkipSpace(data []byte, i int) int {
	for i < len(data) && jsonwire.IsSpace(data[i]) {
		i++
	}
	return i
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
