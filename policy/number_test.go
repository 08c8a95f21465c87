package policy

import (
	"fmt"
	"math"
	"math/big"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/argstream/argstream/internal/testutil"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
)

// checkOrder parses the texts of order, whose rows are in increasing order
// and whose values in one row are equal, and checks cmp on every pair.
func checkOrder(t *testing.T, order [][]string, parse func(string) (decimal, bool)) {
	t.Helper()
	var flat []decimal
	var texts []string
	var group []int
	for g, row := range order {
		for _, s := range row {
			d, ok := parse(s)
			if !ok {
				t.Fatalf("parse(%q) failed", s)
			}
			flat = append(flat, d)
			texts = append(texts, s)
			group = append(group, g)
		}
	}
	for i := range flat {
		for j := range flat {
			want := 0
			if group[i] < group[j] {
				want = -1
			} else if group[i] > group[j] {
				want = 1
			}
			if got := flat[i].cmp(flat[j]); got != want {
				t.Errorf("cmp(%s, %s) = %d, want %d (parsed as %v, %v)", texts[i], texts[j], got, want, flat[i], flat[j])
			}
		}
	}
}

func TestDecimalCompare(t *testing.T) {
	nines := func(n int) string { return strings.Repeat("9", n) }
	// Each row is in increasing order; values in one group are equal.
	order := [][]string{
		{"-1e" + nines(30)},
		{"-1e100000000000000000000", "-10e99999999999999999999"},
		{"-1e99999999999999999999"},
		{"-1e1000000000000000000"},
		{"-1e999999999999999999", "-0.01e1000000000000000001"},
		{"-1e400"},
		{"-9007199254740993"},
		{"-9007199254740992", "-9.007199254740992e15"},
		{"-1.5"},
		{"-1", "-1.0", "-10e-1", "-0.1e1"},
		{"-1e-400"},
		{"-1e-100000000000000000000", "-0.1e-99999999999999999999"},
		{"0", "-0", "0.0", "0e5", "-0.000e-9", "0e99999999999999999999", "-0.0e-" + nines(40)},
		{"1e-" + nines(30)},
		{"1e-100000000000000000000", "0.1e-99999999999999999999", "10e-100000000000000000001", "0.00001e-99999999999999999995"},
		{"2e-100000000000000000000"},
		{"1e-99999999999999999999"},
		{"1e-1000000000000000000", "10e-1000000000000000001"},
		{"1e-999999999999999999", "0.1e-999999999999999998"},
		{"1e-400"},
		{"0.1", "1e-1", "0.10"},
		{"0.12"},
		{"0.123"},
		{"1", "1.0", "1e0", "10e-1", "0.001E3", "1.000000000000000000000000000000", "1e-0", "1E+000"},
		{"1.0000000000000000000000000000001"},
		{"2"},
		{"10", "1e1", "1E+1", "100e-1"},
		{"99.99999999999999999"},
		{"100"},
		{"9007199254740992"},
		{"9007199254740993"},
		{"1e400"},
		{"1e999999999999999998"},
		{"1e999999999999999999", "0.01e1000000000000000001", "10e999999999999999998"},
		{"1e1000000000000000000", "0.1e1000000000000000001"},
		{"1e99999999999999999999"},
		{"1e100000000000000000000", "10e99999999999999999999", "0.1e100000000000000000001", "1e0100000000000000000000"},
		{"2e100000000000000000000"},
		{"1e" + nines(30), "10e" + nines(29) + "8"},
	}
	checkOrder(t, order, parseDecimal)
}

// TestDecimalInfinity: ±∞, a float64 reading, is beyond every finite value
// and equal to itself.
func TestDecimalInfinity(t *testing.T) {
	inf := func(s string) (decimal, bool) {
		switch s {
		case "+Inf":
			return exactFloat(math.Inf(1)), true
		case "-Inf":
			return exactFloat(math.Inf(-1)), true
		}
		return parseDecimal(s)
	}
	checkOrder(t, [][]string{
		{"-Inf", "-Inf"},
		{"-1e" + strings.Repeat("9", 30)},
		{"-1"},
		{"0"},
		{"1e400"},
		{"1e" + strings.Repeat("9", 30)},
		{"+Inf", "+Inf"},
	}, inf)
}

