package policy

import (
	"strconv"
	"strings"
)

// decimal is a JSON number in a form that compares exactly, whatever its
// size or precision: ±0.digits × 10^exp. Comparing through float64 would
// round: 9007199254740993 would equal 9007199254740992, and a bound could
// be passed by a value the tool reads as larger.
//
// Parsing and comparing take time linear in the text, for any text: the
// exponent is an int64 when it is small, the common case, and a digit
// string when not, so that 1e<a million nines> costs a scan, not a
// big-number conversion.
type decimal struct {
	sign   int      // -1, 0 or +1; 0 is zero, whatever the text's sign
	digits string   // significant digits, no leading or trailing zeros
	exp    exponent // the value is sign × 0.digits × 10^exp
}

// exponent is an integer of any size, in a canonical form so that equal
// exponents have equal fields: small when |value| < 10^18, else the sign
// and the decimal digits of the magnitude.
type exponent struct {
	small int64  // the value, when mag is ""
	neg   bool   // the value is negative, when mag is set
	mag   string // |value| in decimal, no leading zeros, at least 19 digits
}

const smallDigits = 18 // an exponent of at most this many digits is small

// parseExponent reads an exponent's digits (leading zeros allowed, as JSON
// allows them) with its sign.
func parseExponent(neg bool, digits string) exponent {
	digits = strings.TrimLeft(digits, "0")
	if len(digits) > smallDigits {
		return exponent{neg: neg, mag: digits}
	}
	var v int64
	for i := 0; i < len(digits); i++ {
		v = v*10 + int64(digits[i]-'0')
	}
	if neg {
		v = -v
	}
	return exponent{small: v}
}

// add returns e + p, where |p| < 10^18 (p is a position in a text). On a
// large exponent it is a decimal addition or subtraction on the digit
// string, linear in its length.
func (e exponent) add(p int64) exponent {
	if e.mag == "" {
		return smallExponent(e.small + p) // |e.small|, |p| < 10^18: no overflow
	}
	if p == 0 {
		return e
	}
	up := (p > 0) != e.neg // p moves the value away from 0
	var m uint64
	if p > 0 {
		m = uint64(p)
	} else {
		m = uint64(-p)
	}
	if up {
		return exponent{neg: e.neg, mag: addDigits(e.mag, m)}
	}
	// |e| >= 10^18 > m, so the difference keeps e's sign.
	mag := subDigits(e.mag, m)
	if len(mag) > smallDigits {
		return exponent{neg: e.neg, mag: mag}
	}
	v, _ := strconv.ParseInt(mag, 10, 64)
	if e.neg {
		v = -v
	}
	return exponent{small: v}
}

// smallExponent puts v, |v| < 2·10^18, in canonical form.
func smallExponent(v int64) exponent {
	switch {
	case v >= 1e18:
		return exponent{mag: strconv.FormatInt(v, 10)}
	case v <= -1e18:
		return exponent{neg: true, mag: strconv.FormatInt(-v, 10)}
	}
	return exponent{small: v}
}

// addDigits returns the decimal digits of a + m, where a is a decimal digit
// string without leading zeros.
func addDigits(a string, m uint64) string {
	b := []byte(a)
	i := len(b) - 1
	for ; m > 0 && i >= 0; i-- {
		x := uint64(b[i]-'0') + m
		b[i] = byte('0' + x%10)
		m = x / 10
	}
	if m > 0 {
		return strconv.FormatUint(m, 10) + string(b)
	}
	return string(b)
}

// subDigits returns the decimal digits of a - m, where a is a decimal digit
// string without leading zeros and a > m.
func subDigits(a string, m uint64) string {
	b := []byte(a)
	borrow := uint64(0)
	for i := len(b) - 1; (m > 0 || borrow > 0) && i >= 0; i-- {
		sub := m%10 + borrow
		m /= 10
		d := uint64(b[i] - '0')
		if d < sub {
			d += 10
			borrow = 1
		} else {
			borrow = 0
		}
		b[i] = byte('0' + d - sub)
	}
	return strings.TrimLeft(string(b), "0")
}

