package render

import (
	"bytes"
	"fmt"
	"github.com/argstream/argstream/fragment"
	"github.com/rivo/uniseg"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/toolcall"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
)

// hostileRunes are runes a prompt injection would use on a terminal.
var hostileRunes = []rune{
	0x1b, '\r', '\b', 0x07, 0x7f, '\t', '\n', '"', '\\', 0, 0x0b, 0x0c,
	0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069,
	0x200b, 0x200c, 0x200d, 0x200e, 0x200f, 0x2028, 0x2029, 0xfeff, 0x00ad, 0x061c,
	0x2060, 0x3164, 0x115f, 0xfe0f, 0x00a0, 0x3000, 0xfffe, 0xe000,
}

// hostileRune draws a rune: plain ASCII, the hostile ones, C1 controls,
// tag characters, letters and emoji, or any code point.
func hostileRune(rng *rand.Rand) rune {
	switch rng.IntN(10) {
	case 0, 1, 2:
		return rune(0x20 + rng.IntN(0x5f))
	case 3, 4:
		return hostileRunes[rng.IntN(len(hostileRunes))]
	case 5:
		return rune(0x80 + rng.IntN(0x20))
	case 6:
		return rune(0xe0000 + rng.IntN(0x80))
	case 7:
		return []rune{'é', 'ö', '中', '😀', 'ω', 'я', 'א'}[rng.IntN(7)]
	}
	for {
		if r := rune(rng.IntN(0x110000)); r < 0xd800 || r > 0xdfff {
			return r
		}
	}
}

func hostileString(rng *rand.Rand) string {
	n := rng.IntN(16)
	if rng.IntN(6) == 0 {
		n = rng.IntN(200)
	}
	var b strings.Builder
	for range n {
		b.WriteRune(hostileRune(rng))
	}
	return b.String()
}

// hostileValue builds a value at most depth levels deep of hostile keys
// and strings.
func hostileValue(rng *rand.Rand, depth int) testutil.Node {
	k := rng.IntN(7)
	if depth <= 0 {
		k = rng.IntN(4)
	}
	switch k {
	case 0, 1:
		return testutil.Node{Kind: '"', Text: hostileString(rng)}
	case 2:
		return testutil.Node{Kind: '0', Text: []string{"0", "-12", "3.5e-7", "1e400"}[rng.IntN(4)]}
	case 3:
		return testutil.Node{Kind: []byte("ntf")[rng.IntN(3)]}
	case 4:
		n := testutil.Node{Kind: '['}
		for range rng.IntN(4) {
			n.Items = append(n.Items, hostileValue(rng, depth-1))
		}
		return n
	}
	return hostileObject(rng, depth)
}

// hostileObject builds an object; its keys are distinct under case
// folding and hold no NUL, as argstream requires.
func hostileObject(rng *rand.Rand, depth int) testutil.Node {
	n := testutil.Node{Kind: '{'}
next:
	for range rng.IntN(5) {
		key := strings.ReplaceAll(hostileString(rng), "\x00", "")
		for _, k := range n.Keys {
			if strings.EqualFold(k, key) {
				continue next
			}
		}
		n.Keys = append(n.Keys, key)
		n.Items = append(n.Items, hostileValue(rng, depth-1))
	}
	return n
}

// hostileName is a tool name of random bytes, not always UTF-8.
func hostileName(rng *rand.Rand) string {
	if rng.IntN(3) == 0 {
		b := make([]byte, rng.IntN(12))
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		return string(b)
	}
	return hostileString(rng)
}

// renderCalls renders calls (names and argument texts) through a
// toolcall.Response, their chunks interleaved at random if interleave.
func renderCalls(names []string, docs [][]byte, rng *rand.Rand, interleave bool, opts ...Option) (string, []string) {
	var out bytes.Buffer
	r := New(&out, opts...)
	resp := toolcall.New(toolcall.WithSinks(r.Sink))
	var chunks [][][]byte
	for i := range docs {
		resp.Start(fragment.Call{Index: int64(i), ID: fmt.Sprint("call_", i), Name: names[i]}, nil)
		chunks = append(chunks, testutil.SplitRandom(docs[i], rng, 24))
	}
	for {
		var live []int
		for i, c := range chunks {
			if len(c) > 0 {
				live = append(live, i)
			}
		}
		if len(live) == 0 {
			break
		}
		i := live[0]
		if interleave {
			i = live[rng.IntN(len(live))]
		}
		resp.Chunk(int64(i), chunks[i][0])
		if chunks[i] = chunks[i][1:]; len(chunks[i]) == 0 {
			resp.Stop(int64(i))
		}
	}
	resp.End()
	var partials []string
	for i := range docs {
		partials = append(partials, r.Partial(int64(i)))
	}
	return out.String(), partials
}