func TestParseDecimalRejects(t *testing.T) {
	for _, s := range []string{"", "-", "+1", "01", "-01", "00", "1.", ".5", "1e", "1e+", "1e-", "1e+-1", "0x10", "Inf", "NaN", " 1", "1 ", "1.5.2", "--1", "1_000", "1e1.5", "-.5", "1E5x"} {
		if _, ok := parseDecimal(s); ok {
			t.Errorf("parseDecimal(%q) accepted", s)
		}
	}
}

func TestParseDecimalExponentIsExact(t *testing.T) {
	for _, c := range []struct{ in, digits, exp string }{
		{"12.5e99999999999999999999", "125", "100000000000000000001"}, // 12.5 = 0.125e2
		{"1e999999999999999999", "1", "1000000000000000000"},          // small + 1 becomes large
		{"1e-1000000000000000000", "1", "-999999999999999999"},        // large + 1 becomes small
		{"0.001e-999999999999999999", "1", "-1000000000000000001"},
		{"1234.5e-99999999999999999999", "12345", "-99999999999999999995"},
		{"0.000012e" + strings.Repeat("9", 25), "12", "9999999999999999999999995"},
		{"123e-" + strings.Repeat("9", 25), "123", "-9999999999999999999999996"},
		{"1" + strings.Repeat("0", 30) + "e" + strings.Repeat("9", 25), "1", "1" + strings.Repeat("0", 23) + "30"},
		{"-5e-000000000000000000000000007", "5", "-6"},
	} {
		d, ok := parseDecimal(c.in)
		if !ok || d.digits != c.digits || d.exp.String() != c.exp {
			t.Errorf("parseDecimal(%q) = 0.%s e%v, %v; want 0.%s e%s", c.in, d.digits, d.exp, ok, c.digits, c.exp)
		}
		if (d.exp.mag == "") != (len(strings.TrimPrefix(c.exp, "-")) <= smallDigits) {
			t.Errorf("parseDecimal(%q): exponent %+v is not canonical", c.in, d.exp)
		}
	}
}

func TestExponentAdd(t *testing.T) {
	for _, c := range []struct {
		e    string
		p    int64
		want string
	}{
		{"999999999999999999", 1, "1000000000000000000"},
		{"1000000000000000000", -1, "999999999999999999"},
		{"-999999999999999999", -1, "-1000000000000000000"},
		{"-1000000000000000000", 1, "-999999999999999999"},
		{"99999999999999999999999", 1, "100000000000000000000000"},
		{"100000000000000000000000", -1, "99999999999999999999999"},
		{"-99999999999999999999999", -999999999999999999, "-100000999999999999999998"},
		{"1000000000000000000000", -999999999999999999, "999000000000000000001"},
		{"1999999999999999999", -999999999999999999, "1000000000000000000"},
		{"1999999999999999999", -1000000000000000000, "999999999999999999"},
		{"12345678901234567890", 0, "12345678901234567890"},
		{"0", 5, "5"},
	} {
		neg := strings.HasPrefix(c.e, "-")
		e := parseExponent(neg, strings.TrimPrefix(c.e, "-"))
		got := e.add(c.p)
		want := parseExponent(strings.HasPrefix(c.want, "-"), strings.TrimPrefix(c.want, "-"))
		if got != want {
			t.Errorf("%s + %d = %+v, want %+v", c.e, c.p, got, want)
		}
		// The reference: math/big on the exponent alone.
		x, _ := new(big.Int).SetString(c.e, 10)
		if r := x.Add(x, big.NewInt(c.p)).String(); r != got.String() {
			t.Errorf("%s + %d = %v, math/big says %s", c.e, c.p, got, r)
		}
	}
}

