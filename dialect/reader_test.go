package dialect

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/toolcall"
	gocmp "github.com/google/go-cmp/cmp"
)

// The examples of the appendix of code-assistant's caret design
// (docs/design.md, "Tool calls written in text"), verbatim.
var caretAppendix = []struct{ name, block string }{
	{"read_files", "^^^read_files\nproject: my_proj\npath: src/main.rs\n^^^\n"},
	{"read_files", "^^^read_files\nproject: my_proj\npaths: [\nsrc/main.rs\nCargo.toml\ndocs/README.md\n]\n^^^\n"},
	{"replace_in_file", "^^^replace_in_file\nproject: cool_proj\npath: src/lib.rs\ndiff ---\n[SEARCH/REPLACE block content here]\n--- diff\n^^^\n"},
	{"write_file", "^^^write_file\nproject: notes\npath: design.md\ncontent ---\n# Title\nMultiline\nbody.\n--- content\n^^^\n"},
	{"replace_in_file", "^^^replace_in_file\nproject: my_proj\npath: src/main.rs\ndiff ---\n[SEARCH/REPLACE block for code changes]\n--- diff\ncomment ---\nThis change updates the function name\nto better reflect its purpose.\n--- comment\n^^^\n"},
}

func tx(s string) piece           { return piece{Index: -1, Data: s} }
func src(i int64, s string) piece { return piece{Index: i, Data: s} }
func done(i int64, name, s string) call {
	return call{Index: i, Name: name, OpenName: name, Source: s, Executable: true}
}

// cut returns a call cut off: its tokenizer reports it truncated.
func cut(i int64, name, s string) call {
	return call{Index: i, Name: name, OpenName: name, Source: s, Truncated: true, Err: "truncated"}
}

// unnamed returns a closed call without a name: not executable.
func unnamed(i int64, s string) call { return call{Index: i, Source: s} }

type framingCase struct {
	name   string
	syntax Syntax
	in     string
	pieces []piece
	calls  []call
}

