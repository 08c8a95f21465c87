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
