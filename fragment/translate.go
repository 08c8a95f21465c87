package fragment

import (
	"fmt"

	"github.com/argstream/argstream/token"
)

// Receiver receives the fragments a [Translator] produces. The [Progress] and
// everything it points to are borrowed until [Receiver.Push] returns.
// sink.Sink is a Receiver. A Translator calls Push from the goroutine that
// calls Handle, one call at a time.
type Receiver interface {
	Push(p *Progress) error
}

// Translator turns token events into fragments: it is a [token.Handler] that
// keeps the path of the value being read.
//
// Each open object's current key lives in one buffer, written when its Key
// event arrives and left untouched until the next Key of that object, which
// comes after the [Done] of the member it named: so a key slice handed out
// with a fragment keeps its bytes while its member is open (see [Path]). When
// the buffer grows, the keys move and later fragments carry the copies; the
// old memory is not written. [Translator.Reset] ends every member.
//
// A Translator may not be used from several goroutines at once.
type Translator struct {
	out    Receiver
	p      Progress
	frames []frame // open arrays and objects, outermost first
	path   Path    // path[i] is the current member of frames[i]
	keys   []byte  // the current key of every open object, outermost first
	data   bool    // the current string value has had data
	lits   []byte  // "nullfalsetrue", for Text of literals
}

type frame struct {
	object bool
	n      int // members begun
	keyAt  int // where this frame's key starts in keys
}

var _ token.Handler = (*Translator)(nil)

// NewTranslator returns a [Translator] that sends fragments of call to out.
// call may be nil when identity does not matter.
func NewTranslator(out Receiver, call *Call) *Translator {
	return &Translator{out: out, p: Progress{Call: call}, lits: []byte("nullfalsetrue")}
}

// Reset prepares t for a new call's arguments, keeping its buffers.
func (t *Translator) Reset(call *Call) {
	t.p = Progress{Call: call}
	t.frames, t.path, t.keys = t.frames[:0], t.path[:0], t.keys[:0]
	t.data = false
}

// Handle translates one event.
func (t *Translator) Handle(e token.Event) error {
	switch e.Kind {
	case token.BeginObject, token.BeginArray:
		t.begin()
		t.frames = append(t.frames, frame{object: e.Kind == token.BeginObject, keyAt: len(t.keys)})
		t.path = append(t.path, Segment{Index: -1})
		return nil
	case token.Key:
		t.setKey(e.Data)
		return nil
	case token.EndObject, token.EndArray:
		if len(t.frames) == 0 {
			return fmt.Errorf("fragment: %v outside any array or object", e.Kind)
		}
		f := t.frames[len(t.frames)-1]
		t.frames = t.frames[:len(t.frames)-1]
		t.path = t.path[:len(t.path)-1]
		t.keys = t.keys[:f.keyAt]
		empty := NotEmpty
		if f.n == 0 {
			empty = EmptyArray
			if f.object {
				empty = EmptyObject
			}
		}
		return t.emit(Done, nil, empty, e.Offset)
	case token.BeginString:
		t.begin()
		t.data = false
		return nil
	case token.StringData:
		t.data = true
		// Escaped is nil between String pieces: stored only when set, and
		// cleared after, so that no other fragment carries it.
		if e.Escaped == nil {
			return t.emit(String, e.Data, NotEmpty, e.Offset)
		}
		t.p.Escaped = e.Escaped
		err := t.emit(String, e.Data, NotEmpty, e.Offset)
		t.p.Escaped = nil
		return err
	case token.EndString:
		empty := NotEmpty
		if !t.data {
			empty = EmptyString
		}
		return t.emit(Done, nil, empty, e.Offset)
	case token.Null, token.False, token.True, token.Number:
		t.begin()
		kind, text := Number, e.Data
		switch e.Kind {
		case token.Null:
			kind, text = Null, t.lits[0:4]
		case token.False:
			kind, text = False, t.lits[4:9]
		case token.True:
			kind, text = True, t.lits[9:13]
		}
		if err := t.emit(kind, text, NotEmpty, e.Offset); err != nil {
			return err
		}
		return t.emit(Done, nil, NotEmpty, e.Offset)
	}
	return fmt.Errorf("fragment: unknown event kind %v", e.Kind)
}

// begin notes that a value starts in the innermost open array or object.
func (t *Translator) begin() {
	if len(t.frames) == 0 {
		return
	}
	f := &t.frames[len(t.frames)-1]
	if !f.object {
		t.path[len(t.path)-1] = Segment{Index: f.n}
	}
	f.n++
}

// setKey makes k the current key of the innermost object. It writes over
// the previous key of that object only, whose member has had its [Done], and
// over no key of an outer object: those are before it in keys (see
// [Translator] on why that matters).
func (t *Translator) setKey(k []byte) {
	top := len(t.frames) - 1
	at := t.frames[top].keyAt
	old := cap(t.keys)
	t.keys = append(t.keys[:at], k...)
	if cap(t.keys) != old {
		// The keys moved: re-point the path's keys of the outer objects.
		for i := range top {
			if t.path[i].Index < 0 {
				t.path[i].Key = t.keys[t.frames[i].keyAt:t.frames[i+1].keyAt]
			}
		}
	}
	t.path[top] = Segment{Key: t.keys[at:len(t.keys):len(t.keys)], Index: -1}
}

func (t *Translator) emit(k Kind, text []byte, empty Empty, off int64) error {
	// Store only what changed: a pointer stored into t costs a write
	// barrier while the GC runs, and pieces of one string share their path.
	if len(t.p.Path) != len(t.path) || cap(t.p.Path) != cap(t.path) ||
		len(t.path) > 0 && &t.p.Path[0] != &t.path[0] {
		t.p.Path = t.path
	}
	if t.p.Text != nil || text != nil {
		t.p.Text = text
	}
	t.p.Kind, t.p.Empty, t.p.Offset = k, empty, off
	return t.out.Push(&t.p)
}