// TestFloatReading: the value a float64 tool reads.
func TestFloatReading(t *testing.T) {
	pow2 := func(e int) string { return new(big.Rat).SetFloat64(math.Ldexp(1, e)).FloatString(1100) }
	maxFloat := new(big.Rat).SetFloat64(math.MaxFloat64).FloatString(0)
	for _, c := range []struct{ in, want string }{
		{"99.99999999999999999", "100"},
		{"1e-400", "0"},
		{"-1e-400", "0"},
		{"1e400", "+Inf"},
		{"-1e400", "-Inf"},
		{"1e99999999999999999999", "+Inf"},
		{"-1e99999999999999999999", "-Inf"},
		{"1e-99999999999999999999", "0"},
		{"0", "0"},
		{"-0.0", "0"},
		{"1", "1"},
		{"0.5", "0.5"},
		{"123.456e3", "123456"},
		{"0.1", "0.1000000000000000055511151231257827021181583404541015625"},
		{"9007199254740993", "9007199254740992"}, // a tie: to even
		{"9007199254740995", "9007199254740996"},
		{"9007199254740993.0000000000000000000000001", "9007199254740994"},
		{"1.7976931348623157e308", maxFloat},
		{"1.7976931348623158e308", maxFloat},
		{"1.7976931348623159e308", "+Inf"},
		{"4.9e-324", pow2(-1074)},
		{"2.4703282292062328e-324", pow2(-1074)},
		{"2.4703282292062327e-324", "0"},
		{"2.2250738585072014e-308", pow2(-1022)},
		// strconv.ParseFloat misreads these texts; the reading does not.
		{"1" + strings.Repeat("0", 800) + "e-800", "1"},
		{"9007199254740993" + strings.Repeat("0", 1000) + "e-1000", "9007199254740992"},
		{"0." + strings.Repeat("0", 100000) + "5e100000", "0.5"},
		{"0." + strings.Repeat("0", 100000) + "1e100001", "1"},
		{"1" + strings.Repeat("0", 100000) + "e-100001", "0.1000000000000000055511151231257827021181583404541015625"},
	} {
		want, ok := parseDecimal(c.want)
		switch c.want {
		case "+Inf":
			want, ok = exactFloat(math.Inf(1)), true
		case "-Inf":
			want, ok = exactFloat(math.Inf(-1)), true
		}
		if !ok {
			t.Fatalf("bad want %q", c.want)
		}
		name := c.in
		if len(name) > 40 {
			name = name[:20] + "…" + name[len(name)-15:]
		}
		if got := nearestFloat(c.in); got.cmp(want) != 0 || got.inf != want.inf {
			t.Errorf("nearestFloat(%s) = %v, want %s", name, got, c.want)
		}
		d, _ := parseDecimal(c.in)
		if got := d.floatReading(); got.cmp(want) != 0 {
			t.Errorf("floatReading(%s) = %v, want %s", name, got, c.want)
		}
		// The reference for the texts strconv misreads: big.Rat's nearest.
		if len(c.in) < 200000 && !strings.Contains(c.in, "e99999") && !strings.Contains(c.in, "e-99999") {
			if r, ok := new(big.Rat).SetString(c.in); ok {
				f, _ := r.Float64()
				if g := d.float(); g != f {
					t.Errorf("float(%s) = %v, big.Rat says %v", name, g, f)
				}
			}
		}
	}
}

// TestStrconvMisreads records the strconv.ParseFloat defects that float
// works around, so that a fixed Go shows up here: then float could hand
// ParseFloat the JSON text itself.
func TestStrconvMisreads(t *testing.T) {
	for _, s := range []string{
		"1" + strings.Repeat("0", 800) + "e-800",
		"0." + strings.Repeat("0", 100000) + "5e100000",
	} {
		f, _ := strconv.ParseFloat(s, 64)
		d, _ := parseDecimal(s)
		if g := d.float(); f != g {
			t.Logf("strconv.ParseFloat(%s…) = %v; the nearest float64 is %v", s[:10], f, g)
		} else {
			t.Logf("strconv.ParseFloat(%s…) is now right: float can use it directly", s[:10])
		}
	}
}

// numText is a JSON number text with the value it was built from.
type numText struct {
	Text string
	neg  bool
	d    string // integer digits, no leading zeros ("0" for zero)
	q    int64  // the value is ±d × 10^q, with q on top of base
	base string // a large exponent shared by a case's numbers, or ""
}

func (n numText) String() string { return n.Text }

