package jsonwire

import "bytes"

// IsEmptyObject reports whether b is the JSON text of an empty object,
// white space included: "{}", " { \n } ". It is the input that
// toolcall.Response.Start takes as a placeholder rather than as arguments,
// and the adapters must agree with it.
func IsEmptyObject(b []byte) bool {
	b = bytes.Trim(b, " \t\r\n")
	return len(b) >= 2 && b[0] == '{' && b[len(b)-1] == '}' &&
		len(bytes.Trim(b[1:len(b)-1], " \t\r\n")) == 0
}
