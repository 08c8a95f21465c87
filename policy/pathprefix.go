package policy

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// filePath is a file path after lexical resolution in one [PathStyle] (see
// PathStyle and the package documentation, "Path styles"). After
// resolution ".." can only lead a path that can climb out (relative, or
// drive-relative in Windows style), so it is kept as a count: a path that
// climbs out of where a prefix starts has more of them than the prefix.
type filePath struct {
	style PathStyle
	// root is "" for a relative path, "/" for an absolute POSIX path or a
	// rooted Windows path, and in Windows style "c:/" (drive-absolute), "c:"
	// (drive-relative), "//server/share/" (UNC), "//?/" or "//./" (device,
	// maybe followed by "c:/"). Folded to lower case in Windows style.
	root    string
	abs     bool     // ".." at the root stays there (every root but "" and "c:")
	up      int      // leading ".." components of a path that can climb out
	comps   []string // the other components: no "", ".", or ".."; folded in Windows style
	dir     bool     // written with a trailing separator (used for prefixes)
	suspect bool     // the resolution is uncertain or platform-dependent (see PathStyle)
}

// resolvePath resolves p lexically as a tool of the given style would (see
// [PathStyle]), without looking anything up. It takes time linear in len(p)
// and allocates the component slice, plus in Windows style the folded copy
// of p when p is not already folded, and the root when it must be rewritten.
func resolvePath(p string, style PathStyle) filePath {
	fp := filePath{style: style, suspect: misreadable(p)}
	if style == Windows {
		fp.resolveWindows(p)
		return fp
	}
	if strings.HasPrefix(p, "/") {
		fp.root, fp.abs = "/", true
	}
	fp.dir = strings.HasSuffix(p, "/")
	if strings.HasPrefix(p, "//") || strings.IndexByte(p, '\\') >= 0 {
		fp.suspect = true
	}
	fp.comps = make([]string, 0, strings.Count(p, "/")+1)
	for c := range strings.SplitSeq(p, "/") {
		if fp.step(c) {
			// A name Windows would read differently.
			if _, changed := windowsName(c); changed || reservedName(c) {
				fp.suspect = true
			}
			fp.comps = append(fp.comps, c)
		}
	}
	return fp
}

// misreadable reports whether a tool, a shell or a Windows code page may
// read p as another path than its resolution, in either style: p contains
// a C0 control character (a C tool stops at NUL), "$" or "%" (variables
// such as $HOME and %USERPROFILE%, URL escapes such as %2e), "~" leading
// a component (a home directory: ~, ~root), or a lookalike. It takes time
// linear in len(p).
func misreadable(p string) bool {
	for i := 0; i < len(p); i++ {
		switch b := p[i]; {
		case b < 0x20 || b == '$' || b == '%':
			return true
		case b == '~' && (i == 0 || isSep(p[i-1])):
			// A shell expands only a leading one, but a tool may split
			// the path and pass a component on.
			return true
		case b >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(p[i:])
			if lookalike(r) {
				return true
			}
			i += size - 1
		}
	}
	return false
}

// lookalike reports whether r is a non-ASCII character that a Windows
// best-fit code page or Unicode compatibility normalization (NFKC) turns
// into ASCII punctuation, or one a reader takes for a separator: a tool
// that opens files through the ANSI API may receive "..＼..＼x" as
// "..\..\x". Letters and digits that become ASCII (fullwidth ｅ) are not
// included: they change a name, not how the path resolves.
func lookalike(r rune) bool {
	switch {
	case 0xFF01 <= r && r <= 0xFF0F, 0xFF1A <= r && r <= 0xFF20,
		0xFF3B <= r && r <= 0xFF40, 0xFF5B <= r && r <= 0xFF5E:
		return true // fullwidth ASCII punctuation: ／ ＼ ． ： ～ ＄ ％ ＊
	case 0xFE50 <= r && r <= 0xFE6B:
		return true // small forms: ﹒ ﹕ ﹨ ﹩ ﹪
	case 0xFE10 <= r && r <= 0xFE19:
		return true // vertical forms: ︓ ︙
	}
	switch r {
	case 0x00A5, 0x20A9, // ¥ and ₩: "\" in code pages 932 and 949
		0x2044, 0x2215, // ⁄ and ∕: "/" in code page 1252
		0x29F8, 0x29F5, 0x29F9, 0x2216, // ⧸ ⧵ ⧹ ∖: look like "/" and "\"
		0x2024, 0x2025, 0x2026, // ․ ‥ …: ".", ".." and "..." under NFKC
		0x066A, 0x2217: // ٪ and ∗: "%" and "*" in code page 1252
		return true
	}
	return false
}

