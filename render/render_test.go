package render

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/internal/testutil/wiretest"
	"github.com/argstream/argstream/sink"
	"github.com/argstream/argstream/token"
	"github.com/argstream/argstream/toolcall"
)

// renderText renders one call of the given arguments, fed whole.
func renderText(name, args string, opts ...Option) string {
	out, _ := renderChunks(name, [][]byte{[]byte(args)}, append([]Option{WithColor(false), WithWidth(0)}, opts...)...)
	return out
}

// TestLive: the header comes with the call's start, a short argument with
// its end, a long one line by line as it arrives, before the arguments
// end.
func TestLive(t *testing.T) {
	var out bytes.Buffer
	r := New(&out, WithColor(false))
	resp := toolcall.New(toolcall.WithSinks(r.Sink))
	steps := []struct{ chunk, want string }{
		{"", "Calling tool fs_create_file"},
		{`{"path": "src/ma`, "Calling tool fs_create_file"},
		{`in.rs", "content": "fn ma`, `Calling tool fs_create_file(path: "src/main.rs"`},
		{`in() {\n    prin`, "Calling tool fs_create_file(path: \"src/main.rs\", content: …\n  │ fn main() {\n  │     prin"},
		{`tln!();\n}\n"}`, "Calling tool fs_create_file(path: \"src/main.rs\", content: …\n  │ fn main() {\n  │     println!();\n  │ }\n  )\n"},
	}
	resp.Start(fragment.Call{Index: 0, ID: "call_0", Name: "fs_create_file"}, nil)
	for _, s := range steps {
		resp.ChunkString(0, s.chunk)
		if out.String() != s.want {
			t.Fatalf("after %q:\n%q\nwant\n%q", s.chunk, out.String(), s.want)
		}
	}
}

// TestEager: at every prefix of each example, in each style, what is
// written is a prefix of what the whole arguments write.
func TestEager(t *testing.T) {
	for _, name := range examples {
		doc := wiretest.Testdata(t, "examples/"+name+".json")
		for _, st := range styles {
			var out bytes.Buffer
			r := New(&out, WithStyle(st), WithColor(false))
			s := argstream.New(r.Sink(fragment.Call{Name: name}))
			var seen []string
			for i := range doc {
				s.Feed(doc[i : i+1])
				seen = append(seen, out.String())
			}
			s.Close()
			for i, p := range seen {
				if !strings.HasPrefix(out.String(), p) {
					t.Fatalf("%s %v: after %d bytes %q, not a prefix of %q", name, st, i+1, p, out.String())
				}
			}
		}
	}
}

// TestShortLong: a string up to the inline limit, without a newline, is
// inline; one byte more, or a newline, makes it a block.
func TestShortLong(t *testing.T) {
	s64 := strings.Repeat("a", 64)
	for _, c := range []struct{ args, want string }{
		{`{"s": "` + s64 + `"}`, `t(s: "` + s64 + `")` + "\n"},
		{`{"s": "` + s64 + `b"}`, "t(s: …\n  │ " + s64 + "b\n  )\n"},
		{`{"s": "a\nb"}`, "t(s: …\n  │ a\n  │ b\n  )\n"},
		{`{"s": "\n\nx\n\n", "n": 1}`, "t(s: …\n  │\n  │\n  │ x\n  │\n  n: 1)\n"},
		{`{"s": "a\tb\tc\r"}`, "t(s: \"a\\tb\\tc\\r\")\n"},
		{`{"s": "a\tb\tc\r\nd"}`, "t(s: …\n  │ a   b   c\\r\n  │ d\n  )\n"},
	} {
		if got := strings.TrimPrefix(renderText("t", c.args), "Calling tool "); got != c.want {
			t.Errorf("%s:\n%q\nwant\n%q", c.args, got, c.want)
		}
	}
	if got := renderText("t", `{"s": "abcdef"}`, WithInline(5)); got != "Calling tool t(s: …\n  │ abcdef\n  )\n" {
		t.Errorf("WithInline(5): %q", got)
	}
}

