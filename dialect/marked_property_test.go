package dialect

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/argstream/argstream/internal/testutil"
	gocmp "github.com/google/go-cmp/cmp"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
)

// markedProse is prose that holds no marker of any marked family, but
// near-misses of them all: the Reader must give it back byte for byte.
var markedProse = []string{"Hello", " ", "\n", "a < b", "x [y] z", `{"k": 1}`, "é😀", "<", "<|", "<｜", "[",
	"[TOOL", "<tool_cal", "<|start", "<|channel", "```", "<|tool_calls_section_begi", "<｜tool▁calls▁begi",
	"<minimax:tool_cal", "<｜DSML｜function_cal", "</tool_call>", "<|end|>", "<|call|>", "]", "}"}

// markedArgs are arguments of calls, some holding every family's markers
// in their strings.
var markedArgs = []string{`{}`, `{"city": "Paris"}`, `{"a": [1, 2.5e3, true, null, {"b": "]}"}], "c": {}}`,
	`{"s": "</tool_call><|call|><|tool_call_end|><｜tool▁call▁end｜>` + "```" + `[TOOL_CALLS][ARGS]\"\\"}`,
	`{"u": "\u00e9\ud83d\ude00 é😀", "q": "\"}]"}`, `{"n": -0.5, "e": ""}`}

var markedNames = []string{"get_weather", "a.b-c_1", "f"}

// jsonFamilies are the marked syntaxes whose arguments are JSON text.
var jsonFamilies = []Syntax{Hermes, Mistral, DeepSeekV3, DeepSeekV31, KimiK2, Harmony}

// markedFamilies are all the marked syntaxes.
var markedFamilies = append(append([]Syntax{}, jsonFamilies...), GLM45, MiniMaxM2, DeepSeekDSML)

// genMarkedMessage generates prose and well-formed calls of syn, in turn:
// the message, the prose joined, and the calls it holds.
func genMarkedMessage(syn Syntax) gopter.Gen {
	args := markedArgs
	if families[syn].tags {
		// Without a schema a tag's value is a string; and a value may not
		// hold its syntax's own tags.
		args = []string{`{}`, `{"city": "Paris"}`, `{"u": "\u00e9\ud83d\ude00 é😀", "q": "\"}]"}`, `{"s": "<|call|><｜tool▁call▁end｜>[TOOL_CALLS]"}`}
	}
	return gen.SliceOfN(6, gopter.CombineGens(
		gen.SliceOf(gen.IntRange(0, len(markedProse)-1)),
		gen.IntRange(0, len(markedNames)-1),
		gen.IntRange(0, len(args)-1),
		gen.Bool(),
	)).Map(func(parts [][]any) markedMessage {
		var m markedMessage
		var text, prose strings.Builder
		for _, p := range parts {
			for _, w := range p[0].([]int) {
				prose.WriteString(markedProse[w])
			}
			text.WriteString(prose.String())
			m.prose += prose.String()
			prose.Reset()
			if !p[3].(bool) {
				continue
			}
			name, a := markedNames[p[1].(int)], args[p[2].(int)]
			src, err := syn.Format(name, []byte(a))
			if err != nil {
				panic(err)
			}
			text.WriteString(string(src))
			m.calls = append(m.calls, [2]string{name, a})
		}
		m.text = text.String()
		return m
	})
}

type markedMessage struct {
	text, prose string
	calls       [][2]string // name, arguments
}

// TestPropertyMarked: a message of prose and calls of a JSON family gives
// back the prose byte for byte and the calls with their arguments, in one
// chunk, in 1-byte chunks and cut at random.
func TestPropertyMarked(t *testing.T) {
	for _, syn := range markedFamilies {
		t.Run(syn.String(), func(t *testing.T) {
			h := newMHarness(syn, nil)
			properties := gopter.NewProperties(testutil.PropertyParameters(300))
			properties.Property("prose and calls come back, whatever the chunking", prop.ForAll(
				func(m markedMessage, cuts []int) bool {
					in := []byte(m.text)
					whole := h.run([]string{m.text})
					if msg := checkMarked(syn, m, whole); msg != "" {
						t.Logf("%s\ninput %q", msg, m.text)
						return false
					}
					for what, o := range map[string]moutcome{
						"cut":    h.run(strs(testutil.SplitAt(in, testutil.Cuts(in, cuts)))),
						"1-byte": h.run(strs(testutil.SplitEvery(in, 1))),
					} {
						if d := gocmp.Diff(whole, o); d != "" {
							t.Logf("%s (-whole +%s):\n%s\ninput %q", what, what, d, m.text)
							return false
						}
					}
					return true
				},
				genMarkedMessage(syn), testutil.GenCuts(),
			))
			properties.TestingRun(t)
		})
	}
}

