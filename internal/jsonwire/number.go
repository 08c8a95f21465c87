package jsonwire

// Num is a state of the JSON number grammar (RFC 8259, section 6):
//
//	-? (0 | [1-9][0-9]*) (\.[0-9]+)? ([eE][+-]?[0-9]+)?
type Num uint8

// States of [Num]. NumStart is before the first byte.
const (
	NumStart    Num = iota
	NumMinus        // "-"
	NumZero         // "0" or "-0": complete
	NumInt          // integer digits: complete
	NumDot          // "1."
	NumFrac         // fraction digits: complete
	NumExp          // "1e"
	NumExpSign      // "1e+"
	NumExpDigit     // exponent digits: complete
)

// Step returns the state after byte c, and false if c cannot continue a
// number in state n: the number ends before c.
func (n Num) Step(c byte) (Num, bool) {
	digit := c >= '0' && c <= '9'
	var next Num
	switch n {
	case NumStart:
		switch {
		case c == '-':
			next = NumMinus
		case c == '0':
			next = NumZero
		case digit:
			next = NumInt
		}
	case NumMinus:
		switch {
		case c == '0':
			next = NumZero
		case digit:
			next = NumInt
		}
	case NumZero, NumInt:
		switch {
		case digit && n == NumInt:
			next = NumInt
		case c == '.':
			next = NumDot
		case c == 'e' || c == 'E':
			next = NumExp
		}
	case NumDot, NumFrac:
		switch {
		case digit:
			next = NumFrac
		case (c == 'e' || c == 'E') && n == NumFrac:
			next = NumExp
		}
	case NumExp:
		switch {
		case c == '+' || c == '-':
			next = NumExpSign
		case digit:
			next = NumExpDigit
		}
	case NumExpSign, NumExpDigit:
		if digit {
			next = NumExpDigit
		}
	}
	if next == NumStart {
		return n, false
	}
	return next, true
}

// Complete reports whether a number in state n is a whole JSON number.
func (n Num) Complete() bool {
	return n == NumZero || n == NumInt || n == NumFrac || n == NumExpDigit
}

// StartsNumber reports whether c can begin a JSON number.
func StartsNumber(c byte) bool { return c == '-' || c >= '0' && c <= '9' }

// IsSpace reports whether c is JSON whitespace.
func IsSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