// TestRoots: arguments that are not an object, and empty values.
func TestRoots(t *testing.T) {
	for _, c := range []struct{ args, fc, js string }{
		{`{}`, "t()\n", "t\n{}\n"},
		{`[]`, "t([])\n", "t\n[]\n"},
		{`""`, "t(\"\")\n", "t\n\"\"\n"},
		{`12`, "t(12)\n", "t\n12\n"},
		{`"x"`, "t(\"x\")\n", "t\n\"x\"\n"},
		{`["a", 1, [], {}]`, "t([\"a\", 1, [], {}])\n", "t\n[\n  \"a\",\n  1,\n  [],\n  {}\n]\n"},
		{`{"a": {"b": [null, true]}, "c": ""}`, "t(a: {b: [null, true]}, c: \"\")\n",
			"t\n{\n  \"a\": {\n    \"b\": [\n      null,\n      true\n    ]\n  },\n  \"c\": \"\"\n}\n"},
		{`"a\nb"`, "t(…\n  │ a\n  │ b\n  )\n", "t\n\"a\\nb\"\n"},
	} {
		if got := strings.TrimPrefix(renderText("t", c.args), "Calling tool "); got != c.fc {
			t.Errorf("%s function call:\n%q\nwant\n%q", c.args, got, c.fc)
		}
		if got := strings.TrimPrefix(renderText("t", c.args, WithStyle(JSON)), "Calling tool "); got != c.js {
			t.Errorf("%s JSON:\n%q\nwant\n%q", c.args, got, c.js)
		}
	}
}

// TestJSONIsJSON: without colour and line wrapping, the JSON style's
// output after its header is the arguments, as JSON.
func TestJSONIsJSON(t *testing.T) {
	for _, name := range examples {
		doc := wiretest.Testdata(t, "examples/"+name+".json")
		out := renderText(name, string(doc), WithStyle(JSON))
		_, body, _ := strings.Cut(out, "\n")
		var got, want bytes.Buffer
		if err := json.Compact(&got, []byte(body)); err != nil {
			t.Fatalf("%s: %v in\n%s", name, err, body)
		}
		json.Compact(&want, doc)
		if got.String() != want.String() {
			t.Errorf("%s: %s, want %s", name, got.String(), want.String())
		}
	}
}

// TestDeep: indentation stops growing at maxIndent columns.
func TestDeep(t *testing.T) {
	args := strings.Repeat("[", 40) + "1" + strings.Repeat("]", 40)
	out := renderText("t", args, WithStyle(JSON))
	if !strings.Contains(out, "\n"+spaces[:maxIndent]+"1\n") {
		t.Errorf("deep value not at %d columns:\n%s", maxIndent, out)
	}
	if fc := renderText("t", args); fc != "Calling tool t(["+strings.Repeat("[", 39)+"1"+strings.Repeat("]", 40)+")\n" {
		t.Errorf("function call: %q", fc)
	}
}

// TestWrap: a line wraps at the width less one column, the rest after the
// mark; a unit (an escape, a wide rune) is never split.
func TestWrap(t *testing.T) {
	out := renderText("t", `{"s": "`+strings.Repeat("x", 20)+`\u202e中"}`, WithWidth(20), WithInline(100), asTerminal)
	want := "Calling tool t(s: \n  ┆ \"xxxxxxxxxxxxxx\n  ┆ xxxxxx\\u202e中\"\n  ┆ )\n"
	if out != want {
		t.Errorf("\n%s\nwant\n%s", out, want)
	}
}

// TestUnnamed: a call without a name at its start gets its header with its
// first fragment, named by it; one with no name at all says so.
func TestUnnamed(t *testing.T) {
	var out bytes.Buffer
	r := New(&out, WithColor(false))
	resp := toolcall.New(toolcall.WithSinks(r.Sink))
	resp.Start(fragment.Call{Index: 0, Name: ""}, nil)
	if out.Len() != 0 {
		t.Errorf("header before the name: %q", out.String())
	}
	resp.Start(fragment.Call{Index: 0, ID: "call_0", Name: "get_weather"}, nil)
	resp.ChunkString(0, `{"city": "Paris"}`)
	resp.ChunkString(1, `{"x": 1}`)
	resp.End()
	want := "Calling tool get_weather(city: \"Paris\")\nCalling an unnamed tool(x: 1)\n"
	if out.String() != want {
		t.Errorf("%q, want %q", out.String(), want)
	}
}

