package testutil

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"unicode/utf16"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
)

// Node is a JSON value to generate text from.
type Node struct {
	Kind  byte   // 'n' null, 't' true, 'f' false, '0' number, '"' string, '[' array, '{' object
	Text  string // a number's text, or a string's decoded content
	Keys  []string
	Items []Node // array elements, or object member values (with Keys)
}

// Doc is generated JSON text with the value it encodes.
type Doc struct {
	Value Node
	Text  []byte
}

func (d Doc) String() string { return string(d.Text) }

// The generators below draw their values straight from gopter's random
// source rather than composing gen.SliceOfN, gen.OneGenOf and Map: those go
// through reflection for every rune and every node, which took most of the
// property tests' time. Nothing is lost in shrinking: gopter drops the
// shrinker of a Map to another type, so documents never shrank.

// runeKinds are the kinds of rune [GenRune] draws, each as likely as the
// next: a range from lo to hi, or one of some runes.
var runeKinds = []struct {
	lo, hi rune
	one    []rune
}{
	{lo: 'a', hi: 'z'},
	{lo: ' ', hi: '~'},
	{one: []rune{'"', '\\', '/', '\n', '\t', '\r', '\b', '\f', 0, 0x1f, 0x7f}},
	{lo: 0x80, hi: 0x7ff},
	{lo: 0x800, hi: 0xd7ff},
	{lo: 0xe000, hi: 0xfffd},
	{lo: 0x10000, hi: 0x10ffff},
	{one: []rune{'é', 'ö', '😀', '\u2028', '\u2029', '\ufeff', '\uffff', 0x10ffff}},
}

// randRune draws a rune of one of runeKinds.
func randRune(p *gopter.GenParameters) rune {
	k := runeKinds[p.Rng.Intn(len(runeKinds))]
	if k.one != nil {
		return k.one[p.Rng.Intn(len(k.one))]
	}
	return k.lo + rune(p.Rng.Int63n(int64(k.hi-k.lo)+1))
}

// GenRune generates runes of every kind a string can hold: ASCII, characters
// that must be escaped, every UTF-8 length, non-characters and separators.
func GenRune() gopter.Gen {
	return func(p *gopter.GenParameters) *gopter.GenResult {
		return gopter.NewGenResult(randRune(p), gopter.NoShrinker)
	}
}

// randString draws a string of up to 12 runes two times in three, and of
// up to 400 the third.
func randString(p *gopter.GenParameters) string {
	n := p.Rng.Intn(13)
	if p.Rng.Intn(3) == 0 {
		n = p.Rng.Intn(401)
	}
	rs := make([]rune, n)
	for i := range rs {
		rs[i] = randRune(p)
	}
	return string(rs)
}

// GenString generates strings of [GenRune]'s runes, mostly short, sometimes
// hundreds of runes. A failing string shrinks by dropping runes.
func GenString() gopter.Gen {
	return func(p *gopter.GenParameters) *gopter.GenResult {
		return gopter.NewGenResult(randString(p), gen.StringShrinker)
	}
}

// numberPattern is what [GenNumber] generates.
const numberPattern = `^-?(0|[1-9][0-9]{0,30})(\.[0-9]{1,20})?([eE][+-]?[0-9]{1,5})?$`

// randNumber draws number text matching numberPattern, each optional part
// there or not with even chances, and a run of min to max digits one digit
// longer than min with chance 1/2, two with 1/4 and so on, as
// gen.RegexMatch(numberPattern) does.
func randNumber(p *gopter.GenParameters) string {
	var b []byte
	coin := func() bool { return p.Rng.Intn(2) == 0 }
	digits := func(lo, hi int) {
		for n := 0; n < lo || n < hi && coin(); n++ {
			b = append(b, byte('0'+p.Rng.Intn(10)))
		}
	}
	if coin() {
		b = append(b, '-')
	}
	if coin() {
		b = append(b, '0')
	} else {
		b = append(b, byte('1'+p.Rng.Intn(9)))
		digits(0, 30)
	}
	if coin() {
		b = append(b, '.')
		digits(1, 20)
	}
	if coin() {
		b = append(b, "eE"[p.Rng.Intn(2)])
		if coin() {
			b = append(b, "+-"[p.Rng.Intn(2)])
		}
		digits(1, 5)
	}
	return string(b)
}

// GenNumber generates JSON number text: zero, big and negative integers,
// fractions and exponents (numberPattern). A failing number shrinks by
// dropping bytes, keeping only what still matches.
func GenNumber() gopter.Gen {
	match := regexp.MustCompile(numberPattern).MatchString
	return func(p *gopter.GenParameters) *gopter.GenResult {
		r := gopter.NewGenResult(randNumber(p), gen.StringShrinker)
		r.Sieve = func(v any) bool { return match(v.(string)) }
		return r
	}
}

