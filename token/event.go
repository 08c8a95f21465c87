package token

// Kind identifies an [Event].
type Kind uint8

// [Event] kinds.
const (
	BeginObject Kind = iota + 1 // '{'
	EndObject                   // '}'
	BeginArray                  // '['
	EndArray                    // ']'
	Key                         // an object key, complete and decoded, in Data
	BeginString                 // the opening quote of a string value
	StringData                  // a decoded piece of the current string value, in Data
	EndString                   // the closing quote of a string value
	Null                        // null
	False                       // false
	True                        // true
	Number                      // a number, its exact text in Data
)

var kindNames = [...]string{
	BeginObject: "BeginObject", EndObject: "EndObject",
	BeginArray: "BeginArray", EndArray: "EndArray",
	Key: "Key", BeginString: "BeginString", StringData: "StringData", EndString: "EndString",
	Null: "Null", False: "False", True: "True", Number: "Number",
}

func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return "Kind(invalid)"
}

// Event is one SAX event.
type Event struct {
	Kind Kind
	// Data is the decoded key (Key), a decoded piece of string data, never
	// empty and never ending inside a UTF-8 sequence (StringData), or the
	// number's text exactly as in the input (Number). It is borrowed from the
	// tokenizer or from the chunk being fed, and valid until Handle returns.
	Data []byte
	// Escaped, on StringData, is the piece exactly as it was in the input
	// when that is Data escaped the way jsontext.AppendQuote escapes it
	// (see fragment.Fragment.Escaped), and nil otherwise. It lets a sink that
	// writes JSON copy the input instead of escaping Data again. Borrowed
	// like Data.
	Escaped []byte
	// Offset is the length of the input prefix that determined the event: just
	// past the closing quote of a key or string, past the bracket of a begin or
	// end, past the last byte consumed for a piece of string data, past the
	// last letter of a literal, and past the byte after a number (or the end of
	// input, for a number that ends it).
	Offset int64
}

// Handler receives events. An error it returns stops the tokenizer: Feed and
// Close return that error from then on.
type Handler interface {
	Handle(e Event) error
}

// HandlerFunc adapts a function to [Handler].
type HandlerFunc func(e Event) error

// Handle calls f(e).
func (f HandlerFunc) Handle(e Event) error { return f(e) }

// Tokenizer is a resumable tokenizer.
type Tokenizer interface {
	// Feed consumes the next chunk, which may be empty, and reports every
	// event it determines. The chunk is only read during the call.
	Feed(chunk []byte) error
	// Close ends the input: it reports the events that only the end of input
	// determines (a top-level number, as in "42") and returns an error if the
	// value is incomplete. A number cut short by the end of input inside an
	// array or object is not reported: the input may have ended in it.
	Close() error
}

// NewFunc makes a tokenizer that reports to h. jsontoken.New is one (wrapped);
// other input syntaxes plug into argstream.WithTokenizer the same way.
type NewFunc func(h Handler, opts ...Option) Tokenizer
