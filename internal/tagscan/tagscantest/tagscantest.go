// Package tagscantest holds the tests that the tokenizers of tool calls
// written in tags (token/xmltag, token/qwen, token/glm, token/minimax,
// token/dsml) share: a run that records the merged events and checks what
// holds for every input ([Run]), tables of valid calls and of errors,
// chunking invariance as a gopter property, the Format-then-parse property,
// streaming, linearity and allocations. Each package's tests give a
// [Dialect] and their own tables.
package tagscantest

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/schema"
	"github.com/argstream/argstream/token"
)

// Tokenizer is what the tokenizers of these packages have.
type Tokenizer interface {
	token.Tokenizer
	Reset(h token.Handler)
	Offset() int64
	Name() string
}

// Dialect is one package under test.
type Dialect struct {
	New    func(h token.Handler, opts ...token.Option) Tokenizer
	Typed  func(tools *schema.Tools) token.NewFunc
	Format func(name string, args jsontext.Value) ([]byte, error)
	// Call writes a call of tool with the raw values of params (key,
	// value) in order, with sep (white space) between tags: valid or not.
	Call func(tool string, params [][2]string, sep string) string
	// Repeat: arrays are written as a repeated parameter (XML tags);
	// else as JSON text (Qwen).
	Repeat bool
	// Tags are bytes and strings that change the meaning of a call around
	// them, for mutations and values.
	Tags []string
	// Near is a value's text full of '<' and near-tags, for Linear.
	Near string
	// TypedCall is a call of "typed" (see Tools) for Allocs.
	TypedCall string
}

// Test runs the tests every dialect passes: [Dialect.Chunking],
// [Dialect.RoundTrip], [Dialect.Streaming], [Dialect.Linear] and
// [Dialect.Allocs].
func (d Dialect) Test(t *testing.T) {
	t.Run("Chunking", d.Chunking)
	t.Run("RoundTrip", d.RoundTrip)
	t.Run("Streaming", d.Streaming)
	t.Run("Linear", func(t *testing.T) { d.Linear(t, d.Near) })
	t.Run("Allocs", func(t *testing.T) { d.Allocs(t, d.TypedCall) })
}

// FuzzTarget is a fuzz target's body: [Dialect.Seeds], then [Dialect.Fuzz].
func (d Dialect) FuzzTarget(f *testing.F) {
	for _, s := range d.Seeds() {
		f.Add([]byte(s), uint(len(s)/2))
	}
	f.Fuzz(d.Fuzz)
}

// Formats checks that [Dialect.Format] writes each case's arguments (c[0]) of
// the tool "t" as c[1].
func (d Dialect) Formats(t *testing.T, cases [][2]string) {
	t.Helper()
	for _, c := range cases {
		got, err := d.Format("t", []byte(c[0]))
		if err != nil || string(got) != c[1] {
			t.Errorf("Format(%s) = %q, %v; want %q", c[0], got, err, c[1])
		}
	}
}

// Outcome is what a run gives, in a form that compares across chunkings.
type Outcome struct {
	Events []string // "Kind data @offset"; adjacent StringData merged, without offset (see Run)
	JSON   string   // the object the events build, if the call was accepted
	Err    string   // category, offset, line, column and pointer, if rejected
	Cat    error    // the category, if rejected
	Msg    string   // the message, if rejected (not compared)
}

var categories = []error{token.ErrSyntax, token.ErrTruncated, token.ErrTrailingData, token.ErrDuplicateKey,
	token.ErrCaseFoldedKey, token.ErrNULInKey, token.ErrInvalidUTF8, token.ErrInvalidEscape,
	token.ErrTooDeep, token.ErrTooLarge, token.ErrSchema}

// Category returns the category of err among token's, or nil.
func Category(err error) error {
	for _, c := range categories {
		if errors.Is(err, c) {
			return c
		}
	}
	return nil
}

