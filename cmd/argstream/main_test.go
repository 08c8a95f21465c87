package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// built is the command, built once for the tests that run it as a
// process (in a terminal, as a server), in a directory TestMain removes.
var built struct {
	once sync.Once
	dir  string
	bin  string
	err  error
}

// buildArgstream returns the command built from this package, building it
// the first time.
func buildArgstream(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "argstream-test-"); built.err != nil {
			return
		}
		built.bin = filepath.Join(built.dir, "argstream")
		if out, err := exec.Command("go", "build", "-o", built.bin, ".").CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go build: %v: %s", err, out)
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.bin
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// result is what one run of the command printed and returned.
type result struct {
	code           int
	stdout, stderr string
}

// invoke runs the command line args with stdin as its standard input.
func invoke(stdin string, args ...string) result {
	var out, errOut bytes.Buffer
	code := run(args, env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errOut})
	return result{code, out.String(), errOut.String()}
}

// writeFile writes data to a file in a test directory and returns its path.
func writeFile(t *testing.T, name, data string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func lines(s string) []string { return strings.Split(strings.TrimSuffix(s, "\n"), "\n") }

func TestFragmentsJSONL(t *testing.T) {
	in := `{"patterns":[{"old":"lo"}],"n":2.5e3,"ok":true,"x":null,"e":"","a":[],"o":{}}`
	got := invoke(in, "fragments", "--format", "jsonl")
	want := []string{
		`{"path":["patterns",0,"old"],"string":"lo"}`,
		`{"path":["patterns",0,"old"],"done":true}`,
		`{"path":["patterns",0],"done":true}`,
		`{"path":["patterns"],"done":true}`,
		`{"path":["n"],"number":"2.5e3"}`,
		`{"path":["n"],"done":true}`,
		`{"path":["ok"],"bool":true}`,
		`{"path":["ok"],"done":true}`,
		`{"path":["x"],"null":true}`,
		`{"path":["x"],"done":true}`,
		`{"path":["e"],"done":true,"empty":""}`,
		`{"path":["a"],"done":true,"empty":[]}`,
		`{"path":["o"],"done":true,"empty":{}}`,
		`{"path":[],"done":true}`,
	}
	if got.code != exitOK || got.stderr != "" {
		t.Fatalf("exit %d, stderr %q", got.code, got.stderr)
	}
	if diff := cmp.Diff(want, lines(got.stdout)); diff != "" {
		t.Errorf("jsonl (-want +got):\n%s", diff)
	}
}

func TestFragmentsSplits(t *testing.T) {
	in := `{"path": "/tmp/foo.rs", "content": "fn main() {}"}`
	file := writeFile(t, "args.json", in)
	// Where the chunks end, a string is cut into pieces.
	chunks := writeFile(t, "chunks.json", `["{\"path\": \"/tmp/foo.rs\", \"content\": \"fn main(", ") {}\"}"]`)
	got := invoke("", "fragments", "--chunks", chunks)
	want := []string{
		`ObjectEntry { key: "path", value: String("/tmp/foo.rs") }`,
		`ObjectEntry { key: "path", value: Done }`,
		`ObjectEntry { key: "content", value: String("fn main(") }`,
		`ObjectEntry { key: "content", value: String(") {}") }`,
		`ObjectEntry { key: "content", value: Done }`,
		`Done`,
	}
	if diff := cmp.Diff(want, lines(got.stdout)); diff != "" || got.code != exitOK {
		t.Errorf("--chunks: exit %d (-want +got):\n%s", got.code, diff)
	}
	// --split 10: the second chunk ends after "/tmp/foo.r".
	got = invoke("", "fragments", "--split", "10", file)
	if l := lines(got.stdout); got.code != exitOK || l[0] != `ObjectEntry { key: "path", value: String("/tmp/foo.r") }` {
		t.Errorf("--split 10: exit %d, first line %q", got.code, l[0])
	}
	// Every way of feeding gives the same aggregate.
	for _, args := range [][]string{
		{file}, {"--split", "1", file}, {"--split", "7", file}, {"--split", "random:1", file},
		{"--split", "random:99", file}, {"--chunks", chunks}, {"-"}, {},
	} {
		got := invoke(in, append([]string{"aggregate"}, args...)...)
		if want := `{"path":"/tmp/foo.rs","content":"fn main() {}"}` + "\n"; got.stdout != want || got.code != exitOK {
			t.Errorf("aggregate %q: exit %d, %q, want %q", args, got.code, got.stdout, want)
		}
	}
}

func TestInvalidInput(t *testing.T) {
	for _, c := range []struct {
		in, where, what, before string
	}{
		{`{"path": "a", "path": "b"}`, `byte 14 ("/path")`, "duplicate", `ObjectEntry { key: "path", value: Done }`},
		{`{"path": "a", "PATH": "b"}`, `byte 14 ("/PATH")`, `"PATH" equals "path" under case folding`, `ObjectEntry { key: "path", value: Done }`},
		{`{"path\u0000.txt": "a"}`, `byte 1 ("/path\x00.txt")`, "NUL", ""},
	} {
		for _, cmd := range []string{"fragments", "aggregate"} {
			got := invoke(c.in, cmd, "--split", "3")
			if got.code != exitInvalid {
				t.Errorf("%s %s: exit %d, want %d", cmd, c.in, got.code, exitInvalid)
			}
			if !strings.Contains(got.stderr, c.where) || !strings.Contains(got.stderr, c.what) {
				t.Errorf("%s %s: stderr %q does not say what (%s) and where (%s)", cmd, c.in, got.stderr, c.what, c.where)
			}
			if cmd == "fragments" && !strings.Contains(got.stdout, c.before) {
				t.Errorf("%s: fragments before the error not printed: %q", c.in, got.stdout)
			}
			if cmd == "aggregate" && got.stdout != "" {
				t.Errorf("aggregate printed %q for invalid input %s", got.stdout, c.in)
			}
		}
	}
	// Truncated input is found at the end.
	got := invoke(`{"path": "a`, "aggregate")
	if got.code != exitInvalid || !strings.Contains(got.stderr, "byte 11") {
		t.Errorf("truncated: exit %d, stderr %q", got.code, got.stderr)
	}
}

func TestUsageErrors(t *testing.T) {
	file := writeFile(t, "a.json", `{}`)
	for _, args := range [][]string{
		{},
		{"nonsense"},
		{"fragments", "--format", "xml", file},
		{"fragments", "--split", "0", file},
		{"fragments", "--split", "random:x", file},
		{"fragments", "--split", "2", "--chunks", file},
		{"fragments", "--no-such-flag"},
		{"aggregate", file, file},
		{"aggregate", filepath.Join(t.TempDir(), "missing.json")},
		{"aggregate", "--chunks", writeFile(t, "bad.json", `[1, 2]`)},
	} {
		got := invoke("", args...)
		if got.code != exitUsage || got.stderr == "" || got.stdout != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want %d and a message", args, got.code, got.stdout, got.stderr, exitUsage)
		}
	}
	if got := invoke("", "help"); got.code != exitOK || !strings.Contains(got.stdout, "fragments") {
		t.Errorf("help: %+v", got)
	}
}

// TestShippedExample runs the README's first command on the shipped file.
func TestShippedExample(t *testing.T) {
	got := invoke("", "fragments", "--split", "16", "../../testdata/examples/fs_modify_file.json")
	if got.code != exitOK || !strings.HasSuffix(got.stdout, "Done\n") || strings.Count(got.stdout, "\n") < 5 {
		t.Errorf("exit %d, stderr %q, output:\n%s", got.code, got.stderr, got.stdout)
	}
}

// TestNoBenchmarkBaseline: the shipped command does not link the
// benchmarks' baseline (bench moved to the bench module).
func TestNoBenchmarkBaseline(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range []string{"internal/handrolled", "internal/wirecount"} {
		if strings.Contains(string(out), "/"+pkg+"\n") {
			t.Errorf("cmd/argstream links %s", pkg)
		}
	}
}
