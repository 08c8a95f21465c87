package adapter

import (
	"bytes"

	"github.com/argstream/argstream/internal/jsonwire"
)

// The helpers of the adapters' fast paths, which read the data of the
// common delta events by comparing bytes, and leave anything else to the
// Decoder: each reports failure (-1 or false) on what it does not expect.

// StringEnd returns the index of the quote that ends the JSON string that
// begins at data[i], a quote: the first quote after it that follows an even
// run of backslashes. It returns -1 if data[i] is not a quote or the string
// does not end. It does not check the string: jsontext.AppendUnquote does.
func StringEnd(data []byte, i int) int {
	if i >= len(data) || data[i] != '"' {
		return -1
	}
	j := i + 1
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

// SkipSpace returns the index of the first byte of data[i:] that is not
// JSON white space, or len(data).
func SkipSpace(data []byte, i int) int {
	for i < len(data) && jsonwire.IsSpace(data[i]) {
		i++
	}
	return i
}

// Index reads the integer written at data[i:] in 1 to 18 plain digits, with
// no leading zero (so that it cannot overflow), and returns it with the
// index of the byte after it; ok is false for anything else.
func Index(data []byte, i int) (n int64, j int, ok bool) {
	j = i
	for j < len(data) && j-i < 19 && '0' <= data[j] && data[j] <= '9' {
		n = n*10 + int64(data[j]-'0')
		j++
	}
	if d := j - i; d == 0 || d > 18 || d > 1 && data[i] == '0' {
		return 0, i, false
	}
	return n, j, true
}