// Run feeds chunks to a tokenizer from newTok and closes it. The merged
// string data has no offset in the [Outcome]: the pieces of a JSON value's
// string (token/jsontoken) end at offsets that depend on the chunking
// before an invalid escape. It returns
// the Outcome, and an error if something that holds for every input and
// chunking breaks: an empty piece of string data or one that is not whole
// UTF-8, offsets going back or past the input, an error that is not a
// [*token.SyntaxError] with Line and Column, or is out of the input.
func Run(newTok token.NewFunc, chunks [][]byte, opts ...token.Option) (Outcome, error) {
	var (
		o      Outcome
		b      builder
		last   int64
		fed    int64
		broken error
	)
	h := token.HandlerFunc(func(e token.Event) error {
		switch {
		case e.Offset < last || e.Offset > fed:
			broken = fmt.Errorf("event %v at offset %d after %d, with %d bytes fed", e.Kind, e.Offset, last, fed)
		case e.Kind == token.StringData && (len(e.Data) == 0 || !utf8.Valid(e.Data)):
			broken = fmt.Errorf("string data %q at offset %d is empty or not whole UTF-8", e.Data, e.Offset)
		}
		last = e.Offset
		b.add(e)
		return nil
	})
	tk := newTok(h, opts...)
	var err error
	for _, c := range chunks {
		fed += int64(len(c))
		if err = tk.Feed(c); err != nil {
			break
		}
	}
	if err == nil {
		err = tk.Close()
	}
	if broken != nil {
		return o, broken
	}
	b.flush()
	o.Events = b.events
	if err == nil {
		o.JSON = string(b.json)
		return o, nil
	}
	var se *token.SyntaxError
	if !errors.As(err, &se) {
		return o, fmt.Errorf("error %v is not a *token.SyntaxError", err)
	}
	o.Cat, o.Msg = Category(err), err.Error()
	o.Err = fmt.Sprintf("%v at %d (line %d, column %d) %q", o.Cat, se.Offset, se.Line, se.Column, se.Pointer)
	switch {
	case o.Cat == nil || se.Err != o.Cat:
		return o, fmt.Errorf("error %v has no category", err)
	case se.Line < 1 || se.Column < 1:
		return o, fmt.Errorf("error %v has no line and column", err)
	case se.Offset < 0 || se.Offset > fed:
		return o, fmt.Errorf("error %v out of the %d bytes fed", err, fed)
	}
	// The line and column, counted in the input itself.
	in := bytes.Join(chunks, nil)[:se.Offset]
	line, col := bytes.Count(in, []byte{'\n'})+1, len(in)-bytes.LastIndexByte(in, '\n')
	if se.Line != line || se.Column != col {
		return o, fmt.Errorf("error %v at line %d, column %d, want %d, %d", err, se.Line, se.Column, line, col)
	}
	return o, nil
}

// builder merges events and writes the JSON text they make.
type builder struct {
	events []string
	json   []byte
	str    []byte
	inStr  bool   // string data not yet in events
	first  []bool // per open container: nothing written in it yet
}

func (b *builder) add(e token.Event) {
	if e.Kind == token.StringData {
		b.str = append(b.str, e.Data...)
		b.inStr = true
		return
	}
	b.flush()
	b.events = append(b.events, fmt.Sprintf("%v %q @%d", e.Kind, e.Data, e.Offset))
	switch e.Kind {
	case token.EndObject, token.EndArray:
		b.json = append(b.json, "}]"[btoi(e.Kind == token.EndArray)])
		b.first = b.first[:len(b.first)-1]
		return
	case token.StringData:
		return
	case token.EndString:
		b.json, _ = jsontext.AppendQuote(b.json, b.str)
		b.str = b.str[:0]
		return
	}
	if n := len(b.first); n > 0 {
		// a value after a key is not a new member
		if !b.first[n-1] && !(len(b.json) > 0 && b.json[len(b.json)-1] == ':') {
			b.json = append(b.json, ',')
		}
		b.first[n-1] = false
	}
	switch e.Kind {
	case token.BeginObject, token.BeginArray:
		b.json = append(b.json, "{["[btoi(e.Kind == token.BeginArray)])
		b.first = append(b.first, true)
	case token.Key:
		b.json, _ = jsontext.AppendQuote(b.json, e.Data)
		b.json = append(b.json, ':')
	case token.BeginString:
		b.str = b.str[:0]
	case token.Number:
		b.json = append(b.json, e.Data...)
	case token.True:
		b.json = append(b.json, "true"...)
	case token.False:
		b.json = append(b.json, "false"...)
	case token.Null:
		b.json = append(b.json, "null"...)
	}
}

