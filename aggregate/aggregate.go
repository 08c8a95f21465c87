package aggregate

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"hash"

	"github.com/argstream/argstream/fragment"
	"github.com/go-json-experiment/json/jsontext"
)

// ErrIncomplete is returned by Value before the arguments are complete.
var ErrIncomplete = errors.New("aggregate: arguments not complete")

// Aggregator rebuilds values from the fragments of one tool call. It is a
// sink.Sink. The zero value is not ready; use [New].
//
// An Aggregator may not be used from several goroutines at once; the values
// it returns may be read from other goroutines while it goes on, until
// [Aggregator.Reset].
//
// Its work per fragment does not depend on the length of the keys on the
// fragment's path: it reads a key's bytes when it starts the member and
// whenever the key comes in another slice than the last one it checked for
// that member (see [Aggregator.Add]), never again for each fragment under the
// member.
type Aggregator struct {
	buf    []byte    // compact JSON of everything received so far (WithDigest: since the last spill)
	sum    hash.Hash // WithDigest: the SHA-256 of what was spilled
	levels []level   // the values open along the current path; levels[0] is the root
	keys   []byte    // the current key of every open object, outermost first
	quote  []byte    // scratch for quoting
	told   int       // OnText: how much of buf fn has been given
	done   bool
	err    error
	cfg    config
}

// level is an open value.
type level struct {
	start int  // where the value starts in buf
	kind  byte // 0 before its first fragment, or '"', '{', '[', or 's' for a scalar
	n     int  // members begun, for an array or object
	keyAt int  // where this level's current key starts in keys
	// seen is the first byte of the last key slice found equal to the
	// key of the open member of this object (keys[keyAt:] up to the next
	// level's keyAt), nil if none or if the key is empty. A key with this
	// address and that length is taken as equal unread: see Add.
	seen *byte
}

// Option configures an [Aggregator]. An Option is not changed by use: one may
// configure several Aggregators, from several goroutines.
type Option func(*config)

type config struct {
	onValue func(fragment.Path, jsontext.Value) error
	onText  func([]byte)
	digest  bool
}

// digestSpill is how much compact JSON an Aggregator WithDigest holds
// before it hashes it.
const digestSpill = 1 << 10

// ErrNoValue is returned by Value for an Aggregator WithDigest, which keeps
// none.
var ErrNoValue = errors.New("aggregate: the value is not kept (WithDigest)")

// WithDigest makes the Aggregator keep, of the compact JSON it builds, only
// its SHA-256 (Digest): not the value, so that its memory does not grow
// with the arguments' size (a few KiB, and the keys of the open path).
// Value then returns ErrNoValue, Add returns no values, and OnValue is not
// called. A gateway that forwards arguments it needs not keep, and
// compares a restatement with them, uses it.
func WithDigest() Option {
	return func(c *config) { c.digest = true }
}

// OnValue calls fn with every value that completes, at any depth, the root
// included, in the order their Done fragments arrive. path and v are valid
// until fn returns (v, until Reset: see Add). An error from fn is returned
// by Add, and by Push, where it stops the stream.
func OnValue(fn func(path fragment.Path, v jsontext.Value) error) Option {
	return func(c *config) { c.onValue = fn }
}

// OnText calls fn with each piece of the compact JSON text the moment the
// Aggregator writes it, after the fragment that made it: the pieces,
// joined, are the text [Aggregator.Value] returns at the end (WithDigest
// too, which keeps none of it), each key and punctuation mark as soon as
// it is known. A writer that streams the arguments as JSON text, as a
// Chat Completions server streams function.arguments, sends them on.
// text is valid until fn returns.
func OnText(fn func(text []byte)) Option {
	return func(c *config) { c.onText = fn }
}

// New returns an [Aggregator].
func New(opts ...Option) *Aggregator {
	a := &Aggregator{}
	for _, o := range opts {
		o(&a.cfg)
	}
	if a.cfg.digest {
		a.sum = sha256.New()
	}
	return a
}

// Reset prepares a for another call's arguments, keeping its memory and
// options. Values returned before are overwritten.
func (a *Aggregator) Reset() {
	a.buf, a.levels, a.keys = a.buf[:0], a.levels[:0], a.keys[:0]
	a.told, a.done, a.err = 0, false, nil
	if a.sum != nil {
		a.sum.Reset()
	}
}

// Digest returns the SHA-256 of the complete arguments' compact JSON, with
// or without WithDigest; before the root's Done, ErrIncomplete, and after
// a failed stream, the error that ended it.
func (a *Aggregator) Digest() ([sha256.Size]byte, error) {
	var d [sha256.Size]byte
	switch {
	case a.err != nil:
		return d, a.err
	case !a.done:
		return d, ErrIncomplete
	case a.sum == nil:
		return sha256.Sum256(a.buf), nil
	}
	a.spill()
	a.sum.Sum(d[:0])
	return d, nil
}

// spill hashes what a holds, WithDigest.
func (a *Aggregator) spill() {
	a.sum.Write(a.buf)
	a.buf, a.told = a.buf[:0], 0
}

