package textargs

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/argstream/argstream/internal/lifecycle"
	"github.com/argstream/argstream/schema"
	"github.com/argstream/argstream/token"
)

// recorder writes each event as a short line: the kind, then its data.
type recorder struct{ events []string }

func (r *recorder) Handle(e token.Event) error {
	s := e.Kind.String()
	if e.Data != nil {
		s += " " + string(e.Data)
	}
	r.events = append(r.events, fmt.Sprintf("%s @%d", s, e.Offset))
	return nil
}

const tools = `[{"name": "t", "input_schema": {"properties": {
	"s": {"type": "string"}, "n": {"type": "number"}, "i": {"type": "integer"},
	"b": {"type": "boolean"}, "z": {"type": "null"}, "o": {"type": "object"},
	"paths": {"type": "array", "items": {"type": "integer"}}, "u": {"type": ["integer", "null"]}}}}]`

func newArgs(t *testing.T, repeat, jsonArrays bool) (*Args, *recorder) {
	t.Helper()
	ts, err := schema.Parse([]byte(tools))
	if err != nil {
		t.Fatal(err)
	}
	var lc lifecycle.Base
	r := &recorder{}
	lc.Init(r, "test")
	a := &Args{}
	a.Init(&lc, ts, repeat, jsonArrays)
	if err := a.Begin([]byte("t"), 1); err != nil {
		t.Fatal(err)
	}
	return a, r
}

// value gives parameter name the text pieces, and ends it.
func value(a *Args, name string, pieces ...string) error {
	if err := a.Value([]byte(name), 10, 12); err != nil {
		return err
	}
	at := int64(12)
	for _, p := range pieces {
		at += int64(len(p))
		if err := a.Text([]byte(p), at); err != nil {
			return err
		}
	}
	return a.EndText(at)
}

func TestTyped(t *testing.T) {
	for _, tc := range []struct {
		name   string
		pieces []string
		want   []string
	}{
		{"s", []string{" 4", "2 "}, []string{"Key s @12", "BeginString @12", "StringData  4 @14", "StringData 2  @16", "EndString @16"}},
		{"n", []string{" -4", "2.5e1\n"}, []string{"Key n @12", "Number -42.5e1 @21"}},
		{"i", []string{"17"}, []string{"Key i @12", "Number 17 @14"}},
		{"b", []string{"tr", "ue"}, []string{"Key b @12", "True @16"}},
		{"b", []string{"false"}, []string{"Key b @12", "False @17"}},
		{"z", []string{"null"}, []string{"Key z @12", "Null @16"}},
		{"u", []string{"null"}, []string{"Key u @12", "Null @16"}},
		{"u", []string{"7"}, []string{"Key u @12", "Number 7 @13"}},
		{"o", []string{`{"a"`, `: [1]}`}, []string{"Key o @12", "BeginObject @13", "Key a @16", "BeginArray @19", "Number 1 @21", "EndArray @21", "EndObject @22"}},
		{"paths", []string{"7"}, []string{"Key paths @12", "BeginArray @12", "Number 7 @13", "EndArray @13"}},
	} {
		a, r := newArgs(t, false, false)
		if err := value(a, tc.name, tc.pieces...); err != nil {
			t.Errorf("%s %q: %v", tc.name, tc.pieces, err)
			continue
		}
		if diff := cmp.Diff(tc.want, r.events[1:]); diff != "" {
			t.Errorf("%s %q: events (-want +got):\n%s", tc.name, tc.pieces, diff)
		}
	}
}

func TestTypeErrors(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       error
		ptr        string
	}{
		{"n", "4x", token.ErrSchema, "/n"},
		{"n", "", token.ErrSchema, "/n"},
		{"i", "3.0", token.ErrSchema, "/i"},
		{"i", "1e3", token.ErrSchema, "/i"},
		{"b", "True", token.ErrSchema, "/b"},
		{"z", "nil", token.ErrSchema, "/z"},
		{"o", `{"a":}`, token.ErrSyntax, "/o/a"},
		{"paths", "x", token.ErrSchema, "/paths/0"},
		{"path", "x", token.ErrSchema, "/path"}, // not declared: the schema has paths
		{"s", "\xff", token.ErrInvalidUTF8, "/s"},
	} {
		a, _ := newArgs(t, false, false)
		err := value(a, tc.name, tc.text)
		var se *token.SyntaxError
		if !errors.Is(err, tc.want) || !errors.As(err, &se) || string(se.Pointer) != tc.ptr {
			t.Errorf("%s %q: %v, want %v at %s", tc.name, tc.text, err, tc.want, tc.ptr)
		}
		if tc.name == "path" && !strings.Contains(err.Error(), `"paths"`) {
			t.Errorf("the error for path does not name paths: %v", err)
		}
	}
}

