package policy

import (
	"math"
	"math/big"
	"math/bits"
	"strconv"
	"strings"
)

// decimal is a JSON number in a form that compares exactly, whatever its
// size or precision: ±0.digits × 10^exp. Comparing through float64 would
// round: 9007199254740993 would equal 9007199254740992, and a bound could
// be passed by a value the tool reads as larger. A decimal can also be ±∞,
// the float64 reading of a number too large for a float64 (floatReading);
// no JSON text parses to it.
//
// Parsing and comparing take time linear in the text, for any text: the
// exponent is an int64 when it is small, the common case, and a digit
// string when not, so that 1e<a million nines> costs a scan, not a
// big-number conversion.
type decimal struct {
	sign   int      // -1, 0 or +1; 0 is zero, whatever the text's sign
	inf    bool     // ±∞ (sign says which): digits and exp are unused
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
	var c int
	switch {
	case d.inf || e.inf:
		if d.inf && !e.inf {
			c = 1
		} else if e.inf && !d.inf {
			c = -1
		}
	default:
		// Both are 0.ddd × 10^exp with a first digit that is not 0: the
		// larger exponent is the larger magnitude. With the same exponent,
		// the digit strings compare as fractions 0.ddd, which is their
		// lexicographic order, since neither ends in 0.
		if c = d.exp.cmp(e.exp); c == 0 {
			c = strings.Compare(d.digits, e.digits)
		}
	}
	return c * d.sign
}

// String returns d as JSON number text in the form 0.ddde±x, or ±Inf.
func (d decimal) String() string {
	sign := ""
	if d.sign < 0 {
		sign = "-"
	}
	switch {
	case d.sign == 0:
		return "0"
	case d.inf:
		return sign + "Inf"
	}
	return sign + "0." + d.digits + "e" + d.exp.String()
}

// floatReading returns the value a tool that reads d into a float64 sees:
// the exact value of the float64 nearest to d (IEEE 754 round to nearest,
// ties to even), ±∞ beyond the largest float64, and 0 for what rounds to a
// (signed) zero. So 99.99999999999999999 reads as 100 and 1e-400 as 0.
func (d decimal) floatReading() decimal { return exactFloat(d.float()) }

// nearestFloat returns the floatReading of the JSON number text s, or 0 if
// s is not a JSON number. Its cost is linear in len(s), plus a bounded
// cost: [strconv.ParseFloat]'s, which is tens of microseconds for a value
// that rounds to a subnormal or lies halfway between two float64 values
// (its exact, 800-digit fallback), and the exact expansion of the float64
// (up to 767 digits). To compare readings with a bound, readingBound
// costs neither.
func nearestFloat(s string) decimal {
	d, _ := parseDecimal(s)
	return d.floatReading()
}

// strconvExact is the length up to which [strconv.ParseFloat] reads every
// JSON number text as its nearest float64, in every Go version: a mantissa
// of at most 800 digits is not cut short, and an exponent it caps (at 5
// digits) is then far beyond the range whatever the mantissa. Longer texts,
// Go 1.26 misreads (1<800 zeros>e-800, exactly 1, is 0.1) and Go 1.27 reads
// right: what a tool reads depends on what it was built with, so the
// matcher does not rely on any reading of them.
const strconvExact = 800

// float returns the float64 nearest to d, as strconv.ParseFloat(s, 64)
// documents it for a text s of d: ±Inf when it overflows, ±0 when it
// underflows. It takes time linear in len(d.digits).
//
// It does not hand the JSON text to [strconv.ParseFloat], which (Go 1.26)
// misreads two kinds of long text: a mantissa of more than 800 digits
// without a decimal point (1<800 zeros>e-800 reads as 0.1: the decimal
// point is placed as if the mantissa stopped at 800 digits), and an
// exponent of 5 digits or more that a long mantissa compensates
// (0.<100000 zeros>9e100000 reads as 0, golang/go#42436). It hands it the
// equivalent 0.ddde±x, which has a point and a short exponent: the digits
// past the 800th then only tell a tie from above it, as they should.
func (d decimal) float() float64 {
	switch {
	case d.sign == 0:
		return 0
	case d.inf:
		return math.Inf(d.sign)
	}
	// d is in [10^(exp-1), 10^exp): beyond 10^400 it is +Inf for every
	// reader, under 10^-400 it rounds to 0.
	switch e := d.exp; {
	case e.signum() > 0 && (e.mag != "" || e.small > 400):
		return math.Inf(d.sign)
	case e.signum() < 0 && (e.mag != "" || e.small < -400):
		return math.Copysign(0, float64(d.sign))
	}
	b := make([]byte, 0, len(d.digits)+10)
	if d.sign < 0 {
		b = append(b, '-')
	}
	b = append(b, "0."...)
	b = append(b, d.digits...)
	b = append(b, 'e')
	b = strconv.AppendInt(b, d.exp.small, 10)
	f, _ := strconv.ParseFloat(string(b), 64) // ErrRange comes with ±Inf
	return f
}

// pow5 holds the powers of 5 that fit in a uint64.
var pow5 = func() []uint64 {
	p := []uint64{1}
	for p[len(p)-1] <= math.MaxUint64/5 {
		p = append(p, p[len(p)-1]*5)
	}
	return p
}()