// checkMarked compares o with what m holds.
func checkMarked(syn Syntax, m markedMessage, o moutcome) string {
	if o.Err != "" || o.Text != m.prose {
		return fmt.Sprintf("text %q, error %q; want text %q", o.Text, o.Err, m.prose)
	}
	if len(o.Calls) != len(m.calls) {
		return fmt.Sprintf("%d calls %+v, want %d", len(o.Calls), o.Calls, len(m.calls))
	}
	for i, c := range o.Calls {
		var got, want any
		_ = json.Unmarshal([]byte(c.Args), &got)
		_ = json.Unmarshal([]byte(m.calls[i][1]), &want)
		if c.Name != m.calls[i][0] || !c.Executable || !gocmp.Equal(got, want) {
			return fmt.Sprintf("call %d: %+v, want %s %s", i, c, m.calls[i][0], m.calls[i][1])
		}
		if syn == KimiK2 && c.ID != "functions."+c.Name+":0" {
			return fmt.Sprintf("call %d: id %q", i, c.ID)
		}
	}
	return ""
}

// hostilePieces are what hostile messages are made of: prose, markers
// alone, cut calls and JSON debris.
func hostilePieces(syn Syntax) []string {
	f := families[syn]
	pieces := append([]string{}, markedProse...)
	pieces = append(pieces, f.opens...)
	pieces = append(pieces, f.closes...)
	pieces = append(pieces, f.call, f.term, f.closer, `{"a": 1}`, `{`, `}`, `"`, `\`, `"x":`, "\n", ",", "]",
		`{"name": "f", `, `"arguments": `, `"id": "x1"`, "functions.f:0", "f", "<|constrain|>json", " to=functions.f",
		"<|channel|>analysis", "<|channel|>final", "<|message|>", hmEnd, hmReturn, hmCall)
	for _, a := range markedArgs[:3] {
		src, _ := syn.Format("f", []byte(a))
		pieces = append(pieces, string(src), string(src[:len(src)/2]), string(src[len(src)/2:]))
	}
	return pieces
}

// TestPropertyMarkedHostile: messages of markers, debris and cut calls are
// read the same way whatever the chunking: the same text, reasoning, calls
// and errors, and the Reader never panics.
func TestPropertyMarkedHostile(t *testing.T) {
	for _, syn := range markedFamilies {
		t.Run(syn.String(), func(t *testing.T) {
			pieces := hostilePieces(syn)
			h := newMHarness(syn, nil)
			var calls, failed int
			properties := gopter.NewProperties(testutil.PropertyParameters(400))
			properties.Property("chunking changes nothing", prop.ForAll(
				func(words []int, cuts []int) bool {
					var b strings.Builder
					for _, w := range words {
						b.WriteString(pieces[w])
					}
					in := []byte(b.String())
					whole := h.run([]string{b.String()})
					calls += len(whole.Calls)
					if whole.Err != "" {
						failed++
					}
					for what, o := range map[string]moutcome{
						"cut":    h.run(strs(testutil.SplitAt(in, testutil.Cuts(in, cuts)))),
						"1-byte": h.run(strs(testutil.SplitEvery(in, 1))),
					} {
						if d := gocmp.Diff(whole, o); d != "" {
							t.Logf("%s (-whole +%s):\n%s\ninput %q", what, what, d, in)
							return false
						}
					}
					return true
				},
				gen.SliceOf(gen.IntRange(0, len(pieces)-1)), testutil.GenCuts(),
			))
			properties.TestingRun(t)
			t.Logf("%d calls, %d framing errors", calls, failed)
		})
	}
}

func strs(chunks [][]byte) []string {
	out := make([]string, len(chunks))
	for i, c := range chunks {
		out[i] = string(c)
	}
	return out
}