// Push adds p's fragment (see [Aggregator.Add]). It implements sink.Sink.
func (a *Aggregator) Push(p *fragment.Progress) error {
	_, err := a.Add(&p.Fragment)
	return err
}

// End records how the stream ended. It implements sink.Sink.
func (a *Aggregator) End(err error) {
	switch {
	case a.err != nil:
	case err != nil:
		a.err = err
	case !a.done:
		a.err = errors.New("aggregate: the stream ended before the arguments were complete")
	}
}

// Value returns the complete arguments as compact JSON. Before the root's
// Done it returns [ErrIncomplete]; after a failed stream, the error that ended
// it. The value is a's memory, valid until [Aggregator.Reset].
func (a *Aggregator) Value() (jsontext.Value, error) {
	switch {
	case a.err != nil:
		return nil, a.err
	case !a.done:
		return nil, ErrIncomplete
	case a.cfg.digest:
		return nil, ErrNoValue
	}
	return jsontext.Value(a.buf[:len(a.buf):len(a.buf)]), nil
}

// Add adds one fragment. When the fragment is a Done, Add returns the value it
// completes, as compact JSON; otherwise nil. A returned value is never changed
// afterwards and stays valid until [Aggregator.Reset]. Fragments out of
// protocol order are an error.
//
// The keys of f.Path are borrowed for the call, as [fragment.Path] says, with
// one more promise that Add relies on: the bytes of a key slice do not
// change while its member is open, that is until the Done of the member's
// value has been added. For each open member, Add remembers the last key
// slice (its address and length) that it found equal to the member's key,
// and takes a key with that address and length as equal without reading
// its bytes, so that the fragments under a key of n bytes do not each cost
// n. A key in another slice is compared byte by byte, as before, and then
// remembered. The Translator keeps the promise (see [fragment.Translator]).
// Whoever builds fragments by hand and writes a new key into the buffer of
// an open member's key breaks it, and Add may then take the new key for the
// open one rather than report the fragment out of order.
//
// The work of one Add is O(len(f.Path)) comparisons of constant cost,
// len(f.Path) being at most the tokenizer's depth limit (token.WithMaxDepth,
// 512 by default), plus O(len(f.Text)) for a scalar or a piece of string,
// plus O(len(key)) for each key it reads: the key of a member it starts
// (copied and quoted once), or a key in another slice than the one it
// remembers. The Translator hands a member's key in a new slice only when
// its key buffer grows, geometrically. So, [OnValue] aside, a document
// costs time linear in its size, whatever the length of its keys, the
// number of its keys, or its depth.
func (a *Aggregator) Add(f *fragment.Fragment) (jsontext.Value, error) {
	v, err := a.add(f)
	if a.cfg.onText != nil && len(a.buf) > a.told {
		text := a.buf[a.told:len(a.buf):len(a.buf)]
		a.told = len(a.buf)
		a.cfg.onText(text)
	}
	if a.cfg.digest && len(a.buf) >= digestSpill {
		a.spill()
	}
	return v, err
}

func (a *Aggregator) add(f *fragment.Fragment) (jsontext.Value, error) {
	// The common case first: the next piece of the string being read.
	if f.Kind == fragment.String && a.err == nil && len(a.levels) == len(f.Path)+1 &&
		a.levels[len(f.Path)].kind == '"' && a.isOpen(f.Path) {
		return nil, a.appendPiece(f)
	}
	if a.err != nil {
		return nil, a.err
	}
	if a.done {
		return nil, a.fail(f, "after the end of the arguments")
	}
	if len(a.levels) == 0 {
		a.levels = append(a.levels, level{})
	}
	// Along f.Path, the members already open must be its segments (checked
	// here inline, the common case, or by enter, which compares a key in a
	// new slice or says what is wrong); past them, enter starts new ones.
	d := 0
	for ; d < len(f.Path) && d+1 < len(a.levels); d++ {
		if !a.isMember(d, f.Path[d]) {
			if err := a.enter(d, f.Path[d], f); err != nil {
				return nil, err
			}
		}
	}
	for ; d < len(f.Path); d++ {
		if err := a.enter(d, f.Path[d], f); err != nil {
			return nil, err
		}
	}
	if len(a.levels) != len(f.Path)+1 {
		return nil, a.fail(f, "while a value inside it is open")
	}
	lv := &a.levels[len(f.Path)]
	switch {
	case f.Kind.IsScalar():
		if lv.kind != 0 {
			return nil, a.fail(f, "in a value that has begun")
		}
		lv.kind = 's'
		a.buf = append(a.buf, f.Text...)
		return nil, nil
	case f.Kind == fragment.String:
		switch lv.kind {
		case 0:
			lv.kind = '"'
			a.buf = append(a.buf, '"')
		case '"':
		default:
			return nil, a.fail(f, "in a value that is not a string")
		}
		return nil, a.appendPiece(f)
	case f.Kind == fragment.Done:
		return a.done1(f, lv)
	}
	return nil, a.fail(f, "of unknown kind")
}

