package render

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/internal/testutil/wiretest"
	"github.com/argstream/argstream/sink"
	"github.com/go-json-experiment/json/jsontext"
)

// partialDocs are the arguments Partial is checked on at every prefix: the
// shipped examples, and the 6 KB Python file of the code-execution
// recording.
func partialDocs(t *testing.T) []struct {
	name string
	doc  []byte
} {
	docs := []struct {
		name string
		doc  []byte
	}{
		{"fs_create_file", wiretest.Testdata(t, "examples/fs_create_file.json")},
		{"fs_modify_file", wiretest.Testdata(t, "examples/fs_modify_file.json")},
	}
	var deltas map[string]struct {
		Calls []struct {
			Name   string `json:"name"`
			Joined string `json:"joined"`
		} `json:"calls"`
	}
	if err := json.Unmarshal(wiretest.Testdata(t, "llm_streams/DELTAS.json"), &deltas); err != nil {
		t.Fatal(err)
	}
	c := deltas["vercel-ai__anthropic__anthropic-code-execution-20250825.2.chunks.txt"].Calls[0]
	return append(docs, struct {
		name string
		doc  []byte
	}{c.Name, []byte(c.Joined)})
}

// member is one top-level parameter of a document: its key and its value
// as written.
type member struct {
	key string
	raw jsontext.Value
}

// members reads the top-level parameters of doc with jsontext, in order.
func members(t *testing.T, doc []byte) []member {
	t.Helper()
	d := jsontext.NewDecoder(bytes.NewReader(doc))
	if tok, err := d.ReadToken(); err != nil || tok.Kind() != '{' {
		t.Fatalf("not an object: %v", err)
	}
	var ms []member
	for d.PeekKind() != '}' {
		k, err := d.ReadToken()
		if err != nil {
			t.Fatal(err)
		}
		key := k.String()
		v, err := d.ReadValue()
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, member{key, v.Clone()})
	}
	return ms
}

// fcValue writes a JSON value as the function-call style writes it,
// strings quoted by strconv.Quote: the test's own formatter, for values
// without the characters the two quote differently.
func fcValue(t *testing.T, raw jsontext.Value) string {
	t.Helper()
	d := jsontext.NewDecoder(bytes.NewReader(raw))
	var b strings.Builder
	var walk func()
	walk = func() {
		tok, err := d.ReadToken()
		if err != nil {
			t.Fatal(err)
		}
		switch tok.Kind() {
		case '"':
			b.WriteString(strconv.Quote(tok.String()))
		case '[':
			b.WriteString("[")
			for i := 0; d.PeekKind() != ']'; i++ {
				if i > 0 {
					b.WriteString(", ")
				}
				walk()
			}
			d.ReadToken()
			b.WriteString("]")
		case '{':
			b.WriteString("{")
			for i := 0; d.PeekKind() != '}'; i++ {
				if i > 0 {
					b.WriteString(", ")
				}
				k, _ := d.ReadToken()
				b.WriteString(k.String() + ": ") // String before the next read voids k
				walk()
			}
			d.ReadToken()
			b.WriteString("}")
		default:
			b.WriteString(tok.String())
		}
	}
	walk()
	return b.String()
}

func jsonIndent(t *testing.T, raw []byte, prefix string) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Indent(&b, raw, prefix, "  "); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// wantPartial is what Partial must return after the fragments frags, in
// each style, for a document whose parameters are ms: computed from which
// top-level members the fragments began and completed, the values written
// by the test's own formatters.
func wantPartial(t *testing.T, name string, doc []byte, ms []member, frags []fragment.Fragment, verb, ell string) (fc, js string) {
	t.Helper()
	var started, done []string
	rootDone := false
	for _, f := range frags {
		switch {
		case len(f.Path) == 0:
			rootDone = true
		case len(started) == 0 || started[len(started)-1] != string(f.Path[0].Key):
			started = append(started, string(f.Path[0].Key))
		}
		if len(f.Path) == 1 && f.Kind == fragment.Done {
			done = append(done, string(f.Path[0].Key))
		}
	}
	switch {
	case rootDone:
		whole := fcValue(t, doc)
		return name + "(" + whole[1:len(whole)-1] + ")", jsonIndent(t, doc, "")
	case len(frags) == 0:
		return name + "(" + verb + "arguments" + ell + ")", "// " + verb + "arguments" + ell
	}
	var fcParts []string
	js = "{"
	for i, k := range done {
		if ms[i].key != k {
			t.Fatalf("member %d is %q in the fragments, %q in the document", i, k, ms[i].key)
		}
		fcParts = append(fcParts, k+": "+fcValue(t, ms[i].raw))
		if i > 0 {
			js += ","
		}
		js += "\n  " + strconv.Quote(k) + ": " + jsonIndent(t, ms[i].raw, "  ")
	}
	if len(started) > len(done) {
		open := started[len(started)-1]
		fcParts = append(fcParts, verb+strconv.Quote(open)+ell)
		js += "\n  // " + verb + strconv.Quote(open) + ell
	} else { // between two parameters
		fcParts = append(fcParts, "…")
		js += "\n  // …"
	}
	return name + "(" + strings.Join(fcParts, ", ") + ")", js + "\n}"
}