// flush adds the merged string data read since the last event, if any.
func (b *builder) flush() {
	if b.inStr {
		b.events = append(b.events, fmt.Sprintf("StringData %q", b.str))
		b.inStr = false
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Whole returns data as one chunk.
func Whole(data []byte) [][]byte { return [][]byte{data} }

// Same runs data whole, cut at random and in 1-byte chunks, and returns
// the whole [Outcome], or an error if [Run] finds one or the Outcomes differ.
func Same(newTok token.NewFunc, data []byte, rng *rand.Rand, opts ...token.Option) (Outcome, error) {
	whole, err := Run(newTok, Whole(data), opts...)
	if err != nil {
		return whole, fmt.Errorf("whole: %w", err)
	}
	for _, chunks := range [][][]byte{testutil.SplitRandom(data, rng, 8), testutil.SplitEvery(data, 1)} {
		o, err := Run(newTok, chunks, opts...)
		if err != nil {
			return whole, fmt.Errorf("%q: %w", chunks, err)
		}
		if !Equal(whole, o) {
			return whole, fmt.Errorf("%q\nwhole: %v\ncut:   %v", chunks, whole, o)
		}
	}
	return whole, nil
}

// Equal reports whether two Outcomes are the same: events, arguments and
// error.
func Equal(a, b Outcome) bool {
	return a.Err == b.Err && a.JSON == b.JSON && slices.Equal(a.Events, b.Events)
}

// Case is a call and the arguments it gives.
type Case struct {
	Name  string
	In    string
	Tools string // tool definitions for schema.Parse, or "" for none
	Want  string // the arguments' JSON
}

// Cases checks that each call gives its arguments, whole and in any
// chunking.
func (d Dialect) Cases(t *testing.T, cases []Case) {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			o, err := Same(d.newFunc(t, c.Tools), []byte(c.In), rng)
			if err != nil {
				t.Fatal(err)
			}
			if o.Err != "" || o.JSON != c.Want {
				t.Errorf("%q:\ngot  %s %s\nwant %s", c.In, o.JSON, o.Err, c.Want)
			}
		})
	}
}

// ErrCase is a call and the error it ends in.
type ErrCase struct {
	Name    string
	In      string
	Tools   string
	Err     error
	Offset  int64
	Line    int
	Column  int
	Pointer string
	Says    string // if not "", what the message must hold
	Opts    []token.Option
}

// Errors checks that each call ends in its error, whole and in any
// chunking.
func (d Dialect) Errors(t *testing.T, cases []ErrCase) {
	t.Helper()
	rng := rand.New(rand.NewPCG(3, 4))
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			o, err := Same(d.newFunc(t, c.Tools), []byte(c.In), rng, c.Opts...)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(o.Msg, c.Says) {
				t.Errorf("%q: message %q does not hold %q", c.In, o.Msg, c.Says)
			}
			want := fmt.Sprintf("%v at %d (line %d, column %d) %q", c.Err, c.Offset, c.Line, c.Column, c.Pointer)
			if o.Err != want {
				t.Errorf("%q:\ngot  %s\nwant %s", c.In, o.Err, want)
			}
		})
	}
}

