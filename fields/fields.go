package fields

import (
	"errors"
	"fmt"

	"github.com/argstream/argstream/fragment"
	"github.com/go-json-experiment/json/jsontext"
)

// Kind is the kind of an [Event]. It is a plain value, safe to use from
// several goroutines.
type Kind uint8

// [Event] kinds: every field is one Start, zero or more Deltas and, if its
// value completes, one [End].
const (
	Start Kind = iota + 1 // a top-level argument begins: Key is known
	Delta                 // the next piece of its value's text, in Text
	End                   // its value is complete
)

var kindNames = [...]string{Start: "start", Delta: "delta", End: "end"}

// String returns "start", "delta" or "end".
func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return "Kind(invalid)"
}

// Event is one field event. The Event and the memory it points to ([Event.Key],
// [Event.Text]) are borrowed: they are valid only until the callback that
// receives the Event returns. Copy what you keep.
type Event struct {
	Kind Kind
	// Call is the identity of the tool call, from the fragment
	// (fragment.Progress.Call): shared, not to be modified. It is nil for
	// fragments made without one.
	Call *fragment.Call
	// Key is the argument's name, decoded (escapes resolved). Borrowed.
	Key []byte
	// Text, on a Delta, is the next piece of the value's text, never empty:
	// for a string value, a piece of the decoded string (valid UTF-8, no
	// quotes, no escapes); for any other value, a piece of its compact
	// JSON text (see the package documentation). Nil on Start and End.
	// Borrowed.
	Text []byte
	// JSON is false when the value is a string, whose Deltas are its
	// decoded text, and true for any other value, whose Deltas are JSON
	// text. It is the same on every event of a field, Start included.
	JSON bool
	// Offset is the length of the argument text that determined the event
	// (fragment.Progress.Offset of the fragment behind it).
	Offset int64
}

// ErrNotObject is the error, wrapped, of arguments that are not a JSON
// object: an array, a string, a number, a boolean or null. [errors.Is]
// matches it; the message says what the arguments were.
var ErrNotObject = errors.New("fields: the arguments are not an object")

// notObject is [ErrNotObject] with what the arguments were instead.
type notObject string

func (e notObject) Error() string {
	return "fields: the arguments are " + string(e) + ", not an object"
}

func (notObject) Is(target error) bool { return target == ErrNotObject }

// errIncomplete is what End reports when a stream ends without error but
// before the arguments' Done, which only fragments made by hand can do.
var errIncomplete = errors.New("fields: the stream ended before the arguments were complete")

// Sink turns the fragments of one tool call into field events, handed to a
// callback as they are determined. It is a sink.Sink: pass it to
// argstream.New, alone or in sink.Multi.
//
// A Sink may not be used from several goroutines at once; it calls its
// callbacks from the goroutine that calls [Sink.Push] and [Sink.End] (a
// Stream's Feed and Close). Separate Sinks may run in parallel.
//
// It allocates nothing per fragment once its buffers have grown to the
// largest piece of text and the deepest value met: reused with [Sink.Reset],
// not at all.
type Sink struct {
	fn  func(*Event) error
	cfg config
	ev  Event
	buf []byte // the text of the Delta being built, for JSON values

	// State of the open field, if any.
	field  bool    // a field has begun and not ended
	levels []level // the arrays and objects open inside its value; levels[i] is at path depth i+1
	leaf   byte    // the open value inside it that is neither: 0 none, 's' a scalar, '"' a string
	fields int     // fields begun
	done   bool    // the root's Done has come
	err    error   // the first error Push returned
}

// level is an array or object open inside a field's value.
type level struct {
	kind byte // '{' or '['
	n    int  // members begun
	open bool // member n-1 is open: its value's Done has not come
}

// Option configures a [Sink]. An Option is not changed by use: one may
// configure several Sinks, from several goroutines.
type Option func(*config)

type config struct {
	onEnd func(error)
}

// OnEnd calls fn once the stream has ended (from the [Sink]'s End), with nil
// if the arguments are complete and valid, else with the error that ended
// them: a syntax error, a truncation, [ErrNotObject], an error a callback or
// another sink returned. A field that had its [Start] and not its End when
// the error came never gets its End: it is cut short.
func OnEnd(fn func(err error)) Option {
	return func(c *config) { c.onEnd = fn }
}