// A rune split across pieces is reported whole; one cut short by the end
// of the value is invalid UTF-8.
func TestSplitRune(t *testing.T) {
	a, r := newArgs(t, false, false)
	if err := value(a, "s", "a\xc3", "\xa9b\xe2\x82", "\xac"); err != nil {
		t.Fatal(err)
	}
	want := []string{"Key s @12", "BeginString @12", "StringData a @13", "StringData é @15", "StringData b @16", "StringData € @19", "EndString @19"}
	if diff := cmp.Diff(want, r.events[1:]); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	a, _ = newArgs(t, false, false)
	err := value(a, "s", "a\xe2\x82")
	if se, ok := err.(*token.SyntaxError); !ok || !errors.Is(err, token.ErrInvalidUTF8) || se.Offset != 13 {
		t.Errorf("a rune cut short: %v, want invalid UTF-8 at 13", err)
	}
	// A sequence that turns out invalid is an error where it began, however
	// it is cut, and the text before it goes out first.
	for _, pieces := range [][]string{{"ab\xf0^x"}, {"ab\xf0", "^x"}, {"ab", "\xf0", "^", "x"}} {
		a, r := newArgs(t, false, false)
		err := value(a, "s", pieces...)
		if se, ok := err.(*token.SyntaxError); !ok || !errors.Is(err, token.ErrInvalidUTF8) || se.Offset != 14 {
			t.Errorf("%q: %v, want invalid UTF-8 at 14", pieces, err)
		}
		if got := r.events[len(r.events)-1]; got != "StringData ab @14" {
			t.Errorf("%q: last event %s, want the text before the bad byte", pieces, got)
		}
	}
}