// exactFloat returns the exact value of f, which must not be NaN. A
// float64 is m × 2^e with an integer m < 2^53; with e < 0 that is
// m × 5^-e × 10^e, at most 767 significant digits. The common values
// (integers, short binary fractions) take uint64 arithmetic; the others
// math/big on numbers of at most 2,500 bits.
func exactFloat(f float64) decimal {
	switch {
	case f == 0:
		return decimal{}
	case math.IsInf(f, 0):
		if f < 0 {
			return decimal{sign: -1, inf: true}
		}
		return decimal{sign: 1, inf: true}
	}
	b := math.Float64bits(f)
	m := b & (1<<52 - 1)
	e := -1074
	if be := int(b >> 52 & 0x7ff); be != 0 {
		m |= 1 << 52
		e = be - 1075
	}
	tz := bits.TrailingZeros64(m)
	m >>= tz
	e += tz
	// f = ±m × 2^e, m odd.
	var digits string
	exp10 := 0
	switch {
	case e >= 0 && bits.Len64(m)+e <= 64:
		digits = strconv.FormatUint(m<<e, 10)
	case e >= 0:
		digits = new(big.Int).Lsh(new(big.Int).SetUint64(m), uint(e)).Text(10)
	case -e < len(pow5):
		if hi, lo := bits.Mul64(m, pow5[-e]); hi == 0 {
			digits, exp10 = strconv.FormatUint(lo, 10), e
			break
		}
		fallthrough
	default:
		x := new(big.Int).Exp(big.NewInt(5), big.NewInt(int64(-e)), nil)
		digits, exp10 = x.Mul(x, new(big.Int).SetUint64(m)).Text(10), e
	}
	// ±digits × 10^exp10 = ±0.digits × 10^(len(digits)+exp10).
	d := decimal{sign: 1, digits: strings.TrimRight(digits, "0"), exp: exponent{small: int64(len(digits) + exp10)}}
	if f < 0 {
		d.sign = -1
	}
	return d
}

// readingBound is a bound b prepared for comparing the float64 readings
// of values with it, without reading the values: cmpReading(v) is
// v.floatReading().cmp(b) at the cost of two decimal comparisons, where
// the reading itself costs [strconv.ParseFloat], tens of microseconds for a
// value that rounds to a subnormal (4.9e-324) or lies halfway between two
// float64 values (strconv then falls back to its 800-digit arithmetic):
// an array of them would cost seconds per megabyte.
//
// The values that read as g, b's own reading, form the interval between
// the midpoints to g's neighbours: [lo, hi], the ends included when g wins
// the ties (its last mantissa bit is 0). Rounding is monotonic: a value
// below the interval reads as a float64 below g, so below b too (b, which
// reads as g, is at least lo, above every float64 below g); one above it
// reads above b; one in it reads as g, which compares with b as atG says.
type readingBound struct {
	lo, hi     decimal // the values that read as g; ±∞ when g is ±Inf
	loIn, hiIn bool    // lo, hi read as g
	atG        int     // g.cmp(b)
}

// overflow is 2^1024 - 2^970, halfway from the largest float64 to the next
// power of 2: the least value that reads as +Inf (the tie goes to Inf,
// since the largest float64 has an odd mantissa).
var overflow = func() decimal {
	t := new(big.Int).Lsh(big.NewInt(1), 1024)
	t.Sub(t, new(big.Int).Lsh(big.NewInt(1), 970))
	return dyadicDecimal(new(big.Rat).SetInt(t))
}()

// newReadingBound prepares b. It costs a few microseconds: the bound is
// read once, when the policy is built.
func newReadingBound(b decimal) readingBound {
	g := b.float()
	r := readingBound{atG: exactFloat(g).cmp(b)}
	switch {
	case math.IsInf(g, 1):
		r.lo, r.hi, r.loIn, r.hiIn = overflow, exactFloat(g), true, true
	case math.IsInf(g, -1):
		r.lo, r.hi, r.loIn, r.hiIn = exactFloat(g), overflow.neg(), true, true
	default:
		// At 0 too: its neighbours are ±2^-1074, and it wins the ties.
		even := math.Float64bits(g)&1 == 0
		r.loIn, r.hiIn = even, even
		if g == -math.MaxFloat64 {
			r.lo = overflow.neg()
		} else {
			r.lo = midpoint(math.Nextafter(g, math.Inf(-1)), g)
		}
		if g == math.MaxFloat64 {
			r.hi = overflow
		} else {
			r.hi = midpoint(g, math.Nextafter(g, math.Inf(1)))
		}
	}
	return r
}

// cmpReading compares v's float64 reading with the bound: -1, 0 or +1, as
// v.floatReading().cmp(b), in time linear in the shorter of v's digits
// and the interval ends' (at most 770 digits).
func (r readingBound) cmpReading(v decimal) int {
	if c := v.cmp(r.lo); c < 0 || c == 0 && !r.loIn {
		return -1
	}
	if c := v.cmp(r.hi); c > 0 || c == 0 && !r.hiIn {
		return 1
	}
	return r.atG
}

// neg returns -d.
func (d decimal) neg() decimal {
	d.sign = -d.sign
	return d
}

// midpoint returns the exact value of (a + b) / 2.
func midpoint(a, b float64) decimal {
	s := new(big.Rat).Add(new(big.Rat).SetFloat64(a), new(big.Rat).SetFloat64(b))
	return dyadicDecimal(s.Quo(s, big.NewRat(2, 1)))
}

// dyadicDecimal returns the exact value of r, whose denominator must be a
// power of 2: num / 2^k = num × 5^k × 10^-k.
func dyadicDecimal(r *big.Rat) decimal {
	if r.Sign() == 0 {
		return decimal{}
	}
	k := r.Denom().BitLen() - 1
	x := new(big.Int).Exp(big.NewInt(5), big.NewInt(int64(k)), nil)
	digits := x.Mul(x, new(big.Int).Abs(r.Num())).Text(10)
	d := decimal{sign: r.Sign(), digits: strings.TrimRight(digits, "0"), exp: exponent{small: int64(len(digits) - k)}}
	return d
}
