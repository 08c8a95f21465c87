package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const policyData = "../../testdata/policy/"

// runPolicyCmd runs "argstream policy args..." with stdin and returns the
// exit status, stdout, stderr, and both as interleaved in time.
func runPolicyCmd(t *testing.T, stdin string, args ...string) (code int, stdout, stderr, both string) {
	t.Helper()
	var out, errs, all bytes.Buffer
	e := env{
		stdin:  strings.NewReader(stdin),
		stdout: teeWriter{&out, &all},
		stderr: teeWriter{&errs, &all},
	}
	code = run(append([]string{"policy"}, args...), e)
	return code, out.String(), errs.String(), all.String()
}

type teeWriter [2]*bytes.Buffer

func (w teeWriter) Write(p []byte) (int, error) {
	w[1].Write(p)
	return w[0].Write(p)
}

// policyFile writes a file in a temporary directory and returns its name.
func policyFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestPolicyDecides(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"decided long before the end", []string{"--rules", policyData + "fs_create_file.rules.json", "--split", "16", policyData + "fs_create_file_large.json"},
			`{"mode":"unattended","rule":0,"decided_at_byte":22,"total_bytes":11146}`},
		{"whole input", []string{"--rules", policyData + "fs_create_file.rules.json", "../../testdata/examples/fs_create_file.json"},
			`{"mode":"unattended","rule":0,"decided_at_byte":21,"total_bytes":91}`},
		{"random chunks", []string{"--rules", policyData + "fs_create_file.rules.json", "--split", "random:7", "../../testdata/examples/fs_create_file.json"},
			`{"mode":"unattended","rule":0,"decided_at_byte":21,"total_bytes":91}`},
		{"catch-all after eliminations", []string{"--rules", policyData + "fs_modify_file.rules.json", "--split", "1", "../../testdata/examples/fs_modify_file.json"},
			`{"mode":"ask","rule":2,"decided_at_byte":109,"total_bytes":128}`},
		{"early array match", []string{"--rules", policyData + "fs_modify_file.rules.json", policyData + "fs_modify_env.json"},
			`{"mode":"skip","rule":0,"decided_at_byte":176,"total_bytes":252}`},
		{"pattern", []string{"--rules", policyData + "shell.rules.json", policyData + "shell_rm.json"},
			`{"mode":"skip","rule":0,"decided_at_byte":52,"total_bytes":123}`},
		{"number sent as a string", []string{"--rules", policyData + "shell.rules.json", policyData + "shell_timeout_string.json"},
			`{"mode":"edit","rule":3,"decided_at_byte":41,"total_bytes":42}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr, _ := runPolicyCmd(t, "", c.args...)
			if code != exitOK || stdout != c.want+"\n" || stderr != "" {
				t.Errorf("exit %d\nstdout %s\nstderr %s\nwant %s", code, stdout, stderr, c.want)
			}
		})
	}
}

func TestPolicyInputs(t *testing.T) {
	rules := policyFile(t, "rules.json", `{"run": [{"arg": "/path", "const": "x", "mode": "skip"}]}`)
	chunks := policyFile(t, "chunks.json", `["{\"pa", "th\": \"y\", ", "", "\"n\": 1}"]`)

	// Stdin, the implicit ask (rule -1), and the warning on stderr. The
	// length of a stdin that is not a regular file is not known when the
	// decision is: total_bytes is left out.
	code, stdout, stderr, _ := runPolicyCmd(t, `{"path": "y", "n": 1}`, "--rules", rules)
	if code != exitOK || stdout != `{"mode":"ask","rule":-1,"decided_at_byte":12}`+"\n" ||
		!strings.Contains(stderr, "warning: run: no final catch-all") {
		t.Errorf("stdin: exit %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
	// Stdin redirected from a regular file: its length is known.
	f, err := os.Open(policyFile(t, "args.json", `{"path": "y", "n": 1}`))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out, errs bytes.Buffer
	code = run([]string{"policy", "--rules", rules}, env{stdin: f, stdout: &out, stderr: &errs})
	if code != exitOK || out.String() != `{"mode":"ask","rule":-1,"decided_at_byte":12,"total_bytes":21}`+"\n" {
		t.Errorf("stdin from a file: exit %d, stdout %s, stderr %s", code, out.String(), errs.String())
	}
	// --chunks, the same bytes.
	code, stdout, _, _ = runPolicyCmd(t, "", "--rules", rules, "--chunks", chunks)
	if code != exitOK || stdout != `{"mode":"ask","rule":-1,"decided_at_byte":12,"total_bytes":21}`+"\n" {
		t.Errorf("--chunks: exit %d, stdout %s", code, stdout)
	}
	// A catch-all decides before the first byte.
	skip := policyFile(t, "skip.json", `{"run": "skip"}`)
	code, stdout, _, _ = runPolicyCmd(t, `{"a": [1, 2, 3]}`, "--rules", skip, "-")
	if code != exitOK || stdout != `{"mode":"skip","rule":0,"decided_at_byte":0}`+"\n" {
		t.Errorf("catch-all: exit %d, stdout %s", code, stdout)
	}
}

// Invalid arguments exit 1, with the error on stderr after the decision
// line if one was printed: a decision is only about valid arguments.
func TestPolicyInvalidArguments(t *testing.T) {
	rules := policyData + "fs_create_file.rules.json"
	for _, c := range []struct {
		name, args, line, msg string
	}{
		{"truncated after the decision", `{"path": "src/a.rs", "content": "fn main`,
			`{"mode":"unattended","rule":0,"decided_at_byte":19}`, "unexpected end of input"},
		{"a second path after the decision", `{"path": "src/a.rs", "path": "/etc/passwd"}`,
			`{"mode":"unattended","rule":0,"decided_at_byte":19}`, "duplicate"},
		{"a PATH after the decision", `{"path": "src/a.rs", "PATH": "/etc/passwd"}`,
			`{"mode":"unattended","rule":0,"decided_at_byte":19}`, `"PATH" equals "path" under case folding`},
		{"invalid before any decision", `{"content": "x", "path" "src/a.rs"}`, "", "invalid"},
		{"empty input", ``, "", "unexpected end of input"},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, split := range []string{"", "--split=1"} {
				args := []string{"--rules", rules}
				if split != "" {
					args = append(args, split)
				}
				code, stdout, stderr, both := runPolicyCmd(t, c.args, args...)
				wantOut := ""
				if c.line != "" {
					wantOut = c.line + "\n"
				}
				if code != exitInvalid || stdout != wantOut || !strings.Contains(stderr, c.msg) || !strings.HasPrefix(both, wantOut) {
					t.Errorf("%s: exit %d\nstdout %s\nstderr %s\nwant exit 1, stdout %q, stderr containing %q", split, code, stdout, stderr, wantOut, c.msg)
				}
			}
		})
	}
}