// randScalar draws a string, a number or one of null, true, false and "",
// each kind a third of the time.
func randScalar(p *gopter.GenParameters) Node {
	switch p.Rng.Intn(3) {
	case 0:
		return Node{Kind: '"', Text: randString(p)}
	case 1:
		return Node{Kind: '0', Text: randNumber(p)}
	}
	return []Node{{Kind: 'n'}, {Kind: 't'}, {Kind: 'f'}, {Kind: '"'}}[p.Rng.Intn(4)]
}

// randValue draws a value nested at most depth levels deep: at each level
// a scalar half of the time, else an array or an object of up to 5 members.
func randValue(p *gopter.GenParameters, depth int) Node {
	if depth <= 0 {
		return randScalar(p)
	}
	switch p.Rng.Intn(4) {
	case 2:
		items := make([]Node, p.Rng.Intn(6))
		for i := range items {
			items[i] = randValue(p, depth-1)
		}
		return Node{Kind: '[', Items: items}
	case 3:
		n := p.Rng.Intn(6)
		keys, values := make([]string, n), make([]Node, n)
		for i := range keys {
			keys[i] = randString(p)
		}
		for i := range values {
			values[i] = randValue(p, depth-1)
		}
		return object(keys, values)
	}
	return randScalar(p)
}

// GenValue generates values nested at most depth levels deep.
func GenValue(depth int) gopter.Gen {
	return func(p *gopter.GenParameters) *gopter.GenResult {
		return gopter.NewGenResult(randValue(p, depth), gopter.NoShrinker)
	}
}

// object builds an object node, dropping the keys argstream rejects (see
// [Valid]): repeated keys, also under case folding, and keys holding U+0000.
func object(keys []string, values []Node) Node {
	o := Node{Kind: '{'}
	for i, k := range keys {
		if !strings.ContainsRune(k, 0) && !slices.ContainsFunc(o.Keys, func(e string) bool { return strings.EqualFold(e, k) }) {
			o.Keys = append(o.Keys, k)
			o.Items = append(o.Items, values[i])
		}
	}
	return o
}

// confusableKeys are object keys that a tool runtime would confuse with
// another of them (equal under case folding, or holding U+0000), and some
// that only look as if it would.
var confusableKeys = []string{
	"path", "PATH", "Path", "k", "K", "\u212a", "ǅ", "ǆ", "Ǆ", "σ", "ς", "Σ",
	"straße", "STRASSE", "STRAẞE", "i", "İ", "ı", "path\x00", "", "é", "É",
}

// GenConfusableKeys generates objects, nested at most depth levels deep, of
// keys drawn from confusableKeys and from 100 distinct ones, with small
// values: objects that argstream often rejects for a key, and often
// accepts. The outermost object has up to 30 keys, so that it may outgrow a
// linear key check, the others up to 6. Exact repeats are dropped, keys
// that a tool would confuse are not.
func GenConfusableKeys(depth int) gopter.Gen {
	return func(p *gopter.GenParameters) *gopter.GenResult {
		return gopter.NewGenResult(randConfusableKeys(p, depth, 30), gopter.NoShrinker)
	}
}

// randConfusableKeys draws an object of up to keys members for
// [GenConfusableKeys]. A value is an object again half of the time when depth
// allows, else a number half of the time, else one of null, "x", [] and {}.
func randConfusableKeys(p *gopter.GenParameters, depth, keys int) Node {
	n := p.Rng.Intn(keys + 1)
	names := make([]int, n)
	for j := range names {
		names[j] = p.Rng.Intn(len(confusableKeys) + 100)
	}
	o := Node{Kind: '{'}
	for _, i := range names {
		var v Node
		switch {
		case depth > 1 && p.Rng.Intn(2) == 1:
			v = randConfusableKeys(p, depth-1, 6)
		case p.Rng.Intn(2) == 0:
			v = Node{Kind: '0', Text: randNumber(p)}
		default:
			v = []Node{{Kind: 'n'}, {Kind: '"', Text: "x"}, {Kind: '['}, {Kind: '{'}}[p.Rng.Intn(4)]
		}
		k := fmt.Sprintf("key%03d", i)
		if i < len(confusableKeys) {
			k = confusableKeys[i]
		}
		if !slices.Contains(o.Keys, k) {
			o.Keys = append(o.Keys, k)
			o.Items = append(o.Items, v)
		}
	}
	return o
}

// GenDeep generates values nested up to maxDepth arrays and objects deep:
// a scalar in a chain of arrays and single-member objects. The first few
// levels are objects half of the time, the others arrays: how many is drawn
// as [gen.SliceOf] draws a slice's length (below GenParameters.MaxSize).
func GenDeep(maxDepth int) gopter.Gen {
	return func(p *gopter.GenParameters) *gopter.GenResult {
		mixed := 0
		if p.MaxSize > p.MinSize {
			mixed = p.MinSize + p.Rng.Intn(p.MaxSize-p.MinSize)
		} else {
			mixed = p.MaxSize
		}
		depth := 1 + p.Rng.Intn(maxDepth)
		n := randScalar(p)
		for i := range depth {
			if i < mixed && p.NextBool() {
				n = Node{Kind: '{', Keys: []string{fmt.Sprint("k", i)}, Items: []Node{n}}
			} else {
				n = Node{Kind: '[', Items: []Node{n}}
			}
		}
		return gopter.NewGenResult(n, gopter.NoShrinker)
	}
}

