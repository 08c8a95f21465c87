package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"testing/iotest"
	"time"

	"github.com/google/go-cmp/cmp"
)

// splitWhole is how --split cut the whole input before the input was read
// as it arrives: the reference for chunker.
func splitWhole(data []byte, how string) [][]byte {
	var next func() int
	if seed, ok := strings.CutPrefix(how, "random:"); ok {
		s, _ := strconv.ParseUint(seed, 10, 64)
		rng := rand.New(rand.NewPCG(s, 0))
		next = func() int { return rng.IntN(65) }
	} else {
		n, _ := strconv.Atoi(how)
		next = func() int { return n }
	}
	var chunks [][]byte
	for len(data) > 0 {
		n := min(next(), len(data))
		chunks = append(chunks, data[:n])
		data = data[n:]
	}
	return chunks
}

// A chunker cuts the same chunks as the whole input cut at once, however
// the bytes arrive: one by one, in reads of random lengths (empty ones
// included), or all at once.
func TestChunkerSameCut(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, how := range []string{"1", "2", "7", "16", "64", "100", "random:0", "random:1", "random:7", "random:99"} {
		for _, size := range []int{0, 1, 6, 7, 8, 63, 64, 65, 200, 1000} {
			data := make([]byte, size)
			for i := range data {
				data[i] = byte('a' + i%26)
			}
			want := splitWhole(data, how)
			whole, err := split(data, how)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, whole); diff != "" {
				t.Errorf("split %s, %d bytes (-old +new):\n%s", how, size, diff)
			}
			for _, reads := range []string{"one byte", "random", "whole"} {
				c, err := newChunker(how)
				if err != nil {
					t.Fatal(err)
				}
				var got [][]byte
				emit := func(b []byte) error {
					got = append(got, bytes.Clone(b))
					return nil
				}
				rest := data
				for len(rest) > 0 {
					n := len(rest)
					switch reads {
					case "one byte":
						n = 1
					case "random":
						n = min(rng.IntN(20), len(rest))
					}
					c.write(rest[:n], false, emit)
					rest = rest[n:]
				}
				c.write(nil, true, emit)
				if diff := cmp.Diff(want, got, cmp.Comparer(bytes.Equal)); diff != "" {
					t.Errorf("--split %s, %d bytes in %s reads (-whole +streamed):\n%s", how, size, reads, diff)
				}
			}
		}
	}
}

// Every subcommand prints the same, for every --split, however stdin's
// bytes arrive.
func TestStdinReadsSameOutput(t *testing.T) {
	in := `{"path": "/tmp/foo.rs", "content": "fn main() {\n\tprintln!(\"héllo\");\n}\n", "n": [1, 2.5, true, null]}`
	file := writeFile(t, "args.json", in)
	rules := policyData + "fs_create_file.rules.json"
	readers := map[string]func(io.Reader) io.Reader{
		"one byte": iotest.OneByteReader,
		"half":     iotest.HalfReader,
		"data+err": iotest.DataErrReader,
	}
	for _, split := range []string{"--split=1", "--split=5", "--split=16", "--split=random:3", "--split=random:42"} {
		for _, args := range [][]string{
			{"fragments", split},
			{"fragments", "--format=jsonl", split},
			{"aggregate", split},
			{"policy", "--rules", rules, split},
		} {
			want := invoke("", append(args, file)...)
			if want.code != exitOK || want.stderr != "" {
				t.Fatalf("%q FILE: %+v", args, want)
			}
			for name, reader := range readers {
				var out, errOut bytes.Buffer
				code := run(args, env{stdin: reader(strings.NewReader(in)), stdout: &out, stderr: &errOut})
				got := out.String()
				if args[0] == "policy" {
					// The length of a pipe is not known in advance.
					got = strings.Replace(got, `}`, fmt.Sprintf(`,"total_bytes":%d}`, len(in)), 1)
				}
				if code != exitOK || got != want.stdout || errOut.Len() != 0 {
					t.Errorf("%q, stdin read %s: exit %d, stderr %q, stdout\n%s\nwant\n%s", args, name, code, errOut.String(), got, want.stdout)
				}
			}
		}
	}
}

