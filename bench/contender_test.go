package bench

import (
	"encoding/json"
	"reflect"
	"testing"
)

// smallFiles are the documents the tests stream in every chunking.
var smallFiles = []string{"createFile-1k.json", "modifyFile-1k.json", "structured-1k.json"}

// edgeCases hold what the workloads lack: a root scalar, empties, escapes
// and numbers that chunk boundaries split.
var edgeCases = []string{
	`12.5e-3`,
	`"a\u00e9\ud83d\ude00b"`,
	`{"a":[],"b":{},"c":"","d":[true,false,null,-0.5,1E+2]}`,
	` [ [ [ 1 ] , [ ] ] ] `,
}

func testWorkloads(t *testing.T) []Workload {
	t.Helper()
	ws, err := LoadDir("testdata", smallFiles...)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range edgeCases {
		ws = append(ws, Workload{Name: c, Data: []byte(c)})
	}
	return ws
}

// countValues counts v and every value inside it.
func countValues(v any) int64 {
	n := int64(1)
	switch v := v.(type) {
	case []any:
		for _, e := range v {
			n += countValues(e)
		}
	case map[string]any:
		for _, e := range v {
			n += countValues(e)
		}
	}
	return n
}

// TestContenders checks that every contender consumes every test document in
// every chunking and delivers what it says in Units.
func TestContenders(t *testing.T) {
	for _, w := range testWorkloads(t) {
		want := wantOf(t, w)
		for _, c := range Contenders() {
			for _, n := range []int{1, 3, 16, 0} {
				checkContender(t, c, w, n, want)
			}
		}
	}
}

// TestContendersBenchDocs checks every contender on every document that
// BenchmarkStream reads, at 1 KiB chunks and whole, the quadratic ones only
// where that costs little.
func TestContendersBenchDocs(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 12 MB of documents")
	}
	ws, err := LoadDir("testdata", streamFiles...)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range ws {
		want := wantOf(t, w)
		for _, c := range Contenders() {
			for _, n := range []int{1024, 0} {
				if c.Cost != nil && c.Cost(w.Data, n) > 1e8 {
					continue
				}
				checkContender(t, c, w, n, want)
			}
		}
	}
}

// expected is what a contender must deliver for one document.
type expected struct {
	tokens int64 // jsontext tokens
	value  any   // the document decoded by encoding/json
	units  map[string]int64
}

func wantOf(t *testing.T, w Workload) expected {
	t.Helper()
	tokens, err := WholeJSONText(w.Data)
	if err != nil {
		t.Fatalf("%s: %v", w.Name, err)
	}
	v, err := WholeUnmarshal(w.Data)
	if err != nil {
		t.Fatalf("%s: %v", w.Name, err)
	}
	return expected{tokens: tokens, value: v, units: map[string]int64{
		"naive-jsontext":     tokens,
		"pipe-encoding-json": tokens,
		"pipe-jsontext":      tokens,
		"jstream":            countValues(v),
	}}
}

// checkContender streams w in chunks of n through c and checks what its
// consumer received.
func checkContender(t *testing.T, c Contender, w Workload, n int, want expected) {
	t.Helper()
	name := w.Name
	if len(name) > 40 {
		name = name[:40] + "..."
	}
	s := c.New()
	if err := Stream(s, w.Data, n); err != nil {
		t.Errorf("%s %q chunk %d: %v", c.Name, name, n, err)
		return
	}
	got := s.Units()
	switch s := s.(type) {
	case *tokenizerStreamer:
		if got != want.tokens {
			t.Errorf("%s %q chunk %d: %d tokens, want %d", c.Name, name, n, got, want.tokens)
		}
	case *pipelineStreamer:
		b, err := s.agg.Value()
		var v any
		if err == nil {
			err = json.Unmarshal(b, &v)
		}
		if err != nil || !reflect.DeepEqual(v, want.value) {
			t.Errorf("%s %q chunk %d: aggregated %.80q, not the document (%v)", c.Name, name, n, b, err)
		}
	case *Reparse:
		if !reflect.DeepEqual(s.v, want.value) {
			t.Errorf("%s %q chunk %d: final value differs", c.Name, name, n)
		}
		if chunks := int64(Chunks(w.Data, n)); got < 1 || got > chunks+1 {
			t.Errorf("%s %q chunk %d: %d decodes for %d chunks", c.Name, name, n, got, chunks)
		}
	default:
		u, ok := want.units[c.Name]
		if !ok {
			t.Fatalf("%s: no expected units", c.Name)
		}
		if got != u {
			t.Errorf("%s %q chunk %d: %d units, want %d", c.Name, name, n, got, u)
		}
	}
}

// TestContendersReject checks that the strict contenders report a truncated
// document at Close rather than accepting it.
func TestContendersReject(t *testing.T) {
	lenient := map[string]bool{"jstream": true}
	for _, c := range Contenders() {
		if lenient[c.Name] {
			continue
		}
		s := c.New()
		if err := Stream(s, []byte(`{"path":"a","content":"unfinished`), 4); err == nil {
			t.Errorf("%s accepted a truncated document", c.Name)
		}
	}
}

func TestNaiveJSONTextCost(t *testing.T) {
	ws, err := LoadDir("testdata", "createFile-100k.json", "structured-100k.json")
	if err != nil {
		t.Fatal(err)
	}
	long, short := ws[0].Data, ws[1].Data
	if got := NaiveJSONTextCost(long, 0); got != int64(len(long)) {
		t.Errorf("whole: cost %d, want %d", got, len(long))
	}
	// One long string: every boundary rescans the content so far.
	if got, min := NaiveJSONTextCost(long, 16), int64(len(long))*int64(len(long))/16/4; got < min {
		t.Errorf("createFile at 16: cost %d, want at least %d", got, min)
	}
	// Small tokens: each boundary rescans a few bytes.
	if got, max := NaiveJSONTextCost(short, 16), 3*int64(len(short)); got > max {
		t.Errorf("structured at 16: cost %d, want at most %d", got, max)
	}
}
