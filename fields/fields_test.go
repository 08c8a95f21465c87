package fields_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/aggregate"
	"github.com/argstream/argstream/fields"
	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/sink"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
)

// event is a copy of a fields.Event, for comparisons.
type event struct {
	Kind fields.Kind
	Key  string
	Text string
	JSON bool
}

func (e event) String() string {
	s := fmt.Sprintf("%v %q", e.Kind, e.Key)
	if e.Kind == fields.Delta {
		s += fmt.Sprintf(" %q", e.Text)
	}
	if e.JSON {
		s += " json"
	}
	return s
}

func start(key string, json bool) event { return event{Kind: fields.Start, Key: key, JSON: json} }
func delta(key, text string, json bool) event {
	return event{Kind: fields.Delta, Key: key, Text: text, JSON: json}
}
func end(key string, json bool) event { return event{Kind: fields.End, Key: key, JSON: json} }

// str and val are the events of a whole field: a string value's, and any
// other value's.
func str(key, text string) []event {
	if text == "" {
		return []event{start(key, false), end(key, false)}
	}
	return []event{start(key, false), delta(key, text, false), end(key, false)}
}

func val(key, text string) []event {
	return []event{start(key, true), delta(key, text, true), end(key, true)}
}

func join(evs ...[]event) []event {
	var out []event
	for _, e := range evs {
		out = append(out, e...)
	}
	return out
}

// merge joins consecutive Deltas of a field: the form in which every
// chunking of the same input gives the same events.
func merge(evs []event) []event {
	var out []event
	for _, e := range evs {
		if n := len(out); n > 0 && e.Kind == fields.Delta && out[n-1].Kind == fields.Delta && out[n-1].Key == e.Key {
			out[n-1].Text += e.Text
			continue
		}
		out = append(out, e)
	}
	return out
}

// outcome is what a stream of one call's arguments delivers to a Sink, next
// to an Aggregator.
type outcome struct {
	Events []event   // every event, in order
	Chunks [][]event // the events of each Feed, and of Close last
	Err    error     // the stream's
	EndErr error     // what OnEnd got
	Ends   int       // OnEnd calls
	Ended  []string  // the text of each field that had its End, merged: "key=text"
	Values []string  // each top-level member the Aggregator completed, as "key=text" (a string's decoded)
	Call   []*fragment.Call
}

// observe feeds chunks to a Stream whose sink is a fields.Sink and an
// Aggregator, and closes it; it stops at the first error, as a caller
// would.
func observe(chunks [][]byte, opts ...argstream.Option) *outcome {
	o := &outcome{}
	var text strings.Builder
	var chunk []event
	f := fields.New(func(e *fields.Event) error {
		ev := event{Kind: e.Kind, Key: string(e.Key), Text: string(e.Text), JSON: e.JSON}
		o.Events = append(o.Events, ev)
		o.Call = append(o.Call, e.Call)
		chunk = append(chunk, ev)
		switch e.Kind {
		case fields.Start:
			text.Reset()
		case fields.Delta:
			text.Write(e.Text)
		case fields.End:
			o.Ended = append(o.Ended, string(e.Key)+"="+text.String())
		}
		return nil
	}, fields.OnEnd(func(err error) {
		o.Ends++
		o.EndErr = err
	}))
	agg := aggregate.New(aggregate.OnValue(func(p fragment.Path, v jsontext.Value) error {
		if len(p) != 1 || p[0].IsIndex() {
			return nil
		}
		if v.Kind() == '"' {
			s, err := jsontext.AppendUnquote(nil, v)
			if err != nil {
				return err
			}
			v = s
		}
		o.Values = append(o.Values, string(p[0].Key)+"="+string(v))
		return nil
	}))
	s := argstream.New(sink.Multi(f, agg), opts...)
	for _, c := range chunks {
		o.Err = s.Feed(c)
		o.Chunks = append(o.Chunks, chunk)
		chunk = nil
		if o.Err != nil {
			return o
		}
	}
	o.Err = s.Close()
	o.Chunks = append(o.Chunks, chunk)
	return o
}