// TestPartialEveryPrefix: at every prefix of each document, fed a byte at
// a time, and again fed whole to a fresh stream, Partial gives the
// complete parameters and a placeholder for the one streaming, in both
// styles; in the JSON style, removing the comment line leaves valid JSON.
func TestPartialEveryPrefix(t *testing.T) {
	for _, d := range partialDocs(t) {
		ms := members(t, d.doc)
		var rec testutil.Recorder
		var rs [2]*Renderer
		var sinks []sink.Sink
		for i, st := range styles {
			rs[i] = New(io.Discard, WithStyle(st))
			sinks = append(sinks, rs[i].Sink(fragment.Call{Name: d.name}))
		}
		s := argstream.New(sink.Multi(append(sinks, &rec)...))
		for k := 0; k <= len(d.doc); k++ {
			if k > 0 {
				if err := s.Feed(d.doc[k-1 : k]); err != nil {
					t.Fatal(err)
				}
			}
			wantFC, wantJS := wantPartial(t, d.name, d.doc, ms, rec.Fragments, "streaming ", "…")
			if got := rs[0].Partial(0); got != wantFC {
				t.Fatalf("%s, prefix %d (%q): Partial\n%s\nwant\n%s", d.name, k, d.doc[:k], got, wantFC)
			}
			gotJS := rs[1].Partial(0)
			if gotJS != wantJS {
				t.Fatalf("%s, prefix %d (%q): Partial\n%s\nwant\n%s", d.name, k, d.doc[:k], gotJS, wantJS)
			}
			if len(rec.Fragments) > 0 {
				checkJSONPartial(t, gotJS)
			}
			if k%97 == 0 || k == len(d.doc) || len(d.doc) < 1000 {
				fc, js := partialOfPrefix(d.name, d.doc[:k], false)
				if fc != wantFC || js != wantJS {
					t.Fatalf("%s, prefix %d fed whole: Partial %q, %q; a byte at a time %q, %q", d.name, k, fc, js, wantFC, wantJS)
				}
			}
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// partialOfPrefix feeds prefix whole to a fresh call in each style, closed
// if close is set, and returns their Partial.
func partialOfPrefix(name string, prefix []byte, close bool) (fc, js string) {
	var out [2]string
	for i, st := range styles {
		r := New(io.Discard, WithStyle(st))
		s := argstream.New(r.Sink(fragment.Call{Name: name}))
		s.Feed(prefix)
		if close {
			s.Close()
		}
		out[i] = r.Partial(0)
	}
	return out[0], out[1]
}

// checkJSONPartial: without its comment lines, a JSON-style Partial is
// valid JSON, and no other line is a comment.
func checkJSONPartial(t *testing.T, p string) {
	t.Helper()
	var kept []string
	comments := 0
	for _, line := range strings.Split(p, "\n") {
		if strings.HasPrefix(strings.TrimLeft(line, " "), "//") {
			comments++
			continue
		}
		kept = append(kept, line)
	}
	if comments > 1 {
		t.Fatalf("%d comment lines in\n%s", comments, p)
	}
	if !json.Valid([]byte(strings.Join(kept, "\n"))) {
		t.Fatalf("not JSON without its comment:\n%s", p)
	}
}

// TestPartialIncomplete: once arguments cut short have ended, the
// placeholder says "incomplete", without the ellipsis.
func TestPartialIncomplete(t *testing.T) {
	doc := wiretest.Testdata(t, "examples/fs_create_file.json")
	fc, js := partialOfPrefix("fs_create_file", doc[:40], true)
	if want := `fs_create_file(path: "src/main.rs", incomplete "content")`; fc != want {
		t.Errorf("function call: %q, want %q", fc, want)
	}
	if want := "{\n  \"path\": \"src/main.rs\"\n  // incomplete \"content\"\n}"; js != want {
		t.Errorf("JSON: %q, want %q", js, want)
	}
	fc, js = partialOfPrefix("fs_create_file", doc[:1], true)
	if fc != "fs_create_file(incomplete arguments)" || js != "// incomplete arguments" {
		t.Errorf("nothing: %q, %q", fc, js)
	}
}

// TestPartialPlaceholderUnambiguous: keys that look like the placeholder,
// "#" among them, stay quoted JSON members; the one comment line is the
// renderer's.
func TestPartialPlaceholderUnambiguous(t *testing.T) {
	doc := `{"#": "streaming argument \"content\"...", "// streaming \"content\"…": 1, "a\n// x": 2, "content": "fn main`
	fc, js := partialOfPrefix("t", []byte(doc), false)
	wantJS := "{\n" +
		`  "#": "streaming argument \"content\"...",` + "\n" +
		`  "// streaming \"content\"…": 1,` + "\n" +
		`  "a\n// x": 2` + "\n" +
		`  // streaming "content"…` + "\n}"
	if js != wantJS {
		t.Errorf("JSON:\n%s\nwant\n%s", js, wantJS)
	}
	checkJSONPartial(t, js)
	wantFC := `t("#": "streaming argument \"content\"...", "// streaming \"content\"…": 1, "a\n// x": 2, streaming "content"…)`
	if fc != wantFC {
		t.Errorf("function call:\n%s\nwant\n%s", fc, wantFC)
	}
}

// TestPartialUnknown: an index with no call gives "".
func TestPartialUnknown(t *testing.T) {
	r := New(io.Discard)
	if p := r.Partial(3); p != "" {
		t.Errorf("Partial(3) = %q", p)
	}
}