func framingCases() []framingCase {
	cases := []framingCase{}
	var all strings.Builder
	var allPieces []piece
	var allCalls []call
	for i, ex := range caretAppendix {
		before, after := "Let me do that.\n", "\nDone: see above.\n"
		cases = append(cases, framingCase{
			"caret appendix " + ex.name, Caret, before + ex.block + after,
			[]piece{tx(before), src(0, ex.block), tx(after)},
			[]call{done(0, ex.name, ex.block)},
		})
		all.WriteString(before + ex.block)
		allPieces = append(allPieces, tx(before), src(int64(i), ex.block))
		allCalls = append(allCalls, done(int64(i), ex.name, ex.block))
	}
	cases = append(cases, framingCase{"caret appendix, all in one message", Caret, all.String(), allPieces, allCalls})

	long := strings.Repeat("n", MaxName)
	cases = append(cases, []framingCase{
		{"caret CRLF", Caret, "a\r\n^^^f\r\nk: v\r\n^^^\r\nb",
			[]piece{tx("a\r\n"), src(0, "^^^f\r\nk: v\r\n^^^\r\n"), tx("b")},
			[]call{done(0, "f", "^^^f\r\nk: v\r\n^^^\r\n")}},
		{"caret ^^^ mid-line is prose", Caret, "say ^^^f\nk: v\n^^^\n",
			[]piece{tx("say ^^^f\nk: v\n^^^\n")}, nil},
		{"caret ^^^ in a multi-line value is content", Caret, "^^^w\ncontent ---\n^^^\n--- content\n^^^\nafter",
			[]piece{src(0, "^^^w\ncontent ---\n^^^\n--- content\n^^^\n"), tx("after")},
			[]call{done(0, "w", "^^^w\ncontent ---\n^^^\n--- content\n^^^\n")}},
		{"caret multi-line value with CRLF", Caret, "^^^w\r\nc.d ---\r\n^^^\r\n--- c.d\r\n^^^\r\n",
			[]piece{src(0, "^^^w\r\nc.d ---\r\n^^^\r\n--- c.d\r\n^^^\r\n")},
			[]call{done(0, "w", "^^^w\r\nc.d ---\r\n^^^\r\n--- c.d\r\n^^^\r\n")}},
		{"caret multi-line value ends only at its own name", Caret, "^^^w\nc ---\n--- d\n^^^\n--- c \n---  c\n--- c\n^^^\n",
			[]piece{src(0, "^^^w\nc ---\n--- d\n^^^\n--- c \n---  c\n--- c\n^^^\n")},
			[]call{done(0, "w", "^^^w\nc ---\n--- d\n^^^\n--- c \n---  c\n--- c\n^^^\n")}},
		{"caret near-miss multi-line starts", Caret, "^^^w\nc  ---\nc ----\n c ---\nc/d ---\n^^^\n",
			[]piece{src(0, "^^^w\nc  ---\nc ----\n c ---\nc/d ---\n^^^\n")},
			[]call{done(0, "w", "^^^w\nc  ---\nc ----\n c ---\nc/d ---\n^^^\n")}},
		{"caret near-miss closing fences are content", Caret, "^^^f\n^^^ \n ^^^\n^^^^\n^^\n^^^x\n^^^\n",
			[]piece{src(0, "^^^f\n^^^ \n ^^^\n^^^^\n^^\n^^^x\n^^^\n")},
			[]call{done(0, "f", "^^^f\n^^^ \n ^^^\n^^^^\n^^\n^^^x\n^^^\n")}},
		{"caret ^^^ at the end of input closes", Caret, "x\n^^^f\nk: v\n^^^",
			[]piece{tx("x\n"), src(0, "^^^f\nk: v\n^^^")},
			[]call{done(0, "f", "^^^f\nk: v\n^^^")}},
		{"caret ^^^CR at the end of input does not close", Caret, "^^^f\n^^^\r",
			[]piece{src(0, "^^^f\n^^^\r")},
			[]call{cut(0, "f", "^^^f\n^^^\r")}},
		{"caret unclosed block", Caret, "Writing:\n^^^write_file\npath: a\ncontent ---\nhalf",
			[]piece{tx("Writing:\n"), src(0, "^^^write_file\npath: a\ncontent ---\nhalf")},
			[]call{cut(0, "write_file", "^^^write_file\npath: a\ncontent ---\nhalf")}},
		{"caret near-miss opening fences are prose", Caret,
			"^^^\n^^^ f\n^^^f g\n^^^f\rx\n ^^^f\n^^^f.g\n^^f\n^^^^f\n^^^" + long + "n\n^^^f",
			[]piece{tx("^^^\n^^^ f\n^^^f g\n^^^f\rx\n ^^^f\n^^^f.g\n^^f\n^^^^f\n^^^" + long + "n\n^^^f")}, nil},
		{"caret name of MaxName bytes", Caret, "^^^" + long + "\n^^^\n",
			[]piece{src(0, "^^^"+long+"\n^^^\n")},
			[]call{done(0, long, "^^^"+long+"\n^^^\n")}},
		{"caret blocks back to back", Caret, "^^^a\n^^^\n^^^b\nx\n^^^\n\n^^^c\n^^^",
			[]piece{src(0, "^^^a\n^^^\n"), src(1, "^^^b\nx\n^^^\n"), tx("\n"), src(2, "^^^c\n^^^")},
			[]call{done(0, "a", "^^^a\n^^^\n"), done(1, "b", "^^^b\nx\n^^^\n"), done(2, "c", "^^^c\n^^^")}},
		{"caret text after the last line break", Caret, "hello\nworld", []piece{tx("hello\nworld")}, nil},
		{"caret held-back fence released at Close", Caret, "hello\n^^^wri", []piece{tx("hello\n^^^wri")}, nil},
		{"caret long line in a multi-line value", Caret, "^^^f\nc ---\n" + strings.Repeat("x", 500) + "\n--- c\n^^^\n",
			[]piece{src(0, "^^^f\nc ---\n"+strings.Repeat("x", 500)+"\n--- c\n^^^\n")},
			[]call{done(0, "f", "^^^f\nc ---\n"+strings.Repeat("x", 500)+"\n--- c\n^^^\n")}},
		{"caret multi-line name too long is a plain line", Caret, "^^^f\n" + long + "x ---\n^^^\n",
			[]piece{src(0, "^^^f\n"+long+"x ---\n^^^\n")},
			[]call{done(0, "f", "^^^f\n"+long+"x ---\n^^^\n")}},
		{"caret empty input", Caret, "", nil, nil},

		{"xml call in prose", XML, "I'll write: <tool:write_file><param:path>a</param:path></tool:write_file> done",
			[]piece{tx("I'll write: "), src(0, "<tool:write_file><param:path>a</param:path></tool:write_file>"), tx(" done")},
			[]call{done(0, "write_file", "<tool:write_file><param:path>a</param:path></tool:write_file>")}},
		{"xml a < b", XML, "a < b <t <tool <tool: <tool:x <tool:x y> <tool:> <tool:a.b>",
			[]piece{tx("a < b <t <tool <tool: <tool:x <tool:x y> <tool:> <tool:a.b>")}, nil},
		{"xml held back at Close", XML, "a <tool:rea", []piece{tx("a <tool:rea")}, nil},
		{"xml lone < at Close", XML, "a <", []piece{tx("a <")}, nil},
		{"xml name too long", XML, "<tool:" + long + "n>", []piece{tx("<tool:" + long + "n>")}, nil},
		{"xml name of MaxName bytes", XML, "<tool:" + long + "></tool:" + long + ">",
			[]piece{src(0, "<tool:"+long+"></tool:"+long+">")},
			[]call{done(0, long, "<tool:"+long+"></tool:"+long+">")}},
		{"xml << opens at the second", XML, "<<tool:a></tool:a><",
			[]piece{tx("<"), src(0, "<tool:a></tool:a>"), tx("<")},
			[]call{done(0, "a", "<tool:a></tool:a>")}},
		{"xml closes at the first closing tag, any name", XML, "<tool:a>x</tool y</to<</tool:b c>z</tool:a>",
			[]piece{src(0, "<tool:a>x</tool y</to<</tool:b c>"), tx("z</tool:a>")},
			[]call{done(0, "a", "<tool:a>x</tool y</to<</tool:b c>")}},
		{"xml two calls", XML, "<tool:a>1</tool:a>\n<tool:b>2</tool:b>",
			[]piece{src(0, "<tool:a>1</tool:a>"), tx("\n"), src(1, "<tool:b>2</tool:b>")},
			[]call{done(0, "a", "<tool:a>1</tool:a>"), done(1, "b", "<tool:b>2</tool:b>")}},
		{"xml unclosed", XML, "<tool:a><param:x>1</tool:a",
			[]piece{src(0, "<tool:a><param:x>1</tool:a")},
			[]call{cut(0, "a", "<tool:a><param:x>1</tool:a")}},

		{"qwen call in prose", Qwen, qwenWeatherIn,
			[]piece{tx("Let me check.\n"), src(0, qwenWeather), tx("\nok")},
			[]call{done(0, "get_weather", qwenWeather)}},
		{"qwen dotted name, no white space", Qwen, "<tool_call><function=a.b-c_d></function></tool_call>",
			[]piece{src(0, "<tool_call><function=a.b-c_d></function></tool_call>")},
			[]call{done(0, "a.b-c_d", "<tool_call><function=a.b-c_d></function></tool_call>")}},
		{"qwen no function", Qwen, "<tool_call>x</tool_call>y",
			[]piece{src(0, "<tool_call>x</tool_call>"), tx("y")}, []call{unnamed(0, "<tool_call>x</tool_call>")}},
		{"qwen empty", Qwen, "<tool_call></tool_call>y",
			[]piece{src(0, "<tool_call></tool_call>"), tx("y")}, []call{unnamed(0, "<tool_call></tool_call>")}},
		{"qwen empty after white space", Qwen, "<tool_call>\n <</tool_call>",
			[]piece{src(0, "<tool_call>\n <</tool_call>")}, []call{unnamed(0, "<tool_call>\n <</tool_call>")}},
		{"qwen empty name", Qwen, "<tool_call><function=></tool_call>",
			[]piece{src(0, "<tool_call><function=></tool_call>")}, []call{unnamed(0, "<tool_call><function=></tool_call>")}},
		{"qwen name too long", Qwen, "<tool_call><function=" + long + "n></tool_call>",
			[]piece{src(0, "<tool_call><function="+long+"n></tool_call>")}, []call{unnamed(0, "<tool_call><function="+long+"n></tool_call>")}},
		{"qwen white space of maxSpace bytes", Qwen, "<tool_call>" + strings.Repeat(" ", maxSpace) + "<function=f></tool_call>",
			[]piece{src(0, "<tool_call>"+strings.Repeat(" ", maxSpace)+"<function=f></tool_call>")},
			[]call{done(0, "f", "<tool_call>"+strings.Repeat(" ", maxSpace)+"<function=f></tool_call>")}},
		{"qwen white space too long", Qwen, "<tool_call>" + strings.Repeat("\t", maxSpace+1) + "<function=f></tool_call>",
			[]piece{src(0, "<tool_call>"+strings.Repeat("\t", maxSpace+1)+"<function=f></tool_call>")},
			[]call{unnamed(0, "<tool_call>"+strings.Repeat("\t", maxSpace+1)+"<function=f></tool_call>")}},
		{"qwen near-miss openings", Qwen, "<tool_cal> <tool_callx <tool <function=f> </tool_call>",
			[]piece{tx("<tool_cal> <tool_callx <tool <function=f> </tool_call>")}, nil},
		{"qwen head cut by the end", Qwen, "a<tool_call>\n<functi",
			[]piece{tx("a"), src(0, "<tool_call>\n<functi")},
			[]call{{Index: 0, Source: "<tool_call>\n<functi", Truncated: true, Err: "truncated"}}},
		{"qwen unclosed", Qwen, "<tool_call><function=f><parameter=x>1</tool_cal",
			[]piece{src(0, "<tool_call><function=f><parameter=x>1</tool_cal")},
			[]call{cut(0, "f", "<tool_call><function=f><parameter=x>1</tool_cal")}},
		{"qwen two calls", Qwen, "<tool_call><function=f></function></tool_call><tool_call><function=g></function></tool_call>",
			[]piece{src(0, "<tool_call><function=f></function></tool_call>"), src(1, "<tool_call><function=g></function></tool_call>")},
			[]call{done(0, "f", "<tool_call><function=f></function></tool_call>"), done(1, "g", "<tool_call><function=g></function></tool_call>")}},
	}...)
	return cases
}

