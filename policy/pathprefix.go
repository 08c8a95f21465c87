package policy

import "strings"

// filePath is a file path after lexical normalisation (see the package
// documentation, "Path prefixes"). After normalisation ".." can only lead a
// relative path, so it is kept as a count: a path that climbs out of where
// a prefix starts has more of them than the prefix.
type filePath struct {
	abs   bool     // it starts at the root
	up    int      // leading ".." components of a relative path
	comps []string // the other components: no "", ".", or ".."
	dir   bool     // written with a trailing separator (used for prefixes)
}

// splitPath normalises p lexically, as path.Clean does, after reading every
// backslash as a separator: "a/./b", "a//b", "a/x/../b" and `a\b` are all
// a/b. Nothing is resolved against a working directory or the file system.
func splitPath(p string) filePath {
	p = strings.ReplaceAll(p, `\`, "/")
	fp := filePath{abs: strings.HasPrefix(p, "/"), dir: strings.HasSuffix(p, "/")}
	for c := range strings.SplitSeq(p, "/") {
		switch {
		case c == "" || c == ".":
		case c != "..":
			fp.comps = append(fp.comps, c)
		case len(fp.comps) > 0:
			fp.comps = fp.comps[:len(fp.comps)-1]
		case !fp.abs:
			fp.up++
			// An absolute path's ".." at the root stays at the root.
		}
	}
	return fp
}

// under reports whether the path v lies under prefix: both absolute or both
// relative, climbing out by the same number of "..", prefix's components
// are v's first components, and if prefix ends with a separator ("src/"),
// v has at least one more: "src/" is the content of a directory, "src" is
// src itself or its content.
func (v filePath) under(prefix filePath) bool {
	if v.abs != prefix.abs || v.up != prefix.up || len(v.comps) < len(prefix.comps) {
		return false
	}
	if prefix.dir && len(v.comps) == len(prefix.comps) {
		return false
	}
	for i, c := range prefix.comps {
		if v.comps[i] != c {
			return false
		}
	}
	return true
}

// covers reports whether every path under q is under p, so that a rule on
// p placed before a rule on q leaves q nothing to match.
func (p filePath) covers(q filePath) bool {
	if p.abs != q.abs || p.up != q.up || len(q.comps) < len(p.comps) {
		return false
	}
	for i, c := range p.comps {
		if q.comps[i] != c {
			return false
		}
	}
	return !p.dir || q.dir || len(q.comps) > len(p.comps)
}
