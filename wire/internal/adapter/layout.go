package adapter

// Layout is the layout of the data of the last event a fast path read in
// full with [Members], learned so that the next events of that layout are
// read by comparing bytes: the event's bytes, but for the values of its
// members (its slots), which change from event to event. The member values
// the adapter reads are always slots, read again from each event; the
// values it skips are slots once they have been seen to change (the
// sequence numbers and padding of OpenAI's events), and part of the bytes
// compared before that.
//
// An adapter's fast path reads each value of a member through one function
// of its own, slot(id, data, i), which returns the index of the byte after
// the value or -1; while it reads an event with Members it calls
// [Layout.Record] with each value's span, and [Layout.Learn] once the event
// is read. A value it reads that it can set again without reading it
// (Kept or Restored: the event's type, an index) is, like a value skipped,
// compared as bytes until it changes. [Layout.Match] reads an event of the
// layout learned: every byte but the slots' is compared with the learned
// event's, and each slot is read with slot. Where all of them match and every slot reads, the event
// is the learned one with other values in the same places: Members would
// have read it as it read the learned one (the same names, the same
// structure, white space and unknown members), calling slot for the same
// values, so that the adapter has read what it would have read.
//
// Events whose layout changes from each one to the next (members in a
// random order) are read by Members alone: after a few layouts learned in
// a row that did not match the next event, a Layout rests, neither
// matching nor learning, for some events.
//
// A Layout is for one goroutine; its zero value has learned nothing.
type Layout struct {
	fixed   []byte  // the learned event's bytes but for its slots
	runs    []int   // the lengths of the fixed runs before each slot, and after the last
	slots   []slot  // the values of the learned event, in order
	kept    []uint8 // the ids of its Kept values that are not slots
	learned bool
	learns  int // for the tests: how many times Learn learned

	// Events whose layouts change from one to the next (members in a
	// random order) are not learned: after restAfter layouts learned in a
	// row, each where the one before did not match, Match and Learn rest
	// for restFor events.
	missed, rest int
	resting      bool // in this event

	// What Record gathered while Members read an event.
	recording bool
	spans     []slot
	// The values of the event learned before, to find those that change.
	prev    []slot
	prevRaw []byte
}

// slot is one value of an event: its span, the adapter's id for it, how
// the adapter reads it, and whether it is read again from each event.
type slot struct {
	start, end int
	id         uint8
	kind       SlotKind
	variable   bool
}

// SlotKind is how an adapter reads a value, for [Layout.Record].
type SlotKind uint8

const (
	// Skipped: a value the adapter checks and does not read. Once it has
	// been seen to change, it is read again (checked) from each event.
	Skipped SlotKind = iota
	// Read: a value the adapter reads, read again from each event.
	Read
	// Kept: a value the adapter reads, which it can set again without
	// reading it (slot(id, -1)) as long as it does not change: as
	// Skipped, it is read again from each event once it has been seen to
	// change.
	Kept
	// Restored: a Kept value that the adapter sets again itself, before
	// each Match, as the event learned had it (all such values at once,
	// cheaper than a call of slot for each); the slots Match reads are
	// read over them. Match does not call slot(id, -1) for it.
	Restored
)

// restAfter and restFor: see Layout.missed.
const restAfter, restFor = 4, 64

// Begin starts the recording of an event's values, for [Layout.Learn],
// unless l rests.
func (l *Layout) Begin() {
	l.recording = !l.resting
	if l.spans == nil {
		const n = 16 // values of an event, as most have fewer: one allocation each
		l.spans, l.prev, l.slots, l.runs = make([]slot, 0, n), make([]slot, 0, n), make([]slot, 0, n), make([]int, 0, n+1)
	}
	l.spans = l.spans[:0]
}

// Record records the value of a member that slot id read at data[start:end]
// (the value's end, or -1 if it was not read), as kind says, and returns
// end.
func (l *Layout) Record(id uint8, kind SlotKind, start, end int) int {
	if l.recording && end >= 0 {
		l.spans = append(l.spans, slot{start: start, end: end, id: id, kind: kind, variable: kind == Read})
	}
	return end
}

// Learn learns the layout of data, whose values Record recorded since
// Begin: the values read are slots, and so are the values skipped that
// differ from those of the event learned before, if it had the same values
// in the same order. It reports whether it learned: not while l rests.
func (l *Layout) Learn(data []byte) bool {
	if !l.recording {
		return false // resting
	}
	l.recording = false
	if cap(l.fixed) < len(data) {
		// Room for this event and larger ones at once: one allocation
		// each, not one per doubling.
		l.fixed = make([]byte, 0, 2*len(data))
	}
	if l.learned {
		if l.missed++; l.missed == restAfter {
			l.missed, l.rest = 0, restFor
		}
	}
	same := len(l.prev) == len(l.spans)
	for k, s := range l.spans {
		if !same || l.prev[k].id != s.id {
			same = false
			break
		}
	}
	if same {
		for k := range l.spans {
			s, p := &l.spans[k], l.prev[k]
			if p.variable || string(data[s.start:s.end]) != string(l.prevRaw[p.start:p.end]) {
				s.variable = true
			}
		}
	}
	l.fixed, l.runs, l.slots, l.kept = l.fixed[:0], l.runs[:0], l.slots[:0], l.kept[:0]
	at := 0
	for _, s := range l.spans {
		if !s.variable {
			if s.kind == Kept {
				l.kept = append(l.kept, s.id)
			}
			continue
		}
		l.fixed = append(l.fixed, data[at:s.start]...)
		l.runs = append(l.runs, s.start-at)
		l.slots = append(l.slots, s)
		at = s.end
	}
	l.fixed = append(l.fixed, data[at:]...)
	l.runs = append(l.runs, len(data)-at)
	l.prev = append(l.prev[:0], l.spans...)
	if cap(l.prevRaw) < len(data) { // read above: grown only now
		l.prevRaw = make([]byte, 0, 2*len(data))
	}
	l.prevRaw = append(l.prevRaw[:0], data...)
	l.learned = true
	l.learns++
	return true
}

// Learns returns how many layouts l has learned, for the tests.
func (l *Layout) Learns() int { return l.learns }

// Forget stops a recording that will not be learned: the event was not
// read in full.
func (l *Layout) Forget() { l.recording = false }

// Match reads data if it has the layout learned, calling slot for each of
// its slots, and then slot(id, -1) for each Kept value that is not one
// (unchanged since it was learned: the adapter sets it again as it read
// it then), and reports whether it did: false at the first byte that
// differs or slot that does not read (having read the slots before it).
func (l *Layout) Match(data []byte, slot func(id uint8, i int) int) bool {
	if l.resting = l.rest > 0; l.resting {
		l.rest--
		return false
	}
	if !l.learned {
		return false
	}
	p, off := 0, 0
	for k, s := range l.slots {
		run := l.fixed[off : off+l.runs[k]]
		if len(data)-p < len(run) || string(data[p:p+len(run)]) != string(run) {
			return false
		}
		off += len(run)
		if p = slot(s.id, p+len(run)); p < 0 {
			return false
		}
	}
	tail := l.fixed[off:]
	if len(data)-p != len(tail) || string(data[p:]) != string(tail) {
		return false
	}
	for _, id := range l.kept {
		slot(id, -1)
	}
	l.missed = 0
	return true
}
