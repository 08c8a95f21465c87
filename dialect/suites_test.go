package dialect

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/schema"
	"github.com/argstream/argstream/toolcall"
	gocmp "github.com/google/go-cmp/cmp"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/prop"
)

// implemented are the families of testdata/suites whose syntax the Reader
// reads: each family goes in it as its syntax lands (its file's name,
// which is its --syntax name, but "qwen"'s). A family not in it is
// checked for form only, and not run.
var implemented = map[string]bool{"qwen": true, "hermes": true, "mistral": true, "deepseek-v3": true, "deepseek-v31": true,
	"deepseek-dsml": true, "kimi-k2": true, "glm45": true, "minimax-m2": true, "harmony": true}

// suiteFile is one file of testdata/suites: the cases of one family,
// transcribed from the public tool-parser suites (testdata/suites/README.md).
type suiteFile struct {
	Family string      `json:"family"`
	Cases  []suiteCase `json:"cases"`
}

type suiteCase struct {
	ID       string            `json:"id"`
	URL      string            `json:"url"`
	Text     string            `json:"text"`
	Chunks   []string          `json:"chunks"`
	Tools    []json.RawMessage `json:"tools"`
	Want     suiteWant         `json:"want"`
	Upstream json.RawMessage   `json:"upstream"`
	Note     string            `json:"note"`
}

// suiteWant is what argstream gives back for a case. Content is the prose,
// byte for byte; Calls the calls that end complete and valid, in order;
// Error whether anything fails (a call's Result, Write or Close). Content
// is not compared when it is absent (null), which only a case with Error
// may leave it. Reasoning (harmony's analysis channel), what OnReasoning
// hands on, is compared when given.
type suiteWant struct {
	Content   *string     `json:"content"`
	Reasoning *string     `json:"reasoning"`
	Calls     []suiteCall `json:"calls"`
	Error     bool        `json:"error"`
}

type suiteCall struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	ID        string          `json:"id,omitempty"`
}

// suiteGot is what a Reader delivered for a case, in the form of
// suiteWant.
type suiteGot struct {
	Content   string
	Reasoning string
	Calls     []gotCall
	Errors    []string
}

type gotCall struct {
	Name      string
	ID        string
	Arguments any // the JSON arguments, decoded: compared as values
}

// syntaxOf returns the Syntax of a family of testdata/suites.
func syntaxOf(family string) (Syntax, error) {
	return ParseSyntax(family)
}

