package aggregate_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/aggregate"
	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/internal/testutil"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
)

// completions streams in, cut at every byte, and returns what OnValue saw:
// pointer and value of each completed value, in order.
func completions(t *testing.T, in string) (got []string, final string) {
	t.Helper()
	agg := aggregate.New(aggregate.OnValue(func(p fragment.Path, v jsontext.Value) error {
		got = append(got, string(p.Pointer())+" "+string(v))
		return nil
	}))
	if err := testutil.Feed(argstream.New(agg), testutil.SplitEvery([]byte(in), 1)); err != nil {
		t.Fatalf("%s: %v", in, err)
	}
	v, err := agg.Value()
	if err != nil {
		t.Fatal(err)
	}
	return got, string(v)
}

func TestValuesAtEveryDepth(t *testing.T) {
	in := `{"path": "a\/b", "n": [1.50, -0, 2E+3, {"deep": [[], {}, ""]}], "ok": true, "x": null, "e": {}}`
	got, final := completions(t, in)
	// Each completed value is the whole-document decode of that value,
	// written compactly; numbers keep their text.
	want := []string{
		`/path "a/b"`,
		`/n/0 1.50`,
		`/n/1 -0`,
		`/n/2 2E+3`,
		`/n/3/deep/0 []`,
		`/n/3/deep/1 {}`,
		`/n/3/deep/2 ""`,
		`/n/3/deep [[],{},""]`,
		`/n/3 {"deep":[[],{},""]}`,
		`/n [1.50,-0,2E+3,{"deep":[[],{},""]}]`,
		`/ok true`,
		`/x null`,
		`/e {}`,
		` {"path":"a/b","n":[1.50,-0,2E+3,{"deep":[[],{},""]}],"ok":true,"x":null,"e":{}}`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("completions (-want +got):\n%s", diff)
	}
	canon, _ := testutil.Canonical([]byte(in))
	if final != string(canon) {
		t.Errorf("Value = %s, want %s", final, canon)
	}
}

func TestQuotingMatchesJSONText(t *testing.T) {
	for _, s := range []string{
		"plain", "tab\there", "nl\n", `quote " and \ backslash`, "\x00\x1f\x7f", "<>&", "\u2028\u2029",
		"é ü 中文 😀", "\ufffd", strings.Repeat("long run with an escape\n", 50),
	} {
		in, _ := jsontext.AppendQuote(nil, s)
		// A raw string in the input, escaped the hard way: every rune as \u.
		var esc strings.Builder
		esc.WriteByte('"')
		for _, r := range s {
			if r > 0xffff {
				hi, lo := 0xd800+((r-0x10000)>>10), 0xdc00+((r-0x10000)&0x3ff)
				esc.WriteString(`\u` + hex4(hi) + `\u` + hex4(lo))
			} else {
				esc.WriteString(`\u` + hex4(r))
			}
		}
		esc.WriteByte('"')
		for _, src := range []string{string(in), esc.String()} {
			_, got := completions(t, src)
			if got != string(in) {
				t.Errorf("%q: aggregate = %s, want jsontext's %s", src, got, in)
			}
		}
	}
}

func hex4(r rune) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[r>>12&15], digits[r>>8&15], digits[r>>4&15], digits[r&15]})
}

func TestValueStates(t *testing.T) {
	agg := aggregate.New()
	s := argstream.New(agg)
	s.Feed([]byte(`{"a":[1`))
	if _, err := agg.Value(); !errors.Is(err, aggregate.ErrIncomplete) {
		t.Errorf("Value mid-stream = %v, want ErrIncomplete", err)
	}
	s.Feed([]byte(`,}`))
	if _, err := agg.Value(); err == nil || errors.Is(err, aggregate.ErrIncomplete) {
		t.Errorf("Value after bad input = %v, want the stream's error", err)
	}

	// Reset makes it ready for another call.
	agg.Reset()
	if err := testutil.Feed(argstream.New(agg), [][]byte{[]byte(`[true]`)}); err != nil {
		t.Fatal(err)
	}
	if v, err := agg.Value(); err != nil || string(v) != `[true]` {
		t.Errorf("after Reset: %s, %v", v, err)
	}
}