// genNumText generates a number ±d × 10^(base+q), d of digits from
// alphabet (so that equal values are frequent), written in one of its many
// forms: the point anywhere, trailing zeros, E or e, a "+" or leading zeros
// in the exponent.
func genNumText(alphabet string, maxDigits, maxQ int, base string) gopter.Gen {
	return gopter.CombineGens(
		gen.Bool(),
		gen.SliceOfN(maxDigits, gen.IntRange(0, len(alphabet)-1)),
		gen.IntRange(0, maxDigits),
		gen.IntRange(-maxQ, maxQ),
		gen.IntRange(0, 3),   // trailing zeros
		gen.IntRange(-2, 40), // digits after the point
		gen.UInt32(),         // exponent style
	).Map(func(v []any) numText {
		idx := v[1].([]int)[:v[2].(int)]
		var b strings.Builder
		for _, i := range idx {
			b.WriteByte(alphabet[i])
		}
		n := numText{neg: v[0].(bool), d: strings.TrimLeft(b.String(), "0"), q: int64(v[3].(int)), base: base}
		if n.d == "" {
			n.d = "0"
		}
		n.Text = render(n, v[4].(int), v[5].(int), v[6].(uint32))
		return n
	})
}

// render writes n with z trailing zeros and f digits after the point (none
// if f <= 0), in exponent style style.
func render(n numText, z, f int, style uint32) string {
	digits := n.d + strings.Repeat("0", z)
	exp := n.q - int64(z)
	if n.d == "0" {
		digits, exp = "0", n.q
	}
	f = max(f, 0)
	if f > 0 && n.d == "0" {
		digits = "0" + strings.Repeat("0", f)
	}
	if f > 0 {
		// The point f digits from the right: the exponent grows by f.
		if len(digits) <= f {
			digits = strings.Repeat("0", f-len(digits)+1) + digits
		}
		digits = digits[:len(digits)-f] + "." + digits[len(digits)-f:]
		if n.d != "0" {
			exp += int64(f)
		}
	}
	var b strings.Builder
	if n.neg {
		b.WriteByte('-')
	}
	b.WriteString(digits)
	if exp == 0 && n.base == "" && style&1 == 0 {
		return b.String()
	}
	b.WriteByte("eE"[style>>1&1])
	var e string
	if n.base != "" {
		x, _ := new(big.Int).SetString(n.base, 10)
		e = x.Add(x, big.NewInt(exp)).String()
	} else {
		e = strconv.FormatInt(exp, 10)
	}
	if strings.HasPrefix(e, "-") {
		b.WriteByte('-')
		e = e[1:]
	} else if style>>2&1 == 1 {
		b.WriteByte('+')
	}
	b.WriteString(strings.Repeat("0", int(style>>3&3)))
	b.WriteString(e)
	return b.String()
}

// ratOf is the exact value of a text with a small exponent.
func ratOf(s string) *big.Rat {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		panic("big.Rat cannot read " + s)
	}
	return r
}

// TestPropertyCompareSmall: cmp agrees with big.Rat on texts with small
// exponents, and parseDecimal accepts what a JSON parser accepts.
func TestPropertyCompareSmall(t *testing.T) {
	properties := gopter.NewProperties(testutil.PropertyParameters(1000))
	g := genNumText("0159", 6, 4, "")
	properties.Property("cmp = big.Rat comparison", prop.ForAll(
		func(a, b numText) string {
			x, ok1 := parseDecimal(a.Text)
			y, ok2 := parseDecimal(b.Text)
			if !ok1 || !ok2 {
				return fmt.Sprintf("rejected %q or %q", a.Text, b.Text)
			}
			if got, want := x.cmp(y), ratOf(a.Text).Cmp(ratOf(b.Text)); got != want {
				return fmt.Sprintf("cmp(%s, %s) = %d, big.Rat says %d", a.Text, b.Text, got, want)
			}
			return ""
		},
		g, g,
	))
	properties.Property("GenNumber texts compare as big.Rat", prop.ForAll(
		func(a, b string) string {
			x, ok1 := parseDecimal(a)
			y, ok2 := parseDecimal(b)
			if !ok1 || !ok2 {
				return fmt.Sprintf("rejected %q or %q", a, b)
			}
			if got, want := x.cmp(y), ratOf(a).Cmp(ratOf(b)); got != want {
				return fmt.Sprintf("cmp(%s, %s) = %d, big.Rat says %d", a, b, got, want)
			}
			return ""
		},
		gen.RegexMatch(`^-?(0|[1-9][0-9]{0,30})(\.[0-9]{1,20})?([eE][+-]?[0-9]{1,3})?$`),
		gen.RegexMatch(`^-?(0|[1-9][0-9]{0,30})(\.[0-9]{1,20})?([eE][+-]?[0-9]{1,3})?$`),
	))
	properties.TestingRun(t)
}