// step applies the component c if it is "", "." or "..", and reports
// whether it is a name to append instead.
func (fp *filePath) step(c string) bool {
	switch {
	case c == "" || c == ".":
	case c != "..":
		return true
	case len(fp.comps) > 0:
		fp.comps = fp.comps[:len(fp.comps)-1]
	case !fp.abs:
		fp.up++
		// An absolute path's ".." at the root stays at the root.
	}
	return false
}

// isSep reports whether b separates components in Windows style.
func isSep(b byte) bool { return b == '/' || b == '\\' }

// indexSep returns the index of the first Windows separator in s, or len(s).
func indexSep(s string) int {
	for i := 0; i < len(s); i++ {
		if isSep(s[i]) {
			return i
		}
	}
	return len(s)
}

// isDrive reports whether s starts with a drive: an ASCII letter and ":".
func isDrive(s string) bool {
	return len(s) >= 2 && s[1] == ':' && (s[0]|0x20) >= 'a' && (s[0]|0x20) <= 'z'
}

// resolveWindows resolves p in Windows style into fp (see [PathStyle]).
func (fp *filePath) resolveWindows(p string) {
	q, bad := foldWindows(p)
	fp.suspect = fp.suspect || bad
	fp.dir = len(q) > 0 && isSep(q[len(q)-1])
	rest := q
	switch {
	case len(q) >= 2 && isSep(q[0]) && isSep(q[1]):
		fp.abs = true
		if len(q) >= 3 && (q[2] == '.' || q[2] == '?') && (len(q) == 3 || isSep(q[3])) {
			// A device path: \\?\ and \\.\ reach the NT namespace.
			fp.suspect = true
			fp.root, rest = "//./", q[min(4, len(q)):]
			if q[2] == '?' {
				fp.root = "//?/"
			}
			if isDrive(rest) && (len(rest) == 2 || isSep(rest[2])) {
				fp.root += rest[:2] + "/"
				rest = rest[min(3, len(rest)):]
			}
			break
		}
		// UNC: \\server\share is the root.
		rest = q[2:]
		i := indexSep(rest)
		server := rest[:i]
		rest = rest[i:]
		share := ""
		if len(rest) > 0 {
			rest = rest[1:]
			i = indexSep(rest)
			share, rest = rest[:i], rest[i:]
		}
		fp.root = "//" + server + "/" + share + "/"
		for _, n := range [2]string{server, share} {
			if _, changed := windowsName(n); changed || n == "" || n == "." || n == ".." || badWindowsName(n) {
				fp.suspect = true
			}
		}
	case isDrive(q) && len(q) >= 3 && isSep(q[2]):
		fp.abs = true
		fp.root, rest = q[:3], q[3:]
		if q[2] == '\\' {
			fp.root = q[:2] + "/"
		}
	case isDrive(q):
		// Relative to the current directory of that drive.
		fp.suspect = true
		fp.root, rest = q[:2], q[2:]
	case len(q) > 0 && isSep(q[0]):
		fp.abs = true
		fp.root, rest = "/", q[1:]
	}
	n := 1
	for i := 0; i < len(rest); i++ {
		if isSep(rest[i]) {
			n++
		}
	}
	fp.comps = make([]string, 0, n)
	for {
		i := indexSep(rest)
		c := rest[:i]
		if fp.step(c) {
			name, changed := windowsName(c)
			if changed || badWindowsName(c) {
				fp.suspect = true
			}
			fp.comps = append(fp.comps, name)
		}
		if i == len(rest) {
			break
		}
		rest = rest[i+1:]
	}
}

// windowsName returns the name Win32 opens for the component c: without an
// alternate data stream suffix (from the first ":") and without trailing
// dots and spaces, or c as written if that leaves nothing. changed reports
// whether anything was removed.
func windowsName(c string) (name string, changed bool) {
	name = c
	if i := strings.IndexByte(name, ':'); i >= 0 {
		name = name[:i]
	}
	name = strings.TrimRight(name, ". ")
	if name == "" {
		name = c
	}
	return name, len(c) != len(strings.TrimRight(c, ". ")) || strings.IndexByte(c, ':') >= 0
}

// badWindowsName reports whether the name c (already folded) is suspect in
// Windows style for what it contains: a character Windows forbids in names,
// "~" and a digit (a possible 8.3 short name), or a reserved device name.
func badWindowsName(c string) bool {
	for i := 0; i < len(c); i++ {
		switch c[i] {
		case '*', '?', '<', '>', '"', '|':
			return true
		case '~':
			if i+1 < len(c) && c[i+1] >= '0' && c[i+1] <= '9' {
				return true
			}
		}
	}
	return reservedName(c)
}

