package differ

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"unicode"
)

// Mutation is a named class of hostile changes to a stream. Apply changes
// s at random and says what it did; it reports false if s offers nothing
// to change (the case is then not counted).
type Mutation struct {
	Class string
	Apply func(r *rand.Rand, s *Stream) (note string, ok bool)
}

// Mutations returns the classes that apply to every wire: the envelope's
// JSON (repeated members at every level, names folded or escaped, members
// reordered, values altered, nulled or turned into strings, white space),
// its SSE framing (event names, missing or empty event lines, event lines
// alone, BOMs, line ends, comments, [DONE] variants) and its events
// (dropped, repeated, repeated after the stream's last event, the stream
// cut). "none" leaves the stream valid.
func Mutations() []Mutation {
	return []Mutation{
		{"none", func(*rand.Rand, *Stream) (string, bool) { return "", true }},
		{"dup-same", dupMember(false)},
		{"dup-diff", dupMember(true)},
		{"fold-rename", foldName(false)},
		{"fold-dup", foldName(true)},
		{"escaped-name", escapedName},
		{"reorder", reorder},
		{"alter", alterValue},
		{"null-member", nullMember},
		{"string-number", stringNumber},
		{"whitespace", whitespace},
		{"no-space", noSpace},
		{"comment", comment},
		{"event-name", eventName},
		{"no-event-line", noEventLine},
		{"empty-event-name", emptyEventName},
		{"event-only-block", eventOnlyBlock},
		{"bom-start", func(_ *rand.Rand, s *Stream) (string, bool) { s.BOM = true; return "", true }},
		{"bom-mid", bomMid},
		{"bare-cr", func(_ *rand.Rand, s *Stream) (string, bool) { s.EOL = "\r"; return "", true }},
		{"bare-cr-one", bareCROne},
		{"crlf", func(_ *rand.Rand, s *Stream) (string, bool) { s.EOL = "\r\n"; return "", true }},
		{"error-null", errorNull},
		{"done-suffix", doneSuffix},
		{"drop-event", dropEvent},
		{"dup-event", dupEvent},
		{"event-after-end", eventAfterEnd},
		{"cut", cut},
	}
}

// site is an object within the data of an event.
type site struct {
	event int
	path  string
	obj   *Node
}

