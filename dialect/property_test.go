package dialect

import (
	"fmt"
	"strings"
	"testing"

	"github.com/argstream/argstream/internal/testutil"
	gocmp "github.com/google/go-cmp/cmp"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
)

// vocabulary is what messages of one syntax are made of: prose with
// near-miss fences and tags, the openings of calls (good and bad), the
// pieces of their bodies (with near-miss closings) and their closings.
type vocabulary struct {
	prose, opens, body []string
	closing            string
}

var longName = strings.Repeat("n", MaxName+1)

var vocabularies = map[Syntax]vocabulary{
	Caret: {
		prose: []string{"Hello", " ", "\n", "\r\n", "\r", "^", "^^", "^^^", "^^^\n", "^^^ f\n", "^^^f", "^^^f g\n",
			"^^^f\r", "^^^f.x\n", "x^^^f\n", "^^^^f\n", "^^^" + longName + "\n", "--- c\n", "<tool:f>"},
		opens: []string{"\n^^^write_file\n", "\n^^^f\r\n", "\n^^^read_files\n", "\n^^^a-b_c\n"},
		body: []string{"path: a\n", "content ---\n", "--- content\n", "c.d ---\r\n", "--- c.d\r\n", "^^^ \n", " ^^^\n",
			"^^^x\n", "^^^", "^^^\n", "^^^\r", "\n", "\r\n", "x", "line with ^^^ in it\n", longName + " ---\n"},
		closing: "\n^^^\n",
	},
	XML: {
		prose: []string{"a", " < ", "<", "<t", "<tool", "<tool:", "<tool:x", "<tool:x y>", "<tool:>", "</tool:x>", ">",
			"\n", "<<", "<tool:" + longName + ">", "<tool:a.b>"},
		opens:   []string{"<tool:write_file>", "<tool:f>", "<tool:a-b_c>"},
		body:    []string{"<param:p>", "v", "</param:p>", "</tool", "</to", "<", ">", "\n", "</tool:", "x>", "<tool:g>"},
		closing: "</tool:f>",
	},
	Qwen: {
		prose: []string{"text", "<tool_cal>", "<tool_call", "<", "</tool_call>", "<function=f>", "\n", "<tool_callx>", " "},
		opens: []string{"<tool_call>\n<function=get_weather>\n", "<tool_call><function=a.b>", "<tool_call>x", "<tool_call>",
			"<tool_call> <", "<tool_call>\n<function=>", "<tool_call><function=" + longName + ">", "<tool_call>\n\n<functio"},
		body:    []string{"<parameter=city>", "Paris", "</parameter>", "</function>", "</tool_call", "<", "\n", "</", ">", "<tool_call>"},
		closing: "</tool_call>",
	},
}

// genMessage generates messages of syntax: prose, then 0 to 3 calls, each
// followed by prose; the last call closed, closed by the end of the text
// (Caret), or left open.
func genMessage(syntax Syntax) gopter.Gen {
	v := vocabularies[syntax]
	words := func(n int) gopter.Gen { return gen.SliceOf(gen.IntRange(0, n-1)) }
	return gopter.CombineGens(
		gen.SliceOfN(4, words(len(v.prose))),
		gen.IntRange(0, 3),
		gen.SliceOfN(3, gen.IntRange(0, len(v.opens)-1)),
		gen.SliceOfN(3, words(len(v.body))),
		gen.IntRange(0, 2),
	).Map(func(g []any) string {
		prose, n, opens, bodies, end := g[0].([][]int), g[1].(int), g[2].([]int), g[3].([][]int), g[4].(int)
		var b strings.Builder
		join := func(ws []int, from []string) {
			for _, w := range ws {
				b.WriteString(from[w])
			}
		}
		join(prose[0], v.prose)
		for k := range n {
			b.WriteString(v.opens[opens[k]])
			join(bodies[k], v.body)
			switch {
			case k < n-1 || end == 0:
				b.WriteString(v.closing)
				join(prose[k+1], v.prose)
			case end == 1:
				b.WriteString(strings.TrimSuffix(v.closing, "\n"))
			}
		}
		return b.String()
	})
}

// TestPropertyChunking: for messages of near-misses and calls, the Reader
// frames the text as the reference framing (reference_test.go) does, the
// pieces joined are the input, and a random chunking, and 1-byte chunks,
// give what one chunk gives: the same merged pieces, sources and Results.
func TestPropertyChunking(t *testing.T) {
	for _, syntax := range []Syntax{Caret, XML, Qwen} {
		t.Run(syntax.String(), func(t *testing.T) {
			h := newHarness(syntax) // reused: Reset must forget everything
			var calls, messages int
			properties := gopter.NewProperties(testutil.PropertyParameters(500))
			properties.Property("frames as the reference does, whatever the chunking", prop.ForAll(
				func(msg string, cuts []int) bool {
					in := []byte(msg)
					whole := h.run([][]byte{in})
					calls += len(whole.Calls)
					messages++
					report := func(what string, o outcome) bool {
						if s := consistent(in, o); s != "" {
							t.Logf("%s: %s", what, s)
							return false
						}
						if diff := gocmp.Diff(whole, o, gocmp.AllowUnexported(outcome{})); diff != "" {
							t.Logf("%s: (-one chunk +%s)\n%s\ninput %q", what, what, diff, in)
							return false
						}
						return true
					}
					if s := againstReference(syntax, msg, whole); s != "" {
						t.Log(s)
						return false
					}
					return report("one chunk", whole) &&
						report(fmt.Sprintf("cuts %v", testutil.Cuts(in, cuts)), h.run(testutil.SplitAt(in, testutil.Cuts(in, cuts)))) &&
						report("1-byte chunks", h.run(testutil.SplitEvery(in, 1)))
				},
				genMessage(syntax), testutil.GenCuts(),
			))
			properties.TestingRun(t)
			t.Logf("%d calls in %d messages", calls, messages)
			if calls < messages/2 {
				t.Errorf("only %d calls in %d messages: the generator makes too few", calls, messages)
			}
		})
	}
}
