package tagscan

// Names says which bytes the name in a tag may hold.
type Names uint8

// Name sets. Every name is 1 to [MaxName] bytes long.
const (
	NoName Names = iota // the tag is its literal alone
	Word                // [A-Za-z0-9_-]
	Dotted              // [A-Za-z0-9_.-]
)

// MaxName is the longest name a tag may hold, in bytes.
const MaxName = 128

// Allows reports whether c may be part of a name of the set.
func (n Names) Allows(c byte) bool {
	switch {
	case n == NoName:
		return false
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '_', c == '-':
		return true
	}
	return c == '.' && n == Dotted
}

// Valid reports whether name is a name of the set: 1 to [MaxName] bytes it
// allows.
func (n Names) Valid(name string) bool {
	if len(name) == 0 || len(name) > MaxName {
		return false
	}
	for i := 0; i < len(name); i++ {
		if !n.Allows(name[i]) {
			return false
		}
	}
	return true
}

// Tag is a tag of a syntax: a literal that begins with '<' and holds no
// other '<', and, if [Tag.Name] is not [NoName], a name and '>' after it
// ("<tool:" NAME ">").
type Tag struct {
	Lit  string
	Name Names
}

// String returns the tag as a message shows it: "<tool:NAME>".
func (t Tag) String() string {
	if t.Name != NoName {
		return t.Lit + "NAME>"
	}
	return t.Lit
}

// Result is what [Matcher.Step] found.
type Result int8

// Results of [Matcher.Step].
const (
	More  Result = iota // the bytes so far begin a candidate: go on
	Fail                // the byte makes a tag of no candidate; it was not consumed
	Match               // the byte completes a candidate
)

// Matcher reads a tag byte by byte against a set of candidates, across
// chunks: it holds only how far it has matched and the name read so far,
// never the input. Candidates must not be literals that begin one another
// with a Name: at most one is in its name at a time. The zero value is
// ready for [Matcher.Start]. A Matcher may not be used from several
// goroutines at once.
type Matcher struct {
	tags  []Tag
	alive uint32 // candidates still possible, by index
	n     int    // bytes consumed by the tag so far, '<' included
	name  []byte // the name read so far
}

// Start begins a tag, against candidates (at most 32).
func (m *Matcher) Start(candidates []Tag) {
	m.tags, m.alive, m.n, m.name = candidates, 1<<len(candidates)-1, 0, m.name[:0]
}

// Len returns the number of bytes of the tag consumed so far.
func (m *Matcher) Len() int { return m.n }

// Name returns the name of the tag matched (or being read): borrowed until
// the next [Matcher.Start].
func (m *Matcher) Name() []byte { return m.name }

// Step reads the next byte c of the tag. On [Match] it returns the index of
// the candidate matched.
func (m *Matcher) Step(c byte) (Result, int) {
	inName := false
	for k, tg := range m.tags {
		if m.alive&(1<<k) == 0 {
			continue
		}
		switch {
		case m.n < len(tg.Lit):
			if tg.Lit[m.n] != c {
				m.alive &^= 1 << k
				continue
			}
			if m.n+1 == len(tg.Lit) && tg.Name == NoName {
				m.n++
				return Match, k
			}
		case c == '>' && len(m.name) > 0:
			m.n++
			return Match, k
		case len(m.name) < MaxName && tg.Name.Allows(c):
			inName = true
		default:
			m.alive &^= 1 << k
		}
	}
	if m.alive == 0 {
		return Fail, -1
	}
	if inName {
		m.name = append(m.name, c)
	}
	m.n++
	return More, -1
}

// Find returns the index in text of the first complete tag of candidates,
// and which candidate it is, or -1.
func Find(text []byte, candidates []Tag) (at, which int) {
	var m Matcher
	for i := 0; i < len(text); i++ {
		if text[i] != '<' {
			continue
		}
		m.Start(candidates)
		for j := i; j < len(text); j++ {
			r, k := m.Step(text[j])
			if r == Match {
				return i, k
			}
			if r == Fail {
				break
			}
		}
	}
	return -1, -1
}