// piped is a subcommand running with real pipes as stdin and stdout.
type piped struct {
	stdin  *os.File    // the writing end of the command's stdin
	lines  chan string // the lines it prints, closed at the end of stdout
	code   chan int    // its exit status, once it returns
	stderr bytes.Buffer
}

// startPiped starts "argstream args..." with os.Pipe stdin and stdout. At
// the end of the test, its stdin is closed and it is waited for.
func startPiped(t *testing.T, args ...string) *piped {
	t.Helper()
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &piped{stdin: inW, lines: make(chan string, 1000), code: make(chan int, 1)}
	go func() {
		code := run(args, env{stdin: inR, stdout: outW, stderr: &p.stderr})
		outW.Close()
		p.code <- code
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		close(p.lines)
	}()
	t.Cleanup(func() {
		inW.Close()
		select {
		case code := <-p.code:
			p.code <- code
		case <-time.After(5 * time.Second):
			t.Errorf("%q still running 5s after its stdin closed", args)
		}
		inR.Close()
		outR.Close()
	})
	return p
}

// write writes s to the command's stdin.
func (p *piped) write(t *testing.T, s string) {
	t.Helper()
	if _, err := io.WriteString(p.stdin, s); err != nil {
		t.Fatal(err)
	}
}

// line returns the next line printed, failing the test if none comes in
// a few seconds.
func (p *piped) line(t *testing.T, while string) string {
	t.Helper()
	select {
	case l, ok := <-p.lines:
		if !ok {
			t.Fatalf("stdout closed %s", while)
		}
		return l
	case <-time.After(3 * time.Second):
		t.Fatalf("nothing printed in 3s %s", while)
	}
	return ""
}

// wait returns the exit status, after stdin is closed, and the rest of
// stdout.
func (p *piped) wait(t *testing.T) (int, []string) {
	t.Helper()
	p.stdin.Close()
	var code int
	select {
	case code = <-p.code:
		p.code <- code
	case <-time.After(5 * time.Second):
		t.Fatal("still running 5s after stdin closed")
	}
	var rest []string
	for l := range p.lines { // closed: the command closed stdout when it returned
		rest = append(rest, l)
	}
	return code, rest
}

const (
	pipeHead = `{"path": "src/main.rs", "content": "fn main() {`
	pipeTail = `}"}`
)

// The decision line is on stdout while the producer is still writing the
// arguments, for every way of cutting them.
func TestPolicyPipeDecidesBeforeEOF(t *testing.T) {
	for _, split := range []string{"", "--split=1", "--split=7", "--split=random:5"} {
		t.Run(split, func(t *testing.T) {
			args := []string{"policy", "--rules", policyData + "fs_create_file.rules.json"}
			if split != "" {
				args = append(args, split)
			}
			p := startPiped(t, args...)
			p.write(t, pipeHead)
			want := `{"mode":"unattended","rule":0,"decided_at_byte":22}`
			if got := p.line(t, "while the content is still streaming"); got != want {
				t.Errorf("got %s, want %s", got, want)
			}
			p.write(t, pipeTail)
			code, rest := p.wait(t)
			if code != exitOK || len(rest) != 0 || p.stderr.Len() != 0 {
				t.Errorf("exit %d, more stdout %q, stderr %q", code, rest, p.stderr.String())
			}
		})
	}
}

