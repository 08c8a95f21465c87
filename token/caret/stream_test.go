package caret_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/argstream/argstream/token"
	"github.com/argstream/argstream/token/caret"
)

// recorder keeps the events it handles, as "Kind data@offset".
type recorder struct{ events []string }

func (r *recorder) Handle(e token.Event) error {
	s := e.Kind.String()
	if e.Data != nil {
		s += fmt.Sprintf(" %q", e.Data)
	}
	r.events = append(r.events, fmt.Sprintf("%s@%d", s, e.Offset))
	return nil
}

// take returns the events recorded since the last take.
func (r *recorder) take() []string {
	ev := r.events
	r.events = nil
	return ev
}

// TestStreaming checks that each value reaches the handler as its bytes
// arrive: a multi-line value's lines before its end marker, holding back
// only what may still be the marker and the line end before it.
func TestStreaming(t *testing.T) {
	rec := &recorder{}
	tok := caret.New(rec)
	steps := []struct {
		chunk string
		want  []string
	}{
		{"^^^write_", nil},
		{"file\npa", []string{"BeginObject@13"}},
		{"th: src/ma", []string{`Key "path"@20`, "BeginString@20", `StringData "src/ma"@26`}},
		{"in.rs\r", []string{`StringData "in.rs"@31`}},
		{"\ncontent ---\n// one\n", []string{"EndString@31", `Key "content"@45`, "BeginString@45", `StringData "// one"@51`}},
		{"two\n--", []string{`StringData "\n"@52`, `StringData "two"@55`}},
		{"x\n---", []string{`StringData "\n--"@58`, `StringData "x"@59`}},
		{" conte", nil},
		{"nt\n", []string{"EndString@59"}},
		{"^^^", nil},
		{"\n", []string{"EndObject@75"}},
	}
	for i, s := range steps {
		if err := tok.Feed([]byte(s.chunk)); err != nil {
			t.Fatal(err)
		}
		if got := rec.take(); !slices.Equal(got, s.want) {
			t.Errorf("after chunk %d %q:\ngot  %q\nwant %q", i, s.chunk, got, s.want)
		}
	}
	if err := tok.Close(); err != nil {
		t.Fatal(err)
	}
	if tok.Name() != "write_file" {
		t.Errorf("Name() = %q", tok.Name())
	}
}

// TestStreamingLines checks that each line of a long multi-line value,
// fed a line at a time, is reported before the next line arrives, whatever
// the line ends.
func TestStreamingLines(t *testing.T) {
	for _, eol := range []string{"\n", "\r\n"} {
		rec := &recorder{}
		tok := caret.New(rec)
		feed := func(s string) {
			if err := tok.Feed([]byte(s)); err != nil {
				t.Fatal(err)
			}
		}
		feed("^^^t" + eol + "content ---" + eol)
		rec.take()
		var got strings.Builder
		for i := range 100 {
			feed(fmt.Sprintf("line %d%s", i, eol))
			for _, e := range rec.take() {
				got.WriteString(e)
			}
			if want := fmt.Sprintf("line %d", i); !strings.Contains(got.String(), want) {
				t.Fatalf("after line %d, only %q", i, got.String())
			}
		}
	}
}

// TestName checks Name before, during and after the opening fence, and
// after Reset.
func TestName(t *testing.T) {
	tok := caret.New(&recorder{})
	for _, c := range []string{"^^^", "read_fi", "les"} {
		tok.Feed([]byte(c))
		if tok.Name() != "" {
			t.Errorf("after %q: Name() = %q", c, tok.Name())
		}
	}
	tok.Feed([]byte("\r\n"))
	if tok.Name() != "read_files" {
		t.Errorf("Name() = %q, want read_files", tok.Name())
	}
	tok.Reset(&recorder{})
	if tok.Name() != "" || tok.Offset() != 0 {
		t.Errorf("after Reset: Name() = %q, Offset() = %d", tok.Name(), tok.Offset())
	}
}

// TestLifecycle checks Close twice, Feed after Close, the sticky error,
// and Reset after an error.
func TestLifecycle(t *testing.T) {
	rec := &recorder{}
	tok := caret.New(rec)
	if err := tok.Feed([]byte("^^^t\nk: v\n^^^")); err != nil {
		t.Fatal(err)
	}
	for range 2 { // a second Close returns the first's result
		if err := tok.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if err := tok.Feed([]byte("x")); err != token.ErrClosed {
		t.Errorf("Feed after Close: %v", err)
	}
	tok.Reset(rec)
	err := tok.Feed([]byte("^^^t\n k"))
	if err == nil || tok.Feed([]byte("\n")) != err || tok.Close() != err {
		t.Errorf("the error is not sticky: %v", err)
	}
	tok.Reset(rec)
	rec.take()
	if err := tok.Feed([]byte("^^^u\nk: w\n^^^\n")); err != nil || tok.Close() != nil {
		t.Fatalf("after Reset: %v", err)
	}
	want := []string{"BeginObject@4", `Key "k"@8`, "BeginString@8", `StringData "w"@9`, "EndString@9", "EndObject@13"}
	if got := rec.take(); !slices.Equal(got, want) {
		t.Errorf("after Reset:\ngot  %q\nwant %q", got, want)
	}
}

// TestStreamReset checks that argstream.Stream.Reset reuses the tokenizer
// (it has Reset(token.Handler)), typed or not, and parses the next block
// from its start.
func TestStreamReset(t *testing.T) {
	var _ interface{ Reset(token.Handler) } = (*caret.Tokenizer)(nil)
	for _, nf := range []token.NewFunc{untyped, caret.Typed(tools)} {
		s := newStream(nf)
		if _, err := feedAll(s, []string{"^^^t\nn: 1\n"}); err == nil {
			t.Fatal("a block without its closing fence is complete")
		}
		for _, block := range []string{"^^^t\nn: 2\n^^^", "^^^other\nn: 3\n^^^\n"} {
			s.s.Reset(s.s.Call())
			s.agg.Reset()
			if got, err := feedAll(s, []string{block}); err != nil || !strings.Contains(got, `"n":`) {
				t.Errorf("%q after Reset: %s, %v", block, got, err)
			}
		}
	}
}
