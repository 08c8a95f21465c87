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

// Scan reads the number bytes at the start of b, from state n: it returns
// how many continue the number and the state after them. The number ends
// before b[k] if k < len(b).
func (n Num) Scan(b []byte) (k int, next Num) {
	if n > NumExpDigit {
		return 0, n // not a state of the grammar: nothing continues it
	}
	for k = 0; k < len(b); k++ {
		s := numSteps[n][b[k]]
		if s == numEnd {
			break
		}
		n = Num(s)
	}
	return k, n
}

// numSteps is [Num.Step] as a table: numSteps[n][c] is the state after c,
// or numEnd if c ends the number.
var numSteps = func() (tab [NumExpDigit + 1][256]uint8) {
	for n := range tab {
		for c := range 256 {
			next, ok := Num(n).Step(byte(c))
			tab[n][c] = numEnd
			if ok {
				tab[n][c] = uint8(next)
			}
		}
	}
	return tab
}()

const numEnd = 0xff