// New returns a [Sink] that calls fn with each event, in order. An error from
// fn stops the stream: [Sink.Push] returns it, and so does the Stream's Feed or
// Close (return sink.ErrStop, or an error wrapping it, to stop on purpose).
// The [Event] is borrowed until fn returns.
func New(fn func(e *Event) error, opts ...Option) *Sink {
	s := &Sink{fn: fn}
	for _, o := range opts {
		o(&s.cfg)
	}
	return s
}

// Reset prepares s for another call's arguments, keeping its memory, fn and
// options.
func (s *Sink) Reset() {
	s.buf, s.levels = s.buf[:0], s.levels[:0]
	s.ev = Event{}
	s.field, s.leaf, s.fields, s.done, s.err = false, 0, 0, false, nil
}

// End reports how the stream ended to the [OnEnd] callback. It implements
// sink.Sink.
func (s *Sink) End(err error) {
	if err == nil {
		err = s.err
	}
	if err == nil && !s.done {
		err = errIncomplete
	}
	if s.cfg.onEnd != nil {
		s.cfg.onEnd(err)
	}
}

// Push turns the fragment p into the events it determines, and hands them
// to fn. It implements sink.Sink.
//
// It returns [ErrNotObject], wrapped, as soon as a fragment shows that the
// arguments are not an object, before any event: so for arguments that are
// an array, a string or a scalar, fn is never called. Fragments out of
// protocol order are an error too (those of a Stream never are), though not
// every such order is caught: a key is not compared with the open member's.
// After an error, Push returns it again until [Sink.Reset].
func (s *Sink) Push(p *fragment.Progress) error {
	f := &p.Fragment
	// The common case first: the next piece of a string argument.
	if f.Kind == fragment.String && len(f.Path) == 1 && s.leaf == '"' && s.field && !s.ev.JSON && s.err == nil {
		return s.emit(Delta, p, f.Text)
	}
	if s.err != nil {
		return s.err
	}
	if s.done {
		return s.fail(f, "after the end of the arguments")
	}
	if len(f.Path) == 0 {
		return s.root(f)
	}
	if f.Path[0].IsIndex() {
		return s.failWith(notObject("an array"))
	}
	if !s.field {
		s.field = true
		s.fields++
		s.ev.JSON = !(len(f.Path) == 1 && (f.Kind == fragment.String ||
			f.Kind == fragment.Done && f.Empty == fragment.EmptyString))
		if err := s.emit(Start, p, nil); err != nil {
			return err
		}
	}
	text, ended, err := s.text(f)
	if err != nil {
		return err
	}
	if len(text) > 0 {
		if err := s.emit(Delta, p, text); err != nil {
			return err
		}
	}
	if ended {
		s.field = false
		return s.emit(End, p, nil)
	}
	return nil
}

// root takes a fragment at the root's path: the Done of the arguments, or
// the sign that they are not an object.
func (s *Sink) root(f *fragment.Fragment) error {
	switch f.Kind {
	case fragment.Done:
		switch f.Empty {
		case fragment.EmptyObject:
		case fragment.EmptyArray:
			return s.failWith(notObject("an array"))
		case fragment.EmptyString:
			return s.failWith(notObject("a string"))
		default:
			if s.field || s.fields == 0 {
				return s.fail(f, "while a field is open, or before any")
			}
		}
		s.done = true
		return nil
	case fragment.String:
		return s.failWith(notObject("a string"))
	case fragment.Number:
		return s.failWith(notObject("a number"))
	case fragment.True, fragment.False:
		return s.failWith(notObject("a boolean"))
	case fragment.Null:
		return s.failWith(notObject("null"))
	}
	return s.fail(f, "of unknown kind")
}