// refCompareHuge compares two numbers whose exponents are large, the
// reference way: it moves both exponents by the same amount with math/big
// on the exponents alone, which leaves small exponents that big.Rat reads.
func refCompareHuge(a, b string) int {
	split := func(s string) (string, *big.Int) {
		i := strings.IndexAny(s, "eE")
		e, _ := new(big.Int).SetString(strings.TrimPrefix(s[i+1:], "+"), 10)
		return s[:i], e
	}
	ma, ea := split(a)
	mb, eb := split(b)
	ra, rb := ratOf(ma), ratOf(mb)
	if ra.Sign() != rb.Sign() || ra.Sign() == 0 {
		return ra.Cmp(rb)
	}
	diff := new(big.Int).Sub(ea, eb)
	if !diff.IsInt64() || diff.Int64() > 1000 || diff.Int64() < -1000 {
		// The mantissas have under 50 digits: the exponent decides.
		return diff.Sign() * ra.Sign()
	}
	// a = ma × 10^diff × 10^eb, b = mb × 10^eb.
	return ratOf(ma + "e" + diff.String()).Cmp(rb)
}

// TestPropertyCompareHuge: on exponents beyond int64, some near each other
// and some not, cmp agrees with refCompareHuge.
func TestPropertyCompareHuge(t *testing.T) {
	properties := gopter.NewProperties(testutil.PropertyParameters(1000))
	bases := []string{
		"99999999999999999999", "-99999999999999999999",
		"1000000000000000000", "-1000000000000000000", "999999999999999999", "-999999999999999999",
		"9223372036854775807", "-9223372036854775808", "18446744073709551615",
		"1" + strings.Repeat("0", 40), "-1" + strings.Repeat("0", 40), "0",
	}
	gPair := gen.IntRange(0, len(bases)-1).FlatMap(func(v any) gopter.Gen {
		base := bases[v.(int)]
		return gopter.CombineGens(genNumText("0159", 5, 25, base), genNumText("0159", 5, 25, base)).
			Map(func(v []any) []numText { return []numText{v[0].(numText), v[1].(numText)} })
	}, reflect.TypeOf([]numText{}))
	gMixed := gopter.CombineGens(gen.IntRange(0, len(bases)-1), gen.IntRange(0, len(bases)-1)).FlatMap(func(v any) gopter.Gen {
		i := v.([]any)
		return gopter.CombineGens(genNumText("0159", 5, 25, bases[i[0].(int)]), genNumText("0159", 5, 25, bases[i[1].(int)])).
			Map(func(v []any) []numText { return []numText{v[0].(numText), v[1].(numText)} })
	}, reflect.TypeOf([]numText{}))
	check := func(p []numText) string {
		a, b := p[0].Text, p[1].Text
		x, ok1 := parseDecimal(a)
		y, ok2 := parseDecimal(b)
		if !ok1 || !ok2 {
			return fmt.Sprintf("rejected %q or %q", a, b)
		}
		if got, want := x.cmp(y), refCompareHuge(a, b); got != want {
			return fmt.Sprintf("cmp(%s, %s) = %d, reference says %d", a, b, got, want)
		}
		return ""
	}
	properties.Property("same large base", prop.ForAll(check, gPair))
	properties.Property("any two bases", prop.ForAll(check, gMixed))
	properties.TestingRun(t)
}