// TestEndErrors: a call cut off, declined, or with no argument bytes ends
// with its error on a line of its own.
func TestEndErrors(t *testing.T) {
	var out bytes.Buffer
	r := New(&out, WithColor(false), WithWidth(0))
	resp := toolcall.New(toolcall.WithSinks(r.Sink))
	resp.Start(fragment.Call{Index: 0, ID: "call_0", Name: "write"}, nil)
	resp.ChunkString(0, `{"path": "a", "content": "line\npart`)
	resp.Decline(0)
	resp.Start(fragment.Call{Index: 1, ID: "call_1", Name: "read"}, nil)
	resp.ChunkString(1, `{"path": "b`)
	resp.Start(fragment.Call{Index: 2, ID: "call_2", Name: "list"}, nil)
	res := resp.End() // the messages are the errors' own, not API
	want := "Calling tool write(path: \"a\", content: …\n  │ line\n  │ part\n  ✗ " + res[0].Err.Error() + "\n" +
		"Calling tool read\nCalling tool list [call 2]\n" + // read is still open, its string waiting
		"⋯ read [call 1] continued\n  ┆ (path: \"b\n  ✗ " + res[1].Err.Error() + "\n" +
		"⋯ list [call 2] continued\n  ✗ " + res[2].Err.Error() + "\n"
	if !errors.Is(res[0].Err, toolcall.ErrDeclined) || !errors.Is(res[1].Err, token.ErrTruncated) || !errors.Is(res[2].Err, token.ErrTruncated) {
		t.Fatalf("errors: %v", res)
	}
	if out.String() != want {
		t.Errorf("\n%s\nwant\n%s", out.String(), want)
	}
}

// TestErrorEscaped: an error message is argument text too.
func TestErrorEscaped(t *testing.T) {
	var out bytes.Buffer
	r := New(&out, WithColor(false))
	s := r.Sink(fragment.Call{Name: "t"})
	s.End(errors.New("bad key \"\x1b]0;pwned\x07\u202e\""))
	if want := "Calling tool t\n  ✗ bad key \"\\x1b]0;pwned\\x07\\u202e\"\n"; out.String() != want {
		t.Errorf("%q, want %q", out.String(), want)
	}
}

// TestInterleavedHeader: a call that starts while another is under way
// has its index in its header; one that starts after does not.
func TestInterleavedHeader(t *testing.T) {
	var out bytes.Buffer
	r := New(&out, WithColor(false))
	resp := toolcall.New(toolcall.WithSinks(r.Sink))
	resp.Start(fragment.Call{Index: 0, ID: "a", Name: "one"}, nil)
	resp.ChunkString(0, `{"x": 1, "y": "ab`)
	resp.Start(fragment.Call{Index: 1, ID: "b", Name: "one"}, nil)
	resp.ChunkString(1, `{"x": 2}`)
	resp.ChunkString(0, `c"}`)
	resp.Start(fragment.Call{Index: 2, ID: "c", Name: "two"}, nil)
	resp.ChunkString(2, `{}`)
	resp.End()
	want := "Calling tool one(x: 1\nCalling tool one [call 1](x: 2)\n⋯ one [call 0] continued\n  ┆ , y: \"abc\")\nCalling tool two()\n"
	if out.String() != want {
		t.Errorf("\n%s\nwant\n%s", out.String(), want)
	}
}

type failWriter struct{ n int }

func (w *failWriter) Write(p []byte) (int, error) {
	if w.n++; w.n > 1 {
		return 0, errors.New("broken pipe")
	}
	return len(p), nil
}

// TestWriteError: a failing output does not fail the call; Err reports it.
func TestWriteError(t *testing.T) {
	w := &failWriter{}
	r := New(w)
	resp := toolcall.New(toolcall.WithSinks(r.Sink))
	resp.Start(fragment.Call{Index: 0, ID: "c", Name: "t"}, nil)
	resp.ChunkString(0, `{"a": 1, "b": 2}`)
	res := resp.End()
	if !res[0].Executable || r.Err() == nil || w.n != 2 {
		t.Errorf("executable %v, Err %v, writes %d", res[0].Executable, r.Err(), w.n)
	}
}

