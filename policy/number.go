package policy

import (
	"math/big"
	"strings"
)

// decimal is a JSON number in a form that compares exactly, whatever its
// size or precision: ±0.digits × 10^exp. Comparing through float64 would
// round: 9007199254740993 would equal 9007199254740992, and a bound could
// be passed by a value the tool reads as larger.
type decimal struct {
	sign   int      // -1, 0 or +1; 0 is zero, whatever the text's sign
	digits string   // significant digits, no leading or trailing zeros
	exp    *big.Int // the exponent, unbounded: "1e99999999999999999999" is exact
}

// parseDecimal parses s if it is exactly a JSON number (RFC 8259): no
// spaces, no "+", no leading zeros, no "0x", no "Inf" or "NaN".
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
	exp := new(big.Int)
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		start := i
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		digits := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if i == digits {
			return decimal{}, false
		}
		exp.SetString(strings.TrimPrefix(s[start:i], "+"), 10)
	}
	if i != len(s) {
		return decimal{}, false
	}
	// The value is 0.(intPart frac) × 10^(exp + len(intPart)); dropping
	// leading zeros moves the point left, trailing zeros change nothing.
	mant := intPart + frac
	point := int64(len(intPart))
	trimmed := strings.TrimLeft(mant, "0")
	point -= int64(len(mant) - len(trimmed))
	trimmed = strings.TrimRight(trimmed, "0")
	if trimmed == "" {
		return decimal{}, true
	}
	d := decimal{sign: 1, digits: trimmed, exp: exp.Add(exp, big.NewInt(point))}
	if neg {
		d.sign = -1
	}
	return d, true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// cmp compares d and e: -1, 0 or +1.
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
	c := d.exp.Cmp(e.exp)
	if c == 0 {
		// Same exponent: the digit strings compare as fractions 0.ddd,
		// which is their lexicographic order, since neither ends in 0.
		c = strings.Compare(d.digits, e.digits)
	}
	return c * d.sign
}