// check checks what holds for any input and chunking: OnEnd called once,
// with the stream's error; every Delta non-empty and valid UTF-8; every
// field a Start, Deltas and an End (the last one possibly cut short by an
// error), its events all with the same key and JSON; and every field that
// ended holds the value the Aggregator completed for its key.
func (o *outcome) check() error {
	if o.Ends != 1 || o.EndErr != o.Err {
		return fmt.Errorf("OnEnd called %d times, with %v; the stream returned %v", o.Ends, o.EndErr, o.Err)
	}
	var open *event
	for i, e := range o.Events {
		switch {
		case e.Kind == fields.Delta && (e.Text == "" || !utf8.ValidString(e.Text)):
			return fmt.Errorf("event %d: %v: empty or not UTF-8", i, e)
		case e.Kind == fields.Start && open != nil, e.Kind != fields.Start && open == nil:
			return fmt.Errorf("event %d: %v out of order", i, e)
		case open != nil && (e.Key != open.Key || e.JSON != open.JSON):
			return fmt.Errorf("event %d: %v in the field of %v", i, e, *open)
		}
		switch e.Kind {
		case fields.Start:
			open = &o.Events[i]
		case fields.End:
			open = nil
		}
	}
	if open != nil && o.Err == nil {
		return fmt.Errorf("field %v not ended, and no error", *open)
	}
	if diff := cmp.Diff(o.Values, o.Ended); diff != "" {
		return fmt.Errorf("fields ended (+) and values completed (-) differ:\n%s", diff)
	}
	if c := o.Call; len(c) > 0 && c[0] == nil {
		return errors.New("an event without its call")
	}
	return nil
}

// reference returns the events of data, merged, from a whole-document
// jsontext parse: for each member of the root object, a Start, a Delta with
// its decoded string or its compact JSON (testutil.Canonical) unless that
// is empty, and an End. It returns false if data is not an object.
func reference(data []byte) ([]event, bool, error) {
	dec := jsontext.NewDecoder(bytes.NewReader(data))
	if dec.PeekKind() != '{' {
		return nil, false, nil
	}
	if _, err := dec.ReadToken(); err != nil {
		return nil, false, err
	}
	var out []event
	for dec.PeekKind() != '}' {
		k, err := dec.ReadToken()
		if err != nil {
			return nil, false, err
		}
		key := k.String() // before the next read, which k does not survive
		v, err := dec.ReadValue()
		if err != nil {
			return nil, false, err
		}
		json, text := v.Kind() != '"', ""
		if json {
			c, err := testutil.Canonical(v)
			if err != nil {
				return nil, false, err
			}
			text = string(c)
		} else {
			s, err := jsontext.AppendUnquote(nil, v)
			if err != nil {
				return nil, false, err
			}
			text = string(s)
		}
		if json {
			out = append(out, val(key, text)...)
		} else {
			out = append(out, str(key, text)...)
		}
	}
	if _, err := dec.ReadToken(); err != nil {
		return nil, false, err
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return nil, false, fmt.Errorf("after the object: %v", err)
	}
	return out, true, nil
}

func chunksOf(s ...string) [][]byte {
	out := make([][]byte, len(s))
	for i, c := range s {
		out[i] = []byte(c)
	}
	return out
}

// axio's documentation, "Example: String value": {"path": "/tmp/file"}
// arriving as '{"pat', 'h":"/tm', 'p/file"}'. The events of each chunk are
// axio's exactly.
func TestAxioStringExample(t *testing.T) {
	o := observe(chunksOf(`{"pat`, `h":"/tm`, `p/file"}`))
	want := [][]event{
		nil, // '{"pat': no events yet (incomplete key)
		{start("path", false), delta("path", "/tm", false)},
		{delta("path", "p/file", false), end("path", false)},
		nil, // Close
	}
	if diff := cmp.Diff(want, o.Chunks); diff != "" || o.Err != nil {
		t.Errorf("error %v; events per chunk (-axio +fields):\n%s", o.Err, diff)
	}
	if err := o.check(); err != nil {
		t.Error(err)
	}
}

