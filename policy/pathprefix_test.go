package policy

import (
	"math/rand/v2"
	stdpath "path"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/argstream/argstream/internal/testutil"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
)

func TestPathStyle(t *testing.T) {
	for _, st := range []PathStyle{POSIX, Windows} {
		got, err := ParsePathStyle(st.String())
		if err != nil || got != st {
			t.Errorf("ParsePathStyle(%q) = %v, %v", st.String(), got, err)
		}
		var u PathStyle
		text, err := st.MarshalText()
		if err != nil || u.UnmarshalText(text) != nil || u != st {
			t.Errorf("%v: MarshalText, UnmarshalText = %q, %v, %v", st, text, err, u)
		}
	}
	if POSIX != 0 || POSIX.String() != "posix" || Windows.String() != "windows" || PathStyle(7).String() != "PathStyle(7)" {
		t.Errorf("names: %v %v %v", POSIX, Windows, PathStyle(7))
	}
	for _, s := range []string{"", "POSIX", "Windows", "win", "dos"} {
		if _, err := ParsePathStyle(s); err == nil {
			t.Errorf("ParsePathStyle(%q) accepted", s)
		}
	}
	if _, err := PathStyle(2).MarshalText(); err == nil {
		t.Error("PathStyle(2).MarshalText accepted")
	}
}

// Rows that resolve the same way in both styles: no backslash, no case, no
// drive, nothing suspect.
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
		// Climbing out never matches the prefix it escapes.
		{"src/", "src/..", false},
		{"src/", "src/../lib.rs", false},
		{"src/", "src/../../etc/passwd", false},
		{"src/", "src/a/../../../etc", false},
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
		{"dé/", "dé/x", true},
	} {
		for _, st := range []PathStyle{POSIX, Windows} {
			v := resolvePath(c.path, st)
			if got := v.under(resolvePath(c.prefix, st)); got != c.want || v.suspect {
				t.Errorf("%v: %q under prefix %q = %v (suspect %v), want %v", st, c.path, c.prefix, got, v.suspect, c.want)
			}
		}
	}
}

// envPattern is the restrictive rule of the package documentation.
var envPattern = regexp.MustCompile(`(^|/)\.env($|\.)`)