// text returns the text that fragment f adds to the open field's value,
// and whether f completes the value. For a string value it is f's decoded
// text; for any other value, the compact JSON text that f determines: the
// brackets, commas and keys of the members it begins, its own scalar or
// piece of string, and what its Done closes.
func (s *Sink) text(f *fragment.Fragment) (text []byte, ended bool, err error) {
	depth := len(f.Path) // the depth of f's value; the field's value is at 1
	if !s.ev.JSON {
		// A string argument: its pieces and its Done, at depth 1 only.
		switch {
		case depth != 1:
			return nil, false, s.fail(f, "inside a string")
		case f.Kind == fragment.String:
			s.leaf = '"'
			return f.Text, false, nil
		case f.Kind == fragment.Done && (s.leaf == '"') == (f.Empty == fragment.NotEmpty):
			s.leaf = 0
			return nil, true, nil
		}
		return nil, false, s.fail(f, "in a string")
	}
	b := s.buf[:0]
	if f.Kind == fragment.Done && len(s.levels) == depth {
		// The Done of an array or object that has members.
		lv := &s.levels[depth-1]
		if lv.open || s.leaf != 0 || f.Empty != fragment.NotEmpty {
			return nil, false, s.fail(f, "while a member is open, or marked empty")
		}
		b = append(b, lv.kind+2) // '{'+2 is '}', '['+2 is ']'
		s.levels = s.levels[:depth-1]
		s.buf = b
		return b, s.closed(depth), nil
	}
	// The arrays and objects along f.Path, the field's value first: the
	// member they have open, or a new one, or a new array or object.
	for d := 1; d < depth; d++ {
		seg := f.Path[d]
		if d <= len(s.levels) {
			lv := &s.levels[d-1]
			if lv.open { // f is inside the open member
				if seg.IsIndex() && seg.Index != lv.n-1 {
					return nil, false, s.fail(f, "before the open member's Done")
				}
				continue
			}
			if seg.IsIndex() != (lv.kind == '[') || seg.IsIndex() && seg.Index != lv.n {
				return nil, false, s.fail(f, "with a segment that does not follow")
			}
			b = append(b, ',')
		} else {
			if s.leaf != 0 || seg.IsIndex() && seg.Index != 0 {
				return nil, false, s.fail(f, "with a segment that does not follow")
			}
			kind := byte('{')
			if seg.IsIndex() {
				kind = '['
			}
			b = append(b, kind)
			s.levels = append(s.levels, level{kind: kind})
		}
		if !seg.IsIndex() {
			if b, err = jsontext.AppendQuote(b, seg.Key); err != nil {
				s.buf = b
				return nil, false, s.fail(f, err.Error())
			}
			b = append(b, ':')
		}
		lv := &s.levels[d-1]
		lv.n++
		lv.open = true
	}
	if len(s.levels) != depth-1 {
		return nil, false, s.fail(f, "while a value inside it is open")
	}
	// f's own value, which is no array or object with members.
	switch {
	case f.Kind.IsScalar():
		if s.leaf != 0 {
			return nil, false, s.fail(f, "in a value that has begun")
		}
		s.leaf = 's'
		b = append(b, f.Text...)
	case f.Kind == fragment.String:
		switch s.leaf {
		case 0:
			s.leaf = '"'
			b = append(b, '"')
		case '"':
		default:
			return nil, false, s.fail(f, "in a value that is not a string")
		}
		if f.Escaped != nil {
			b = append(b, f.Escaped...)
		} else if b, err = appendQuoted(b, f.Text); err != nil {
			s.buf = b
			return nil, false, s.fail(f, err.Error())
		}
	case f.Kind == fragment.Done:
		if (s.leaf == 0) == (f.Empty == fragment.NotEmpty) {
			return nil, false, s.fail(f, "for a value that has not begun, or marked empty for one that has")
		}
		if s.leaf == '"' {
			b = append(b, '"')
		}
		b = append(b, f.Empty.JSON()...)
		s.leaf = 0
		ended = s.closed(depth)
	default:
		return nil, false, s.fail(f, "of unknown kind")
	}
	s.buf = b
	return b, ended, nil
}

// closed notes that the value at depth has had its Done, and reports
// whether that value is the field's.
func (s *Sink) closed(depth int) bool {
	if depth == 1 {
		return true
	}
	s.levels[depth-2].open = false
	return false
}

// appendQuoted appends text as the inside of a JSON string, as
// [jsontext.AppendQuote] writes it.
func appendQuoted(b, text []byte) ([]byte, error) {
	n := len(b)
	b, err := jsontext.AppendQuote(b, text)
	if err != nil {
		return b[:n], err
	}
	copy(b[n:], b[n+1:len(b)-1])
	return b[:len(b)-2], nil
}

// emit hands one event to fn.
func (s *Sink) emit(k Kind, p *fragment.Progress, text []byte) error {
	s.ev.Kind, s.ev.Call, s.ev.Key, s.ev.Text, s.ev.Offset = k, p.Call, p.Path[0].Key, text, p.Offset
	if err := s.fn(&s.ev); err != nil {
		s.err = err
		return err
	}
	return nil
}

func (s *Sink) failWith(err error) error {
	s.err = err
	return err
}

func (s *Sink) fail(f *fragment.Fragment, why string) error {
	return s.failWith(fmt.Errorf("fields: %v fragment at %q %s", f.Kind, f.Path.String(), why))
}