// TestPropertyFloatReading: nearestFloat is strconv.ParseFloat's float64,
// exactly expanded by big.Rat.SetFloat64; cmpFloat is cmp with that
// expansion.
func TestPropertyFloatReading(t *testing.T) {
	properties := gopter.NewProperties(testutil.PropertyParameters(1000))
	gText := gen.OneGenOf(
		gen.RegexMatch(`^-?(0|[1-9][0-9]{0,30})(\.[0-9]{1,30})?([eE][+-]?[0-9]{1,3})?$`),
		genNumText("0123456789", 20, 340, "").Map(func(n numText) string { return n.Text }),
		// Near ties and the ends of the range.
		gen.RegexMatch(`^-?(9007199254740(99[0-9]|00[0-9])(\.5|\.50*1|\.49+)?|1\.797693134862315[0-9]{1,5}e308|[24]\.[0-9]{1,20}e-324|2\.22507385850720[0-9]{1,10}e-308)$`),
	)
	properties.Property("nearestFloat = exact value of strconv.ParseFloat", prop.ForAll(
		func(s string) string {
			f, err := strconv.ParseFloat(s, 64)
			got := nearestFloat(s)
			if math.IsInf(f, 0) {
				if !got.inf || float64(got.sign) != math.Copysign(1, f) {
					return fmt.Sprintf("nearestFloat(%s) = %v, want %v (%v)", s, got, f, err)
				}
				return ""
			}
			if got.inf {
				return fmt.Sprintf("nearestFloat(%s) = %v, want %v", s, got, f)
			}
			want := new(big.Rat).SetFloat64(f)
			if ratOf(got.String()).Cmp(want) != 0 {
				return fmt.Sprintf("nearestFloat(%s) = %v, want %v", s, got, want.FloatString(60))
			}
			return ""
		},
		gText,
	))
	properties.Property("cmpReading = floatReading().cmp(bound)", prop.ForAll(
		func(a, b string) string {
			v, _ := parseDecimal(a)
			bound, _ := parseDecimal(b)
			r := newReadingBound(bound)
			for _, v := range []decimal{v, bound, r.lo, r.hi, justAbove(r.lo), justBelow(r.lo), justAbove(r.hi), justBelow(r.hi)} {
				if got, want := r.cmpReading(v), v.floatReading().cmp(bound); got != want {
					return fmt.Sprintf("cmpReading(%v) against %s = %d, want %d (reads as %v)", v, b, got, want, v.floatReading())
				}
			}
			return ""
		},
		gText, gText,
	))
	properties.TestingRun(t)
}

// justAbove and justBelow return a value a little above or below d, whose
// digits they lengthen: what sits right next to a rounding midpoint.
func justAbove(d decimal) decimal {
	if d.inf || d.sign == 0 {
		return d
	}
	if d.sign < 0 {
		return justBelow(d.neg()).neg()
	}
	d.digits += "000001"
	return d
}

func justBelow(d decimal) decimal {
	if d.inf || d.sign == 0 {
		return d
	}
	if d.sign < 0 {
		return justAbove(d.neg()).neg()
	}
	// The last digit is not 0: lower it and append nines.
	last := d.digits[len(d.digits)-1]
	d.digits = d.digits[:len(d.digits)-1] + string(last-1) + "999999"
	if strings.HasPrefix(d.digits, "0") {
		d.digits = d.digits[1:]
		d.exp = d.exp.add(-1)
	}
	return d
}