// signum returns -1, 0 or +1.
func (e exponent) signum() int {
	switch {
	case e.mag != "" && e.neg, e.mag == "" && e.small < 0:
		return -1
	case e.mag == "" && e.small == 0:
		return 0
	}
	return 1
}

// cmp compares e and f: -1, 0 or +1. The sign decides first, then the
// magnitude: every large one is beyond every small one, and two large ones
// compare by length, then digit by digit. So an exponent of a million
// digits is told from a small one at once.
func (e exponent) cmp(f exponent) int {
	if e.mag == "" && f.mag == "" {
		switch {
		case e.small < f.small:
			return -1
		case e.small > f.small:
			return 1
		}
		return 0
	}
	es, fs := e.signum(), f.signum()
	if es != fs {
		if es < fs {
			return -1
		}
		return 1
	}
	// Same sign, and one of them large, so not 0.
	var c int
	switch {
	case e.mag == "":
		c = -1
	case f.mag == "":
		c = 1
	case len(e.mag) != len(f.mag):
		c = -1
		if len(e.mag) > len(f.mag) {
			c = 1
		}
	default:
		c = strings.Compare(e.mag, f.mag)
	}
	return c * es
}

func (e exponent) String() string {
	switch {
	case e.mag == "":
		return strconv.FormatInt(e.small, 10)
	case e.neg:
		return "-" + e.mag
	}
	return e.mag
}

// parseDecimal parses s if it is exactly a JSON number (RFC 8259): no
// spaces, no "+", no leading zeros, no "0x", no "Inf" or "NaN". It takes
// time linear in len(s).
func parseDecimal(s string) (decimal, bool) {
	i := 0
	neg := false
	if i < len(s) && s[i] == '-' {
		neg = true
		i++
	}
	intStart := i
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	default:
		return decimal{}, false
	}
	intPart := s[intStart:i]
	var frac string
	if i < len(s) && s[i] == '.' {
		i++
		start := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if i == start {
			return decimal{}, false
		}
		frac = s[start:i]
	}
	var expNeg bool
	var expDigits string
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			expNeg = s[i] == '-'
			i++
		}
		start := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if i == start {
			return decimal{}, false
		}
		expDigits = s[start:i]
	}
	if i != len(s) {
		return decimal{}, false
	}
	// The value is 0.(intPart frac) × 10^(exp + len(intPart)); dropping
	// leading zeros moves the point left, trailing zeros change nothing.
	// intPart is "0" or has no leading zero, so the leading zeros are
	// intPart's "0" and frac's leading zeros.
	point := int64(len(intPart))
	digits := intPart + frac
	if intPart == "0" {
		digits = strings.TrimLeft(frac, "0")
		point = -int64(len(frac) - len(digits))
	}
	digits = strings.TrimRight(digits, "0")
	if digits == "" {
		return decimal{}, true
	}
	d := decimal{sign: 1, digits: digits, exp: parseExponent(expNeg, expDigits).add(point)}
	if neg {
		d.sign = -1
	}
	return d, true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// cmp compares d and e: -1, 0 or +1. It takes time linear in the shorter
// of their digit strings and exponents.
func (d decimal) cmp(e decimal) int {
	if d.sign != e.sign {
		if d.sign < e.sign {
			return -1
		}
		return 1
	}
	if d.sign == 0 {
		return 0
	}
	// Both are 0.ddd × 10^exp with a first digit that is not 0: the larger
	// exponent is the larger magnitude. With the same exponent, the digit
	// strings compare as fractions 0.ddd, which is their lexicographic
	// order, since neither ends in 0.
	c := d.exp.cmp(e.exp)
	if c == 0 {
		c = strings.Compare(d.digits, e.digits)
	}
	return c * d.sign
}

// String returns d as JSON number text in the form 0.ddde±x.
func (d decimal) String() string {
	sign := ""
	if d.sign < 0 {
		sign = "-"
	}
	if d.sign == 0 {
		return "0"
	}
	return sign + "0." + d.digits + "e" + d.exp.String()
}
