package tokentest

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/token"
	"github.com/google/go-cmp/cmp"
)

// Suite is the table tests, run on the tokenizers that [Suite.New] makes.
type Suite struct {
	New token.NewFunc
	// Check, if set, is called on every chunking of every input of Values
	// (in every context) and Errors before the tokenizer is run on it; what
	// it returns, unless "", is reported as an error. handrolled compares
	// itself with jsontoken.Tokenizer there.
	Check func(chunks [][]byte) string
}

// Resettable is a tokenizer that can be reset and says how far it has read:
// what [Resettable.Reset] and NoAllocs need.
type Resettable interface {
	token.Tokenizer
	Reset(h token.Handler)
	Offset() int64
}

// Run runs every test of the suite but [Suite.NoAllocs], each as a subtest of
// its own name.
func (s Suite) Run(t *testing.T) {
	t.Run("Values", s.Values)
	t.Run("Errors", s.Errors)
	t.Run("Limits", s.Limits)
	t.Run("ConfusableKeysAllowed", s.ConfusableKeysAllowed)
	t.Run("NumberWaits", s.NumberWaits)
	t.Run("Eager", s.Eager)
	t.Run("HandlerErrorStops", s.HandlerErrorStops)
	t.Run("FeedAfterClose", s.FeedAfterClose)
	t.Run("Reset", s.Reset)
}

func (s Suite) check(t *testing.T, in string, chunks [][]byte) {
	t.Helper()
	if s.Check == nil {
		return
	}
	if d := s.Check(chunks); d != "" {
		t.Errorf("%q in %d chunks: %s", in, len(chunks), d)
	}
}

// resettable makes a tokenizer that reports to h, and fails t if it cannot
// be reset.
func (s Suite) resettable(t *testing.T, h token.Handler) Resettable {
	t.Helper()
	tok, ok := s.New(h).(Resettable)
	if !ok {
		t.Fatalf("%T has no Reset and Offset", s.New(h))
	}
	return tok
}

// Values checks every value of Values in every context of [Contexts], in
// every chunking.
func (s Suite) Values(t *testing.T) {
	for _, c := range Contexts {
		for _, tt := range Values {
			in := c.Pre + tt.In + c.Post
			want := append(append(append([]string(nil), c.WantPre...), tt.Want...), c.WantPost...)
			for _, chunks := range Chunkings(in) {
				s.check(t, in, chunks)
				got, err := Events(s.New, chunks)
				if err != nil || !cmp.Equal(got, want) {
					t.Errorf("%s: %q in %d chunks: err %v, diff (-want +got):\n%s", c.Name, in, len(chunks), err, cmp.Diff(want, got))
					break
				}
			}
		}
	}
}

// Errors checks every input of Errors in every chunking: the error, the
// events before it, and a message that says what and where.
func (s Suite) Errors(t *testing.T) {
	for _, tt := range Errors {
		for _, chunks := range Chunkings(tt.In) {
			s.check(t, tt.In, chunks)
			got, err := Events(s.New, chunks)
			var se *token.SyntaxError
			if !errors.As(err, &se) || !errors.Is(err, tt.Cat) || se.Offset != tt.Offset || se.Pointer != tt.Pointer {
				t.Errorf("%q in %d chunks: got %v (%#v), want %v at %d in %q", tt.In, len(chunks), err, se, tt.Cat, tt.Offset, tt.Pointer)
				break
			}
			if !cmp.Equal(got, tt.Before, cmp.Comparer(func(a, b []string) bool { return strings.Join(a, " ") == strings.Join(b, " ") })) {
				t.Errorf("%q in %d chunks: events before the error (-want +got):\n%s", tt.In, len(chunks), cmp.Diff(tt.Before, got))
				break
			}
			if se.Detail == "" || !strings.Contains(err.Error(), fmt.Sprint(tt.Offset)) {
				t.Errorf("%q: message %q does not say what and where", tt.In, err)
			}
		}
	}
}

