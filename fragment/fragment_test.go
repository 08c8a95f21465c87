package fragment_test

import (
	"strings"
	"testing"

	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/token/jsontoken"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
)

// translate runs in through the JSON tokenizer and a Translator.
func translate(t *testing.T, chunks ...string) *testutil.Recorder {
	t.Helper()
	rec := &testutil.Recorder{}
	tok := jsontoken.New(fragment.NewTranslator(rec, nil))
	for _, c := range chunks {
		if err := tok.Feed([]byte(c)); err != nil {
			t.Fatalf("Feed(%q): %v", c, err)
		}
	}
	if err := tok.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	return rec
}

func TestTranslate(t *testing.T) {
	tests := []struct {
		chunks []string
		want   []string
	}{
		{[]string{`{"a":{"b":[1,{"c":"x"}]},"d":[]}`}, []string{
			`ObjectEntry { key: "a", value: ObjectEntry { key: "b", value: ArrayItem { index: 0, value: Scalar(Number(1)) } } }`,
			`ObjectEntry { key: "a", value: ObjectEntry { key: "b", value: ArrayItem { index: 0, value: Done } } }`,
			`ObjectEntry { key: "a", value: ObjectEntry { key: "b", value: ArrayItem { index: 1, value: ObjectEntry { key: "c", value: String("x") } } } }`,
			`ObjectEntry { key: "a", value: ObjectEntry { key: "b", value: ArrayItem { index: 1, value: ObjectEntry { key: "c", value: Done } } } }`,
			`ObjectEntry { key: "a", value: ObjectEntry { key: "b", value: ArrayItem { index: 1, value: Done } } }`,
			`ObjectEntry { key: "a", value: ObjectEntry { key: "b", value: Done } }`,
			`ObjectEntry { key: "a", value: Done }`,
			`ObjectEntry { key: "d", value: Done([]) }`,
			`Done`,
		}},
		{[]string{`["", {}, [], [[]], null, false]`}, []string{
			`ArrayItem { index: 0, value: Done("") }`,
			`ArrayItem { index: 1, value: Done({}) }`,
			`ArrayItem { index: 2, value: Done([]) }`,
			`ArrayItem { index: 3, value: ArrayItem { index: 0, value: Done([]) } }`,
			`ArrayItem { index: 3, value: Done }`,
			`ArrayItem { index: 4, value: Scalar(Null) }`,
			`ArrayItem { index: 4, value: Done }`,
			`ArrayItem { index: 5, value: Scalar(Bool(false)) }`,
			`ArrayItem { index: 5, value: Done }`,
			`Done`,
		}},
		{[]string{`"ab`, `c\n"`}, []string{`String("ab")`, `String("c\n")`, `Done`}},
		{[]string{`{}`}, []string{`Done({})`}},
		{[]string{`7`}, []string{`Scalar(Number(7))`, `Done`}},
		{[]string{`{"k`, `ey":"v\u00`, `e9"}`}, []string{
			`ObjectEntry { key: "key", value: String("v") }`,
			`ObjectEntry { key: "key", value: String("é") }`,
			`ObjectEntry { key: "key", value: Done }`,
			`Done`,
		}},
	}
	for _, tt := range tests {
		got := testutil.Texts(translate(t, tt.chunks...).Fragments)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%q (-want +got):\n%s", tt.chunks, diff)
		}
	}
}