// The fragments of the bytes received are on stdout before the input ends,
// and the rest follows.
func TestFragmentsPipeBeforeEOF(t *testing.T) {
	for _, split := range []string{"", "--split=7", "--format=jsonl"} {
		t.Run(split, func(t *testing.T) {
			args := []string{"fragments"}
			if split != "" {
				args = append(args, split)
			}
			p := startPiped(t, args...)
			p.write(t, pipeHead)
			first := p.line(t, "while the content is still streaming")
			if !strings.Contains(first, "path") {
				t.Errorf("first line %s, want the path's", first)
			}
			p.write(t, pipeTail)
			code, rest := p.wait(t)
			if code != exitOK || len(rest) == 0 || !strings.Contains(rest[len(rest)-1], "Done") && !strings.Contains(rest[len(rest)-1], `"path":[]`) {
				t.Errorf("exit %d, rest %q, stderr %q", code, rest, p.stderr.String())
			}
			if split == "--split=7" {
				// The same fragments as the bytes cut at once.
				want := invoke(pipeHead+pipeTail, args...)
				if got := strings.Join(append([]string{first}, rest...), "\n") + "\n"; got != want.stdout {
					t.Errorf("piped:\n%s\nat once:\n%s", got, want.stdout)
				}
			}
		})
	}
}

// Invalid arguments end the command at once, while the producer may still
// be writing.
func TestPipeInvalidEndsAtOnce(t *testing.T) {
	for _, cmd := range [][]string{{"fragments"}, {"aggregate"}, {"policy", "--rules", policyData + "fs_create_file.rules.json"}} {
		p := startPiped(t, cmd...)
		p.write(t, `{"path": "a", "path": `)
		select {
		case code := <-p.code:
			p.code <- code
			if code != exitInvalid || p.stderr.String() != `argstream: stdin: invalid JSON at byte 14 ("/path"): duplicate object key "path"`+"\n" {
				t.Errorf("%s: exit %d, stderr %q", cmd[0], code, p.stderr.String())
			}
		case <-time.After(3 * time.Second):
			t.Errorf("%s: still running 3s after the invalid bytes", cmd[0])
		}
	}
}