// axio's first example: '{"path":"/tmp/f' then 'oo.py"}'.
func TestAxioFeedExample(t *testing.T) {
	o := observe(chunksOf(`{"path":"/tmp/f`, `oo.py"}`))
	want := [][]event{
		{start("path", false), delta("path", "/tmp/f", false)},
		{delta("path", "oo.py", false), end("path", false)},
		nil,
	}
	if diff := cmp.Diff(want, o.Chunks); diff != "" || o.Err != nil {
		t.Errorf("error %v; events per chunk (-axio +fields):\n%s", o.Err, diff)
	}
}

// axio's documentation, "Example: Object value": {"config": {"retry": 3}}
// as '{"config":{"re' and 'try":3}}'. axio emits Start and the raw
// '{"re' for the first chunk; a fragment exists only once the value of
// "retry" is known, so here the first chunk gives nothing and the second
// the whole field, as compact JSON text: the same merged text as axio's
// '{"re' + 'try":3}' (less axio's stray closing brace of the root, which
// its raw fragment 'try":3}}' carries).
func TestAxioObjectExample(t *testing.T) {
	o := observe(chunksOf(`{"config":{"re`, `try":3}}`))
	want := [][]event{
		nil,
		{start("config", true), delta("config", `{"retry":3`, true), delta("config", `}`, true), end("config", true)},
		nil,
	}
	if diff := cmp.Diff(want, o.Chunks); diff != "" || o.Err != nil {
		t.Errorf("error %v; events per chunk (-want +got):\n%s", o.Err, diff)
	}
	if got := merge(o.Events); !cmp.Equal(got, val("config", `{"retry":3}`)) {
		t.Errorf("merged: %v", got)
	}
}

// axio's escape and surrogate pair examples, and its lone high surrogate,
// which axio displays as U+FFFD and argstream rejects.
func TestAxioEscapes(t *testing.T) {
	o := observe(chunksOf(`{"msg":"Hello\nWorld"}`))
	if diff := cmp.Diff(str("msg", "Hello\nWorld"), o.Events); diff != "" || o.Err != nil {
		t.Errorf("escapes: %v (-want +got):\n%s", o.Err, diff)
	}
	o = observe(chunksOf(`{"emoji":"\uD83D\uDE00"}`))
	if diff := cmp.Diff(str("emoji", "😀"), o.Events); diff != "" || o.Err != nil {
		t.Errorf("surrogate pair: %v (-want +got):\n%s", o.Err, diff)
	}
	o = observe(chunksOf(`{"emoji":"a\uD83Db"}`))
	if o.Err == nil || o.EndErr != o.Err || strings.Contains(fmt.Sprint(o.Events), "\ufffd") {
		t.Errorf("lone surrogate: error %v, OnEnd %v, events %v", o.Err, o.EndErr, o.Events)
	}
	if len(o.Events) > 0 && o.Events[len(o.Events)-1].Kind == fields.End {
		t.Errorf("lone surrogate: the field ended: %v", o.Events)
	}
}

// everySplit feeds data whole, one byte at a time, and cut at every
// offset and every pair of offsets, and checks that each gives want once
// merged, and the invariants of check.
func everySplit(t *testing.T, data string, want []event) {
	t.Helper()
	var splits [][][]byte
	splits = append(splits, chunksOf(data), testutil.SplitEvery([]byte(data), 1))
	for i := 0; i <= len(data); i++ {
		for j := i; j <= len(data); j++ {
			splits = append(splits, chunksOf(data[:i], data[i:j], data[j:]))
		}
	}
	for _, chunks := range splits {
		o := observe(chunks)
		if err := o.check(); err != nil {
			t.Fatalf("%q: %v", chunks, err)
		}
		if o.Err != nil {
			t.Fatalf("%q: %v", chunks, o.Err)
		}
		if diff := cmp.Diff(want, merge(o.Events)); diff != "" {
			t.Fatalf("%q (-want +got):\n%s", chunks, diff)
		}
	}
}

