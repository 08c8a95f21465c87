package testutil

import (
	"fmt"
	"math/rand/v2"
	"reflect"
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

// GenRune generates runes of every kind a string can hold: ASCII, characters
// that must be escaped, every UTF-8 length, non-characters and separators.
func GenRune() gopter.Gen {
	return gen.OneGenOf(
		gen.RuneRange('a', 'z'),
		gen.RuneRange(' ', '~'),
		gen.OneConstOf('"', '\\', '/', '\n', '\t', '\r', '\b', '\f', rune(0), rune(0x1f), rune(0x7f)),
		gen.RuneRange(0x80, 0x7ff),
		gen.RuneRange(0x800, 0xd7ff),
		gen.RuneRange(0xe000, 0xfffd),
		gen.RuneRange(0x10000, 0x10ffff),
		gen.OneConstOf('é', 'ö', '😀', '\u2028', '\u2029', '\ufeff', '\uffff', rune(0x10ffff)),
	)
}

// GenString generates strings, mostly short, sometimes hundreds of runes.
func GenString() gopter.Gen {
	return gen.OneGenOf(
		gen.IntRange(0, 12),
		gen.IntRange(0, 12),
		gen.IntRange(0, 400),
	).FlatMap(func(n any) gopter.Gen {
		return gen.SliceOfN(n.(int), GenRune()).Map(func(rs []rune) string { return string(rs) })
	}, reflect.TypeOf(""))
}

// GenNumber generates JSON number text: zero, big and negative integers,
// fractions and exponents.
func GenNumber() gopter.Gen {
	return gen.RegexMatch(`^-?(0|[1-9][0-9]{0,30})(\.[0-9]{1,20})?([eE][+-]?[0-9]{1,5})?$`)
}

// GenValue generates values nested at most depth levels deep.
func GenValue(depth int) gopter.Gen {
	scalar := gen.OneGenOf(
		GenString().Map(func(s string) Node { return Node{Kind: '"', Text: s} }),
		GenNumber().Map(func(s string) Node { return Node{Kind: '0', Text: s} }),
		gen.OneConstOf(Node{Kind: 'n'}, Node{Kind: 't'}, Node{Kind: 'f'}, Node{Kind: '"'}),
	)
	if depth <= 0 {
		return scalar
	}
	inner := GenValue(depth - 1)
	nodeType := reflect.TypeOf(Node{})
	array := gen.IntRange(0, 5).FlatMap(func(n any) gopter.Gen {
		return gen.SliceOfN(n.(int), inner, nodeType).Map(func(items []Node) Node {
			return Node{Kind: '[', Items: items}
		})
	}, nodeType)
	object := gen.IntRange(0, 5).FlatMap(func(n any) gopter.Gen {
		return gopter.CombineGens(gen.SliceOfN(n.(int), GenString()), gen.SliceOfN(n.(int), inner, nodeType)).
			Map(func(v []any) Node { return object(v[0].([]string), v[1].([]Node)) })
	}, nodeType)
	return gen.OneGenOf(scalar, scalar, array, object)
}

// object builds an object node, dropping the keys argstream rejects (see
// Valid): repeated keys, also under case folding, and keys holding U+0000.
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
	return genConfusableKeys(depth, 30)
}

func genConfusableKeys(depth, keys int) gopter.Gen {
	nodeType := reflect.TypeOf(Node{})
	value := gen.OneGenOf(GenNumber().Map(func(s string) Node { return Node{Kind: '0', Text: s} }),
		gen.OneConstOf(Node{Kind: 'n'}, Node{Kind: '"', Text: "x"}, Node{Kind: '['}, Node{Kind: '{'}))
	if depth > 1 {
		value = gen.OneGenOf(value, genConfusableKeys(depth-1, 6))
	}
	pool := len(confusableKeys) + 100
	return gen.IntRange(0, keys).FlatMap(func(n any) gopter.Gen {
		return gopter.CombineGens(gen.SliceOfN(n.(int), gen.IntRange(0, pool-1)), gen.SliceOfN(n.(int), value, nodeType)).
			Map(func(v []any) Node {
				o := Node{Kind: '{'}
				for j, i := range v[0].([]int) {
					k := fmt.Sprintf("key%03d", i)
					if i < len(confusableKeys) {
						k = confusableKeys[i]
					}
					if !slices.Contains(o.Keys, k) {
						o.Keys = append(o.Keys, k)
						o.Items = append(o.Items, v[1].([]Node)[j])
					}
				}
				return o
			})
	}, nodeType)
}

// GenDeep generates values nested up to maxDepth arrays and objects deep.
func GenDeep(maxDepth int) gopter.Gen {
	return gopter.CombineGens(gen.SliceOf(gen.Bool()), gen.IntRange(1, maxDepth), GenValue(0)).Map(func(v []any) Node {
		kinds, depth, n := v[0].([]bool), v[1].(int), v[2].(Node)
		for i := range depth {
			if i < len(kinds) && kinds[i] {
				n = Node{Kind: '{', Keys: []string{fmt.Sprint("k", i)}, Items: []Node{n}}
			} else {
				n = Node{Kind: '[', Items: []Node{n}}
			}
		}
		return n
	})
}

// GenDoc generates JSON text for values from g, with random whitespace and
// random (valid) ways of escaping strings.
func GenDoc(g gopter.Gen) gopter.Gen {
	return gopter.CombineGens(g, gen.UInt64()).Map(func(v []any) Doc {
		n := v[0].(Node)
		return Doc{Value: n, Text: Render(n, v[1].(uint64))}
	})
}

// GenCuts generates cut offsets for SplitAt, taken modulo the input length.
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