// appendPiece appends the String fragment f to the open string: its
// Escaped form as is when the tokenizer gave it, else its Text escaped.
func (a *Aggregator) appendPiece(f *fragment.Fragment) error {
	if f.Escaped != nil {
		a.buf = append(grow(a.buf, len(f.Escaped)), f.Escaped...)
		return nil
	}
	if err := a.appendQuoted(f.Text); err != nil {
		return a.fail(f, err.Error())
	}
	return nil
}

// isOpen reports whether path is the path of the value open at the top of
// a.levels, which has len(path)+1 levels.
func (a *Aggregator) isOpen(path fragment.Path) bool {
	for d, seg := range path {
		if !a.isMember(d, seg) {
			return false
		}
	}
	return true
}

// isMember reports whether seg is the open member of a.levels[d], which
// must not be the top level, at constant cost: false for a key in another
// slice than the one last found equal (see isKey), which enter checks.
func (a *Aggregator) isMember(d int, seg fragment.Segment) bool {
	lv := &a.levels[d]
	if seg.Index >= 0 {
		return lv.kind == '[' && seg.Index == lv.n-1
	}
	return lv.kind == '{' && len(seg.Key) == a.levels[d+1].keyAt-lv.keyAt &&
		(len(seg.Key) == 0 || &seg.Key[0] == lv.seen)
}

// isKey reports whether k is the key of the open member of the object
// a.levels[d], which must not be the top level. A slice already found
// equal is not read again (see [Aggregator.Add]): the cost is constant but
// for the first comparison of each slice.
func (a *Aggregator) isKey(d int, k []byte) bool {
	lv := &a.levels[d]
	own := a.keys[lv.keyAt:a.levels[d+1].keyAt]
	if len(k) != len(own) {
		return false
	}
	if len(k) == 0 || &k[0] == lv.seen {
		return true
	}
	if !bytes.Equal(k, own) {
		return false
	}
	lv.seen = &k[0]
	return true
}

// enter makes sure the value at f.Path[:d] is an open array or object whose
// current member is seg, starting a new member if needed.
func (a *Aggregator) enter(d int, seg fragment.Segment, f *fragment.Fragment) error {
	lv := &a.levels[d]
	switch lv.kind {
	case 0:
		lv.kind = '{'
		if seg.IsIndex() {
			lv.kind = '['
		}
		a.buf = append(a.buf, lv.kind)
	case '{', '[':
	default:
		return a.fail(f, "inside a scalar or string")
	}
	if seg.IsIndex() != (lv.kind == '[') {
		return a.fail(f, "with a segment that does not fit its container")
	}
	if d+1 < len(a.levels) { // a member is open: seg must be it
		same := seg.Index == lv.n-1
		if !seg.IsIndex() {
			same = a.isKey(d, seg.Key)
		}
		if !same {
			return a.fail(f, "before the open member's Done")
		}
		return nil
	}
	if lv.n > 0 {
		a.buf = append(a.buf, ',')
	}
	if seg.IsIndex() {
		if seg.Index != lv.n {
			return a.fail(f, fmt.Sprintf("with index %d where %d was next", seg.Index, lv.n))
		}
	} else {
		a.keys = append(a.keys[:lv.keyAt], seg.Key...)
		lv.seen = nil
		if len(seg.Key) > 0 {
			lv.seen = &seg.Key[0]
		}
		a.buf = append(a.buf, '"')
		if err := a.appendQuoted(seg.Key); err != nil {
			return a.fail(f, err.Error())
		}
		a.buf = append(a.buf, '"', ':')
	}
	lv.n++
	a.levels = append(a.levels, level{start: len(a.buf), keyAt: len(a.keys)})
	return nil
}

// done1 completes the value at the top of the stack.
func (a *Aggregator) done1(f *fragment.Fragment, lv *level) (jsontext.Value, error) {
	if f.Empty != fragment.NotEmpty && lv.kind != 0 {
		return nil, a.fail(f, "marked empty for a value that has fragments")
	}
	switch lv.kind {
	case 0:
		if f.Empty == fragment.NotEmpty {
			return nil, a.fail(f, "for a value that has not begun")
		}
		a.buf = append(a.buf, f.Empty.JSON()...)
	case '"':
		a.buf = append(a.buf, '"')
	case '{':
		a.buf = append(a.buf, '}')
	case '[':
		a.buf = append(a.buf, ']')
	}
	var v jsontext.Value
	if !a.cfg.digest { // WithDigest, the value's start may be hashed already
		v = jsontext.Value(a.buf[lv.start:len(a.buf):len(a.buf)])
	}
	a.keys = a.keys[:lv.keyAt]
	a.levels = a.levels[:len(a.levels)-1]
	a.done = len(a.levels) == 0
	if a.cfg.onValue != nil && !a.cfg.digest {
		if err := a.cfg.onValue(f.Path, v); err != nil {
			a.err = err
			return v, err
		}
	}
	return v, nil
}

func (a *Aggregator) fail(f *fragment.Fragment, why string) error {
	a.err = fmt.Errorf("aggregate: %v fragment at %q %s", f.Kind, f.Path.String(), why)
	return a.err
}