func TestSplits(t *testing.T) {
	for _, c := range []struct {
		name, in string
		want     []event
	}{
		{"keys split and escaped", `{"pa\u0074h": "a", "k\"\\\/\n\u00e9\ud83d\ude00": "b"}`,
			join(str("path", "a"), str("k\"\\/\né😀", "b"))},
		{"escapes split", `{"s": "\\x\n\"\/\b\f\r\t\u00e9\u00E9\u20AC"}`,
			str("s", "\\x\n\"/\b\f\r\t\u00e9\u00e9€")},
		{"surrogate pairs split", `{"s": "\ud83d\ude00x\uD83D\uDE00", "t": "😀é€"}`,
			join(str("s", "😀x😀"), str("t", "😀é€"))},
		{"UTF-8 split", `{"s": "héllo, wörld 😀 €", "😀": "k"}`,
			join(str("s", "héllo, wörld 😀 €"), str("😀", "k"))},
		{"numbers split", `{"a": 12345, "b": -0.5e+10, "c": 0, "d": 1E3}`,
			join(val("a", "12345"), val("b", "-0.5e+10"), val("c", "0"), val("d", "1E3"))},
		{"literals", `{"t": true, "f": false, "n": null}`,
			join(val("t", "true"), val("f", "false"), val("n", "null"))},
		{"empty values", `{"s": "", "a": [], "o": {}, "t": "x"}`,
			join(str("s", ""), val("a", "[]"), val("o", "{}"), str("t", "x"))},
		{"nested values", `{"o": {"a": [1, "x\u00e9\n", {"b": null}], "c": {}, "d": ""}, "arr": [[], [{}], [[1]]]}`,
			join(val("o", `{"a":[1,"xé\n",{"b":null}],"c":{},"d":""}`), val("arr", `[[],[{}],[[1]]]`))},
		{"nested strings quoted as jsontext quotes them", `{"o": ["\u0041\/\u001f\u007f<>&\u2028"]}`,
			val("o", `["A/\u001f`+"\x7f<>&\u2028"+`"]`)},
		{"white space", " \n{ \"a\" :\t[ 1 , { \"b\" : 2 } ] ,\r\n \"c\" : \"d\" } \n",
			join(val("a", `[1,{"b":2}]`), str("c", "d"))},
		{"no fields", ` { } `, nil},
	} {
		t.Run(c.name, func(t *testing.T) { everySplit(t, c.in, c.want) })
	}
}

// Arguments that are not an object fail the stream with ErrNotObject, and
// no event is sent.
func TestNotObject(t *testing.T) {
	for _, c := range []struct{ in, what string }{
		{`[1, 2]`, "an array"},
		{`[{"a": "b"}]`, "an array"},
		{`[]`, "an array"},
		{`"x"`, "a string"},
		{`""`, "a string"},
		{`12`, "a number"},
		{`true`, "a boolean"},
		{`false`, "a boolean"},
		{` null `, "null"},
	} {
		for _, chunks := range [][][]byte{chunksOf(c.in), testutil.SplitEvery([]byte(c.in), 1)} {
			o := observe(chunks)
			if err := o.check(); err != nil {
				t.Error(err)
			}
			if !errors.Is(o.Err, fields.ErrNotObject) || len(o.Events) != 0 ||
				o.Err.Error() != "fields: the arguments are "+c.what+", not an object" {
				t.Errorf("%q: error %v, events %v", chunks, o.Err, o.Events)
			}
		}
	}
	// The error comes with the first fragment, not at the end.
	s := argstream.New(fields.New(func(*fields.Event) error { return nil }))
	if err := s.Feed([]byte(`"a long string, not arguments...`)); !errors.Is(err, fields.ErrNotObject) {
		t.Errorf("a long root string: Feed returned %v", err)
	}
}