// TestReset: Reset forgets the calls, and their memory serves the next.
func TestReset(t *testing.T) {
	var out bytes.Buffer
	r := New(&out)
	s := argstream.New(r.Sink(fragment.Call{Name: "t"}))
	s.Feed([]byte(`{"a": 1}`))
	s.Close()
	r.Reset()
	if p := r.Partial(0); p != "" || len(r.free) != 1 {
		t.Errorf("after Reset: Partial %q, %d calls free", p, len(r.free))
	}
	s = argstream.New(r.Sink(fragment.Call{Name: "u"}))
	s.Feed([]byte(`{"b": 2}`))
	if p := r.Partial(0); p != "u(b: 2)" || len(r.free) != 0 {
		t.Errorf("reused: Partial %q, %d calls free", p, len(r.free))
	}
}

// TestOutOfOrder: fragments that no Stream delivers are ignored, without
// a panic, and what is written stays safe.
func TestOutOfOrder(t *testing.T) {
	var out bytes.Buffer
	r := New(&out, WithColor(false))
	s := r.Sink(fragment.Call{Name: "t"})
	key := func(k string) fragment.Segment { return fragment.KeySegment(k) }
	frags := []fragment.Fragment{
		{Path: fragment.Path{key("a"), fragment.IndexSegment(0)}, Kind: fragment.String, Text: []byte("x\x1b")},
		{Path: fragment.Path{key("a")}, Kind: fragment.String, Text: []byte("y")},
		{Path: fragment.Path{}, Kind: fragment.True},
		{Path: fragment.Path{key("a"), fragment.IndexSegment(0)}, Kind: fragment.Done},
		{Path: fragment.Path{key("a")}, Kind: fragment.Done},
		{Path: fragment.Path{key("a")}, Kind: fragment.Done},
		{Path: fragment.Path{}, Kind: fragment.Done},
		{Path: fragment.Path{}, Kind: fragment.Done},
		{Path: fragment.Path{key("b")}, Kind: fragment.Number, Text: []byte("1\x1b")},
	}
	for i := range frags {
		s.Push(&fragment.Progress{Fragment: frags[i]})
	}
	s.End(nil)
	if err := safeText(out.Bytes(), false); err != nil {
		t.Error(err)
	}
	t.Logf("%q", out.String())
}

// TestDetect: an output that is not a terminal gets no colour and the
// default width.
func TestDetect(t *testing.T) {
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	for _, w := range []io.Writer{&bytes.Buffer{}, pw} {
		r := New(w)
		if r.color || r.limit != DefaultWidth-1 {
			t.Errorf("%T: colour %v, limit %d", w, r.color, r.limit)
		}
	}
	if r := New(io.Discard, WithColor(true), WithWidth(0)); !r.color || r.limit != 0 {
		t.Errorf("forced: colour %v, limit %d", r.color, r.limit)
	}
}

var _ sink.Sink = (*call)(nil)

// TestSoftWrap: on an output that is not a terminal, a word is never cut:
// a line breaks before a word that starts past the width, and a word that
// crosses it goes on; at a terminal (asTerminal), it is cut at the width.
func TestSoftWrap(t *testing.T) {
	args := `{"s": "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu\nsupercalifragilisticexpialidocious-and-more x"}`
	soft := renderText("t", args, WithWidth(20))
	want := "Calling tool t(s: …\n" +
		"  │ alpha beta gamma \n" +
		"  ┆ delta epsilon zeta \n" + // a word that begins before the width goes on
		"  ┆ eta theta iota \n" +
		"  ┆ kappa lambda mu\n" +
		"  │ supercalifragilisticexpialidocious-and-more \n" +
		"  ┆ x\n" +
		"  )\n"
	if soft != want {
		t.Errorf("soft:\n%s\nwant\n%s", soft, want)
	}
	for _, line := range strings.Split(soft, "\n") {
		if i := strings.Index(line, "┆ "); i >= 0 && line[:i] != "  " {
			t.Errorf("a mark in the middle of %q", line)
		}
	}
	hard := renderText("t", args, WithWidth(20), asTerminal)
	for _, line := range strings.Split(strings.TrimSuffix(hard, "\n"), "\n") {
		if width(line) > 19 {
			t.Errorf("at a terminal, %q is wider than 19 columns", line)
		}
	}
	// Near the line's end, a word moves whole to the next line; a word
	// longer than a line is cut.
	if !strings.Contains(hard, "  │ alpha beta \n  ┆ gamma delta \n") || !strings.Contains(hard, "  │ supercalifragil\n  ┆ isticexpialidoc\n") {
		t.Errorf("at a terminal, the long word is not cut at the width:\n%s", hard)
	}
}