// Invalid rules and usage errors exit 2, with nothing on stdout.
func TestPolicyUsage(t *testing.T) {
	args := "../../testdata/examples/fs_create_file.json"
	for _, c := range []struct {
		name string
		args []string
		msgs []string
	}{
		{"invalid rules", []string{"--rules", policyData + "invalid.rules.json", args}, []string{
			`invalid.rules.json: rule 1 ("arg": "/path"): "prefix": "src/lib/" can never match: rule 0 ("prefix": "src") on the same arg comes first`,
			`invalid.rules.json: rule 2 ("arg": "timeout"): "arg": "timeout" is not a JSON pointer: it must start with "/" (did you mean "/timeout"?)`,
			`invalid.rules.json: rule 2 ("arg": "timeout"): "maximum": must be a JSON number, got string "600"`,
		}},
		{"no --rules", []string{args}, []string{"--rules RULES.json is required"}},
		{"missing rules file", []string{"--rules", policyData + "nope.json", args}, []string{"nope.json"}},
		{"rules not JSON", []string{"--rules", args, args}, []string{`unknown key "path"`}},
		{"bad --split", []string{"--rules", policyData + "fs_create_file.rules.json", "--split", "0", args}, []string{"--split 0"}},
		{"two files", []string{"--rules", policyData + "fs_create_file.rules.json", args, args}, []string{"more than one FILE"}},
		{"unknown flag", []string{"--rule", "x", args}, []string{"flag provided but not defined"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr, _ := runPolicyCmd(t, "", c.args...)
			if code != exitUsage || stdout != "" {
				t.Errorf("exit %d, stdout %q", code, stdout)
			}
			for _, m := range c.msgs {
				if !strings.Contains(stderr, m) {
					t.Errorf("stderr %s\nwant %s", stderr, m)
				}
			}
		})
	}
}