// Invalid input never ends a field whose value is not complete, and the
// error reaches OnEnd after the fields before it.
func TestInvalid(t *testing.T) {
	for _, c := range []struct {
		name, in string
		want     []event // merged
	}{
		{"truncated string", `{"path": "a", "content": "fn main`,
			join(str("path", "a"), []event{start("content", false), delta("content", "fn main", false)})},
		{"truncated number", `{"path": "a", "n": 12`, str("path", "a")},
		{"truncated literal", `{"path": "a", "ok": tru`, str("path", "a")},
		// The array of "b" begins in the text with its first fragment: the
		// number 2, which more digits could extend.
		{"truncated object", `{"o": {"a": 1, "b": [2`, []event{start("o", true), delta("o", `{"a":1`, true)}},
		{"truncated after the value", `{"o": {"a": 1}`, val("o", `{"a":1}`)},
		{"duplicate key", `{"path": "a", "path": "b"}`, str("path", "a")},
		{"case-folded key", `{"path": "a", "PATH": "b"}`, str("path", "a")},
		{"lone surrogate", `{"s": "ab\udc00"}`, []event{start("s", false), delta("s", "ab", false)}},
		{"bad escape", `{"s": "a\x"}`, []event{start("s", false), delta("s", "a", false)}},
		{"invalid UTF-8", "{\"s\": \"a\xff\"}", []event{start("s", false), delta("s", "a", false)}},
		{"control character", "{\"s\": \"a\nb\"}", []event{start("s", false), delta("s", "a", false)}},
		// A number ends at the byte that cannot extend it: 0 is complete
		// before the 1 that makes the arguments invalid.
		{"bad number", `{"n": 01}`, val("n", "0")},
		{"bad number at once", `{"n": -}`, nil},
		{"trailing data", `{"a": 1} x`, val("a", "1")},
		{"empty input", ``, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			var first []event
			for i, chunks := range [][][]byte{chunksOf(c.in), testutil.SplitEvery([]byte(c.in), 1), testutil.SplitEvery([]byte(c.in), 3)} {
				o := observe(chunks)
				if err := o.check(); err != nil {
					t.Fatal(err)
				}
				got := merge(o.Events)
				if i == 0 {
					first = got
				}
				if o.Err == nil || !cmp.Equal(got, first) {
					t.Errorf("%q: error %v, events %v; whole: %v", chunks, o.Err, got, first)
				}
				// Cut mid-string, the text may stop short of what the whole
				// gives; nothing else differs.
				if n := len(got); n > 0 && n == len(c.want) && got[n-1].Kind == fields.Delta &&
					strings.HasPrefix(c.want[n-1].Text, got[n-1].Text) {
					got[n-1].Text = c.want[n-1].Text
				}
				if diff := cmp.Diff(c.want, got); diff != "" {
					t.Errorf("%q (-want +got):\n%s", chunks, diff)
				}
			}
		})
	}
}

// An error from the callback stops the stream: Feed returns it, OnEnd gets
// it, and no more events come.
func TestCallbackStops(t *testing.T) {
	var got []string
	var ended error
	f := fields.New(func(e *fields.Event) error {
		got = append(got, e.Kind.String()+" "+string(e.Key))
		if e.Kind == fields.Start && string(e.Key) == "content" {
			return fmt.Errorf("not showing content: %w", sink.ErrStop)
		}
		return nil
	}, fields.OnEnd(func(err error) { ended = err }))
	s := argstream.New(f)
	err := s.Feed([]byte(`{"path": "a", "content": "b", "more": 1}`))
	want := []string{"start path", "delta path", "end path", "start content"}
	if !errors.Is(err, sink.ErrStop) || ended != err || !cmp.Equal(got, want) {
		t.Errorf("Feed %v, OnEnd %v, events %q", err, ended, got)
	}
	// Push goes on failing with it.
	p := &fragment.Progress{Fragment: fragment.Fragment{Path: fragment.Path{fragment.KeySegment("x")}, Kind: fragment.Null}}
	if err := f.Push(p); err == nil || !errors.Is(err, sink.ErrStop) {
		t.Errorf("Push after the error: %v", err)
	}
}