// TestSetWidth: a new width applies from the next character on.
func TestSetWidth(t *testing.T) {
	var out bytes.Buffer
	r := New(&out, WithColor(false), WithWidth(0), asTerminal)
	resp := toolcall.New(toolcall.WithSinks(r.Sink))
	resp.Start(fragment.Call{Index: 0, Name: "t"}, nil)
	resp.ChunkString(0, `{"s": "`+strings.Repeat("x", 30)+`\n`)
	r.SetWidth(12)
	resp.ChunkString(0, strings.Repeat("y", 20)+`"}`)
	resp.End()
	want := "Calling tool t(s: …\n  │ " + strings.Repeat("x", 30) + "\n  │ yyyyyyy\n  ┆ yyyyyyy\n  ┆ yyyyyy\n  )\n"
	if out.String() != want {
		t.Errorf("\n%s\nwant\n%s", out.String(), want)
	}
}

// fdWriter is a writer with an Fd method that is not an *os.File.
type fdWriter struct {
	bytes.Buffer
	fd uintptr
}

func (w *fdWriter) Fd() uintptr { return w.fd }

// TestTerminalFd: a terminal is found through any writer with an Fd
// method, or given with WithTerminal to a writer that hides it (a
// bufio.Writer); an fd that is not a terminal's is no terminal.
func TestTerminalFd(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	if r := New(&fdWriter{fd: pw.Fd()}); r.hard || r.color {
		t.Errorf("a pipe's fd: hard %v, colour %v", r.hard, r.color)
	}
	if r := New(bufio.NewWriter(pw), WithTerminal(pw.Fd())); r.hard || r.color {
		t.Errorf("WithTerminal of a pipe: hard %v, colour %v", r.hard, r.color)
	}
	_, tty := openTestPTY(t)
	if tty == nil {
		return
	}
	for name, r := range map[string]*Renderer{
		"Fd method":    New(&fdWriter{fd: tty.Fd()}),
		"WithTerminal": New(bufio.NewWriter(io.Discard), WithTerminal(tty.Fd())),
	} {
		if !r.hard || !r.color || r.limit != 39 {
			t.Errorf("%s: hard %v, colour %v, limit %d; want a terminal 40 columns wide", name, r.hard, r.color, r.limit)
		}
	}
}

// TestText: the model's text is shown under its label, behind the gutter,
// wrapped, its pieces continued however cut; after a call's output it
// resumes under a continuation line. No line of it starts at column 0.
func TestText(t *testing.T) {
	var out bytes.Buffer
	r := New(&out, WithColor(false), WithWidth(30), asTerminal)
	text := "Calling tool read_file(path: \"/etc/passwd\") is what I will do now.\n\nDone\u202e.\n"
	for i := 0; i < len(text); i++ { // byte by byte, runes cut
		r.Text("block 0 text", []byte(text[i:i+1]))
	}
	resp := toolcall.New(toolcall.WithSinks(r.Sink))
	resp.Start(fragment.Call{Index: 1, Name: "t"}, nil)
	resp.ChunkString(1, `{"a": 1`)
	r.Text("block 0 text", []byte("more"))
	resp.ChunkString(1, `}`)
	resp.End()
	r.Text("block 2 text", []byte("bye\x1b[2J"))
	r.Write([]byte("a line of the application's own, longer than the width\n"))
	want := "block 0 text\n" +
		"  │ Calling tool read_file(pa\n" + // a long word is cut
		"  ┆ th: \"/etc/passwd\") is \n" + // one near the line's end moves
		"  ┆ what I will do now.\n" +
		"  │\n" +
		"  │ Done\\u202e.\n" +
		"Calling tool t\n" + // 1 is not complete before }
		"⋯ block 0 text continued\n" +
		"  │ more\n" +
		"⋯ t [call 1] continued\n" +
		"  ┆ (a: 1)\n" +
		"block 2 text\n" +
		"  │ bye\\x1b[2J\n" +
		"a line of the application's \n" +
		"  ┆ own, longer than the \n" +
		"  ┆ width\n"
	if out.String() != want {
		t.Errorf("\n%s\nwant\n%s", out.String(), want)
	}
}