const qwenWeather = "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call>"
const qwenWeatherIn = "Let me check.\n" + qwenWeather + "\nok"

// TestFraming checks each framing rule, with the input in one chunk, in
// 1-byte chunks and in random chunks: the same pieces and calls each time.
func TestFraming(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range framingCases() {
		t.Run(c.name, func(t *testing.T) {
			in := []byte(c.in)
			h := newHarness(c.syntax)
			splits := [][][]byte{{in}, testutil.SplitEvery(in, 1)}
			for range 10 {
				splits = append(splits, testutil.SplitRandom(in, rng, 8))
			}
			for _, chunks := range splits {
				o := h.run(chunks)
				checkConsistent(t, in, o)
				if msg := againstReference(c.syntax, c.in, o); msg != "" {
					t.Fatal(msg)
				}
				want := outcome{Pieces: c.pieces, Calls: c.calls}
				for _, c := range c.calls {
					if c.Truncated {
						want.Open++
					}
				}
				if diff := gocmp.Diff(want, o, gocmp.AllowUnexported(outcome{})); diff != "" {
					t.Fatalf("%d chunks: (-want +got)\n%s", len(chunks), diff)
				}
				if cap(h.r.hold) != maxHold {
					t.Fatalf("the memory held back grew to %d bytes, want at most %d", cap(h.r.hold), maxHold)
				}
			}
		})
	}
}