// GenDoc generates JSON text for values from g, with random whitespace and
// random (valid) ways of escaping strings.
func GenDoc(g gopter.Gen) gopter.Gen {
	return func(p *gopter.GenParameters) *gopter.GenResult {
		v, ok := g(p).Retrieve()
		if !ok {
			return &gopter.GenResult{Shrinker: gopter.NoShrinker, ResultType: reflect.TypeOf(Doc{})}
		}
		n := v.(Node)
		return gopter.NewGenResult(Doc{Value: n, Text: Render(n, p.NextUint64())}, gopter.NoShrinker)
	}
}

// GenCuts generates cut offsets for [SplitAt], taken modulo the input length.
func GenCuts() gopter.Gen {
	return gen.SliceOf(gen.IntRange(0, 1<<20))
}

// Cuts maps generated cut offsets into data's range.
func Cuts(data []byte, cuts []int) []int {
	out := make([]int, len(cuts))
	for i, c := range cuts {
		out[i] = c % (len(data) + 1)
	}
	return out
}

// Render writes n as JSON text; style picks whitespace and escapes.
func Render(n Node, style uint64) []byte {
	r := renderer{rng: rand.New(rand.NewPCG(style, style>>32|1))}
	r.spaced = r.rng.IntN(3) == 0
	r.escapes = r.rng.IntN(4)
	r.value(n)
	r.space()
	return []byte(r.b.String())
}

type renderer struct {
	b       strings.Builder
	rng     *rand.Rand
	spaced  bool // put whitespace between tokens
	escapes int  // how often optional escapes are used: 0 never .. 3 often
}

func (r *renderer) space() {
	if r.spaced && r.rng.IntN(2) == 0 {
		r.b.WriteString([]string{" ", "\n", "\t", "\r\n", "   ", "\n  "}[r.rng.IntN(6)])
	}
}

func (r *renderer) value(n Node) {
	r.space()
	switch n.Kind {
	case 'n':
		r.b.WriteString("null")
	case 't':
		r.b.WriteString("true")
	case 'f':
		r.b.WriteString("false")
	case '0':
		r.b.WriteString(n.Text)
	case '"':
		r.str(n.Text)
	case '[':
		r.b.WriteByte('[')
		for i, it := range n.Items {
			if i > 0 {
				r.space()
				r.b.WriteByte(',')
			}
			r.value(it)
		}
		r.space()
		r.b.WriteByte(']')
	case '{':
		r.b.WriteByte('{')
		for i, k := range n.Keys {
			if i > 0 {
				r.space()
				r.b.WriteByte(',')
			}
			r.space()
			r.str(k)
			r.space()
			r.b.WriteByte(':')
			r.value(n.Items[i])
		}
		r.space()
		r.b.WriteByte('}')
	}
}

func (r *renderer) str(s string) {
	r.b.WriteByte('"')
	for _, c := range s {
		optional := r.escapes > 0 && r.rng.IntN(8) < r.escapes
		switch {
		case c == '"' || c == '\\':
			r.b.WriteByte('\\')
			r.b.WriteRune(c)
		case c == '/' && optional:
			r.b.WriteString(`\/`)
		case c < 0x20 || optional:
			r.escape(c)
		default:
			r.b.WriteRune(c)
		}
	}
	r.b.WriteByte('"')
}

// escape writes c as an escape sequence, short or \u, in random case.
func (r *renderer) escape(c rune) {
	short := map[rune]string{'\n': `\n`, '\t': `\t`, '\r': `\r`, '\b': `\b`, '\f': `\f`}
	if e, ok := short[c]; ok && r.rng.IntN(2) == 0 {
		r.b.WriteString(e)
		return
	}
	format := `\u%04x`
	if r.rng.IntN(2) == 0 {
		format = `\u%04X`
	}
	if c > 0xffff {
		hi, lo := utf16.EncodeRune(c)
		fmt.Fprintf(&r.b, format+format, hi, lo)
		return
	}
	fmt.Fprintf(&r.b, format, c)
}

// GenArgs generates tool call arguments: JSON objects of depth up to 2,
// with random white space and escapes; a value that is not an object is
// wrapped in one, as {"arg": value}.
func GenArgs() gopter.Gen {
	return GenDoc(GenValue(2).Map(func(n Node) Node {
		if n.Kind == '{' {
			return n
		}
		return Node{Kind: '{', Keys: []string{"arg"}, Items: []Node{n}}
	}))
}