// Limits checks MaxDepth, DefaultMaxDepth and MaxSize.
func (s Suite) Limits(t *testing.T) {
	deep := strings.Repeat("[", 5) + strings.Repeat("]", 5)
	if _, err := Events(s.New, [][]byte{[]byte(deep)}, token.WithMaxDepth(5)); err != nil {
		t.Errorf("depth 5 with WithMaxDepth(5): %v", err)
	}
	_, err := Events(s.New, [][]byte{[]byte(`{"a":[[[[]]]]}`)}, token.WithMaxDepth(4))
	var se *token.SyntaxError
	if !errors.As(err, &se) || !errors.Is(err, token.ErrTooDeep) || se.Offset != 8 || se.Pointer != "/a/0/0/0" {
		t.Errorf("depth 5 with WithMaxDepth(4): %v (%#v)", err, se)
	}
	def := strings.Repeat("[", token.DefaultMaxDepth) + strings.Repeat("]", token.DefaultMaxDepth)
	if _, err := Events(s.New, [][]byte{[]byte(def)}); err != nil {
		t.Errorf("default depth: %v", err)
	}
	if _, err := Events(s.New, [][]byte{[]byte("[" + def + "]")}); !errors.Is(err, token.ErrTooDeep) {
		t.Errorf("default depth + 1: %v", err)
	}

	in := `{"a":"0123456789"}`
	for _, chunks := range Chunkings(in) {
		if _, err := Events(s.New, chunks, token.WithMaxSize(int64(len(in)))); err != nil {
			t.Errorf("input of exactly WithMaxSize: %v", err)
		}
		got, err := Events(s.New, chunks, token.WithMaxSize(10))
		if !errors.As(err, &se) || !errors.Is(err, token.ErrTooLarge) || se.Offset != 10 {
			t.Errorf("WithMaxSize(10) in %d chunks: %v", len(chunks), err)
		}
		if want := []string{"{", `K"a"`}; !cmp.Equal(got, want) {
			t.Errorf("WithMaxSize(10): events %v, want %v", got, want)
		}
	}
}

// ConfusableKeysAllowed checks [token.WithConfusableKeys]: every input of
// Errors rejected for a key a tool runtime would confuse is accepted with
// it, in every chunking, with the events before the key as they were and
// the key's own; exact duplicates stay rejected.
func (s Suite) ConfusableKeysAllowed(t *testing.T) {
	allow := token.WithConfusableKeys(true)
	n := 0
	for _, tt := range Errors {
		if tt.Cat != token.ErrCaseFoldedKey && tt.Cat != token.ErrNULInKey {
			continue
		}
		n++
		for _, chunks := range Chunkings(tt.In) {
			got, err := Events(s.New, chunks, allow)
			if err != nil || len(got) <= len(tt.Before) || !cmp.Equal(got[:len(tt.Before)], tt.Before) || got[len(tt.Before)][0] != 'K' {
				t.Errorf("%q in %d chunks, confusable keys allowed: %v, events %v", tt.In, len(chunks), err, got)
				break
			}
			if _, err := Events(s.New, chunks, allow, token.WithConfusableKeys(false)); !errors.Is(err, tt.Cat) {
				t.Errorf("%q in %d chunks, allowed and then not: %v", tt.In, len(chunks), err)
				break
			}
		}
	}
	if n < 2 {
		t.Fatalf("only %d inputs with confusable keys in Errors", n)
	}
	for _, in := range []string{`{"a":1,"a":2}`, `{"A":1,"\u0000":2,"a":3,"A":4}`} {
		_, err := Events(s.New, [][]byte{[]byte(in)}, allow)
		if !errors.Is(err, token.ErrDuplicateKey) {
			t.Errorf("%q, confusable keys allowed: %v, want a duplicate key", in, err)
		}
	}
}

// NumberWaits is the first known trap: a number touching the end of a
// chunk must wait for the byte after it.
func (s Suite) NumberWaits(t *testing.T) {
	var events []token.Event
	tok := s.New(token.HandlerFunc(func(e token.Event) error {
		events = append(events, token.Event{Kind: e.Kind, Data: append([]byte(nil), e.Data...), Offset: e.Offset})
		return nil
	}))
	steps := []struct {
		chunk string
		want  int // events so far
	}{{"[1,2", 2}, {".5e", 2}, {"3", 2}, {"]", 4}}
	for _, step := range steps {
		if err := tok.Feed([]byte(step.chunk)); err != nil {
			t.Fatal(err)
		}
		if len(events) != step.want {
			t.Fatalf("after %q: %d events, want %d", step.chunk, len(events), step.want)
		}
	}
	if got := string(events[2].Data); got != "2.5e3" || events[2].Offset != 9 {
		t.Errorf("number %q at %d, want 2.5e3 at 9", got, events[2].Offset)
	}
	if err := tok.Close(); err != nil {
		t.Fatal(err)
	}
	// A root number ends only at Close.
	events = nil
	tok = s.New(appendTo(&events))
	tok.Feed([]byte("12"))
	if len(events) != 0 {
		t.Fatalf("root number reported before Close")
	}
	if err := tok.Close(); err != nil || len(events) != 1 || events[0].Offset != 2 {
		t.Fatalf("Close: %v, events %v", err, events)
	}
}

// appendTo is a handler that appends the events to *events, data borrowed.
func appendTo(events *[]token.Event) token.Handler {
	return token.HandlerFunc(func(e token.Event) error {
		*events = append(*events, e)
		return nil
	})
}

