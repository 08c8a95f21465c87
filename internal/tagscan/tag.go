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

// Tag is a tag of a syntax: a literal that begins with '<', and, if
// [Tag.Name] is not [NoName], a name and one of [Tag.Ends] after it
// ("<tool:" NAME ">"). A tag a value may hold (EndParam, Reserved) holds no
// other '<'.
type Tag struct {
	Lit  string
	Name Names
	// Ends are the ways a tag with a Name may end after the name; nil is
	// ">". None may begin with a byte the name may hold. An empty end is
	// none: the name ends before the first byte it cannot hold, which is
	// not the tag's ([Ended]). The one read is [Matcher.End].
	Ends []string
}

var closeAngle = []string{">"}

// ends returns the tag's Ends, ">" if it has none.
func (t Tag) ends() []string {
	if t.Ends == nil {
		return closeAngle
	}
	return t.Ends
}

// String returns the tag as a message shows it: "<tool:NAME>".
func (t Tag) String() string {
	if t.Name != NoName {
		return t.Lit + "NAME" + t.ends()[0]
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
	Ended               // the tag of a candidate ended before the byte (an empty end), which was not consumed
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
	ends  uint32 // the Ends still possible of the candidate past its literal
	end   int    // the End read, on Match or Ended
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

// End returns the index in its [Tag.Ends] of the end of the tag matched.
func (m *Matcher) End() int { return m.end }

// Step reads the next byte c of the tag. On [Match] and [Ended] it returns
// the index of the candidate matched.
func (m *Matcher) Step(c byte) (Result, int) {
	inName := false
	for k, tg := range m.tags {
		if m.alive&(1<<k) == 0 {
			continue
		}
		if m.n < len(tg.Lit) {
			switch {
			case tg.Lit[m.n] != c:
				m.alive &^= 1 << k
			case m.n+1 < len(tg.Lit):
			case tg.Name == NoName:
				m.n++
				return Match, k
			default:
				m.ends = 1<<len(tg.ends()) - 1
			}
			continue
		}
		e := m.n - len(tg.Lit) - len(m.name) // bytes of the end read
		if e == 0 && len(m.name) < MaxName && tg.Name.Allows(c) {
			inName = true
			continue
		}
		if r := m.stepEnd(tg, c, e); r != More {
			return r, k
		}
		if m.ends == 0 {
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

// stepEnd reads c, the byte e of the end of tg after its name, against
// the ends still possible.
func (m *Matcher) stepEnd(tg Tag, c byte, e int) Result {
	if len(m.name) == 0 {
		m.ends = 0
		return More
	}
	for j, end := range tg.ends() {
		switch {
		case m.ends&(1<<j) == 0:
		case end == "" && e == 0:
			m.end = j
			return Ended
		case e >= len(end) || end[e] != c:
			m.ends &^= 1 << j
		case e+1 == len(end):
			m.n++
			m.end = j
			return Match
		}
	}
	return More
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
			if r == Match || r == Ended {
				return i, k
			}
			if r == Fail {
				break
			}
		}
	}
	return -1, -1
}
