package policy

import (
	"slices"
	"testing"

	"github.com/argstream/argstream/fragment"
)

func TestParsePointer(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"/path", []string{"path"}},
		{"/patterns/paths", []string{"patterns", "paths"}},
		{"/", []string{""}},
		{"/a~1b/c~0d", []string{"a/b", "c~d"}},
		{"/~01", []string{"~1"}},
		{"/a//b", []string{"a", "", "b"}},
	} {
		got, err := parsePointer(c.in)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("parsePointer(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	for _, in := range []string{"", "path", "#/path", "/a~", "/a~2", "/\xff"} {
		if _, err := parsePointer(in); err == nil {
			t.Errorf("parsePointer(%q) accepted", in)
		}
	}
}

func path(segs ...any) fragment.Path {
	var p fragment.Path
	for _, s := range segs {
		switch s := s.(type) {
		case string:
			p = append(p, fragment.KeySegment(s))
		case int:
			p = append(p, fragment.IndexSegment(s))
		}
	}
	return p
}

func TestOnPointer(t *testing.T) {
	segs := []string{"patterns", "paths"}
	for _, c := range []struct {
		path   fragment.Path
		on     bool
		prefix int
	}{
		{path("patterns", "paths"), true, 2},
		{path("patterns", 0, "paths"), true, 3},
		{path("patterns", 0, "paths", 1), true, 3},
		{path("patterns", 0, 1, "paths", 2, 3), true, 4},
		{path("patterns"), false, -1},
		{path("patterns", 0), false, -1},
		{path("patterns", 0, "old"), false, -1},
		{path("patterns", 0, "paths", 1, "x"), false, 3},
		{path("paths"), false, -1},
		{path(0, "patterns", "paths"), false, -1},
		{path(), false, -1},
	} {
		if got := onPointer(segs, c.path, nil); got != c.on {
			t.Errorf("onPointer(%v) = %v, want %v", c.path, got, c.on)
		}
		if got := pointerPrefix(segs, c.path, nil); got != c.prefix {
			t.Errorf("pointerPrefix(%v) = %v, want %v", c.path, got, c.prefix)
		}
	}
}