func TestAddOutOfOrder(t *testing.T) {
	agg := aggregate.New()
	done := fragment.Fragment{Kind: fragment.Done}
	if v, err := agg.Add(&fragment.Fragment{Kind: fragment.Number, Text: []byte("7")}); v != nil || err != nil {
		t.Fatalf("Add scalar = %s, %v", v, err)
	}
	if v, err := agg.Add(&done); err != nil || string(v) != "7" {
		t.Fatalf("Add Done = %s, %v", v, err)
	}
	// Anything after the root's Done is out of order.
	if _, err := agg.Add(&fragment.Fragment{Kind: fragment.Null}); err == nil {
		t.Error("fragment after the root's Done accepted")
	}
	agg.Reset()
	// A Done at a path that never started.
	if _, err := agg.Add(&fragment.Fragment{Path: fragment.Path{fragment.IndexSegment(0)}, Kind: fragment.Done}); err == nil {
		t.Error("Done of a value that never started accepted")
	}
}

func TestOnValueErrorStops(t *testing.T) {
	stop := errors.New("seen enough")
	agg := aggregate.New(aggregate.OnValue(func(p fragment.Path, v jsontext.Value) error {
		if p.Pointer() == "/path" {
			return stop
		}
		return nil
	}))
	s := argstream.New(agg)
	if err := s.Feed([]byte(`{"path":"x","more":1}`)); !errors.Is(err, stop) {
		t.Errorf("Feed = %v, want the OnValue error", err)
	}
}

func TestAddEscaped(t *testing.T) {
	// A String piece with Escaped set is copied as is; without, its Text
	// is escaped. Escaped here deliberately differs from what escaping
	// Text gives, to tell the two apart.
	agg := aggregate.New()
	for _, f := range []fragment.Fragment{
		{Kind: fragment.String, Text: []byte("a\n"), Escaped: []byte(`A\n`)},
		{Kind: fragment.String, Text: []byte("b\n")},
		{Kind: fragment.Done},
	} {
		if _, err := agg.Add(&f); err != nil {
			t.Fatal(err)
		}
	}
	if v, err := agg.Value(); err != nil || string(v) != `"A\nb\n"` {
		t.Errorf("Value = %s, %v; want %s", v, err, `"A\nb\n"`)
	}
}

// TestAddKeySlices checks the key check with fragments built by hand: a
// key in another slice is compared byte by byte, whatever its length, so
// a member's fragments may come with copies of its key, and another key of
// the same length is still out of order before the open member's Done.
func TestAddKeySlices(t *testing.T) {
	for _, n := range []int{0, 1, 1000} {
		key := strings.Repeat("k", n)
		other := strings.Repeat("k", max(n-1, 0)) + "x"
		at := func(k string, i int) fragment.Path { // a new slice each time
			return fragment.Path{fragment.KeySegment(k), fragment.IndexSegment(i)}
		}
		agg := aggregate.New()
		for i, f := range []fragment.Fragment{
			{Path: at(key, 0), Kind: fragment.Number, Text: []byte("1")},
			{Path: at(key, 0), Kind: fragment.Done},
			{Path: at(key, 1), Kind: fragment.String, Text: []byte("a")},
			{Path: at(key, 1), Kind: fragment.String, Text: []byte("b")},
		} {
			if _, err := agg.Add(&f); err != nil {
				t.Fatalf("key of %d bytes, fragment %d: %v", n, i, err)
			}
		}
		if n > 0 {
			f := fragment.Fragment{Path: at(other, 1), Kind: fragment.String, Text: []byte("c")}
			if _, err := agg.Add(&f); err == nil {
				t.Errorf("key of %d bytes: a fragment at another key of the same length accepted while the member is open", n)
			}
			continue
		}
		for _, f := range []fragment.Fragment{
			{Path: at(key, 1), Kind: fragment.Done},
			{Path: fragment.Path{fragment.KeySegment(key)}, Kind: fragment.Done},
			{Kind: fragment.Done},
		} {
			if _, err := agg.Add(&f); err != nil {
				t.Fatal(err)
			}
		}
		if v, err := agg.Value(); err != nil || string(v) != `{"":[1,"ab"]}` {
			t.Errorf("Value = %s, %v", v, err)
		}
	}
}
