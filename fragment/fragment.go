package fragment

import (
	"bytes"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"
)

// Kind is the kind of a fragment's leaf. It is a plain value, safe to use
// from several goroutines.
type Kind uint8

// Fragment kinds. [Null], [False], [True] and [Number] are RFD 043's Scalar
// (docs/design.md, "The fragment protocol").
const (
	Null   Kind = iota + 1 // Scalar(Null)
	False                  // Scalar(Bool(false))
	True                   // Scalar(Bool(true))
	Number                 // Scalar(Number(Text)), Text exactly as in the input
	String                 // String(Text): one decoded piece of a string value
	Done                   // no more fragments for the value at this path
)

var kindNames = [...]string{Null: "Null", False: "False", True: "True", Number: "Number", String: "String", Done: "Done"}

func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return "Kind(invalid)"
}

// IsScalar reports whether k is [Null], [False], [True] or [Number].
func (k Kind) IsScalar() bool { return k >= Null && k <= Number }

// Empty says, on a [Done], which empty value it completes. It is a plain
// value, safe to use from several goroutines.
type Empty uint8

// Values of [Empty].
const (
	NotEmpty    Empty = iota // the value had other fragments before its Done
	EmptyString              // ""
	EmptyArray               // []
	EmptyObject              // {}
)

// JSON returns the empty value as JSON text: "", [] or {}; "" for [NotEmpty].
func (e Empty) JSON() string {
	switch e {
	case EmptyString:
		return `""`
	case EmptyArray:
		return `[]`
	case EmptyObject:
		return `{}`
	}
	return ""
}

// Segment is one step of a [Path]: an object key, or an array index.
//
// In a fragment, [Segment.Key] is borrowed (see Path), and its bytes do not
// change while the member it names is open. A Segment is a plain value:
// copies may be read from several goroutines, its Key's bytes as long as
// nobody writes them.
type Segment struct {
	Key   []byte // the decoded object key when Index < 0
	Index int    // the array index, or -1 for an object key
}

// KeySegment returns the segment for object key k.
func KeySegment(k string) Segment { return Segment{Key: []byte(k), Index: -1} }

// IndexSegment returns the segment for array index i.
func IndexSegment(i int) Segment { return Segment{Index: i} }

// IsIndex reports whether s is an array index.
func (s Segment) IsIndex() bool { return s.Index >= 0 }

// Path locates a value from the root of the arguments: the empty path is the
// root.
//
// A fragment's Path, its segments and their keys are borrowed from whoever
// made the fragment (the [Translator]) until the call that delivered it
// returns; [Path.Clone] makes a copy that owns its memory. Between those
// calls, the producer may rewrite the path and its keys, with one exception
// that sinks may rely on: the bytes of a key slice stay unchanged while its
// member is open, until the [Done] of the member's value. A Path is a plain
// slice: it may be read from several goroutines while nobody writes it.
type Path []Segment

// Equal reports whether p and q are the same path.
func (p Path) Equal(q Path) bool {
	if len(p) != len(q) {
		return false
	}
	for i := range p {
		if p[i].Index != q[i].Index || !bytes.Equal(p[i].Key, q[i].Key) {
			return false
		}
	}
	return true
}

// HasPrefix reports whether q is p or an ancestor of p.
func (p Path) HasPrefix(q Path) bool { return len(q) <= len(p) && p[:len(q)].Equal(q) }

// AppendPointer appends p as an RFC 6901 JSON pointer.
func (p Path) AppendPointer(b []byte) []byte {
	for _, s := range p {
		b = append(b, '/')
		if s.IsIndex() {
			b = strconv.AppendInt(b, int64(s.Index), 10)
			continue
		}
		for _, c := range s.Key {
			switch c {
			case '~':
				b = append(b, "~0"...)
			case '/':
				b = append(b, "~1"...)
			default:
				b = append(b, c)
			}
		}
	}
	return b
}

// Pointer returns p as an RFC 6901 JSON pointer.
func (p Path) Pointer() jsontext.Pointer { return jsontext.Pointer(p.AppendPointer(nil)) }

// String returns p as a JSON pointer.
func (p Path) String() string { return string(p.AppendPointer(nil)) }

// Clone returns a copy of p that owns its keys.
func (p Path) Clone() Path {
	if p == nil {
		return nil
	}
	q := make(Path, len(p))
	for i, s := range p {
		q[i] = Segment{Key: bytes.Clone(s.Key), Index: s.Index}
	}
	return q
}

// Fragment is one fragment: a leaf at a path.
//
// A Fragment may be read from several goroutines while nobody writes it or
// the memory it borrows; a fragment received in Push borrows memory that its
// producer rewrites after Push returns, so only a [Fragment.Clone] may be
// handed to another goroutine.
type Fragment struct {
	// Path is where the leaf's value is. Borrowed.
	Path Path
	// Kind is the leaf.
	Kind Kind
	// Text is the number's exact text (Number), a non-empty decoded piece of
	// string data (String), or "null", "false", "true". Borrowed.
	Text []byte
	// Escaped, on a String, is the piece as it was in the input when that is
	// exactly Text escaped the way jsontext.AppendQuote escapes it (the
	// inside of a JSON string: \" \\ \b \f \n \r \t and no other escapes),
	// and nil otherwise: the tokenizer knows it for free, and a sink that
	// writes JSON (the aggregator) copies it instead of escaping Text again.
	// Borrowed. Whoever builds fragments by hand may leave it nil; if it is
	// set, it must be exactly that.
	Escaped []byte
	// Empty is set on a Done that completes "", [] or {}.
	Empty Empty
}

// Clone returns a copy of f that owns its memory.
func (f *Fragment) Clone() Fragment {
	return Fragment{Path: f.Path.Clone(), Kind: f.Kind, Text: bytes.Clone(f.Text),
		Escaped: bytes.Clone(f.Escaped), Empty: f.Empty}
}

// Call identifies a tool call. It is a plain value: a Call that nobody
// writes may be read from several goroutines.
type Call struct {
	ID    string // the provider's tool call id
	Name  string // the tool's name
	Index int64  // the call's position among the calls of one response, as the provider numbers it
	// Server says that the provider runs the call itself (Anthropic's
	// server_tool_use and mcp_tool_use blocks, the Responses API's mcp_call
	// items): the caller must never run it. A policy may still judge it,
	// for a log or a gateway.
	Server bool
}

// Progress is a fragment with the identity of its tool call and the place in
// the stream where it was determined: RFD 043's ToolCallArgumentProgress
// (docs/design.md, "The fragment protocol").
//
// A Progress received in Push is borrowed, and its producer rewrites it
// after Push returns: it may not be handed to another goroutine (a Clone of
// its [Fragment] and a copy of its Call may).
type Progress struct {
	// Call is the tool call's identity; it is shared, not to be modified.
	Call *Call
	// Offset is the length of the argument text prefix that determined the
	// fragment (see token.Event.Offset).
	Offset int64
	Fragment
}