// objects returns every object of every event's data that has a member.
func objects(s *Stream) []site {
	var sites []site
	for i := range s.Events {
		if s.Events[i].Data == nil {
			continue
		}
		s.Events[i].Data.Walk(func(path string, v *Node) {
			if v.Kind == Object && len(v.Members) > 0 {
				sites = append(sites, site{i, path, v})
			}
		})
	}
	return sites
}

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// pool returns the strings of s (values and event names), the values an
// altered member takes, so that a type becomes another type of the wire
// and an id another id.
func pool(s *Stream) []string {
	seen := map[string]bool{"": true, "x": true, "foo": true}
	for _, e := range s.Events {
		seen[e.Name] = true
		if e.Data != nil {
			e.Data.Walk(func(_ string, v *Node) {
				if v.Kind == String && len(v.Str) < 64 {
					seen[v.Str] = true
				}
			})
		}
	}
	out := make([]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	slices.Sort(out) // deterministic for a seed
	return out
}

// alter returns a value that differs from v.
func alter(r *rand.Rand, v *Node, strs []string) *Node {
	switch v.Kind {
	case String:
		for range 8 {
			if s := pick(r, strs); s != v.Str {
				return Str(s)
			}
		}
		return Str(v.Str + "x")
	case Number:
		return &Node{Kind: Number, Raw: pick(r, []string{"0", "1", "2", "7", "-1", v.Raw + "0"})}
	case Literal:
		if v.Raw == "null" {
			return Str(pick(r, strs))
		}
		return Null()
	case Array:
		c := v.Clone()
		switch {
		case len(c.Elems) == 0:
			c.Elems = append(c.Elems, Obj(M("type", Str(pick(r, strs)))))
		case r.IntN(2) == 0:
			i := r.IntN(len(c.Elems))
			c.Elems[i] = alter(r, c.Elems[i], strs)
		default:
			c.Elems = c.Elems[:r.IntN(len(c.Elems))]
		}
		return c
	}
	c := v.Clone()
	if len(c.Members) == 0 {
		c.Members = append(c.Members, M("type", Str(pick(r, strs))))
		return c
	}
	i := r.IntN(len(c.Members))
	if r.IntN(4) == 0 {
		c.Members = slices.Delete(c.Members, i, i+1)
	} else {
		c.Members[i].Value = alter(r, c.Members[i].Value, strs)
	}
	return c
}

// dupMember repeats a member of an object, at any level, with the same
// value or (diff) another one, before or after the first.
func dupMember(diff bool) func(*rand.Rand, *Stream) (string, bool) {
	return func(r *rand.Rand, s *Stream) (string, bool) {
		sites := objects(s)
		if len(sites) == 0 {
			return "", false
		}
		st := pick(r, sites)
		i := r.IntN(len(st.obj.Members))
		m := st.obj.Members[i]
		dup := Member{Name: m.Name, Value: m.Value.Clone()}
		if diff {
			dup.Value = alter(r, m.Value, pool(s))
		}
		at := i + 1 + r.IntN(len(st.obj.Members)-i)
		where := "after"
		if r.IntN(3) == 0 {
			at, where = r.IntN(i+1), "before"
		}
		st.obj.Members = slices.Insert(st.obj.Members, at, dup)
		return fmt.Sprintf("event %d: %s.%s repeated %s it, as %s", st.event, st.path, m.Name, where, dup.Value.JSON(Style{})), true
	}
}

// FoldVariant returns a name that differs from name but that Go's
// encoding/json v1 matches to it (bytes.EqualFold): a letter's case
// changed, k written as the Kelvin sign U+212A, s as the long s U+017F.
func FoldVariant(r *rand.Rand, name string) (string, bool) {
	rs := []rune(name)
	var letters []int
	for i, c := range rs {
		if unicode.IsLetter(c) && unicode.ToUpper(c) != unicode.ToLower(c) {
			letters = append(letters, i)
		}
	}
	if len(letters) == 0 {
		return "", false
	}
	switch r.IntN(4) {
	case 0: // all upper
		if v := strings.ToUpper(name); v != name {
			return v, true
		}
	case 1: // k or s folded
		for _, i := range letters {
			switch rs[i] {
			case 'k', 'K':
				rs[i] = '\u212A'
				return string(rs), true
			case 's', 'S':
				rs[i] = '\u017F'
				return string(rs), true
			}
		}
	}
	i := pick(r, letters)
	if unicode.IsUpper(rs[i]) {
		rs[i] = unicode.ToLower(rs[i])
	} else {
		rs[i] = unicode.ToUpper(rs[i])
	}
	return string(rs), true
}

// foldName renames a member to a fold variant of its name, or (dup) adds
// one beside it, with the same value or another.
func foldName(dup bool) func(*rand.Rand, *Stream) (string, bool) {
	return func(r *rand.Rand, s *Stream) (string, bool) {
		sites := objects(s)
		if len(sites) == 0 {
			return "", false
		}
		st := pick(r, sites)
		i := r.IntN(len(st.obj.Members))
		m := st.obj.Members[i]
		v, ok := FoldVariant(r, m.Name)
		if !ok {
			return "", false
		}
		if !dup {
			st.obj.Members[i].Name = v
			return fmt.Sprintf("event %d: %s.%s renamed %q", st.event, st.path, m.Name, v), true
		}
		val := m.Value.Clone()
		if r.IntN(2) == 0 {
			val = alter(r, m.Value, pool(s))
		}
		at := i + 1
		if r.IntN(2) == 0 {
			at = i
		}
		st.obj.Members = slices.Insert(st.obj.Members, at, M(v, val))
		return fmt.Sprintf("event %d: %s.%s with %q beside it, as %s", st.event, st.path, m.Name, v, val.JSON(Style{})), true
	}
}

func escapedName(r *rand.Rand, s *Stream) (string, bool) {
	sites := objects(s)
	if len(sites) == 0 {
		return "", false
	}
	st := pick(r, sites)
	m := &st.obj.Members[r.IntN(len(st.obj.Members))]
	m.RawName = EscapeAll(m.Name)
	return fmt.Sprintf("event %d: %s.%s written %s", st.event, st.path, m.Name, m.RawName), true
}

func reorder(r *rand.Rand, s *Stream) (string, bool) {
	sites := objects(s)
	if len(sites) == 0 {
		return "", false
	}
	for range 4 { // the largest of a few objects
		st := pick(r, sites)
		if len(st.obj.Members) < 2 {
			continue
		}
		r.Shuffle(len(st.obj.Members), func(i, j int) {
			st.obj.Members[i], st.obj.Members[j] = st.obj.Members[j], st.obj.Members[i]
		})
		return fmt.Sprintf("event %d: %s members shuffled", st.event, st.path), true
	}
	return "", false
}

func alterValue(r *rand.Rand, s *Stream) (string, bool) {
	sites := objects(s)
	if len(sites) == 0 {
		return "", false
	}
	st := pick(r, sites)
	m := &st.obj.Members[r.IntN(len(st.obj.Members))]
	m.Value = alter(r, m.Value, pool(s))
	return fmt.Sprintf("event %d: %s.%s is now %s", st.event, st.path, m.Name, m.Value.JSON(Style{})), true
}

func nullMember(r *rand.Rand, s *Stream) (string, bool) {
	sites := objects(s)
	if len(sites) == 0 {
		return "", false
	}
	st := pick(r, sites)
	m := &st.obj.Members[r.IntN(len(st.obj.Members))]
	m.Value = Null()
	return fmt.Sprintf("event %d: %s.%s is null", st.event, st.path, m.Name), true
}

// stringNumber writes a number of the envelope as a string, "0" for 0.
func stringNumber(r *rand.Rand, s *Stream) (string, bool) {
	type num struct {
		event int
		path  string
		v     *Node
	}
	var nums []num
	for i, e := range s.Events {
		if e.Data != nil {
			e.Data.Walk(func(path string, v *Node) {
				if v.Kind == Number {
					nums = append(nums, num{i, path, v})
				}
			})
		}
	}
	if len(nums) == 0 {
		return "", false
	}
	n := pick(r, nums)
	n.v.Kind, n.v.Str = String, n.v.Raw
	n.v.Raw = ""
	return fmt.Sprintf("event %d: %s is the string %q", n.event, n.path, n.v.Str), true
}

func dataEvents(s *Stream) []int {
	var is []int
	for i, e := range s.Events {
		if e.Data != nil {
			is = append(is, i)
		}
	}
	return is
}

func whitespace(r *rand.Rand, s *Stream) (string, bool) {
	is := dataEvents(s)
	if len(is) == 0 {
		return "", false
	}
	st := Style{Space: true, Newline: r.IntN(2) == 0}
	if r.IntN(2) == 0 {
		for _, i := range is {
			s.Events[i].Style = st
		}
		return fmt.Sprintf("every event %+v", st), true
	}
	i := pick(r, is)
	s.Events[i].Style = st
	return fmt.Sprintf("event %d %+v", i, st), true
}

func noSpace(r *rand.Rand, s *Stream) (string, bool) {
	for i := range s.Events {
		s.Events[i].NoSpace = r.IntN(2) == 0
	}
	return "", true
}

func comment(r *rand.Rand, s *Stream) (string, bool) {
	i := r.IntN(len(s.Events) + 1)
	if i == len(s.Events) {
		s.Events = append(s.Events, Event{Prefix: ": keep-alive\n", RawData: ""})
		s.Events[i].NoData = true
		return "a comment at the end", true
	}
	s.Events[i].Prefix += ": keep-alive\n"
	return fmt.Sprintf("a comment before event %d", i), true
}

// names returns the event names and data types of s, the names an event
// may be given.
func names(s *Stream) []string {
	seen := map[string]bool{"foo": true, "message": true, "ping": true, "error": true}
	for _, e := range s.Events {
		if e.HasName {
			seen[e.Name] = true
		}
		if t := e.Type(); t != "" {
			seen[t] = true
		}
	}
	out := make([]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// eventName gives an event a name that disagrees with its data's type.
func eventName(r *rand.Rand, s *Stream) (string, bool) {
	is := dataEvents(s)
	if len(is) == 0 {
		return "", false
	}
	i := pick(r, is)
	e := &s.Events[i]
	ns := names(s)
	for range 8 {
		if n := pick(r, ns); n != e.Name && n != e.Type() {
			old := e.Name
			e.Name, e.HasName = n, true
			return fmt.Sprintf("event %d (type %q) named %q, not %q", i, e.Type(), n, old), true
		}
	}
	return "", false
}

// noEventLine drops the event line of one event, or of all.
func noEventLine(r *rand.Rand, s *Stream) (string, bool) {
	var named []int
	for i, e := range s.Events {
		if e.HasName {
			named = append(named, i)
		}
	}
	if len(named) == 0 {
		return "", false
	}
	if r.IntN(3) == 0 {
		for _, i := range named {
			s.Events[i].HasName = false
		}
		return "no event has its event line", true
	}
	i := pick(r, named)
	s.Events[i].HasName = false
	return fmt.Sprintf("event %d (%q) without its event line", i, s.Events[i].Name), true
}

func emptyEventName(r *rand.Rand, s *Stream) (string, bool) {
	is := dataEvents(s)
	if len(is) == 0 {
		return "", false
	}
	i := pick(r, is)
	s.Events[i].Name, s.Events[i].HasName = "", true
	return fmt.Sprintf("event %d has an empty event line", i), true
}

// eventOnlyBlock inserts a block of an event line and no data line.
func eventOnlyBlock(r *rand.Rand, s *Stream) (string, bool) {
	n := pick(r, names(s))
	i := r.IntN(len(s.Events) + 1)
	s.Events = slices.Insert(s.Events, i, Event{Name: n, HasName: true, NoData: true})
	return fmt.Sprintf("a block of event: %s alone, before event %d", n, i), true
}

func bomMid(r *rand.Rand, s *Stream) (string, bool) {
	if len(s.Events) < 2 {
		return "", false
	}
	i := 1 + r.IntN(len(s.Events)-1)
	s.Events[i].Prefix = BOM + s.Events[i].Prefix
	return fmt.Sprintf("a BOM before event %d", i), true
}

func bareCROne(r *rand.Rand, s *Stream) (string, bool) {
	i := r.IntN(len(s.Events))
	s.Events[i].EOL = "\r"
	return fmt.Sprintf("the lines of event %d end with a bare CR", i), true
}

func errorNull(r *rand.Rand, s *Stream) (string, bool) {
	is := dataEvents(s)
	if len(is) == 0 {
		return "", false
	}
	i := pick(r, is)
	d := s.Events[i].Data
	if d.Kind != Object {
		return "", false
	}
	d.Members = slices.Insert(d.Members, r.IntN(len(d.Members)+1), M("error", Null()))
	return fmt.Sprintf(`event %d has "error": null`, i), true
}

// doneSuffix inserts a data line that begins with [DONE] and is not
// [DONE].
func doneSuffix(r *rand.Rand, s *Stream) (string, bool) {
	raw := pick(r, []string{"[DONE]x", "[DONE] ", "[DONE]{}", "[DONE]\n"})
	i := r.IntN(len(s.Events) + 1)
	s.Events = slices.Insert(s.Events, i, Event{RawData: raw})
	return fmt.Sprintf("data: %q before event %d", raw, i), true
}

func dropEvent(r *rand.Rand, s *Stream) (string, bool) {
	if len(s.Events) == 0 {
		return "", false
	}
	i := r.IntN(len(s.Events))
	s.Events = slices.Delete(s.Events, i, i+1)
	return fmt.Sprintf("event %d dropped", i), true
}

func dupEvent(r *rand.Rand, s *Stream) (string, bool) {
	if len(s.Events) == 0 {
		return "", false
	}
	i := r.IntN(len(s.Events))
	e := s.Events[i]
	e.Data = e.Data.Clone()
	at := i + 1 + r.IntN(len(s.Events)-i)
	s.Events = slices.Insert(s.Events, at, e)
	return fmt.Sprintf("event %d repeated as event %d", i, at), true
}

// eventAfterEnd repeats an event (a delta's, if the stream has some) at the
// end of the stream, after the event that ends it (message_stop, [DONE],
// response.completed).
func eventAfterEnd(r *rand.Rand, s *Stream) (string, bool) {
	var deltas []int
	for i, e := range s.Events {
		if strings.Contains(e.Type(), "delta") || e.Data.Get("choices") != nil {
			deltas = append(deltas, i)
		}
	}
	if len(deltas) == 0 {
		return "", false
	}
	i := pick(r, deltas)
	e := s.Events[i]
	e.Data = e.Data.Clone()
	s.Events = append(s.Events, e)
	return fmt.Sprintf("event %d repeated after the last event", i), true
}

func cut(r *rand.Rand, s *Stream) (string, bool) {
	n := len(s.Bytes())
	if n < 2 {
		return "", false
	}
	s.Cut = 1 + r.IntN(n-1)
	return fmt.Sprintf("cut after %d of %d bytes", s.Cut, n), true
}