// Flags come before or after FILE; after "--" every arg is FILE.
func TestFlagsAnywhere(t *testing.T) {
	file := "../../testdata/examples/fs_create_file.json"
	rules := policyData + "fs_create_file.rules.json"
	for _, pair := range [][2][]string{
		{{"policy", "--rules", rules, file}, {"policy", file, "--rules", rules}},
		{{"policy", "--rules", rules, "--split", "3", file}, {"policy", "--rules", rules, file, "--split=3"}},
		{{"fragments", "--split", "10", "--format", "jsonl", file}, {"fragments", file, "--split", "10", "--format", "jsonl"}},
		{{"aggregate", file}, {"aggregate", "--", file}},
		{{"aggregate", "-"}, {"aggregate", "--", "-"}},
	} {
		want, got := invoke("", pair[0]...), invoke("", pair[1]...)
		if want.code != got.code || want.stdout != got.stdout || want.stderr != got.stderr {
			t.Errorf("%q: %+v\n%q: %+v", pair[0], want, pair[1], got)
		}
	}

	// A "--" that is a flag's value ends no flags.
	for _, c := range []struct {
		args      []string
		pos       []string
		s         string
		wantError bool
	}{
		{[]string{"--s", "--", "-x"}, nil, "--", true},
		{[]string{"--s", "--", "--", "-x"}, []string{"-x"}, "--", false},
		{[]string{"a", "--s=--", "--", "-x", "--s=y"}, []string{"a", "-x", "--s=y"}, "--", false},
		{[]string{"a", "--s", "y", "b", "--", "--"}, []string{"a", "b", "--"}, "y", false},
	} {
		fs := newFlags("test")
		sv := fs.String("s", "", "")
		var errOut bytes.Buffer
		pos, _, ok := parseFlags(env{stdin: nil, stdout: io.Discard, stderr: &errOut}, fs, "test", c.args)
		if ok == c.wantError || !c.wantError && (!slices.Equal(pos, c.pos) || *sv != c.s) {
			t.Errorf("%q: %q, --s %q, ok %v, stderr %q; want %q, --s %q", c.args, pos, *sv, ok, errOut.String(), c.pos, c.s)
		}
	}

	// A FILE that looks like a flag, after "--".
	t.Chdir(t.TempDir())
	if err := os.WriteFile("-x.json", []byte(`{"a": 1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := invoke("", "aggregate", "--", "-x.json"); got.code != exitOK || got.stdout != `{"a":1}`+"\n" {
		t.Errorf(`aggregate -- -x.json: %+v`, got)
	}
	if got := invoke("", "aggregate", "-x.json"); got.code != exitUsage || got.stderr != "argstream: flag provided but not defined: -x.json\n" {
		t.Errorf(`aggregate -x.json: %+v`, got)
	}
	if got := invoke("", "aggregate", "a.json", "--split=2", "b.json"); got.code != exitUsage || got.stderr != `argstream: more than one FILE: ["a.json" "b.json"]`+"\n" {
		t.Errorf(`aggregate a.json --split=2 b.json: %+v`, got)
	}
}

// --help prints the usage on stdout and exits 0.
func TestHelp(t *testing.T) {
	for _, c := range commands {
		for _, args := range [][]string{{c.name, "-h"}, {c.name, "--help"}, {c.name, "-help"}, {"help", c.name}, {c.name, "x.json", "--help"}} {
			got := invoke("", args...)
			if got.code != exitOK || got.stderr != "" || !strings.HasPrefix(got.stdout, "usage: argstream "+c.usage+"\n") {
				t.Errorf("%q: %+v", args, got)
			}
		}
	}
	// argstream help: each command, with what it does in one line.
	for _, h := range []string{"help", "-h", "--help"} {
		got := invoke("", h)
		if got.code != exitOK || got.stderr != "" {
			t.Errorf("%s: %+v", h, got)
		}
		for _, c := range commands {
			if c.summary == "" || !strings.Contains(got.stdout, "\n  "+c.name+" ") || !strings.Contains(got.stdout, c.summary+"\n") {
				t.Errorf("%s: no line for %s with its summary:\n%s", h, c.name, got.stdout)
			}
		}
		if strings.Contains(got.stdout, "\n  bench ") {
			t.Errorf("%s: bench is not a command of the CLI:\n%s", h, got.stdout)
		}
	}
	// A command's flags are spelt --flag, as its usage line spells them,
	// with their values and defaults.
	got := invoke("", "replay", "--help")
	for _, want := range []string{"\n  --format text|jsonl\n", "(default text)", "\n  --wire auto|anthropic|openai-chat|openai-responses|gemini|ollama|bedrock|cohere\n",
		"(default auto)", "\n  --rules-dir DIR\n", "\n  --width N\n", "\n  --framing auto|sse|jsonl|eventstream\n"} {
		if !strings.Contains(got.stdout, want) {
			t.Errorf("replay --help lacks %q:\n%s", want, got.stdout)
		}
	}
	if strings.Contains(got.stdout, "\n  -f") || strings.Contains(got.stdout, "\n  -w") {
		t.Errorf("replay --help spells a flag -flag:\n%s", got.stdout)
	}
	if got := invoke("", "bench", "x.json"); got.code != exitUsage || !strings.Contains(got.stderr, "unknown command \"bench\"") {
		t.Errorf("bench: %+v", got)
	}
}

func TestVersion(t *testing.T) {
	line := regexp.MustCompile(`^argstream (\(devel\)|(devel|v\S+) [0-9a-f]{12}(\+dirty)? \S+|v\S+) go\S+ \w+/\w+\n$`)
	for _, args := range [][]string{{"version"}, {"--version"}} {
		got := invoke("", args...)
		if got.code != exitOK || got.stderr != "" || !line.MatchString(got.stdout) {
			t.Errorf("%q: %+v", args, got)
		}
	}
	if got := invoke("", "version", "x"); got.code != exitUsage || got.stderr != "argstream: version takes no arguments, got x\n" {
		t.Errorf("version x: %+v", got)
	}
}

// Every message is one line: "argstream: FILE: what" about an input,
// "argstream: what" about the command line.
func TestMessages(t *testing.T) {
	dir := t.TempDir()
	file := writeFile(t, "dup.json", `{"path": "a", "path": "b"}`)
	missing := dir + "/missing.json"
	notJSON := writeFile(t, "chunks.json", `[1]`)
	for _, c := range []struct {
		stdin string
		args  []string
		code  int
		want  string
	}{
		{`{"path": "a", "path": "b"}`, []string{"fragments"}, exitInvalid,
			`argstream: stdin: invalid JSON at byte 14 ("/path"): duplicate object key "path"`},
		{``, []string{"aggregate", file, "--split=3"}, exitInvalid,
			`argstream: ` + file + `: invalid JSON at byte 14 ("/path"): duplicate object key "path"`},
		{`{"a": `, []string{"aggregate", "-"}, exitInvalid,
			`argstream: stdin: invalid JSON at byte 6 ("/a"): unexpected end of input`},
		{``, []string{"aggregate", missing}, exitUsage,
			`argstream: ` + missing + `: ` + syscall.ENOENT.Error()},
		{``, []string{"aggregate", dir}, exitUsage,
			`argstream: ` + dir + `: ` + syscall.EISDIR.Error()},
		{``, []string{"fragments", "--chunks", notJSON}, exitUsage,
			`argstream: ` + notJSON + `: want a JSON array of strings: `},
		{``, []string{"policy", "--rules", missing, file}, exitUsage,
			`argstream: ` + missing + `: ` + syscall.ENOENT.Error()},
		{``, []string{"fragments", "--format", "xml"}, exitUsage,
			`argstream: --format xml: want rfd or jsonl`},
		{``, []string{"fragments", "--split", "0"}, exitUsage,
			`argstream: --split 0: want a positive size or random:SEED`},
		{``, []string{"fragments", "--nope"}, exitUsage,
			`argstream: flag provided but not defined: --nope`},
		{``, []string{"policy", file}, exitUsage,
			`argstream: --rules RULES.json is required`},
		{``, []string{"nonsense"}, exitUsage,
			`argstream: unknown command "nonsense" (commands: replay, fragments, fields, aggregate, policy, proxy, version)`},
		{``, []string{"bench"}, exitUsage,
			`argstream: unknown command "bench" (commands: replay, fragments, fields, aggregate, policy, proxy, version)`},
		{``, []string{"replay", "--width", "x"}, exitUsage,
			`argstream: invalid value "x" for flag --width: `},
		{``, []string{"replay", "-width=x"}, exitUsage,
			`argstream: invalid value "x" for flag -width: `},
		{``, []string{"fragments", "--format"}, exitUsage,
			`argstream: flag needs an argument: --format`},
	} {
		got := invoke(c.stdin, c.args...)
		if got.code != c.code || !strings.HasPrefix(got.stderr, c.want) || strings.Count(got.stderr, "\n") != 1 {
			t.Errorf("%q: exit %d, stderr %q\nwant exit %d, stderr %q", c.args, got.code, got.stderr, c.code, c.want)
		}
	}
}

// A read error: exit 2, after what was read.
func TestReadError(t *testing.T) {
	var out, errOut bytes.Buffer
	stdin := io.MultiReader(strings.NewReader(`{"a": 1, `), iotest.ErrReader(errors.New("connection reset")))
	code := run([]string{"fragments"}, env{stdin: stdin, stdout: &out, stderr: &errOut})
	if code != exitUsage || errOut.String() != "argstream: stdin: connection reset\n" || out.String() != "ObjectEntry { key: \"a\", value: Scalar(Number(1)) }\nObjectEntry { key: \"a\", value: Done }\n" {
		t.Errorf("read error: exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
}