// TestKeysSurviveGrowth checks paths stay right when many long keys make the
// translator move its key storage.
func TestKeysSurviveGrowth(t *testing.T) {
	in := `{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa":{"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb":{"ccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc":1}}}`
	rec := translate(t, in)
	want, err := testutil.ReferenceFragments([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(testutil.Texts(want), testutil.Texts(testutil.Merge(rec.Fragments))); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestJSONLines(t *testing.T) {
	rec := translate(t, `{"patterns":[{"old":"lo`, `ng"}],"n":2.5e3,"ok":true,"x":null,"e":["",[],{}],"q":"\"\u00e9\n"}`)
	want := []string{
		`{"path":["patterns",0,"old"],"string":"lo"}`,
		`{"path":["patterns",0,"old"],"string":"ng"}`,
		`{"path":["patterns",0,"old"],"done":true}`,
		`{"path":["patterns",0],"done":true}`,
		`{"path":["patterns"],"done":true}`,
		`{"path":["n"],"number":"2.5e3"}`,
		`{"path":["n"],"done":true}`,
		`{"path":["ok"],"bool":true}`,
		`{"path":["ok"],"done":true}`,
		`{"path":["x"],"null":true}`,
		`{"path":["x"],"done":true}`,
		`{"path":["e",0],"done":true,"empty":""}`,
		`{"path":["e",1],"done":true,"empty":[]}`,
		`{"path":["e",2],"done":true,"empty":{}}`,
		`{"path":["e"],"done":true}`,
		`{"path":["q"],"string":"\"é\n"}`,
		`{"path":["q"],"done":true}`,
		`{"path":[],"done":true}`,
	}
	var got []string
	for _, f := range rec.Fragments {
		b, err := f.AppendJSON(nil)
		if err != nil || !jsontext.Value(b).IsValid() {
			t.Fatalf("AppendJSON(%v) = %s, %v", f.String(), b, err)
		}
		got = append(got, string(b))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestPath(t *testing.T) {
	p := fragment.Path{fragment.KeySegment("a/b~c"), fragment.IndexSegment(3), fragment.KeySegment("")}
	if got, want := p.String(), "/a~1b~0c/3/"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if got := p.Pointer(); !got.IsValid() {
		t.Errorf("Pointer() = %q is not a valid pointer", got)
	}
	q := p.Clone()
	q[0].Key[0] = 'z'
	if p[0].Key[0] != 'a' || !p[:1].Equal(fragment.Path{fragment.KeySegment("a/b~c")}) {
		t.Errorf("Clone shares memory with the original")
	}
	if !p.HasPrefix(p[:2]) || p[:2].HasPrefix(p) || !p.HasPrefix(nil) || p.HasPrefix(q) {
		t.Errorf("HasPrefix is wrong")
	}
}

// TestNoAllocs checks the translator allocates nothing per fragment in
// steady state.
func TestNoAllocs(t *testing.T) {
	doc := []byte(`{"path":"src/lib.rs","patterns":[{"old":"a\nb","new":"x","paths":["a","b"],"n":-1.5e3,"ok":true,"z":null,"e":{}}]}`)
	n := 0
	tr := fragment.NewTranslator(pushFunc(func(p *fragment.Progress) error { n++; return nil }), &fragment.Call{ID: "c"})
	tok := jsontoken.New(tr)
	call := &fragment.Call{ID: "d"}
	run := func() {
		tok.Reset(tr)
		tr.Reset(call)
		for i := 0; i < len(doc); i += 7 {
			if err := tok.Feed(doc[i:min(i+7, len(doc))]); err != nil {
				t.Fatal(err)
			}
		}
		if err := tok.Close(); err != nil {
			t.Fatal(err)
		}
	}
	run()
	allocs := testing.AllocsPerRun(20, run)
	if allocs != 0 {
		t.Errorf("%v allocations per document of %d fragments", allocs, n/21)
	}
}

type pushFunc func(p *fragment.Progress) error

func (f pushFunc) Push(p *fragment.Progress) error { return f(p) }

// TestKeysStayWhileOpen checks the promise sinks rely on (see Path): every
// key slice a fragment carries keeps its bytes until the Done of the member
// it names, though the Translator writes the next key of each object over
// the previous one and its key buffer grows. It also checks that the
// fragments under a member come with few distinct slices of its key: one,
// plus one more each time the buffer grows.
func TestKeysStayWhileOpen(t *testing.T) {
	// Keys of equal length, so that a key is written at the same address
	// as the previous one; nesting, so that outer keys are open while inner
	// ones change; and keys long enough to make the buffer grow.
	doc := `{"aaaa":{"bbbb":[1,{"cccc":"x","dddd":[true,2]}],"eeee":{"ffff":{}}},` +
		`"gggg":{"` + strings.Repeat("h", 100) + `":[1,{"` + strings.Repeat("i", 1000) + `":[1,2,3]}]},"jjjj":null}`
	type held struct {
		key    string   // the member's key
		slices [][]byte // the distinct slices it came in
	}
	var open []held // open[d]: the open member of the object at depth d, if any
	moved := false  // some member's key came in a second slice
	rec := pushFunc(func(p *fragment.Progress) error {
		for d, s := range p.Path {
			if s.IsIndex() {
				continue
			}
			for len(open) <= d {
				open = append(open, held{})
			}
			h := &open[d]
			switch {
			case h.slices == nil:
				*h = held{key: string(s.Key)} // a new member
			case h.key != string(s.Key):
				t.Errorf("at %s: key %q at depth %d became %q before its Done", p.Path, h.key, d, s.Key)
				*h = held{key: string(s.Key)}
			}
			if n := len(h.slices); n == 0 || &h.slices[n-1][0] != &s.Key[0] {
				h.slices = append(h.slices, s.Key)
			}
		}
		for d, h := range open[:min(len(open), len(p.Path))] {
			for _, k := range h.slices {
				if string(k) != h.key {
					t.Errorf("at %s: key %q at depth %d changed to %q while open", p.Path, h.key, d, k)
				}
			}
			moved = moved || len(h.slices) > 1
			if len(h.slices) > 3 {
				t.Errorf("at %s: key %q came in %d slices", p.Path, h.key, len(h.slices))
			}
		}
		if p.Kind == fragment.Done && len(p.Path) > 0 {
			open = open[:min(len(open), len(p.Path)-1)] // that member has ended
		}
		return nil
	})
	for _, size := range []int{1, 7, len(doc)} {
		open = nil
		tok := jsontoken.New(fragment.NewTranslator(rec, nil))
		for i := 0; i < len(doc); i += size {
			if err := tok.Feed([]byte(doc[i:min(i+size, len(doc))])); err != nil {
				t.Fatal(err)
			}
		}
		if err := tok.Close(); err != nil {
			t.Fatal(err)
		}
		if !moved {
			t.Errorf("chunks of %d: the key buffer never grew under an open member; the test misses that case", size)
		}
		moved = false
	}
}