// TestReadingBound: at the ends of the float64 range, at ties and at
// bounds that are float64 values or not, cmpReading is the comparison of
// the reading.
func TestReadingBound(t *testing.T) {
	max := new(big.Rat).SetFloat64(math.MaxFloat64).FloatString(0)
	tiny := new(big.Rat).SetFloat64(math.SmallestNonzeroFloat64).FloatString(1100)
	bounds := []string{
		"0", "-0", "100", "99.99999999999999999", "0.1", "1e-400", "-1e-400", "1e400", "-1e400",
		"1e99999999999999999999", "-1e-99999999999999999999",
		max, "-" + max, "1.7976931348623158e308", "1.7976931348623159e308",
		tiny, "-" + tiny, "2.4703282292062328e-324", "2.4703282292062327e-324",
		"9007199254740992", "9007199254740993", "9007199254740994", "9007199254740995",
		"2.2250738585072014e-308", "4503599627370496.5", "4503599627370497.5",
	}
	var values []decimal
	for _, s := range bounds {
		d, ok := parseDecimal(s)
		if !ok {
			t.Fatalf("bad bound %q", s)
		}
		r := newReadingBound(d)
		values = append(values, d, r.lo, r.hi, justAbove(r.lo), justBelow(r.lo), justAbove(r.hi), justBelow(r.hi))
	}
	values = append(values, exactFloat(math.Inf(1)), exactFloat(math.Inf(-1)))
	for _, s := range bounds {
		b, _ := parseDecimal(s)
		r := newReadingBound(b)
		for _, v := range values {
			if got, want := r.cmpReading(v), v.floatReading().cmp(b); got != want {
				t.Errorf("bound %.30s: cmpReading(%.40v) = %d, want %d (reads as %.40v)", s, v, got, want, v.floatReading())
			}
		}
	}
	// The midpoints themselves: a tie goes to the even neighbour.
	b, _ := parseDecimal("9007199254740993")
	if r := newReadingBound(b); r.lo.String() != "0.90071992547409915e16" || r.hi.String() != "0.9007199254740993e16" || !r.loIn || !r.hiIn {
		t.Errorf("9007199254740993 reads as 2^53 from %v to %v (%v, %v)", r.lo, r.hi, r.loIn, r.hiIn)
	}
}

// TestDecimalLinear: parsing, comparing and reading as a float64 take
// time linear in the text, whatever its shape: a long exponent (which the
// old math/big exponent made superlinear: 7.9 s for 1.6M nines), a long
// integer part, a long run of zeros after the point.
func TestDecimalLinear(t *testing.T) {
	const n = 10_000
	shapes := []struct {
		name string
		text func(n int) string
	}{
		{"1e<nines>", func(n int) string { return "1e" + strings.Repeat("9", n) }},
		{"-1e-<nines>", func(n int) string { return "-1e-" + strings.Repeat("9", n) }},
		{"<digits>.5", func(n int) string { return strings.Repeat("7", n) + ".5" }},
		{"0.<zeros>1", func(n int) string { return "0." + strings.Repeat("0", n) + "1" }},
		{"1<zeros>e-<n>", func(n int) string { return "1" + strings.Repeat("0", n) + "e-" + strconv.Itoa(n) }},
		{"0.<zeros>1e<nines>", func(n int) string { return "0." + strings.Repeat("0", n) + "1e" + strings.Repeat("9", n) }},
	}
	for _, sh := range shapes {
		t.Run(sh.name, func(t *testing.T) {
			testutil.CheckLinear(t, n, func(n int) func() {
				a := sh.text(n)
				b := strings.Clone(a) // a different pointer: compared byte by byte
				bound, _ := parseDecimal(sh.text(n / 2))
				r := newReadingBound(bound)
				return func() {
					x, _ := parseDecimal(a)
					y, _ := parseDecimal(b)
					if x.cmp(y) != 0 {
						panic("unequal")
					}
					nearestFloat(a)
					r.cmpReading(x)
				}
			})
		})
	}
}

// BenchmarkFloatReading: the cost of a float64 reading per number, from the
// cheapest (an integer) to the dearest (a subnormal: strconv's slow path,
// and 751 digits to expand), and of cmpReading, which reads nothing.
//
//	go test -run '^$' -bench FloatReading ./policy/
func BenchmarkFloatReading(b *testing.B) {
	b100, _ := parseDecimal("100")
	bound := newReadingBound(b100)
	for _, s := range []string{"100", "99.99999999999999999", "0.1", "1e300", "2.2250738585072014e-308", "4.9e-324"} {
		b.Run("nearestFloat/"+s, func(b *testing.B) {
			for range b.N {
				nearestFloat(s)
			}
		})
		d, _ := parseDecimal(s)
		b.Run("cmpReading/"+s, func(b *testing.B) {
			for range b.N {
				bound.cmpReading(d)
			}
		})
	}
}
