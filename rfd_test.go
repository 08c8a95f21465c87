package argstream_test

import (
	"os"
	"strings"
	"testing"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/internal/testutil"
	"github.com/google/go-cmp/cmp"
)

// rfdBlock returns the first code block after the line containing marker
// in file, an RFD's text in testdata/reference (RFD 043 or RFD D26:
// docs/design.md, "Sources"), one fragment per line: a fragment broken after
// "value:" is joined again, and the margin notes of one example (┐ ├ ┘ ...)
// dropped.
func rfdBlock(t *testing.T, file, marker string) []string {
	t.Helper()
	data, err := os.ReadFile("testdata/reference/" + file)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	at := strings.Index(text, marker)
	if at < 0 {
		t.Fatalf("%s: no %q", file, marker)
	}
	lines := strings.Split(text[at:], "\n")
	i := 0
	for !strings.HasPrefix(lines[i], "```") {
		i++
	}
	var out []string
	for _, line := range lines[i+1:] {
		if strings.HasPrefix(line, "```") {
			break
		}
		if j := strings.IndexAny(line, "┐├┘"); j >= 0 {
			line = line[:j]
		}
		line = strings.TrimSpace(line)
		if n := len(out); n > 0 && strings.HasSuffix(out[n-1], "value:") {
			out[n-1] += " " + line
		} else {
			out = append(out, line)
		}
	}
	return out
}

// fragments runs chunks through a Stream and returns its fragments in RFD
// 043's notation (fragment.Fragment.String).
func fragments(t *testing.T, chunks ...string) []string {
	t.Helper()
	rec := &testutil.Recorder{}
	s := argstream.New(rec)
	for _, c := range chunks {
		if err := s.Feed([]byte(c)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return testutil.Texts(rec.Fragments)
}

// TestRFDExamples checks the examples of RFD 043 (docs/design.md, "The
// fragment protocol"), verbatim from its text in testdata/reference, with the
// input cut where the RFD's string pieces end.
func TestRFDExamples(t *testing.T) {
	const rfd = "rfd-043-incremental-tool-call-argument-streaming.md"
	tests := []struct {
		marker string
		chunks []string
	}{
		{"For `fs_create_file` with", []string{`{"path": "/tmp/foo.rs", "content": "fn main(`, `) {...}"}`}},
		{"For `fs_modify_file` with", []string{`{"path": "lib.rs", "patterns": [{"old": "lo`, `ng...", "new": "also `, `long..."}]}`}},
		{"For a scalar argument like", []string{`{"dry_run": true}`}},
		{"For example, given", []string{`{"path":"/tmp/foo.rs","content":"fn main()`, ` {}\n","dry_run":false}`}},
	}
	for _, tt := range tests {
		want := rfdBlock(t, rfd, tt.marker)
		if diff := cmp.Diff(want, fragments(t, tt.chunks...)); diff != "" {
			t.Errorf("%s (-RFD +argstream):\n%s", tt.marker, diff)
		}
	}
	// "If the root value is not an object (e.g. a bare string), the parser
	// streams it directly — String("chunk") fragments followed by Done."
	if diff := cmp.Diff([]string{`String("chunk")`, `Done`}, fragments(t, `"chunk"`)); diff != "" {
		t.Errorf("bare string (-RFD +argstream):\n%s", diff)
	}
}

// TestRFDD26Example checks that the nested fragments RFD D26 (docs/design.md,
// "Streaming policy evaluation") shows for /patterns/paths, in its text in
// testdata/reference, appear, in order, in argstream's stream.
func TestRFDD26Example(t *testing.T) {
	var want []string // the block's lines, less elisions and margin notes
	for _, line := range rfdBlock(t, "rfd-d26-streaming-policy-evaluation.md", "For `/patterns/paths`:") {
		if i := strings.Index(line, "←"); i >= 0 {
			line = strings.TrimSpace(line[:i])
		}
		if !strings.Contains(line, "...") {
			want = append(want, line)
		}
	}
	got := fragments(t, `{"patterns":[{"paths":["src/a.rs","src/b.rs"]},{"paths":[]}]}`)
	i := 0
	for _, g := range got {
		if i < len(want) && g == want[i] {
			i++
		}
	}
	if i != len(want) || len(want) < 4 {
		t.Errorf("RFD D26 lines %q not found in order in:\n%s", want[i:], strings.Join(got, "\n"))
	}
}