// Every event carries its call's identity, and a Sink and a Stream reset
// for the next call give it what new ones give.
func TestResetAndCall(t *testing.T) {
	var got []string
	var ends []error
	f := fields.New(func(e *fields.Event) error {
		got = append(got, fmt.Sprintf("%s/%d %v %s %q", e.Call.ID, e.Call.Index, e.Kind, e.Key, e.Text))
		return nil
	}, fields.OnEnd(func(err error) { ends = append(ends, err) }))
	s := argstream.New(f, argstream.WithCall(fragment.Call{ID: "a", Name: "write", Index: 0}))
	s.Feed([]byte(`{"path": "x", "content": "abandoned half-wa`))
	s.Reset(fragment.Call{ID: "b", Name: "write", Index: 1})
	f.Reset()
	if err := testutil.Feed(s, chunksOf(`{"n": [1`, `]}`)); err != nil {
		t.Fatal(err)
	}
	// A failed call, then one more.
	s.Reset(fragment.Call{ID: "c", Index: 2})
	f.Reset()
	s.Feed([]byte(`[1]`))
	s.Reset(fragment.Call{ID: "d", Index: 3})
	f.Reset()
	if err := testutil.Feed(s, chunksOf(`{"s": "é"}`)); err != nil {
		t.Fatal(err)
	}
	want := []string{
		`a/0 start path ""`, `a/0 delta path "x"`, `a/0 end path ""`,
		`a/0 start content ""`, `a/0 delta content "abandoned half-wa"`,
		`b/1 start n ""`, `b/1 delta n "[1"`, `b/1 delta n "]"`, `b/1 end n ""`,
		`d/3 start s ""`, `d/3 delta s "é"`, `d/3 end s ""`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if len(ends) != 3 || ends[0] != nil || !errors.Is(ends[1], fields.ErrNotObject) || ends[2] != nil {
		t.Errorf("OnEnd: %v", ends)
	}
}

// Fragments out of protocol order, which only hand-made fragments can be,
// are an error, and so is a stream that ends before the arguments' Done.
func TestProtocolErrors(t *testing.T) {
	key := func(k string) fragment.Segment { return fragment.KeySegment(k) }
	idx := fragment.IndexSegment
	frag := func(kind fragment.Kind, text string, path ...fragment.Segment) fragment.Fragment {
		f := fragment.Fragment{Path: path, Kind: kind}
		if text != "" {
			f.Text = []byte(text)
		}
		return f
	}
	done := func(path ...fragment.Segment) fragment.Fragment { return frag(fragment.Done, "", path...) }
	for _, c := range []struct {
		name  string
		frags []fragment.Fragment
	}{
		{"Done of a value not begun", []fragment.Fragment{done(key("a"))}},
		{"index skipped", []fragment.Fragment{frag(fragment.Null, "null", key("a"), idx(1))}},
		{"index skipped in an open array", []fragment.Fragment{frag(fragment.Null, "null", key("a"), idx(0)), done(key("a"), idx(0)),
			frag(fragment.Null, "null", key("a"), idx(2))}},
		{"member before the open one's Done", []fragment.Fragment{frag(fragment.Null, "null", key("a"), idx(0)),
			frag(fragment.Null, "null", key("a"), idx(1))}},
		{"array Done with a member open", []fragment.Fragment{frag(fragment.Null, "null", key("a"), idx(0)), done(key("a"))}},
		{"a scalar after a scalar", []fragment.Fragment{frag(fragment.Null, "null", key("a")), frag(fragment.True, "true", key("a"))}},
		{"inside a string", []fragment.Fragment{frag(fragment.String, "x", key("a")), frag(fragment.Null, "null", key("a"), key("b"))}},
		{"a key where an index was", []fragment.Fragment{frag(fragment.Null, "null", key("a"), idx(0)), done(key("a"), idx(0)),
			frag(fragment.Null, "null", key("a"), key("b"))}},
		{"a shallower value while one is open", []fragment.Fragment{frag(fragment.Null, "null", key("a"), key("b")),
			frag(fragment.Null, "null", key("a"))}},
		{"the root's Done with a field open", []fragment.Fragment{frag(fragment.String, "x", key("a")), done()}},
		{"after the root's Done", []fragment.Fragment{{Kind: fragment.Done, Empty: fragment.EmptyObject}, frag(fragment.Null, "null", key("a"))}},
		{"unknown kind", []fragment.Fragment{frag(fragment.Kind(99), "", key("a"))}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var ended error
			f := fields.New(func(*fields.Event) error { return nil }, fields.OnEnd(func(err error) { ended = err }))
			var err error
			for i := range c.frags {
				if err = f.Push(&fragment.Progress{Fragment: c.frags[i]}); err != nil {
					break
				}
			}
			if err == nil || !strings.HasPrefix(err.Error(), "fields: ") || errors.Is(err, fields.ErrNotObject) {
				t.Errorf("error %v", err)
			}
			f.End(nil)
			if ended != err {
				t.Errorf("OnEnd got %v, Push returned %v", ended, err)
			}
		})
	}
	// A stream that ends before the arguments' Done is not complete.
	var ended error
	f := fields.New(func(*fields.Event) error { return nil }, fields.OnEnd(func(err error) { ended = err }))
	f.Push(&fragment.Progress{Fragment: frag(fragment.Null, "null", key("a"))})
	f.End(nil)
	if ended == nil {
		t.Error("OnEnd(nil) before the root's Done")
	}
	// Nor does a stream with nothing.
	f.Reset()
	f.End(nil)
	if ended == nil {
		t.Error("OnEnd(nil) with no fragment")
	}
}