// checkLines: no line of argument text starts at column 0, and no line is
// wider than width-1 columns (the renderer leaves the last one free).
func checkLines(out string, st Style, width int) error {
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		switch {
		case line == "", line[0] == ' ',
			strings.HasPrefix(line, "Calling tool "), strings.HasPrefix(line, "Calling an unnamed tool"),
			strings.HasPrefix(line, "⋯ "),
			st == JSON && (line == "{" || line == "}" || line == "{}"):
		default:
			return fmt.Errorf("line %q starts at column 0", line)
		}
		if w := width2(line); width > 0 && w > width-1 {
			return fmt.Errorf("line %q is %d columns wide, more than %d", line, w, width-1)
		}
	}
	return nil
}

// width2 counts the columns of a whole line as a terminal does, by
// grapheme clusters (package uniseg).
func width2(s string) int { return uniseg.StringWidth(s) }

// TestPropertyHostile: for random calls whose names, keys and values are
// full of control, format and invisible characters, in both styles, at
// several widths, some cut short, some interleaved:
//   - the output holds no byte below 0x20 but '\n', no DEL, no C1 control,
//     no bidi, format or other escaped rune, and is UTF-8; with colour on,
//     the same once the renderer's own SGR sequences are removed, and
//     without them it is exactly the output without colour;
//   - Partial holds none either;
//   - no line of argument text starts at column 0, none is too wide;
//   - a call alone gives the same output for every chunking.
func TestPropertyHostile(t *testing.T) {
	params := testutil.PropertyParameters(300)
	props := gopter.NewProperties(params)
	props.Property("hostile calls render safely", prop.ForAll(func(seed uint64) string {
		rng := rand.New(rand.NewPCG(seed, 42))
		n := 1 + rng.IntN(3)
		var names []string
		var docs [][]byte
		for range n {
			names = append(names, hostileName(rng))
			doc := testutil.Render(hostileObject(rng, 3), rng.Uint64())
			if rng.IntN(4) == 0 {
				doc = doc[:rng.IntN(len(doc)+1)] // cut short: the error is shown
			}
			docs = append(docs, doc)
		}
		st := styles[rng.IntN(2)]
		opts := []Option{WithStyle(st), WithWidth([]int{0, 30, 80}[rng.IntN(3)]), WithInline(rng.IntN(80)), asTerminal}
		width := New(nil, opts...).limit + 1
		if width == 1 {
			width = 0
		}
		interleave := n > 1 && rng.IntN(2) == 0
		cut := rng.Uint64()
		plain, partials := renderCalls(names, docs, rand.New(rand.NewPCG(cut, 1)), interleave, append(opts, WithColor(false))...)
		if err := safeText([]byte(plain), false); err != nil {
			return "plain: " + err.Error()
		}
		for _, p := range partials {
			if err := safeText([]byte(p), false); err != nil {
				return "Partial: " + err.Error()
			}
		}
		if err := checkLines(plain, st, width); err != nil {
			return err.Error()
		}
		colored, _ := renderCalls(names, docs, rand.New(rand.NewPCG(cut, 1)), interleave, append(opts, WithColor(true))...)
		if err := safeText([]byte(colored), true); err != nil {
			return "colour: " + err.Error()
		}
		if stripSGR(colored) != plain {
			return "colour: not the plain output once its SGR sequences are removed:\n" + lineDiff(plain, stripSGR(colored))
		}
		if !interleave {
			for _, c := range []uint64{cut + 1, cut + 2} {
				for _, color := range []bool{false, true} {
					again, _ := renderCalls(names, docs, rand.New(rand.NewPCG(c, 1)), false, append(opts, WithColor(color))...)
					want := plain
					if color {
						want = colored
					}
					if again != want {
						return "another chunking gives another output:\n" + lineDiff(want, again)
					}
				}
			}
		}
		return ""
	}, gen.UInt64()))
	props.TestingRun(t)
}
