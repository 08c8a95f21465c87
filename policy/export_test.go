package policy

// What the tests of package policy_test need from inside the package.

// Spelling is a path and whether it is suspect in each style, indexed by
// PathStyle.
type Spelling struct {
	Path    string
	Suspect [2]bool
}

// SuspectSpellings returns the spellings of TestSuspectSpellings.
func SuspectSpellings() []Spelling {
	out := make([]Spelling, len(suspectSpellings))
	for i, c := range suspectSpellings {
		out[i] = Spelling{c.path, [2]bool{POSIX: c.posix, Windows: c.windows}}
	}
	return out
}

// IsSuspect reports whether the path p is suspect in style: the reference
// for Verdict.SuspectPath.
func IsSuspect(p string, style PathStyle) bool { return resolvePath(p, style).suspect }