func loadSuites(t testing.TB) []suiteFile {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", "suites", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatal("no testdata/suites/*.json")
	}
	var files []suiteFile
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		var f suiteFile
		if err := dec.Decode(&f); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if want := strings.TrimSuffix(filepath.Base(p), ".json"); f.Family != want {
			t.Fatalf("%s: family %q, want %q", p, f.Family, want)
		}
		files = append(files, f)
	}
	return files
}

// checkForm checks what every case must be, run or not: an id and a URL
// that say where it comes from, chunks that join to the text, tools that
// package schema reads, the content given unless the case fails and made
// of the text's bytes, and calls whose names and ids the text writes.
func checkForm(t *testing.T, c suiteCase) {
	t.Helper()
	if c.ID == "" || !strings.HasPrefix(c.URL, "https://github.com/") || !strings.Contains(c.URL, "/blob/") {
		t.Errorf("id %q, url %q: want both, the url a GitHub blob at a commit", c.ID, c.URL)
	}
	if c.Chunks != nil && strings.Join(c.Chunks, "") != c.Text {
		t.Errorf("the chunks joined are not the text")
	}
	if _, err := suiteTools(c); err != nil {
		t.Error(err)
	}
	if c.Want.Content == nil && !c.Want.Error {
		t.Errorf("want.content absent in a case without error")
	}
	if c.Want.Content != nil && !subsequence(*c.Want.Content, c.Text) {
		t.Errorf("want.content %q is not the text less some of its bytes", *c.Want.Content)
	}
	for _, call := range c.Want.Calls {
		if !strings.Contains(c.Text, call.Name) || !strings.Contains(c.Text, call.ID) {
			t.Errorf("call %s (id %q): the text does not write its name or id", call.Name, call.ID)
		}
		var v map[string]any
		if err := json.Unmarshal(call.Arguments, &v); err != nil || v == nil {
			t.Errorf("call %s: arguments %s: want a JSON object", call.Name, call.Arguments)
		}
	}
}

// subsequence reports whether sub is s with some of its bytes left out:
// what prose is, the text less its calls.
func subsequence(sub, s string) bool {
	for i := 0; i < len(sub); i++ {
		k := strings.IndexByte(s, sub[i])
		if k < 0 {
			return false
		}
		s = s[k+1:]
	}
	return true
}

// suiteTools builds the tools' schemas of a case, nil if it gives none.
func suiteTools(c suiteCase) (*schema.Tools, error) {
	if c.Tools == nil {
		return nil, nil
	}
	data, err := json.Marshal(c.Tools)
	if err != nil {
		return nil, err
	}
	return schema.Parse(data)
}

// runSuiteCase reads the text of a case in the chunks given with a new
// Reader and Response, the way the package documentation shows.
func runSuiteCase(syn Syntax, tools *schema.Tools, chunks []string) suiteGot {
	var got suiteGot
	var text bytes.Buffer
	calls := toolcall.New(toolcall.WithStreamOptions(argstream.WithTokenizer(syn.Tokenizer(tools))))
	var reasoning bytes.Buffer
	rd := NewReader(syn, calls, OnText(func(b []byte) { text.Write(b) }), OnReasoning(func(b []byte) { reasoning.Write(b) }))
	for _, c := range chunks {
		if _, err := rd.WriteString(c); err != nil {
			// Not the count of bytes read: it depends on the chunking.
			got.Errors = append(got.Errors, fmt.Sprintf("Write: %v", err))
			break
		}
	}
	if err := rd.Close(); err != nil {
		got.Errors = append(got.Errors, "Close: "+err.Error())
	}
	for _, res := range calls.End() {
		if res.Err != nil {
			got.Errors = append(got.Errors, fmt.Sprintf("call %d %s: %v", res.Call.Index, res.Call.Name, res.Err))
			continue
		}
		if !res.Executable {
			got.Errors = append(got.Errors, fmt.Sprintf("call %d %q: not executable", res.Call.Index, res.Call.Name))
			continue
		}
		var args any
		if err := json.Unmarshal(res.Arguments, &args); err != nil {
			got.Errors = append(got.Errors, fmt.Sprintf("call %d %s: arguments %s: %v", res.Call.Index, res.Call.Name, res.Arguments, err))
			continue
		}
		got.Calls = append(got.Calls, gotCall{Name: res.Call.Name, ID: res.Call.ID, Arguments: args})
	}
	got.Content, got.Reasoning = text.String(), reasoning.String()
	return got
}

// checkSuiteCase compares what a Reader delivered with the case's want.
func checkSuiteCase(c suiteCase, got suiteGot) string {
	var msgs []string
	if c.Want.Error != (len(got.Errors) > 0) {
		msgs = append(msgs, fmt.Sprintf("errors %q, want error: %v", got.Errors, c.Want.Error))
	}
	if c.Want.Reasoning != nil && got.Reasoning != *c.Want.Reasoning {
		msgs = append(msgs, fmt.Sprintf("reasoning:\n%q\nwant:\n%q", got.Reasoning, *c.Want.Reasoning))
	}
	if c.Want.Content != nil && got.Content != *c.Want.Content {
		msgs = append(msgs, fmt.Sprintf("content:\n%q\nwant:\n%q", got.Content, *c.Want.Content))
	}
	want := make([]gotCall, len(c.Want.Calls))
	for i, w := range c.Want.Calls {
		want[i] = gotCall{Name: w.Name, ID: w.ID}
		if err := json.Unmarshal(w.Arguments, &want[i].Arguments); err != nil {
			return fmt.Sprintf("want call %d: %v", i, err)
		}
	}
	// The id is compared only where the syntax itself carries one.
	ids := make([]gotCall, len(got.Calls))
	for i, g := range got.Calls {
		ids[i] = g
		if i < len(want) && want[i].ID == "" {
			ids[i].ID = ""
		}
	}
	if diff := gocmp.Diff(want, ids); diff != "" {
		msgs = append(msgs, fmt.Sprintf("calls (-want +got):\n%s", diff))
	}
	return strings.Join(msgs, "\n")
}

// TestSuites replays the cases transcribed from vLLM's, SGLang's, Ollama's
// and llama.cpp's tool-parser tests (testdata/suites) through a Reader and
// the family's tokenizer: the text whole, in the chunks the suite streams,
// one byte at a time, and cut at random places (a property), each time
// with the prose, the calls (name, arguments compared as JSON values) and
// the presence of an error the case wants.
func TestSuites(t *testing.T) {
	for _, f := range loadSuites(t) {
		t.Run(f.Family, func(t *testing.T) {
			if len(f.Cases) == 0 {
				t.Fatal("no cases")
			}
			ids := map[string]bool{}
			for _, c := range f.Cases {
				if ids[c.ID] {
					t.Errorf("case %s given twice", c.ID)
				}
				ids[c.ID] = true
				checkForm(t, c)
			}
			if !implemented[f.Family] {
				t.Logf("%s: %d cases, not run: the syntax is not implemented yet", f.Family, len(f.Cases))
				return
			}
			syn, err := syntaxOf(f.Family)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range f.Cases {
				t.Run(c.ID, func(t *testing.T) {
					tools, err := suiteTools(c)
					if err != nil {
						t.Fatal(err)
					}
					runs := map[string][]string{
						"whole":       {c.Text},
						"rune chunks": strings.Split(c.Text, ""),
					}
					if c.Chunks != nil {
						runs["the suite's chunks"] = c.Chunks
					}
					if bs := []byte(c.Text); len(bs) > 0 {
						runs["bytes"] = stringsOf(testutil.SplitEvery(bs, 1))
					}
					for name, chunks := range runs {
						if msg := checkSuiteCase(c, runSuiteCase(syn, tools, chunks)); msg != "" {
							t.Errorf("%s: %s\n%s\ntext %q", name, msg, c.Note, c.Text)
						}
					}
					properties := gopter.NewProperties(testutil.PropertyParameters(50))
					properties.Property("random chunk boundaries", prop.ForAll(
						func(cuts []int) bool {
							in := []byte(c.Text)
							chunks := stringsOf(testutil.SplitAt(in, testutil.Cuts(in, cuts)))
							if msg := checkSuiteCase(c, runSuiteCase(syn, tools, chunks)); msg != "" {
								t.Logf("chunks %q: %s", chunks, msg)
								return false
							}
							return true
						},
						testutil.GenCuts(),
					))
					properties.TestingRun(t)
				})
			}
		})
	}
}

// TestSuitesSplitRandom reads every case of the families implemented cut
// into chunks of random lengths, from a seeded source: many more
// chunkings than the property tries per case, at less cost.
func TestSuitesSplitRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 2))
	for _, f := range loadSuites(t) {
		if !implemented[f.Family] {
			continue
		}
		syn, err := syntaxOf(f.Family)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range f.Cases {
			tools, err := suiteTools(c)
			if err != nil {
				t.Fatal(err)
			}
			for range 20 {
				chunks := stringsOf(testutil.SplitRandom([]byte(c.Text), rng, 1+rng.IntN(24)))
				if msg := checkSuiteCase(c, runSuiteCase(syn, tools, chunks)); msg != "" {
					t.Errorf("%s %s: chunks %q: %s", f.Family, c.ID, chunks, msg)
					break
				}
			}
		}
	}
}

func stringsOf(chunks [][]byte) []string {
	s := make([]string, len(chunks))
	for i, c := range chunks {
		s[i] = string(c)
	}
	return s
}

// FuzzSuites: from the suites' texts, mutated, no chunking changes what a
// Reader and the family's tokenizer deliver (prose, calls, errors), for
// each family implemented.
//
//	go test -fuzz FuzzSuites -fuzztime=20s ./dialect/
func FuzzSuites(f *testing.F) {
	var families []string
	tools := map[string]*schema.Tools{}
	for _, file := range loadSuites(f) {
		if !implemented[file.Family] {
			continue
		}
		families = append(families, file.Family)
		for _, c := range file.Cases {
			f.Add([]byte(c.Text), uint8(len(families)-1), uint64(len(c.Text)))
			if ts, err := suiteTools(c); err == nil && ts != nil && tools[file.Family] == nil {
				tools[file.Family] = ts
			}
		}
	}
	if len(families) == 0 {
		f.Skip("no family implemented")
	}
	f.Fuzz(func(t *testing.T, in []byte, family uint8, seed uint64) {
		name := families[int(family)%len(families)]
		syn, err := syntaxOf(name)
		if err != nil {
			t.Fatal(err)
		}
		whole := runSuiteCase(syn, tools[name], []string{string(in)})
		chunks := stringsOf(testutil.SplitRandom(in, rand.New(rand.NewPCG(seed, seed>>32)), 1+int(seed%17)))
		split := runSuiteCase(syn, tools[name], chunks)
		if diff := gocmp.Diff(whole, split); diff != "" {
			t.Fatalf("%s, %d chunks: (-whole +chunks)\n%s", name, len(chunks), diff)
		}
	})
}