// TestCaretColumnAcrossChunks is the original implementation's bug: it
// took the start of every chunk for column 0, so a ^^^ that a chunk
// boundary put at a chunk's start, in the middle of a line, opened a call.
func TestCaretColumnAcrossChunks(t *testing.T) {
	for _, chunks := range [][]string{
		{"see ", "^^^f\nk: v\n^^^\n"},
		{"see", "", "^^^f\n^^^\n"},
		{"a\nb", "^^^f\n^^^\n"},
		{"a\r", "^^^f\n^^^\n"},
	} {
		o := read(Caret, chunks...)
		in := strings.Join(chunks, "")
		if len(o.Calls) != 0 || o.text() != in {
			t.Errorf("%q: %+v, want prose only", chunks, o)
		}
	}
	// And a boundary right after a line end is column 0.
	o := read(Caret, "see\n", "^^^f\n^^^\n")
	if want := []call{done(0, "f", "^^^f\n^^^\n")}; !gocmp.Equal(o.Calls, want) {
		t.Errorf("after a line end: %+v, want %+v", o.Calls, want)
	}
}

// TestCaretFenceInValueAtEnd: a ^^^ line at the end of input in a
// multi-line value is content: the call is left open.
func TestCaretFenceInValueAtEnd(t *testing.T) {
	h := newHarness(Caret)
	h.r.WriteString("^^^f\nc ---\n^^^")
	h.r.Close()
	if n := h.calls.Pending(); n != 1 {
		t.Fatalf("%d calls pending after Close, want 1", n)
	}
}

