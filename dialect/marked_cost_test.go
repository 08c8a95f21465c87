package dialect

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/toolcall"
	gocmp "github.com/google/go-cmp/cmp"
)

// markedMessageOf returns a message of a JSON family with n lines of prose,
// with near-misses, and a call whose arguments hold n strings that hold the
// family's markers, twice.
func markedMessageOf(syn Syntax, n int) []byte {
	prose := strings.Join(markedProse[:12], "") + "\n"
	var args strings.Builder
	args.WriteString(`{"path": "src/main.rs", "lines": [`)
	for i := range n {
		if i > 0 {
			args.WriteString(", ")
		}
		if families[syn].tags {
			args.WriteString(`"a line with <|call|> ` + "```" + ` and \"quotes\""`) // no tag of its own
		} else {
			args.WriteString(`"a line with </tool_call> <|call|> <｜tool▁call▁end｜> ` + "```" + ` and \"quotes\""`)
		}
	}
	args.WriteString("]}")
	call, err := syn.Format("write_file", []byte(args.String()))
	if err != nil {
		panic(err)
	}
	return []byte(strings.Repeat(strings.Repeat(prose, n)+string(call)+"\n", 2))
}

// markedReaderFor returns a func that reads chunks as one message of syn,
// with the family's own tokenizers, and checks that every call is
// executable.
func markedReaderFor(t testing.TB, syn Syntax) func(chunks [][]byte) {
	calls := toolcall.New(toolcall.WithStreamOptions(argstream.WithTokenizer(syn.Tokenizer(nil))))
	var textBytes int
	r := NewReader(syn, calls, OnText(func(b []byte) { textBytes += len(b) }), OnReasoning(func(b []byte) { textBytes += len(b) }))
	return func(chunks [][]byte) {
		r.Reset()
		calls.Reset()
		for _, c := range chunks {
			if _, err := r.Write(c); err != nil {
				t.Fatal(err)
			}
		}
		if err := r.Close(); err != nil {
			t.Fatal(err)
		}
		for _, res := range calls.End() {
			if !res.Executable {
				t.Fatalf("call %+v", res)
			}
		}
	}
}

// TestMarkedAllocs: once warm, a Reader of a marked family, with its
// Response and tokenizers, allocates nothing per chunk, per message or per
// call.
func TestMarkedAllocs(t *testing.T) {
	if testing.CoverMode() != "" {
		t.Skip("coverage instrumentation allocates")
	}
	for _, syn := range markedFamilies {
		t.Run(syn.String(), func(t *testing.T) {
			run := markedReaderFor(t, syn)
			allocs := func(n int) float64 {
				chunks := testutil.SplitEvery(markedMessageOf(syn, n), 7)
				run(chunks)
				return testing.AllocsPerRun(20, func() { run(chunks) })
			}
			const small, large = 10, 1000
			if a, b := allocs(small), allocs(large); a > 0 || b > 0 {
				t.Errorf("%v allocations for a message of %d lines, %v for %d, want 0", a, small, b, large)
			}
		})
	}
}

// TestMarkedLinear checks invariant 9 for the marked families: long prose
// of near-miss markers, long arguments full of markers in strings, and
// debris that fails matches over and over ("```" repeats its first byte),
// cost time linear in their size, in 16-byte chunks.
func TestMarkedLinear(t *testing.T) {
	shapes := []struct {
		name string
		syn  Syntax
		make func(n int) string
	}{
		{"hermes prose", Hermes, func(n int) string { return strings.Repeat("a <tool_cal b\n", n/14) }},
		{"kimi near-miss sections", KimiK2, func(n int) string { return strings.Repeat("<|tool_calls_section_begi", n/25) }},
		{"deepseek-v3 backticks", DeepSeekV3, func(n int) string {
			return dsCallsBegin + dsCallBegin + "function" + dsSep + "f\n```json\n{\"a\": 1}" + strings.Repeat("``", n/2)
		}},
		{"deepseek-v31 long arguments", DeepSeekV31, func(n int) string {
			return dsCallsBegin + dsCallBegin + "f" + dsSep + `{"a": "` + strings.Repeat(`<｜tool▁call▁end｜>\"`, n/22) + `"}` + dsCallEnd + dsCallsEnd
		}},
		{"mistral deep arguments", Mistral, func(n int) string {
			return "[TOOL_CALLS]f[ARGS]" + strings.Repeat(`{"a": [`, 40) + strings.Repeat(`"]}", `, n/6) + `0` + strings.Repeat(`]}`, 40)
		}},
		{"minimax long call", MiniMaxM2, func(n int) string {
			return mmSection + `<invoke name="f"><parameter name="p">` + strings.Repeat("</invok </inv <<", n/16) + "</parameter></invoke>" + mmSectionEnd
		}},
		{"glm near-miss names", GLM45, func(n int) string {
			return strings.Repeat("<tool_call>"+strings.Repeat("n", MaxName)+"x", n/(MaxName+12))
		}},
		{"harmony reasoning", Harmony, func(n int) string {
			return "<|channel|>analysis<|message|>" + strings.Repeat("<|en <|retur <|cal ", n/19) + hmEnd
		}},
	}
	for _, s := range shapes {
		t.Run(s.name, func(t *testing.T) {
			calls := toolcall.New(toolcall.WithStreamOptions(argstream.WithTokenizer(s.syn.Tokenizer(nil))))
			r := NewReader(s.syn, calls, OnText(func([]byte) {}))
			testutil.CheckLinear(t, 16<<10, func(n int) func() {
				chunks := testutil.SplitEvery([]byte(s.make(n)), 16)
				return func() {
					r.Reset()
					calls.Reset()
					for _, c := range chunks {
						r.Write(c)
					}
					r.Close()
					calls.End()
				}
			})
		})
	}
}

// FuzzMarked: no input, in no marked family and no chunking, makes the
// Reader panic or read it otherwise than in one chunk.
//
//	go test -fuzz FuzzMarked ./dialect/
func FuzzMarked(f *testing.F) {
	for k, syn := range markedFamilies {
		for _, p := range hostilePieces(syn) {
			f.Add([]byte(p), uint8(k), uint64(len(p)))
		}
		f.Add(markedMessageOf(syn, 2), uint8(k), uint64(7))
	}
	harnesses := map[Syntax]*mharness{}
	f.Fuzz(func(t *testing.T, in []byte, family uint8, seed uint64) {
		syn := markedFamilies[int(family)%len(markedFamilies)]
		h := harnesses[syn]
		if h == nil {
			h = newMHarness(syn, nil)
			harnesses[syn] = h
		}
		whole := h.run([]string{string(in)})
		chunks := testutil.SplitRandom(in, rand.New(rand.NewPCG(seed, seed>>32)), 1+int(seed%17))
		if diff := gocmp.Diff(whole, h.run(strs(chunks))); diff != "" {
			t.Fatalf("%v, %d chunks: (-one chunk +chunks)\n%s", syn, len(chunks), diff)
		}
	})
}

func BenchmarkMarkedReader(b *testing.B) {
	for _, syn := range markedFamilies {
		b.Run(syn.String(), func(b *testing.B) {
			in := markedMessageOf(syn, 1000)
			chunks := testutil.SplitEvery(in, 7)
			run := markedReaderFor(b, syn)
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			for b.Loop() {
				run(chunks)
			}
		})
	}
}
