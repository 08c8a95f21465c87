package argstream_test

import (
	"bufio"
	"bytes"
	"errors"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/aggregate"
	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/sink"
	"github.com/argstream/argstream/token"
	"github.com/google/go-cmp/cmp"
)

// rejectedByDesign lists the documents that are valid JSON but that
// argstream rejects on purpose: duplicate keys make a tool call ambiguous
// (which "path" does the tool read?).
var rejectedByDesign = map[string]bool{
	"y_object_duplicated_key.json":           true,
	"y_object_duplicated_key_and_value.json": true,
	"fail39_EXCLUDE.json":                    true, // simdjson's duplicate names
}

// verdict is how argstream ended on one document, fed in one way.
type verdict struct {
	accepted bool
	value    string // the aggregated value when accepted
	errText  string // the error message when rejected
}

// chunkings returns the ways every conformance document is fed: whole, one
// byte at a time, and random chunks seeded by the file's name.
func chunkings(name string, data []byte) map[string][][]byte {
	h := fnv.New64a()
	h.Write([]byte(name))
	rng := rand.New(rand.NewPCG(h.Sum64(), 1))
	return map[string][][]byte{
		"whole":      {data},
		"bytes":      testutil.SplitEvery(data, 1),
		"random0-16": testutil.SplitRandom(data, rng, 16),
	}
}

// parse feeds chunks to a Stream with an Aggregator and a Recorder.
func parse(t *testing.T, chunks [][]byte) (verdict, *testutil.Recorder) {
	t.Helper()
	agg := aggregate.New()
	rec := &testutil.Recorder{}
	err := testutil.Feed(argstream.New(sink.Multi(agg, rec)), chunks)
	if err != nil {
		var se *token.SyntaxError
		if !errors.As(err, &se) {
			t.Fatalf("error %v (%T) is not a *token.SyntaxError", err, err)
		}
		if rec.Ends != 1 || rec.Err != err {
			t.Fatalf("sink saw End %d times with %v, want once with %v", rec.Ends, rec.Err, err)
		}
		return verdict{errText: err.Error()}, rec
	}
	v, err := agg.Value()
	if err != nil {
		t.Fatalf("accepted, but the aggregator says %v", err)
	}
	return verdict{accepted: true, value: string(v)}, rec
}

// conform checks one document: every chunking gives the same verdict, the
// same error or value, and the value and fragments a whole-document parse
// gives. It returns whether argstream accepted it.
func conform(t *testing.T, name string, data []byte) bool {
	t.Helper()
	var first *verdict
	var firstHow string
	for _, how := range []string{"whole", "bytes", "random0-16"} {
		chunks := chunkings(name, data)[how]
		got, rec := parse(t, chunks)
		if first == nil {
			first, firstHow = &got, how
			if got.accepted {
				want, err := testutil.Canonical(data)
				if err != nil {
					t.Fatalf("accepted, but jsontext says %v", err)
				}
				if got.value != string(want) {
					t.Errorf("aggregate = %s, want %s", got.value, want)
				}
				ref, err := testutil.ReferenceFragments(data)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(testutil.Texts(ref), testutil.Texts(testutil.Merge(rec.Fragments))); diff != "" {
					t.Errorf("fragments differ from the whole-document parse (-want +got):\n%s", diff)
				}
			}
			continue
		}
		if got != *first {
			t.Errorf("fed %s: %+v; fed %s: %+v", how, got, firstHow, *first)
		}
	}
	return first.accepted
}

// TestJSONTestSuite runs nst/JSONTestSuite's test_parsing: y_ accepted
// (except the duplicate keys argstream rejects by design), n_ rejected, i_
// whatever jsontext alone says, for every chunking.
func TestJSONTestSuite(t *testing.T) {
	dir := "testdata/JSONTestSuite/test_parsing"
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var count struct{ y, yRejected, n, i, iAccepted int }
	var iResults []string
	for _, e := range entries {
		name := e.Name()
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		t.Run(name, func(t *testing.T) {
			accepted := conform(t, name, data)
			switch name[0] {
			case 'y':
				count.y++
				want := !rejectedByDesign[name]
				if !want {
					count.yRejected++
				}
				if accepted != want {
					t.Errorf("accepted = %v, want %v", accepted, want)
				}
			case 'n':
				count.n++
				if accepted {
					t.Errorf("accepted, want rejected")
				}
			case 'i':
				count.i++
				if accepted {
					count.iAccepted++
					iResults = append(iResults, "accept "+name)
				} else {
					iResults = append(iResults, "reject "+name)
				}
				// Implementation-defined: argstream's choice is jsontext's.
				if want := testutil.Valid(data); accepted != want {
					t.Errorf("accepted = %v, but jsontext alone says %v", accepted, want)
				}
			}
		})
	}
	if count.y+count.n+count.i != len(entries) || count.y == 0 || count.n == 0 {
		t.Fatalf("unexpected corpus: %+v of %d files", count, len(entries))
	}
	t.Logf("JSONTestSuite: %d y_ (%d rejected by design), %d n_, %d i_ (%d accepted)", count.y, count.yRejected, count.n, count.i, count.iAccepted)
	for _, r := range iResults {
		t.Log(r)
	}
}

// TestCheckerCorpora runs json.org's JSON_checker files and simdjson's
// extra checker files against their RFC 8259 labels.
func TestCheckerCorpora(t *testing.T) {
	for _, dir := range []string{"testdata/json.org-JSON_checker", "testdata/simdjson-jsonchecker-extra"} {
		labels := readLabels(t, filepath.Join(dir, "LABELS.tsv"))
		if len(labels) == 0 {
			t.Fatalf("%s: no labels", dir)
		}
		for name, label := range labels {
			data, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			t.Run(filepath.Base(dir)+"/"+name, func(t *testing.T) {
				want := label == "accept" && !rejectedByDesign[name]
				if got := conform(t, name, data); got != want {
					t.Errorf("accepted = %v, want %v (label %s)", got, want, label)
				}
			})
		}
	}
}

// readLabels reads a LABELS.tsv: file name to its rfc8259 column.
func readLabels(t *testing.T, file string) map[string]string {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	labels := map[string]string{}
	sc := bufio.NewScanner(f)
	col := -1
	for sc.Scan() {
		fields := strings.Split(sc.Text(), "\t")
		if col < 0 {
			col = slices.Index(fields, "rfc8259")
			if col < 0 {
				t.Fatalf("%s: no rfc8259 column", file)
			}
			continue
		}
		labels[fields[0]] = fields[col]
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return labels
}

// TestRoundtripCorpus checks that nativejson-benchmark's minimal documents
// aggregate back to themselves, byte for byte: they are already compact.
func TestRoundtripCorpus(t *testing.T) {
	files, err := filepath.Glob("testdata/nativejson-benchmark-roundtrip/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no roundtrip files (%v)", err)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(filepath.Base(file), func(t *testing.T) {
			if !conform(t, file, data) {
				t.Fatal("rejected")
			}
			got, _ := parse(t, [][]byte{data})
			if want := string(bytes.TrimSpace(data)); got.value != want {
				t.Errorf("aggregate = %s, want %s", got.value, want)
			}
		})
	}
}

// TestNaughtyStrings runs the Big List of Naughty Strings, one JSON array of
// strings, through every chunking.
func TestNaughtyStrings(t *testing.T) {
	data, err := os.ReadFile("testdata/blns/blns.json")
	if err != nil {
		t.Fatal(err)
	}
	if !conform(t, "blns", data) {
		t.Fatal("rejected")
	}
}
