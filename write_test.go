package argstream_test

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/aggregate"
	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/sink"
	"github.com/argstream/argstream/token"
	"github.com/google/go-cmp/cmp"
)

// io.Copy a body into a Stream: it parses the body as it arrives.
func ExampleStream_Write() {
	body := strings.NewReader(`{"path": "src/main.go", "content": "package main\n"}`)
	agg := aggregate.New()
	s := argstream.New(agg)
	if _, err := io.Copy(s, body); err != nil {
		fmt.Println("bad arguments:", err)
		return
	}
	if err := s.Close(); err != nil {
		fmt.Println("bad arguments:", err)
		return
	}
	args, _ := agg.Value()
	fmt.Println(args)
	// Output: {"path":"src/main.go","content":"package main\n"}
}

// Pull the fragments with a loop instead of writing a sink.
func ExampleFragments() {
	deltas := [][]byte{[]byte(`{"path": "src/ma`), []byte(`in.go", "n": [1, 2]}`)}
	for p, err := range argstream.Fragments(slices.Values(deltas)) {
		if err != nil {
			fmt.Println("bad arguments:", err)
			return
		}
		fmt.Println(p.Fragment.String())
	}
	// Output:
	// ObjectEntry { key: "path", value: String("src/ma") }
	// ObjectEntry { key: "path", value: String("in.go") }
	// ObjectEntry { key: "path", value: Done }
	// ObjectEntry { key: "n", value: ArrayItem { index: 0, value: Scalar(Number(1)) } }
	// ObjectEntry { key: "n", value: ArrayItem { index: 0, value: Done } }
	// ObjectEntry { key: "n", value: ArrayItem { index: 1, value: Scalar(Number(2)) } }
	// ObjectEntry { key: "n", value: ArrayItem { index: 1, value: Done } }
	// ObjectEntry { key: "n", value: Done }
	// Done
}

// Write, WriteString and io.Copy give the aggregate of the whole input,
// whatever the reads; a syntax error comes back as the write error, with
// the count of the bytes before the wrong one.
func TestWrite(t *testing.T) {
	doc, err := os.ReadFile("testdata/examples/fs_modify_file.json")
	if err != nil {
		t.Fatal(err)
	}
	whole := aggregate.New()
	s := argstream.New(whole)
	if err := s.Feed(doc); err != nil || s.Close() != nil {
		t.Fatal(err)
	}
	want, _ := whole.Value()

	for name, r := range map[string]io.Reader{
		"one byte": iotest.OneByteReader(strings.NewReader(string(doc))),
		"half":     iotest.HalfReader(strings.NewReader(string(doc))),
		"data+EOF": iotest.DataErrReader(strings.NewReader(string(doc))),
		"WriterTo": strings.NewReader(string(doc)), // io.Copy calls its WriteTo, which calls Write
	} {
		agg := aggregate.New()
		s := argstream.New(agg)
		if _, err := io.Copy(s, r); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := s.Close(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got, _ := agg.Value(); string(got) != string(want) {
			t.Errorf("%s: %s, want %s", name, got, want)
		}
	}

	agg := aggregate.New()
	s = argstream.New(agg)
	for _, piece := range testutil.SplitEvery(doc, 5) {
		if n, err := s.WriteString(string(piece)); err != nil || n != len(piece) {
			t.Fatalf("WriteString: %d, %v", n, err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if got, _ := agg.Value(); string(got) != string(want) {
		t.Errorf("WriteString: %s, want %s", got, want)
	}

	// {"a":1 then ,} : the '}' at byte 7 is the 2nd byte of the second write.
	s = argstream.New(aggregate.New())
	if n, err := s.Write([]byte(`{"a":1`)); n != 6 || err != nil {
		t.Fatalf("first Write: %d, %v", n, err)
	}
	n, err := s.WriteString(`,}`)
	var se *token.SyntaxError
	if n != 1 || !errors.As(err, &se) || se.Offset != 7 {
		t.Fatalf("second Write: %d, %v; want 1 and a syntax error at byte 7", n, err)
	}
	if n, err := s.Write([]byte(`"b":2}`)); n != 0 || err == nil {
		t.Fatalf("Write after the error: %d, %v", n, err)
	}

	// A sink's stop is a write error too, which ends io.Copy.
	stop := sink.PushFunc(func(*fragment.Progress) error { return sink.ErrStop })
	s = argstream.New(stop)
	if _, err := io.Copy(s, strings.NewReader(string(doc))); !errors.Is(err, sink.ErrStop) {
		t.Fatalf("io.Copy into a stopped stream: %v", err)
	}
}

// A reused Stream's WriteString does not allocate.
func TestWriteStringNoAllocs(t *testing.T) {
	agg := aggregate.New()
	s := argstream.New(agg)
	const doc = `{"path": "src/main.go", "content": "package main\nfunc main() {}\n"}`
	deltas := []string{doc[:9], doc[9:30], doc[30:]}
	run := func() {
		s.Reset(fragment.Call{})
		agg.Reset()
		for _, d := range deltas {
			if _, err := s.WriteString(d); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
	run()
	if n := testing.AllocsPerRun(100, run); n != 0 {
		t.Errorf("%v allocations per call's arguments, want 0", n)
	}
}

// Fragments yields what a sink receives, for any chunking; the error of a
// bad stream comes last, once; breaking out stops reading chunks.
func TestFragments(t *testing.T) {
	doc := []byte(`{"path": "a\u00e9b", "n": [1, 2.5e3, {"x": null}], "o": {}}`)
	for _, chunks := range [][][]byte{{doc}, testutil.SplitEvery(doc, 3), testutil.SplitEvery(doc, 1)} {
		want, err := testutil.Observe(chunks)
		if err != nil {
			t.Fatal(err)
		}
		var got []fragment.Fragment
		for p, err := range argstream.Fragments(slices.Values(chunks)) {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, p.Fragment.Clone())
		}
		var texts []string
		for _, f := range testutil.Merge(got) {
			texts = append(texts, f.String())
		}
		if diff := cmp.Diff(want.Fragments, texts); diff != "" {
			t.Errorf("%d chunks (-sink +Fragments):\n%s", len(chunks), diff)
		}
	}

	var frags, errs int
	var last error
	for p, err := range argstream.Fragments(slices.Values([][]byte{[]byte(`{"a": 1, "a": 2}`)})) {
		if err != nil {
			errs++
			last = err
			continue
		}
		if errs > 0 {
			t.Error("a fragment after the error")
		}
		_ = p
		frags++
	}
	if errs != 1 || !errors.Is(last, token.ErrDuplicateKey) || frags != 2 {
		t.Errorf("%d fragments, %d errors (%v); want 2 and one duplicate-key error", frags, errs, last)
	}

	read := 0
	chunks := func(yield func([]byte) bool) {
		for _, c := range testutil.SplitEvery(doc, 1) {
			read++
			if !yield(c) {
				return
			}
		}
	}
	for range argstream.Fragments(chunks) {
		break
	}
	if read >= len(doc) {
		t.Errorf("read %d of %d chunks after a break at the first fragment", read, len(doc))
	}
}