// texts returns the prose delivered so far.
func (h *harness) texts() string { return outcome{Pieces: h.pieces}.text() }

// TestReleaseAtOnce: prose leaves the moment it cannot open a call, not at
// the next line end or at Close; only what may still open a call waits.
func TestReleaseAtOnce(t *testing.T) {
	steps := []struct {
		syntax Syntax
		writes []string
		want   []string // the prose delivered after each write
	}{
		{XML, []string{"a <", " b", " <to", "x"}, []string{"a ", "a < b", "a < b ", "a < b <tox"}},
		{XML, []string{"<tool:na", "me", " "}, []string{"", "", "<tool:name "}},
		{Qwen, []string{"x <tool_c", "all>", "</tool_call>y"}, []string{"x ", "x ", "x y"}},
		{Caret, []string{"no line end", " yet", "\n^", "^^", " ", "\n^^^x", "\r", "\r"},
			[]string{"no line end", "no line end yet", "no line end yet\n", "no line end yet\n", "no line end yet\n^^^ ",
				"no line end yet\n^^^ \n", "no line end yet\n^^^ \n", "no line end yet\n^^^ \n^^^x\r\r"}},
		{Caret, []string{"a ^", "^"}, []string{"a ^", "a ^^"}},
	}
	for _, s := range steps {
		h := newHarness(s.syntax)
		for i, w := range s.writes {
			if _, err := h.r.WriteString(w); err != nil {
				t.Fatal(err)
			}
			if got := h.texts(); got != s.want[i] {
				t.Errorf("%v %q: after %q, prose %q, want %q", s.syntax, s.writes, w, got, s.want[i])
			}
		}
	}
}

// TestQwenHoldsUntilName: a Qwen call's source waits for its name, and the
// call opens with it.
func TestQwenHoldsUntilName(t *testing.T) {
	h := newHarness(Qwen)
	h.r.WriteString("a<tool_call>\n<function=ge")
	if len(h.pieces) != 1 || len(h.opened) != 0 {
		t.Fatalf("before the name's end: pieces %+v, opened %v", h.pieces, h.opened)
	}
	h.r.WriteString("t>\n<para")
	if want := []piece{tx("a"), src(0, "<tool_call>\n<function=get>\n<para")}; !gocmp.Equal(h.pieces, want) || h.opened[0] != "get" {
		t.Fatalf("after the name: pieces %+v, opened %v", h.pieces, h.opened)
	}
}