// With repeat, values of an array parameter in a row are its elements; a
// parameter repeated otherwise is a duplicate key.
func TestRepeat(t *testing.T) {
	a, r := newArgs(t, true, false)
	for _, v := range []string{"1", "2"} {
		if err := value(a, "paths", v); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.End(30); err != nil {
		t.Fatal(err)
	}
	want := []string{"Key paths @12", "BeginArray @12", "Number 1 @13", "Number 2 @13", "EndArray @30", "EndObject @30"}
	if diff := cmp.Diff(want, r.events[1:]); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	a, _ = newArgs(t, true, false)
	if err := value(a, "s", "x"); err != nil {
		t.Fatal(err)
	}
	if err := value(a, "s", "y"); !errors.Is(err, token.ErrDuplicateKey) {
		t.Errorf("a string repeated: %v", err)
	}
	a, _ = newArgs(t, false, false) // caret: arrays are lists, repeats duplicates
	value(a, "paths", "1")
	if err := value(a, "paths", "2"); !errors.Is(err, token.ErrDuplicateKey) {
		t.Errorf("an array repeated without repeat: %v", err)
	}
}

// A list is an array; a list for a parameter declared otherwise is an error.
func TestList(t *testing.T) {
	a, r := newArgs(t, false, false)
	if err := a.List([]byte("paths"), 2, 5); err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"1", "2"} {
		a.Element(6)
		a.Text([]byte(v), 7)
		if err := a.EndText(7); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.EndList(9); err != nil {
		t.Fatal(err)
	}
	want := []string{"Key paths @5", "BeginArray @5", "Number 1 @7", "Number 2 @7", "EndArray @9"}
	if diff := cmp.Diff(want, r.events[1:]); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	a, _ = newArgs(t, false, false)
	if err := a.List([]byte("s"), 2, 5); !errors.Is(err, token.ErrSchema) {
		t.Errorf("a list for a string: %v", err)
	}
}

// JSON arrays: an array parameter's value is JSON text.
func TestJSONArrays(t *testing.T) {
	a, r := newArgs(t, false, true)
	if err := value(a, "paths", "[1, 2]"); err != nil {
		t.Fatal(err)
	}
	want := []string{"Key paths @12", "BeginArray @13", "Number 1 @15", "Number 2 @18", "EndArray @18"}
	if diff := cmp.Diff(want, r.events[1:]); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}

func TestLines(t *testing.T) {
	var l Lines
	l.Count([]byte("ab\ncd\nef"), 0)
	l.Mark(7)
	l.Newline(9)
	err := l.Locate(&token.SyntaxError{Offset: 11})
	if se := err.(*token.SyntaxError); se.Line != 4 || se.Column != 3 {
		t.Errorf("offset 11: line %d column %d, want 4 3", se.Line, se.Column)
	}
	err = l.Locate(&token.SyntaxError{Offset: 7})
	if se := err.(*token.SyntaxError); se.Line != 3 || se.Column != 2 {
		t.Errorf("the mark: line %d column %d, want 3 2", se.Line, se.Column)
	}
	err = l.Locate(&token.SyntaxError{Offset: 6})
	if se := err.(*token.SyntaxError); se.Line != 3 || se.Column != 1 {
		t.Errorf("the line before: line %d column %d, want 3 1", se.Line, se.Column)
	}
	err = l.Locate(&token.SyntaxError{Offset: 1})
	if se := err.(*token.SyntaxError); se.Line != 0 {
		t.Errorf("an earlier line is not known, got line %d", se.Line)
	}
	l.Reset()
	l.Count([]byte("a\nb\nc\nd"), 10) // lines begin at 10, 12, 14, 16
	err = l.Locate(&token.SyntaxError{Offset: 15})
	if se := err.(*token.SyntaxError); se.Line != 3 || se.Column != 2 {
		t.Errorf("after Count, the line before: line %d column %d, want 3 2", se.Line, se.Column)
	}
}

// A value written as JSON must be of its parameter's type, checked on its
// first event; one written as text is Value's.
func TestForms(t *testing.T) {
	for _, tc := range []struct {
		form       Form
		name, text string
		want       []string // events after the Key, or nil for an error
		err        error
	}{
		{Text, "n", " 4 ", []string{"Number 4 @15"}, nil},
		{JSONText, "s", `"x"`, []string{"BeginString @13", "StringData x @14", "EndString @15"}, nil},
		{JSONText, "s", `null`, []string{"Null @16"}, nil},
		{JSONText, "s", `4`, []string{"Number 4 @13"}, nil}, // String: no check (see Form)
		{JSONText, "n", ` 4.5 `, []string{"Number 4.5 @17"}, nil},
		{JSONText, "i", `4`, []string{"Number 4 @13"}, nil},
		{JSONText, "i", `4e0`, nil, token.ErrSchema},
		{JSONText, "b", `false`, []string{"False @17"}, nil},
		{JSONText, "b", `"false"`, nil, token.ErrSchema},
		{JSONText, "z", `null`, []string{"Null @16"}, nil},
		{JSONText, "z", `0`, nil, token.ErrSchema},
		{JSONText, "paths", `[7]`, []string{"BeginArray @13", "Number 7 @15", "EndArray @15"}, nil},
		{JSONText, "paths", `{}`, nil, token.ErrSchema},
		{JSONText, "o", `[1]`, []string{"BeginArray @13", "Number 1 @15", "EndArray @15"}, nil}, // JSON: any value
		{JSONText, "u", `"x"`, []string{"BeginString @13", "StringData x @14", "EndString @15"}, nil},
		{JSONText, "n", `x`, nil, token.ErrSyntax},
	} {
		a, r := newArgs(t, false, true)
		err := a.ValueOf(tc.form, []byte(tc.name), 10, 12)
		if err == nil {
			if err = a.Text([]byte(tc.text), 12+int64(len(tc.text))); err == nil {
				err = a.EndText(12 + int64(len(tc.text)))
			}
		}
		if tc.err != nil {
			var se *token.SyntaxError
			if !errors.Is(err, tc.err) || !errors.As(err, &se) || string(se.Pointer) != "/"+tc.name {
				t.Errorf("%d %s %q: %v, want %v at /%s", tc.form, tc.name, tc.text, err, tc.err, tc.name)
			}
			continue
		}
		if err != nil {
			t.Errorf("%d %s %q: %v", tc.form, tc.name, tc.text, err)
			continue
		}
		if diff := cmp.Diff(tc.want, r.events[2:]); diff != "" {
			t.Errorf("%d %s %q: events (-want +got):\n%s", tc.form, tc.name, tc.text, diff)
		}
	}
}
