package dialect

import (
	"strings"
	"testing"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/toolcall"
)

// message returns a message of syntax with n lines of prose, with
// near-misses, and a call with n lines of body, twice.
func message(syntax Syntax, n int) []byte {
	var prose, body string
	var open, closing string
	switch syntax {
	case Caret:
		prose, body = "Some prose ^^^ with a caret or two,\n^^^and a near miss\n", "line: v\ncontent ---\n^^^\n--- content\n"
		open, closing = "^^^write_file\n", "^^^\n"
	case XML:
		prose, body = "a < b and <tool <tool:x y> near misses\n", "<param:c>line</tool, not </to the end</param:c>\n"
		open, closing = "<tool:write_file>", "</tool:write_file>"
	default:
		prose, body = "a < b and <tool_cal> near misses\n", "<parameter=c>line</tool_call, not the end</parameter>\n"
		open, closing = "<tool_call>\n<function=write_file>\n", "</function>\n</tool_call>"
	}
	call := open + strings.Repeat(body, n) + closing
	return []byte(strings.Repeat(strings.Repeat(prose, n)+call+"\n", 2))
}

// readerFor returns a Reader, with no-op callbacks, over a Response whose
// calls use sourceTokenizer, and a func that reads chunks as one message.
func readerFor(t testing.TB, syntax Syntax) func(chunks [][]byte) {
	calls := toolcall.New(toolcall.WithStreamOptions(argstream.WithTokenizer(newSourceTokenizer(syntax))))
	var textBytes int
	r := NewReader(syntax, calls, OnText(func(b []byte) { textBytes += len(b) }), OnSource(func(int64, []byte) {}))
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

// TestAllocs: once warm, a Reader allocates nothing per chunk, whatever
// the syntax, nor per message and per call (with a warm Response and
// tool names seen before).
func TestAllocs(t *testing.T) {
	if testing.CoverMode() != "" {
		t.Skip("coverage instrumentation allocates")
	}
	for _, syntax := range []Syntax{Caret, XML, Qwen} {
		t.Run(syntax.String(), func(t *testing.T) {
			run := readerFor(t, syntax)
			allocs := func(n int) float64 {
				chunks := testutil.SplitEvery(message(syntax, n), 7)
				run(chunks) // warm the Response's pools and the tokenizers' memory
				return testing.AllocsPerRun(20, func() { run(chunks) })
			}
			const small, large = 10, 1000
			a, b := allocs(small), allocs(large)
			t.Logf("allocations per message: %v with %d lines, %v with %d", a, small, b, large)
			if a > 0 || b > 0 {
				t.Errorf("%v allocations for a message of %d lines, %v for %d, want 0", a, small, b, large)
			}
		})
	}
}

// TestWriteStringAllocs: WriteString copies into the Reader's memory, and
// so does not allocate per string either.
func TestWriteStringAllocs(t *testing.T) {
	if testing.CoverMode() != "" {
		t.Skip("coverage instrumentation allocates")
	}
	calls := toolcall.New(toolcall.WithStreamOptions(argstream.WithTokenizer(newSourceTokenizer(Caret))))
	r := NewReader(Caret, calls)
	msg := string(message(Caret, 10))
	run := func() {
		r.Reset()
		calls.Reset()
		for i := 0; i < len(msg); i += 5 {
			r.WriteString(msg[i:min(i+5, len(msg))])
		}
		r.Close()
		calls.End()
	}
	run()
	if n := testing.AllocsPerRun(20, run); n > 0 {
		t.Errorf("%v allocations per message", n)
	}
}

// TestLinear checks invariant 9 (docs/design.md, "Invariants": linear for
// every input) for the Reader: long prose and long calls, full of
// near-misses, given in 16-byte chunks, cost time linear in their size. Each
// shape is a way a message can be long.
func TestLinear(t *testing.T) {
	name := strings.Repeat("n", MaxName)
	shapes := []struct {
		name   string
		syntax Syntax
		make   func(n int) string
	}{
		{"caret prose", Caret, func(n int) string { return strings.Repeat("prose ^^^ and words\n", n/20) }},
		{"caret near-miss fences", Caret, func(n int) string { return strings.Repeat("^^^"+name+"x\n", n/(len(name)+5)) }},
		{"caret one long line", Caret, func(n int) string { return strings.Repeat("x", n) }},
		{"caret long body lines", Caret, func(n int) string {
			return "^^^f\n" + strings.Repeat("k: "+strings.Repeat("v", 1000)+"\n", n/1004) + "^^^\n"
		}},
		{"caret multi-line values", Caret, func(n int) string {
			return "^^^f\n" + strings.Repeat(name+" ---\n^^^\n--- "+name+"\n", n/(2*len(name)+14)) + "^^^\n"
		}},
		{"xml prose", XML, func(n int) string { return strings.Repeat("a < b <tool:x y>\n", n/17) }},
		{"xml near-miss tags", XML, func(n int) string { return strings.Repeat("<tool:"+name+"x", n/(len(name)+7)) }},
		{"xml long call", XML, func(n int) string { return "<tool:f>" + strings.Repeat("</tool </to<<v", n/14) + "</tool:f>" }},
		{"xml long closing name", XML, func(n int) string { return "<tool:f></tool:" + strings.Repeat("f", n) + ">" }},
		{"qwen prose", Qwen, func(n int) string { return strings.Repeat("a <tool_cal> b\n", n/15) }},
		{"qwen long call", Qwen, func(n int) string {
			return "<tool_call><function=f>" + strings.Repeat("</tool_call <</ v", n/17) + "</tool_call>"
		}},
	}
	for _, s := range shapes {
		t.Run(s.name, func(t *testing.T) {
			run := readerFor(t, s.syntax)
			testutil.CheckLinear(t, 16<<10, func(n int) func() {
				chunks := testutil.SplitEvery([]byte(s.make(n)), 16)
				return func() { run(chunks) }
			})
		})
	}
}

func BenchmarkReader(b *testing.B) {
	for _, syntax := range []Syntax{Caret, XML, Qwen} {
		b.Run(syntax.String(), func(b *testing.B) {
			in := message(syntax, 1000)
			chunks := testutil.SplitEvery(in, 7)
			run := readerFor(b, syntax)
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			for b.Loop() {
				run(chunks)
			}
		})
	}
}