// Eager checks that every event is reported by the chunk that determines
// it, not later.
func (s Suite) Eager(t *testing.T) {
	in := `{"path":"src/main.rs","n":[12,true],"content":"fn main() {}"}`
	// at is the input length at which the event is determined.
	type ev struct {
		kind token.Kind
		at   int64
	}
	want := []ev{
		{token.BeginObject, 1}, {token.Key, 7}, {token.BeginString, 9}, {token.StringData, 20}, {token.EndString, 21},
		{token.Key, 25}, {token.BeginArray, 27}, {token.Number, 30}, {token.True, 34}, {token.EndArray, 35},
		{token.Key, 45}, {token.BeginString, 47}, {token.StringData, 59}, {token.EndString, 60}, {token.EndObject, 61},
	}
	var got []ev
	fed := 0
	tok := s.New(token.HandlerFunc(func(e token.Event) error {
		if e.Offset > int64(fed) {
			t.Errorf("%v reported with offset %d after only %d bytes", e.Kind, e.Offset, fed)
		}
		got = append(got, ev{e.Kind, e.Offset})
		return nil
	}))
	for i := range len(in) {
		fed = i + 1
		before := len(got)
		if err := tok.Feed([]byte{in[i]}); err != nil {
			t.Fatal(err)
		}
		// Events due by now must have come.
		for _, w := range want {
			if w.at == int64(fed) && len(got) == before && w.kind != token.StringData {
				t.Errorf("%v due at %d not reported", w.kind, fed)
			}
		}
	}
	if err := tok.Close(); err != nil {
		t.Fatal(err)
	}
	// Whole-input offsets are the determining offsets.
	got = nil
	tok = s.New(token.HandlerFunc(func(e token.Event) error {
		got = append(got, ev{e.Kind, e.Offset})
		return nil
	}))
	fed = len(in)
	tok.Feed([]byte(in))
	tok.Close()
	if !cmp.Equal(got, want, cmp.AllowUnexported(ev{})) {
		t.Errorf("offsets (-want +got):\n%s", cmp.Diff(want, got, cmp.AllowUnexported(ev{})))
	}
}

// HandlerErrorStops checks that a handler's error stops the tokenizer:
// Feed and Close return it from then on.
func (s Suite) HandlerErrorStops(t *testing.T) {
	stop := errors.New("enough")
	n := 0
	tok := s.New(token.HandlerFunc(func(e token.Event) error {
		n++
		if e.Kind == token.Key {
			return stop
		}
		return nil
	}))
	if err := tok.Feed([]byte(`{"a":1,"b":2}`)); err != stop {
		t.Fatalf("Feed: %v, want the handler's error", err)
	}
	if err := tok.Feed([]byte(`x`)); err != stop || n != 2 {
		t.Fatalf("Feed after stop: %v after %d events", err, n)
	}
	if err := tok.Close(); err != stop {
		t.Fatalf("Close after stop: %v", err)
	}
}

// FeedAfterClose checks that Close may be repeated and Feed after it fails
// with [token.ErrClosed].
func (s Suite) FeedAfterClose(t *testing.T) {
	tok := s.New(token.HandlerFunc(func(token.Event) error { return nil }))
	tok.Feed([]byte("{}"))
	if err := tok.Close(); err != nil {
		t.Fatal(err)
	}
	if err := tok.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if err := tok.Feed([]byte(" ")); !errors.Is(err, token.ErrClosed) {
		t.Fatalf("Feed after Close: %v", err)
	}
}

// Reset checks that a tokenizer reset in the middle of a value starts
// afresh, at offset 0, with the new handler.
func (s Suite) Reset(t *testing.T) {
	var events []token.Event
	tok := s.resettable(t, appendTo(&events))
	tok.Feed([]byte(`{"a":[1,`)) // left unfinished
	events = nil
	tok.Reset(appendTo(&events))
	if err := tok.Feed([]byte(`"x"`)); err != nil {
		t.Fatal(err)
	}
	if err := tok.Close(); err != nil || len(events) != 3 || tok.Offset() != 3 {
		t.Fatalf("after Reset: %v, %d events, offset %d", err, len(events), tok.Offset())
	}
}

// NoAllocs checks that feeding doc allocates nothing in steady state, cut
// into chunks of each of sizes, once a tokenizer has grown its buffers and
// is reset for each document.
func (s Suite) NoAllocs(t *testing.T, doc []byte, sizes ...int) {
	nop := token.HandlerFunc(func(token.Event) error { return nil })
	tok := s.resettable(t, nop)
	for _, size := range sizes {
		chunks := testutil.SplitEvery(doc, size)
		feed := func() {
			tok.Reset(nop)
			for _, c := range chunks {
				if err := tok.Feed(c); err != nil {
					t.Fatal(err)
				}
			}
			if err := tok.Close(); err != nil {
				t.Fatal(err)
			}
		}
		feed() // grow the buffers once
		if n := testing.AllocsPerRun(20, feed); n != 0 {
			t.Errorf("chunks of %d: %v allocations per document, want 0", size, n)
		}
	}
}
