package tagscan

import (
	"strings"
	"testing"
)

func TestMatcher(t *testing.T) {
	tags := []Tag{{Lit: "</param:", Name: Dotted}, {Lit: "<tool:"}, {Lit: "</tool:"}}
	for _, c := range []struct {
		in    string
		res   Result
		which int
		name  string
	}{
		{"</param:a.b>", Match, 0, "a.b"},
		{"</param:>", Fail, -1, ""},
		{"</param:a b", Fail, -1, "a"},
		{"</param:" + strings.Repeat("x", MaxName) + ">", Match, 0, strings.Repeat("x", MaxName)},
		{"</param:" + strings.Repeat("x", MaxName+1), Fail, -1, strings.Repeat("x", MaxName)},
		{"<tool:", Match, 1, ""},
		{"</tool:", Match, 2, ""},
		{"</to", More, -1, ""},
		{"<<", Fail, -1, ""},
		{"<div>", Fail, -1, ""},
	} {
		var m Matcher
		m.Start(tags)
		res, which := More, -1
		n := 0
		for n < len(c.in) && res == More {
			res, which = m.Step(c.in[n])
			if res != Fail {
				n++
			}
		}
		if res != c.res || which != c.which || string(m.Name()) != c.name || res != Fail && m.Len() != n {
			t.Errorf("%q: %v %d %q (len %d), want %v %d %q", c.in, res, which, m.Name(), m.Len(), c.res, c.which, c.name)
		}
	}
}

// Ends after a name: one of several, or none (the name ends before a byte
// it cannot hold, which is not the tag's).
func TestMatcherEnds(t *testing.T) {
	tags := []Tag{{Lit: `<p name="`, Name: Dotted, Ends: []string{`" s="t">`, `" s="f">`, `">`}},
		{Lit: "<call>", Name: Word, Ends: []string{""}}, {Lit: "</call>"}}
	for _, c := range []struct {
		in    string
		res   Result
		which int
		end   int
		name  string
		n     int // bytes consumed
	}{
		{`<p name="a.b">`, Match, 0, 2, "a.b", 14},
		{`<p name="a" s="t">`, Match, 0, 0, "a", 18},
		{`<p name="a" s="f">`, Match, 0, 1, "a", 18},
		{`<p name="a" s="x">`, Fail, -1, 0, "a", 15},
		{`<p name="">`, Fail, -1, 0, "", 9},
		{`<p name="a>`, Fail, -1, 0, "a", 10},
		{"<call>get_x\n", Ended, 1, 0, "get_x", 11},
		{"<call>get_x<", Ended, 1, 0, "get_x", 11},
		{"<call>\n", Fail, -1, 0, "", 6},
		{"<call>" + strings.Repeat("x", MaxName) + "y", Ended, 1, 0, strings.Repeat("x", MaxName), 6 + MaxName},
		{"</call>", Match, 2, 0, "", 7},
	} {
		var m Matcher
		m.Start(tags)
		res, which := More, -1
		n := 0
		for n < len(c.in) && res == More {
			res, which = m.Step(c.in[n])
			if res == More || res == Match {
				n++
			}
		}
		if res != c.res || which != c.which || string(m.Name()) != c.name || n != c.n || res == Match && m.End() != c.end {
			t.Errorf("%q: %v %d end %d %q (%d bytes), want %v %d end %d %q (%d bytes)", c.in, res, which, m.End(), m.Name(), n,
				c.res, c.which, c.end, c.name, c.n)
		}
	}
}

func TestFind(t *testing.T) {
	tags := []Tag{{Lit: "</parameter>"}, {Lit: "<function="}}
	for _, c := range []struct {
		in        string
		at, which int
	}{
		{"a < b </param </parameter>", 14, 0},
		{"<<function=x", 1, 1},
		{"</parameter", -1, -1},
		{"", -1, -1},
	} {
		if at, which := Find([]byte(c.in), tags); at != c.at || which != c.which {
			t.Errorf("Find(%q) = %d, %d; want %d, %d", c.in, at, which, c.at, c.which)
		}
	}
}

func TestNames(t *testing.T) {
	for _, c := range []struct {
		n    Names
		name string
		ok   bool
	}{
		{Word, "read_files-2", true}, {Word, "a.b", false}, {Dotted, "a.b", true}, {Dotted, "", false},
		{Dotted, "a b", false}, {Dotted, strings.Repeat("a", MaxName), true}, {Dotted, strings.Repeat("a", MaxName+1), false},
		{NoName, "a", false},
	} {
		if got := c.n.Valid(c.name); got != c.ok {
			t.Errorf("%d.Valid(%q) = %v", c.n, c.name, got)
		}
	}
}

func TestAppendValue(t *testing.T) {
	for _, c := range []struct {
		text  string
		frame bool
		want  string
	}{
		{"a", false, "a"}, {"a", true, "\na\n"}, {"", true, "\n\n"}, {"a\r", true, "\na\r\r\n"}, {"\n", true, "\n\n\n"},
	} {
		if got := string(AppendValue(nil, []byte(c.text), c.frame)); got != c.want {
			t.Errorf("AppendValue(%q, %v) = %q, want %q", c.text, c.frame, got, c.want)
		}
	}
}