// TestCaretBodyAtOnce: body bytes go to the call the moment they come,
// without waiting for the end of their line.
func TestCaretBodyAtOnce(t *testing.T) {
	h := newHarness(Caret)
	for _, w := range []string{"^^^f", "\n", "content: ab", "c"} {
		h.r.WriteString(w)
	}
	if want := []piece{src(0, "^^^f\ncontent: abc")}; !gocmp.Equal(h.pieces, want) {
		t.Fatalf("pieces %+v, want %+v", h.pieces, want)
	}
}

// TestMisuse: Write after Close is ErrClosed; a Response ended under the
// Reader gives toolcall.ErrEnded, sticky until Reset.
func TestMisuse(t *testing.T) {
	h := newHarness(Caret)
	h.r.WriteString("x")
	if err := h.r.Close(); err != nil {
		t.Fatal(err)
	}
	if err := h.r.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if _, err := h.r.WriteString("y"); !errors.Is(err, ErrClosed) {
		t.Fatalf("Write after Close: %v", err)
	}
	h.r.Reset()
	h.calls.End()
	n, err := h.r.WriteString("ab\n^^^f\nxyz")
	if !errors.Is(err, toolcall.ErrEnded) || n != len("ab\n^^^f\n") {
		t.Fatalf("Write after the Response's End: %d, %v", n, err)
	}
	if _, err := h.r.WriteString("x"); !errors.Is(err, toolcall.ErrEnded) {
		t.Fatalf("Write again: %v", err)
	}
	if err := h.r.Close(); !errors.Is(err, toolcall.ErrEnded) {
		t.Fatalf("Close: %v", err)
	}
	h.calls.Reset()
	h.r.Reset()
	h.pieces = nil
	checkConsistent(t, []byte("^^^f\n^^^\n"), h.run([][]byte{[]byte("^^^f\n^^^\n")}))
}

// TestResetMidMessage: Reset forgets a message cut short, in any state:
// the next one starts at column 0, with call 0.
func TestResetMidMessage(t *testing.T) {
	for _, c := range []struct {
		syntax      Syntax
		first, next string
	}{
		{Caret, "a", "^^^g\n^^^\n"},
		{Caret, "^^^f\nc ---\n", "^^^g\n^^^\n"},
		{Caret, "^^^wri", "^^^g\n^^^\n"},
		{XML, "<tool:f>x</tool:", "<tool:g></tool:g>"},
		{XML, "<tool:f", "<tool:g></tool:g>"},
		{Qwen, "<tool_call>\n<func", "<tool_call><function=g></tool_call>"},
		{Qwen, "<tool_call><function=f></tool_call", "<tool_call><function=g></tool_call>"},
	} {
		h := newHarness(c.syntax)
		h.r.WriteString(c.first)
		h.r.Reset()
		h.calls.Reset()
		h.pieces = nil
		clear(h.opened)
		o := h.run([][]byte{[]byte(c.next)})
		checkConsistent(t, []byte(c.next), o)
		if len(o.Calls) != 1 || o.Calls[0].Name != "g" || !o.Calls[0].Executable {
			t.Errorf("%v: after %q, %q gave %+v", c.syntax, c.first, c.next, o.Calls)
		}
	}
}

func TestParseSyntax(t *testing.T) {
	for s := Caret; s <= lastSyntax; s++ {
		got, err := ParseSyntax(s.String())
		if err != nil || got != s {
			t.Errorf("ParseSyntax(%q) = %v, %v", s.String(), got, err)
		}
	}
	for _, s := range []string{"", "Caret", "json", "xmltag"} {
		if _, err := ParseSyntax(s); err == nil {
			t.Errorf("ParseSyntax(%q): no error", s)
		}
	}
	if got := Syntax(0).String(); got != "Syntax(0)" {
		t.Errorf("Syntax(0).String() = %q", got)
	}
	defer func() {
		if recover() == nil {
			t.Error("NewReader(lastSyntax+1) did not panic")
		}
	}()
	NewReader(lastSyntax+1, toolcall.New())
}
