package argstream_test

import (
	"bufio"
	"bytes"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/token"
	"github.com/google/go-cmp/cmp"
)

// rejectedByDesign lists the documents that are valid JSON but that
// argstream rejects on purpose: duplicate keys make a tool call ambiguous
// (which "path" does the tool read?), and so do keys that a tool runtime
// would confuse, equal under case folding or holding NUL (rejected unless
// token.WithConfusableKeys(true); see confusableByDesign).
var rejectedByDesign = map[string]bool{
	"y_object_duplicated_key.json":           true,
	"y_object_duplicated_key_and_value.json": true,
	"fail39_EXCLUDE.json":                    true, // simdjson's duplicate names
	"y_object_escaped_null_in_key.json":      true, // {"foo\u0000bar": 42}
	"pass01.json":                            true, // json.org's, with the keys "e" and "E"
}

// confusableByDesign are the files of rejectedByDesign that
// token.WithConfusableKeys(true) lets through.
var confusableByDesign = []string{
	"testdata/JSONTestSuite/test_parsing/y_object_escaped_null_in_key.json",
	"testdata/json.org-JSON_checker/pass01.json",
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

// conform checks one document: every chunking gives the same outcome
// (fragments, value or error), and it is what a whole-document parse gives.
// It returns the outcome.
func conform(t *testing.T, name string, data []byte) testutil.Outcome {
	t.Helper()
	ways := chunkings(name, data)
	whole, err := testutil.Observe(ways["whole"])
	if err == nil {
		err = testutil.CheckWhole(data, whole)
	}
	if err != nil {
		t.Fatal(err)
	}
	for how, chunks := range ways {
		got, err := testutil.Observe(chunks)
		if err != nil {
			t.Fatalf("fed %s: %v", how, err)
		}
		if diff := cmp.Diff(whole, got); diff != "" {
			t.Errorf("fed %s (-whole +%s):\n%s", how, how, diff)
		}
	}
	return whole
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
			accepted := conform(t, name, data).Err == ""
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
				// Implementation-defined: argstream's choice is jsontext's
				// (conform checks it).
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
				if got := conform(t, name, data).Err == ""; got != want {
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

// TestConfusableKeysAllowed: with token.WithConfusableKeys(true), the documents
// rejected by design for their keys are accepted, in every chunking, and
// aggregate to what jsontext makes of them.
func TestConfusableKeysAllowed(t *testing.T) {
	allow := argstream.WithTokenOptions(token.WithConfusableKeys(true))
	for _, file := range confusableByDesign {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !rejectedByDesign[filepath.Base(file)] {
			t.Errorf("%s is not rejected by design", file)
		}
		want, err := testutil.Canonical(data)
		if err != nil {
			t.Fatal(err)
		}
		for how, chunks := range chunkings(file, data) {
			got, err := testutil.Observe(chunks, allow)
			if err != nil || got.Err != "" || got.Value != string(want) {
				t.Errorf("%s fed %s: %v, %s, value %s", file, how, err, got.Err, got.Value)
			}
		}
	}
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
			got := conform(t, file, data)
			if want := string(bytes.TrimSpace(data)); got.Value != want {
				t.Errorf("aggregate = %s, want %s (error %s)", got.Value, want, got.Err)
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
	if got := conform(t, "blns", data); got.Err != "" {
		t.Fatal(got.Err)
	}
}