// NewFunc returns the [token.NewFunc] of the dialect: typed by tools (JSON
// tool definitions) if not "".
func (d Dialect) newFunc(t testing.TB, tools string) token.NewFunc {
	if tools == "" {
		return func(h token.Handler, opts ...token.Option) token.Tokenizer { return d.New(h, opts...) }
	}
	ts, err := schema.Parse([]byte(tools))
	if err != nil {
		t.Fatal(err)
	}
	return d.Typed(ts)
}

// NewFunc returns the untyped [token.NewFunc] of the dialect.
func (d Dialect) NewFunc() token.NewFunc {
	return func(h token.Handler, opts ...token.Option) token.Tokenizer { return d.New(h, opts...) }
}

// Life checks Name, Offset, Close, ErrClosed and Reset on call, a valid
// call of the tool name: a Reset tokenizer reads it again as a new one
// does, also after an error.
func (d Dialect) Life(t *testing.T, call, name string) {
	t.Helper()
	var first, again []string
	rec := func(out *[]string) token.Handler {
		return token.HandlerFunc(func(e token.Event) error {
			*out = append(*out, fmt.Sprintf("%v %q @%d", e.Kind, e.Data, e.Offset))
			return nil
		})
	}
	tk := d.New(rec(&first))
	if tk.Name() != "" {
		t.Errorf("Name before the tag = %q", tk.Name())
	}
	half := len(call) / 2
	if err := tk.Feed([]byte(call[:half])); err != nil {
		t.Fatal(err)
	}
	if tk.Name() != name || tk.Offset() != int64(half) {
		t.Errorf("Name, Offset = %q, %d, want %q, %d", tk.Name(), tk.Offset(), name, half)
	}
	if err := tk.Feed([]byte(call[half:])); err != nil {
		t.Fatal(err)
	}
	if err := tk.Close(); err != nil {
		t.Fatal(err)
	}
	if err := tk.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if err := tk.Feed([]byte(" ")); err != token.ErrClosed {
		t.Errorf("Feed after Close: %v, want token.ErrClosed", err)
	}
	// An error is sticky, and Reset forgets it.
	tk.Reset(rec(new([]string)))
	if err := tk.Feed([]byte("x")); Category(err) != token.ErrSyntax {
		t.Fatalf("Feed(x) = %v", err)
	}
	if err := tk.Feed([]byte(call)); Category(err) != token.ErrSyntax {
		t.Errorf("Feed after an error = %v, want the error again", err)
	}
	tk.Reset(rec(&again))
	if tk.Name() != "" || tk.Offset() != 0 {
		t.Errorf("after Reset: Name, Offset = %q, %d", tk.Name(), tk.Offset())
	}
	if err := tk.Feed([]byte(call)); err != nil {
		t.Fatal(err)
	}
	if err := tk.Close(); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(first, again) {
		t.Errorf("after Reset:\n%q\nwant\n%q", again, first)
	}
}

// Events checks the exact events of call, offsets and all, whole and in
// 1-byte chunks (merged).
func (d Dialect) Events(t *testing.T, call string, want []string) {
	t.Helper()
	for _, chunks := range [][][]byte{Whole([]byte(call)), testutil.SplitEvery([]byte(call), 1)} {
		o, err := Run(d.NewFunc(), chunks)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(o.Events, want) {
			t.Errorf("%q in %d chunks:\n%q\nwant\n%q", call, len(chunks), o.Events, want)
		}
	}
}

// FormatErrors checks that [Dialect.Format] refuses each case: its name, the
// tool's name, the arguments and what the error must say.
func (d Dialect) FormatErrors(t *testing.T, cases [][4]string) {
	t.Helper()
	for _, c := range cases {
		text, err := d.Format(c[1], jsontext.Value(c[2]))
		if err == nil || !strings.Contains(err.Error(), c[3]) {
			t.Errorf("%s: Format(%q, %s) = %q, %v; want an error saying %q", c[0], c[1], c[2], text, err, c[3])
		}
	}
}