// reservedName reports whether Win32 reads the component c as a device:
// CON, PRN, AUX, NUL, CONIN$, CONOUT$, COM0-9, LPT0-9, COM¹²³, LPT¹²³, in
// any case, alone or before an extension, spaces, or a stream.
func reservedName(c string) bool {
	name, _ := windowsName(c)
	if i := strings.IndexByte(name, '.'); i >= 0 {
		name = name[:i]
	}
	name = strings.TrimRight(name, " ")
	switch len(name) {
	case 3:
		for _, r := range [...]string{"con", "prn", "aux", "nul"} {
			if strings.EqualFold(name, r) {
				return true
			}
		}
	case 4, 5:
		if !strings.EqualFold(name[:3], "com") && !strings.EqualFold(name[:3], "lpt") {
			return false
		}
		d := name[3:]
		return len(d) == 1 && d[0] >= '0' && d[0] <= '9' || d == "¹" || d == "²" || d == "³"
	case 6, 7:
		return strings.EqualFold(name, "conin$") || strings.EqualFold(name, "conout$")
	}
	return false
}

// foldWindows returns p with every rune replaced by foldRune's
// representative, and whether p contains bytes that are not UTF-8 or a
// non-ASCII rune that case mapping or folding turns into ASCII. It returns
// p itself, without allocating, when p has no upper-case ASCII letter and
// no non-ASCII byte.
func foldWindows(p string) (string, bool) {
	i := 0
	for i < len(p) && p[i] < utf8.RuneSelf && (p[i] < 'A' || p[i] > 'Z') {
		i++
	}
	if i == len(p) {
		return p, false
	}
	var b strings.Builder
	b.Grow(len(p))
	b.WriteString(p[:i])
	bad := false
	for i < len(p) {
		c := p[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			b.WriteByte(c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(p[i:])
		if r == utf8.RuneError && size == 1 {
			bad = true
			b.WriteByte(c)
			i++
			continue
		}
		f := foldRune(r)
		if f < utf8.RuneSelf || unicode.ToUpper(r) < utf8.RuneSelf || unicode.ToLower(r) < utf8.RuneSelf {
			bad = true
		}
		b.WriteRune(f)
		i += size
	}
	return b.String(), bad
}

// foldRune returns one representative of r's simple case folding orbit (the
// runes [strings.EqualFold] takes as equal to r): the lower case of the orbit's
// smallest rune when it is in the orbit, else that smallest rune. So two
// runes fold to the same rune exactly when EqualFold equates them.
func foldRune(r rune) rune {
	m := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		m = min(m, f)
	}
	l := unicode.ToLower(m)
	if l == m {
		return m
	}
	for f := unicode.SimpleFold(m); f != m; f = unicode.SimpleFold(f) {
		if f == l {
			return l
		}
	}
	return m
}

// String returns the resolved path in canonical form, for patterns to match
// against: the root, then each climbing ".." and each component joined by
// "/"; "." for an empty relative path. In POSIX style it is what [path.Clean]
// returns. In Windows style it is folded to lower case, the root written
// "c:/", "c:" or "//server/share/", stream suffixes and trailing dots and
// spaces removed: `SRC\.\.Env.` and "src/.env::$DATA" are both "src/.env".
func (fp filePath) String() string {
	var b strings.Builder
	n := len(fp.root) + 3*fp.up
	for _, c := range fp.comps {
		n += len(c) + 1
	}
	b.Grow(n)
	b.WriteString(fp.root)
	sep := false
	for range fp.up {
		if sep {
			b.WriteByte('/')
		}
		b.WriteString("..")
		sep = true
	}
	for _, c := range fp.comps {
		if sep {
			b.WriteByte('/')
		}
		b.WriteString(c)
		sep = true
	}
	if b.Len() == 0 {
		return "."
	}
	return b.String()
}

// under reports whether the path fp lies under prefix: the same style, the
// same root, climbing out by the same number of "..", prefix's components
// are fp's first components (compared as the style compares names), and if
// prefix ends with a separator ("src/"), fp has at least one more: "src/" is
// the content of a directory, "src" is src itself or its content. It does
// not look at suspect: a suspect fp may be under prefix, and must still not
// satisfy a permissive rule.
func (fp filePath) under(prefix filePath) bool {
	if fp.style != prefix.style || fp.root != prefix.root || fp.up != prefix.up || len(fp.comps) < len(prefix.comps) {
		return false
	}
	if prefix.dir && len(fp.comps) == len(prefix.comps) {
		return false
	}
	for i, c := range prefix.comps {
		if fp.comps[i] != c {
			return false
		}
	}
	return true
}

// covers reports whether every path under q is under fp, so that a rule on
// fp placed before a rule on q leaves q nothing to match.
func (fp filePath) covers(q filePath) bool {
	if fp.style != q.style || fp.root != q.root || fp.up != q.up || len(q.comps) < len(fp.comps) {
		return false
	}
	for i, c := range fp.comps {
		if q.comps[i] != c {
			return false
		}
	}
	return !fp.dir || q.dir || len(q.comps) > len(fp.comps)
}
