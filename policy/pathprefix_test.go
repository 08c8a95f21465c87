package policy

import "testing"

func TestPathPrefix(t *testing.T) {
	for _, c := range []struct {
		prefix, path string
		want         bool
	}{
		// Whole components.
		{"src/", "src/lib.rs", true},
		{"src/", "src/a/b/c.rs", true},
		{"src/", "src-old/lib.rs", false},
		{"src/", "srcx", false},
		{"src", "src-old/lib.rs", false},
		{"src", "src", true},
		{"src", "src/lib.rs", true},
		{"src/", "src", false},  // the directory itself is not in it
		{"src/", "src/", false}, // idem
		{"src/", "src/.", false},
		{"src/lib", "src/lib.rs", false},
		// Lexical normalisation of the value.
		{"src/", "./src/lib.rs", true},
		{"src/", "src//lib.rs", true},
		{"src/", "src/./lib.rs", true},
		{"src/", "src/a/../lib.rs", true},
		{"src/", "lib/../src/x.rs", true},
		{"src/", `src\lib.rs`, true},
		// Climbing out never matches the prefix it escapes.
		{"src/", "src/..", false},
		{"src/", "src/../lib.rs", false},
		{"src/", "src/../../etc/passwd", false},
		{"src/", "src/a/../../../etc", false},
		{"src/", `src\..\..\etc\passwd`, false},
		{"src/", `src/..\..\etc`, false},
		{"src/", "../src/lib.rs", false},
		{"", "../etc/passwd", false},
		{".", "../etc/passwd", false},
		{"./", "..", false},
		{"", "lib.rs", true},
		{".", "a/../b", true},
		{"../shared/", "../shared/x", true},
		{"../shared/", "../../shared/x", false},
		{"../shared/", "../shared/../../x", false},
		{"..", "../../x", false},
		{"..", "../x", true},
		// Normalisation of the prefix.
		{"./src/", "src/lib.rs", true},
		{"src/../src/", "src/lib.rs", true},
		{"src//", "src/lib.rs", true},
		// Absolute and relative never mix.
		{"/etc/", "/etc/passwd", true},
		{"/etc/", "etc/passwd", false},
		{"etc/", "/etc/passwd", false},
		{"/etc/", "/../etc/passwd", true}, // the root is its own parent
		{"/etc/", "/etc/../etc/passwd", true},
		{"/etc/", "/etc/../root/.ssh", false},
		{"/home/u/proj/", "/home/u/proj/../../../etc/passwd", false},
		{"/", "/etc", true},
		{"/", "etc", false},
		// Case and Unicode are compared as written.
		{"src/", "SRC/lib.rs", false},
		{"dé/", "dé/x", true},
	} {
		if got := splitPath(c.path).under(splitPath(c.prefix)); got != c.want {
			t.Errorf("%q under prefix %q = %v, want %v", c.path, c.prefix, got, c.want)
		}
	}
}

func TestPathCovers(t *testing.T) {
	for _, c := range []struct {
		p, q string
		want bool
	}{
		{"src/", "src/a/", true},
		{"src/", "src/a", true},
		{"src", "src/", true},
		{"src", "src", true},
		{"src/", "src", false},
		{"src/", "src/", true},
		{"src/", "srcx/", false},
		{"", "src/", true},
		{"", "../x/", false},
		{"..", "../..", false},
		{"../", "../x", true},
		{"/", "/etc/", true},
		{"/", "etc/", false},
		{"src/a/", "src/", false},
	} {
		if got := splitPath(c.p).covers(splitPath(c.q)); got != c.want {
			t.Errorf("%q covers %q = %v, want %v", c.p, c.q, got, c.want)
		}
	}
}