func TestKindString(t *testing.T) {
	for k, want := range map[fields.Kind]string{fields.Start: "start", fields.Delta: "delta", fields.End: "end", 0: "Kind(invalid)", 9: "Kind(invalid)"} {
		if got := k.String(); got != want {
			t.Errorf("Kind(%d) = %q, want %q", k, got, want)
		}
	}
}

// A reused Stream and Sink allocate nothing, however many fragments; a new
// Sink allocates the same for 10 times as many fragments.
func TestAllocs(t *testing.T) {
	doc := func(n int) []byte {
		return []byte(`{"path": "src/a.rs", "patterns": [` +
			strings.Repeat(`{"old": "lo\u006eg\n", "new": "x\"y", "n": [1, 2.5, true, null, {}, []]},`, n) +
			`{}], "content": "` + strings.Repeat(`fn main() {\n\tprintln!(\"héllo 😀\");\n}\n`, n) + `"}`)
	}
	chunks := testutil.SplitEvery(doc(40), 7)
	events := 0
	f := fields.New(func(*fields.Event) error { events++; return nil })
	s := argstream.New(f)
	call := func() {
		s.Reset(fragment.Call{ID: "x"})
		f.Reset()
		if err := testutil.Feed(s, chunks); err != nil {
			t.Fatal(err)
		}
	}
	call()
	t.Logf("%d events for %d chunks", events, len(chunks))
	if n := testing.AllocsPerRun(20, call); n != 0 {
		t.Errorf("%v allocations per reused call of %d chunks, want 0", n, len(chunks))
	}
	// A new Sink, less what the new Stream allocates itself.
	allocs := func(n int) float64 {
		chunks := testutil.SplitEvery(doc(n), 7)
		ignore := sink.PushFunc(func(*fragment.Progress) error { return nil })
		alone := testing.AllocsPerRun(20, func() { testutil.Feed(argstream.New(ignore), chunks) })
		with := testing.AllocsPerRun(20, func() {
			testutil.Feed(argstream.New(fields.New(func(*fields.Event) error { return nil })), chunks)
		})
		return with - alone
	}
	if short, long := allocs(10), allocs(100); short != long || short > 8 {
		t.Errorf("a new Sink: %v allocations for a call, %v for 10 times as many fragments", short, long)
	}
}