func TestResolvePath(t *testing.T) {
	const P, W = POSIX, Windows
	for _, c := range []struct {
		path    string
		style   PathStyle
		prefix  string
		under   bool
		suspect bool
		str     string
	}{
		// The reproducers: POSIX applies ".." to the whole `a\b`.
		{`src/a\b/../../x`, P, "src/", false, true, `x`},
		{`src/a\b\c\d\e\f\g\h/../../../../../../../../etc/passwd`, P, "src/", false, true, `../../../../../../etc/passwd`},
		{`src/a\b/../../x`, W, "src/", true, false, `src/x`},
		{`src/a\b\c\d\e\f\g\h/../../../../../../../../etc/passwd`, W, "src/", true, false, `src/etc/passwd`},
		{`src\lib.rs`, P, "src/", false, true, `src\lib.rs`},
		{`src\lib.rs`, W, "src/", true, false, `src/lib.rs`},
		{`src\..\..\etc\passwd`, P, "src/", false, true, `src\..\..\etc\passwd`},
		{`src\..\..\etc\passwd`, W, "src/", false, false, `../etc/passwd`},
		{`src/..\..\etc`, P, "src/", true, true, `src/..\..\etc`}, // under, but suspect
		{`src/..\..\etc`, W, "src/", false, false, `../etc`},
		{`src/a\..\b/x`, P, "src/", true, true, `src/a\..\b/x`},
		{`src/a\..\b/x`, W, "src/", true, false, `src/b/x`},
		{`src/a\..\..\b/x`, W, "src/", false, false, `b/x`},

		// Case.
		{"SRC/lib.rs", P, "src/", false, false, "SRC/lib.rs"},
		{"SRC/lib.rs", W, "src/", true, false, "src/lib.rs"},
		{"src/lib.rs", W, "SRC/", true, false, "src/lib.rs"},
		{"ÉCOLE/x", W, "école/", true, false, "école/x"},
		{"ÉCOLE/x", P, "école/", false, false, "ÉCOLE/x"},
		{"ΣΑΣ/x", W, "σας/", true, false, "σασ/x"}, // final sigma folds with sigma

		// .env bypasses: all "src/.env" in Windows style.
		{`src\.ENV`, W, "src/", true, false, "src/.env"},
		{"src/.env ", W, "src/", true, true, "src/.env"},
		{"src/.env.", W, "src/", true, true, "src/.env"},
		{"src/.env::$DATA", W, "src/", true, true, "src/.env"},
		{"src/.env:stream", W, "src/", true, true, "src/.env"},
		{"src/.env:stream:$DATA", W, "src/", true, true, "src/.env"},
		{"SRC/./.Env.", W, "src/", true, true, "src/.env"},
		{"src/.env. . .", W, "src/", true, true, "src/.env"},
		{"src/.env ", P, "src/", true, true, "src/.env "},
		{"src/.env::$DATA", P, "src/", true, true, "src/.env::$DATA"},
		{"src/.ENV", P, "src/", true, false, "src/.ENV"},
		// A name that stripping would empty is kept as written.
		{"src/...", W, "src/", true, true, "src/..."},
		{"src/...", P, "src/", true, true, "src/..."},
		{"src/. /x", W, "src/", true, true, "src/. /x"},
		{"src/:x", W, "src/", true, true, "src/:x"},
		{"src/a.", P, "src/", true, true, "src/a."},
		{"src/a ", P, "src/", true, true, "src/a "},
		{"src/ a", P, "src/", true, false, "src/ a"},
		{"src/ a", W, "src/", true, false, "src/ a"},

		// Drives.
		{`C:\src\x`, W, `C:\src\`, true, false, "c:/src/x"},
		{`c:/SRC/x`, W, `C:\src\`, true, false, "c:/src/x"},
		{`C:\src\x`, W, `c:/src/`, true, false, "c:/src/x"},
		{`C:\src`, W, `C:\src\`, false, false, "c:/src"},
		{`C:\src`, W, `C:\src`, true, false, "c:/src"},
		{`D:\src\x`, W, `C:\src\`, false, false, "d:/src/x"},
		{`C:\src\x`, W, "src/", false, false, "c:/src/x"},
		{`C:\src\x`, W, `\src\`, false, false, "c:/src/x"},
		{`\src\x`, W, `C:\src\`, false, false, "/src/x"},
		{`\src\x`, W, `/src/`, true, false, "/src/x"},
		{`C:\..\..\Windows\x`, W, `C:\windows\`, true, false, "c:/windows/x"},
		{`C:\`, W, `C:\`, false, false, "c:/"},
		{`C:/`, W, `C:\`, false, false, "c:/"},
		{`C:\x`, W, `C:\`, true, false, "c:/x"},
		{`C:\x`, W, `C:`, false, false, "c:/x"},
		{`C:src\x`, W, `C:\src\`, false, true, "c:src/x"},
		{`C:src\x`, W, "src/", false, true, "c:src/x"},
		{`C:src\x`, W, `C:src\`, true, true, "c:src/x"}, // only a prefix written the same way
		{`C:..\x`, W, `C:src\`, false, true, "c:../x"},
		{`C:`, W, "", false, true, "c:"},
		{`C:\src\x`, P, "src/", false, true, `C:\src\x`},
		{`c:/src/x`, P, "c:/src/", true, true, "c:/src/x"},
		{`1:\x`, W, "", true, true, "1/x"}, // not a drive: a stream on "1"

		// UNC.
		{`\\server\share\src\x`, W, `\\SERVER\Share\src\`, true, false, "//server/share/src/x"},
		{`//server/share/src/x`, W, `\\server\share\src\`, true, false, "//server/share/src/x"},
		{`\\server\share\..\..\x`, W, `\\server\share\`, true, false, "//server/share/x"},
		{`\\server\share`, W, `\\server\share\`, false, false, "//server/share/"},
		{`\\server\other\x`, W, `\\server\share\`, false, false, "//server/other/x"},
		{`\\server\share\x`, W, `/share/`, false, false, "//server/share/x"},
		{`\\server`, W, "", false, true, "//server//"},
		{`\\server\`, W, "", false, true, "//server//"},
		{`\\server\\x`, W, "", false, true, "//server//x"},
		{`\\\x\y`, W, "", false, true, "///x/y"},
		{`\\.. \share\x`, W, "", false, true, "//.. /share/x"},
		{`\\server\share\x`, P, "", true, true, `\\server\share\x`},
		{`//server/share/x`, P, "/server/", true, true, "/server/share/x"},

		// Device paths.
		{`\\?\C:\x`, W, `C:\`, false, true, "//?/c:/x"},
		{`//?/c:/x`, W, `C:\`, false, true, "//?/c:/x"},
		{`\\.\C:\src\x`, W, `C:\src\`, false, true, "//./c:/src/x"},
		{`\\?\C:`, W, "", false, true, "//?/c:/"},
		{`\\.\NUL`, W, "", false, true, "//./nul"},
		{`\\?\UNC\server\share\x`, W, `\\server\share\`, false, true, "//?/unc/server/share/x"},
		{`\\?`, W, "", false, true, "//?/"},
		{`\??\C:\x`, W, `\`, true, true, "/??/c/x"},
		{`\\?\C:\x`, P, "", true, true, `\\?\C:\x`},

		// ".." at the root of an absolute path.
		{"/../etc/passwd", P, "/etc/", true, false, "/etc/passwd"},
		{"/..", P, "/", false, false, "/"},
		{"/../../..", P, "/", false, false, "/"},
		{`\..\x`, W, `\`, true, false, "/x"},
		{`/a/../../b`, W, "/", true, false, "/b"},

		// Empty, only separators.
		{"", P, "src/", false, false, "."},
		{"", P, "", true, false, "."},
		{"", W, "", true, false, "."},
		{"/", P, "/", false, false, "/"},
		{"////", P, "/", false, true, "/"},
		{"///x", P, "/", true, true, "/x"},
		{`\\\\`, P, "", true, true, `\\\\`},
		{`\`, W, `/`, false, false, "/"},
		{`\\\\`, W, "", false, true, "////"},
		{`/\/\`, W, "", false, true, "////"},
		{".", P, "", true, false, "."},
		{"./", W, "", true, false, "."},
		{"..", P, "", false, false, ".."},
		{"../..", W, "../", false, false, "../.."},

		// Reserved device names.
		{"src/nul", P, "src/", true, true, "src/nul"},
		{"src/NUL.txt", W, "src/", true, true, "src/nul.txt"},
		{"src/nul .txt", W, "src/", true, true, "src/nul .txt"},
		{"src/Con", W, "src/", true, true, "src/con"},
		{"src/aux.tar.gz", P, "src/", true, true, "src/aux.tar.gz"},
		{"src/com1", W, "src/", true, true, "src/com1"},
		{"src/LPT9.log", P, "src/", true, true, "src/LPT9.log"},
		{"src/COM¹", W, "src/", true, true, "src/com¹"},
		{"src/conout$", W, "src/", true, true, "src/conout$"},
		{"src/con.d/x", W, "src/", true, true, "src/con.d/x"},
		{"src/com10", W, "src/", true, false, "src/com10"},
		{"src/console", P, "src/", true, false, "src/console"},
		{"src/nully", W, "src/", true, false, "src/nully"},
		{"src/xnul", W, "src/", true, false, "src/xnul"},

		// Control characters, invalid UTF-8, confusable letters.
		{"src/a\x00b", P, "src/", true, true, "src/a\x00b"},
		{"src/a\nb", W, "src/", true, true, "src/a\nb"},
		{"src/a\x1fb", P, "src/", true, true, "src/a\x1fb"},
		{"src/\xff", W, "src/", true, true, "src/\xff"},
		{"src/\xff", P, "src/", true, false, "src/\xff"},
		{"ſrc/x", W, "src/", true, true, "src/x"},          // long s
		{"src/\u212Aey", W, "src/", true, true, "src/key"}, // Kelvin sign
		{"src/ı", W, "src/", true, true, "src/ı"},          // dotless i
		{"src/İ", W, "src/", true, true, "src/İ"},          // İ folds only to itself
		{"ſrc/x", P, "src/", false, false, "ſrc/x"},

		// 8.3 short names and wildcards.
		{"src/ENV~1", W, "src/", true, true, "src/env~1"},
		{"PROGRA~1/x", W, "", true, true, "progra~1/x"},
		{"src/a~b", W, "src/", true, false, "src/a~b"},
		{"src/ENV~1", P, "src/", true, false, "src/ENV~1"},
		{"src/*.rs", W, "src/", true, true, "src/*.rs"},
		{"src/a?", W, "src/", true, true, "src/a?"},
		{`src/a"b`, W, "src/", true, true, `src/a"b`},
		{"src/*.rs", P, "src/", true, false, "src/*.rs"},

		// Relative prefixes that climb.
		{`..\shared\x`, W, "../shared/", true, false, "../shared/x"},
		{`..\..\shared\x`, W, `..\shared\`, false, false, "../../shared/x"},
	} {
		v, prefix := resolvePath(c.path, c.style), resolvePath(c.prefix, c.style)
		if got := v.under(prefix); got != c.under {
			t.Errorf("%v: %q under %q = %v, want %v", c.style, c.path, c.prefix, got, c.under)
		}
		if v.suspect != c.suspect {
			t.Errorf("%v: %q suspect = %v, want %v", c.style, c.path, v.suspect, c.suspect)
		}
		if got := v.String(); got != c.str {
			t.Errorf("%v: %q resolves to %q, want %q", c.style, c.path, got, c.str)
		}
		if c.style == Windows && envPattern.MatchString(c.str) != strings.Contains(c.str, ".env") {
			t.Errorf("%v: %q: the .env pattern on %q", c.style, c.path, c.str)
		}
	}
}

// The path parameter's value as written and its Windows resolution: a
// restrictive pattern checked against both catches every spelling of .env.
func TestWindowsEnvBypasses(t *testing.T) {
	for _, p := range []string{
		`src\.ENV`, "src/.env ", "src/.env::$DATA", "SRC/./.Env.", "src/.env:x",
		`C:\proj\.Env . .`, `\\srv\share\.ENV::$DATA`, `\\?\C:\proj\.env.`,
		"src/.env.local", `src\x\..\.env`,
	} {
		if s := resolvePath(p, Windows).String(); !envPattern.MatchString(s) {
			t.Errorf("%q resolves to %q: the pattern misses it", p, s)
		}
	}
}

func TestPathCovers(t *testing.T) {
	for _, c := range []struct {
		p, q  string
		style PathStyle
		want  bool
	}{
		{"src/", "src/a/", POSIX, true},
		{"src/", "src/a", POSIX, true},
		{"src", "src/", POSIX, true},
		{"src", "src", POSIX, true},
		{"src/", "src", POSIX, false},
		{"src/", "src/", POSIX, true},
		{"src/", "srcx/", POSIX, false},
		{"", "src/", POSIX, true},
		{"", "../x/", POSIX, false},
		{"..", "../..", POSIX, false},
		{"../", "../x", POSIX, true},
		{"/", "/etc/", POSIX, true},
		{"/", "etc/", POSIX, false},
		{"src/a/", "src/", POSIX, false},
		{"src/", `src\a`, POSIX, false}, // one component
		{"src/", "SRC/a", POSIX, false},
		{"src/", "SRC/a", Windows, true},
		{`src\`, "src/a", Windows, true},
		{`C:\src\`, "c:/SRC/a/", Windows, true},
		{`C:\`, "c:src", Windows, false},
		{`C:`, `C:\src`, Windows, false},
		{`\`, `C:\src`, Windows, false},
		{`\\server\share\`, `//SERVER/share/x`, Windows, true},
		{`\\server\share\`, `//server/other/x`, Windows, false},
	} {
		if got := resolvePath(c.p, c.style).covers(resolvePath(c.q, c.style)); got != c.want {
			t.Errorf("%v: %q covers %q = %v, want %v", c.style, c.p, c.q, got, c.want)
		}
	}
	// Paths of different styles are never compared.
	if resolvePath("src/", POSIX).covers(resolvePath("src/a", Windows)) || resolvePath("src/a", Windows).under(resolvePath("src/", POSIX)) {
		t.Error("styles mixed")
	}
}

func TestLongPath(t *testing.T) {
	const n = 100000
	for _, st := range []PathStyle{POSIX, Windows} {
		long := "src/" + strings.Repeat("a/", n) + "x"
		v := resolvePath(long, st)
		if !v.under(resolvePath("src/", st)) || v.suspect || len(v.comps) != n+2 || v.String() != long {
			t.Errorf("%v: long path: under %v, suspect %v, %d components", st, v.under(resolvePath("src/", st)), v.suspect, len(v.comps))
		}
		climb := "src/" + strings.Repeat("a/", n) + strings.Repeat("../", n+1) + "x"
		if v := resolvePath(climb, st); v.under(resolvePath("src/", st)) || v.String() != "x" {
			t.Errorf("%v: climbing path resolves to %.20q", st, v.String())
		}
		out := "src/" + strings.Repeat("../", n) + "x"
		if v := resolvePath(out, st); v.up != n-1 || v.String() != strings.Repeat("../", n-1)+"x" {
			t.Errorf("%v: up = %d", st, v.up)
		}
	}
	// A single POSIX component made of a million backslashed names.
	bs := "src/" + strings.Repeat(`a\`, n) + "/" + strings.Repeat("../", n) + "etc"
	if v := resolvePath(bs, POSIX); v.under(resolvePath("src/", POSIX)) || !v.suspect || v.up != n-2 {
		t.Errorf("backslashed names: up %d, suspect %v", v.up, v.suspect)
	}
}

// genPath generates paths of up to 7 components joined by "/", maybe after
// a root and maybe with a trailing "/": each component one of specials, or
// up to 3 of letters.
func genPath(roots, specials, letters []string) gopter.Gen {
	return gopter.CombineGens(
		gen.IntRange(0, 7), gen.SliceOfN(7*4+2, gen.IntRange(0, 1<<16)),
	).Map(func(v []any) string {
		n, r := v[0].(int), v[1].([]int)
		var b strings.Builder
		b.WriteString(roots[r[0]%len(roots)])
		for i := range n {
			if i > 0 {
				b.WriteByte('/')
			}
			x := r[2+4*i]
			if x%3 == 0 {
				b.WriteString(specials[x/3%len(specials)])
				continue
			}
			for j := range x % 4 {
				b.WriteString(letters[r[2+4*i+1+j]%len(letters)])
			}
		}
		if r[1]%3 == 0 {
			b.WriteByte('/')
		}
		return b.String()
	})
}

var posixPath = genPath([]string{"", "", "/", "//"}, []string{"", ".", "..", ".."}, []string{"a", "b", ".", `\`})

// genPrefixOf generates a prefix for the value v: often v cut at one of
// its "/" (with or without it), else another path.
func genPrefixOf(v string, other gopter.Gen) gopter.Gen {
	return gopter.CombineGens(gen.IntRange(0, 1<<16), other).Map(func(x []any) string {
		k, o := x[0].(int), x[1].(string)
		var cuts []int
		for i := range len(v) {
			if v[i] == '/' {
				cuts = append(cuts, i, i+1)
			}
		}
		if k%4 == 0 || len(cuts) == 0 {
			return o
		}
		return v[:cuts[k/4%len(cuts)]]
	})
}

// refUnder is under by its definition: path.Clean both, then the prefix's
// components are the value's first ones (strings.HasPrefix on whole
// components), the value climbs out no further, and a prefix written with
// a trailing "/" leaves at least one more component.
func refUnder(v, prefix string) bool {
	cv, cp := stdpath.Clean(v), stdpath.Clean(prefix)
	if strings.HasPrefix(cv, "/") != strings.HasPrefix(cp, "/") {
		return false
	}
	key := func(c string) string {
		switch c {
		case ".":
			return ""
		case "/":
			return "/"
		}
		return c + "/"
	}
	kv, kp := key(cv), key(cp)
	if !strings.HasPrefix(kv, kp) {
		return false
	}
	rest := kv[len(kp):]
	return !strings.HasPrefix(rest, "../") && !(strings.HasSuffix(prefix, "/") && rest == "")
}

// refPOSIXSuspect is suspect for posixPath's alphabet: a backslash, a
// leading "//", or a name ending with a dot.
func refPOSIXSuspect(p string) bool {
	if strings.Contains(p, `\`) || strings.HasPrefix(p, "//") {
		return true
	}
	for c := range strings.SplitSeq(p, "/") {
		if c != "." && c != ".." && strings.HasSuffix(c, ".") {
			return true
		}
	}
	return false
}

// POSIX resolution is path.Clean's, and under is the whole-component
// prefix of path.Clean's output.
func TestPropertyPOSIXIsPathClean(t *testing.T) {
	properties := gopter.NewProperties(testutil.PropertyParameters(1000))
	properties.Property("String = path.Clean, suspect as defined", prop.ForAll(
		func(p string) string {
			v := resolvePath(p, POSIX)
			if got, want := v.String(), stdpath.Clean(p); got != want {
				return "String " + got + ", path.Clean " + want
			}
			if v.suspect != refPOSIXSuspect(p) {
				return "suspect wrong"
			}
			return ""
		},
		posixPath,
	))
	properties.Property("under = whole-component prefix of path.Clean", prop.ForAll(
		func(p []string) string {
			v, prefix := p[0], p[1]
			if got, want := resolvePath(v, POSIX).under(resolvePath(prefix, POSIX)), refUnder(v, prefix); got != want {
				return "under wrong for prefix " + prefix
			}
			return ""
		},
		posixPath.FlatMap(func(v any) gopter.Gen {
			return genPrefixOf(v.(string), posixPath).Map(func(pre string) []string { return []string{v.(string), pre} })
		}, reflect.TypeOf([]string{})),
	))
	properties.TestingRun(t)
}

var windowsPath = genPath(
	[]string{"", "/", `\`, "C:", `C:\`, "c:/", `\\Srv\Share\`, "//srv/share", `\\?\C:\`, `\\.\`, `\\`},
	[]string{"", ".", "..", ".."},
	[]string{"a", "B", "c", "É", "é", ".", " ", ":", "$", "~1", "Nul", "\\", "/", "C:"},
)

// respell changes p's case (ASCII letters, É and é) and separators at
// random.
func respell(p string, seed uint64) string {
	r := rand.New(rand.NewPCG(seed, 1))
	var b strings.Builder
	for _, c := range p {
		switch {
		case c == '/' || c == '\\':
			c = []rune{'/', '\\'}[r.IntN(2)]
		case c == 'É' || c == 'é':
			c = []rune{'É', 'é'}[r.IntN(2)]
		case 'a' <= c|0x20 && c|0x20 <= 'z':
			c = []rune{c | 0x20, c &^ 0x20}[r.IntN(2)]
		}
		b.WriteRune(c)
	}
	return b.String()
}

// Windows resolution depends neither on case nor on the separator, and
// its String resolves to itself.
func TestPropertyWindowsSpelling(t *testing.T) {
	properties := gopter.NewProperties(testutil.PropertyParameters(1000))
	properties.Property("case and separators do not matter", prop.ForAll(
		func(p string, seed uint64) string {
			q := respell(p, seed)
			v, w := resolvePath(p, Windows), resolvePath(q, Windows)
			if !reflect.DeepEqual(v, w) || v.String() != w.String() {
				return "respelt " + q + " resolves to " + w.String() + ", not " + v.String()
			}
			return ""
		},
		windowsPath, gen.UInt64(),
	))
	properties.Property("String resolves to itself", prop.ForAll(
		func(p string) string {
			s := resolvePath(p, Windows).String()
			if again := resolvePath(s, Windows).String(); again != s {
				return s + " resolves to " + again
			}
			return ""
		},
		windowsPath,
	))
	properties.Property("under a respelt prefix", prop.ForAll(
		func(p []string, seed uint64) string {
			v, prefix := resolvePath(p[0], Windows), resolvePath(p[1], Windows)
			if v.under(prefix) != v.under(resolvePath(respell(p[1], seed), Windows)) {
				return "under differs for a respelt " + p[1]
			}
			return ""
		},
		windowsPath.FlatMap(func(v any) gopter.Gen {
			return genPrefixOf(v.(string), windowsPath).Map(func(pre string) []string { return []string{v.(string), pre} })
		}, reflect.TypeOf([]string{})), gen.UInt64(),
	))
	properties.TestingRun(t)
}

func BenchmarkResolvePath(b *testing.B) {
	for _, c := range []struct {
		name  string
		style PathStyle
		path  string
	}{
		{"posix", POSIX, "src/policy/pathprefix.go"},
		{"windows", Windows, `src\policy\pathprefix.go`},
		{"windows-folded", Windows, `C:\Users\Me\Src\Policy\PathPrefix.go`},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				resolvePath(c.path, c.style)
			}
		})
	}
}

// Spellings that a tool, a shell or a Windows code page may expand or map
// to another path (issue 20, defect 7) are suspect in both styles; an 8.3
// short name only in Windows style, where it may name any file.
func TestSuspectSpellings(t *testing.T) {
	for _, c := range suspectSpellings {
		for st, want := range [2]bool{POSIX: c.posix, Windows: c.windows} {
			if v := resolvePath(c.path, PathStyle(st)); v.suspect != want {
				t.Errorf("%v: %q suspect = %v, want %v", PathStyle(st), c.path, v.suspect, want)
			}
		}
	}
}

// suspectSpellings are the spellings of TestSuspectSpellings, one or more
// of each kind, and whether each is suspect in each style. The tests of
// Verdict.SuspectPath use them too (see export_test.go).
var suspectSpellings = []struct {
	path           string
	posix, windows bool // suspect in each style
}{
	// Lookalikes that best-fit code pages or NFKC turn into separators.
	{"src/..\uFF3C..\uFF3CWindows", true, true},    // fullwidth reverse solidus
	{"src/..\uFF0F..\uFF0Fetc/passwd", true, true}, // fullwidth solidus
	{"src/..\u2215..\u2215etc", true, true},        // division slash
	{"src/..\u2044..\u2044etc", true, true},        // fraction slash
	{"src/..\u00A5..\u00A5Windows", true, true},    // yen sign: "\" in code page 932
	{"src/..\u20A9..\u20A9Windows", true, true},    // won sign: "\" in code page 949
	{"src/..\uFE68..\uFE68Windows", true, true},    // small reverse solidus
	{"src/..\u29F5..\u29F5Windows", true, true},    // reverse solidus operator
	{"src/..\u2216..\u2216Windows", true, true},    // set minus
	{"src/..\u29F8..\u29F8etc", true, true},        // big solidus
	// ... and dots, and the other characters that change a resolution.
	{"src/\uFF0E\uFF0E/\uFF0E\uFF0E/etc", true, true}, // fullwidth full stop
	{"src/\uFE52\uFE52/x", true, true},                // small full stop
	{"src/\u2024\u2024/x", true, true},                // one dot leader
	{"src/\u2025/x", true, true},                      // two dot leader: ".."
	{"src/\u2026/x", true, true},                      // ellipsis: "..."
	{"src/\uFE19/x", true, true},                      // vertical ellipsis
	{"C\uFF1A/Windows", true, true},                   // fullwidth colon
	{"C\uFE55/Windows", true, true},                   // small colon
	{"\uFF5E/.ssh/id_rsa", true, true},                // fullwidth tilde
	{"src/\uFF04HOME", true, true},                    // fullwidth dollar
	{"src/\uFF05USERPROFILE\uFF05", true, true},       // fullwidth percent
	{"src/\u066A2e", true, true},                      // Arabic percent: "%" in code page 1252
	{"src/\uFF0A.rs", true, true},                     // fullwidth asterisk
	// Shell and cmd expansions, URL escapes.
	{"~/.ssh/authorized_keys", true, true},
	{"~root/.bashrc", true, true},
	{"~", true, true},
	{"src/~/x", true, true},
	{`src\~\x`, true, true},
	{"$HOME/.bashrc", true, true},
	{"${HOME}/.profile", true, true},
	{"src/$(id)", true, true},
	{"src/a$b", true, true},
	{"src/%2e%2e/%2e%2e/etc/passwd", true, true},
	{"src/%2E%2e/x", true, true},
	{`%USERPROFILE%\.ssh\id_rsa`, true, true},
	{"src/100%", true, true},
	// 8.3 short names: another file's name in Windows style only.
	{"ENV~1", false, true},
	{"GIT~1/hooks/pre-commit", false, true},
	{"PROGRA~1", false, true},
	{"src/ENV~1.LOC", false, true},
	// Ordinary names.
	{"src/a~b", false, false},
	{"src/lib.rs~", false, false},
	{"src/caf\u00E9/x", false, false},
	{"src/\u3002/x", false, false}, // ideographic full stop: no code page maps it to "."
	{"src/\uFF61/x", false, false}, // halfwidth ideographic full stop: NFKC makes it U+3002
	{"src/\u00A9", false, false},
}

// misread are spellings that make a path suspect in both styles wherever
// they are inserted, and shortName one that does in Windows style.
var (
	misread = []string{"$", "%", "%2e", "/~", `\~`, "\x00", "\uFF3C", "\uFF0F", "\uFF0E", "\u2215", "\u00A5",
		"\u2044", "\uFE68", "\u29F5", "\u2024", "\u2025", "\uFF1A", "\uFF5E"}
	shortName = "/ENV~1/"
)

// insertAt inserts s into p at the rune boundary nearest before at.
func insertAt(p string, at int, s string) string {
	i := at % (len(p) + 1)
	for i > 0 && i < len(p) && !utf8.RuneStart(p[i]) {
		i--
	}
	return p[:i] + s + p[i:]
}

// A path with a spelling of misread inserted anywhere (or in Windows style
// an 8.3 short name) is suspect: it does not satisfy an unattended prefix
// it would be under, and satisfies an ask, edit or skip rule it would not.
func TestPropertyMisreadSpellings(t *testing.T) {
	properties := gopter.NewProperties(testutil.PropertyParameters(5000))
	for st, paths := range [2]gopter.Gen{POSIX: posixPath, Windows: windowsPath} {
		st := PathStyle(st)
		spellings := misread
		if st == Windows {
			spellings = append(slices.Clip(misread), shortName)
		}
		o := &config{style: st}
		properties.Property(st.String()+": suspect wherever inserted", prop.ForAll(
			func(p string, at, k int) string {
				q := insertAt(p, at, spellings[k%len(spellings)])
				r := resolvePath(q, st)
				if !r.suspect {
					return "not suspect: " + q
				}
				permissive, _ := compile(Prefix(r.String()), true, true, o)
				restrictive, _ := compile(Prefix("zzz/"), true, false, o)
				v := value{kind: '"', str: q}
				if permissive.match(&v) || !restrictive.match(&v) {
					return "suspect, yet matched as if not: " + q
				}
				return ""
			},
			paths, gen.IntRange(0, 1<<16), gen.IntRange(0, 1<<16),
		))
	}
	properties.TestingRun(t)
}
