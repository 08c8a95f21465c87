package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/argstream/argstream/dialect"
)

const textCalls = "../../testdata/textcalls/"

// The same two calls written in each syntax replay to the same calls, the
// same decisions at the same parameters, and the same prose.
func TestReplaySyntaxes(t *testing.T) {
	wantArgs := map[string]string{
		"read_files": `{"project":"notes","paths":["Cargo.toml","src/main.rs"],"max_lines":200}`,
		"write_file": `{"project":"notes","path":"src/main.rs","content":"fn main() {\n    println!(\"a < b, ^^^ and --- inside are content\");\n}"}`,
	}
	// The parameter each policy decides on: read_files at max_lines,
	// write_file at path, before its content streams.
	wantDecidedAfter := map[string]string{"read_files": "max_lines", "write_file": "path"}
	for _, syn := range dialect.SyntaxNames() {
		res := replayCmd(nil, "--syntax", syn, "--schema", textCalls+"tools.json",
			"--rules-dir", textCalls+"rules", "--format", "jsonl", textCalls+syn+".txt")
		if res.code != 0 {
			t.Fatalf("%s: exit %d: %s", syn, res.code, res.stderr)
		}
		evs := parseEvents(t, res.stdout)
		var prose strings.Builder
		names := map[int64]string{}
		lastParam := map[int64]string{} // the parameter of the last fragment seen, per call
		for i, ev := range evs {
			switch ev.Event {
			case "text":
				prose.WriteString(*ev.Text)
			case "start":
				names[*ev.Index] = *ev.Name
			case "fragment":
				if len(ev.Path) > 0 {
					lastParam[*ev.Index], _ = ev.Path[0].(string)
				}
			case "decision":
				name := names[*ev.Index]
				if ev.Mode != "unattended" || *ev.Rule != 0 {
					t.Errorf("%s: %s decided %s rule %d, want unattended rule 0", syn, name, ev.Mode, *ev.Rule)
				}
				if got := lastParam[*ev.Index]; got != wantDecidedAfter[name] {
					t.Errorf("%s: %s decided after a fragment of %q, want %q", syn, name, got, wantDecidedAfter[name])
				}
				if name == "write_file" && !slices.ContainsFunc(evs[i:], func(e replayEvent) bool {
					return e.Event == "fragment" && len(e.Path) > 0 && e.Path[0] == "content"
				}) {
					t.Errorf("%s: write_file decided after its content had streamed", syn)
				}
			case "end":
				if !*ev.Executable {
					t.Errorf("%s: %s not executable: %s", syn, *ev.Name, ev.Error.Message)
					continue
				}
				var got, want any
				json.Unmarshal(ev.Arguments, &got)
				json.Unmarshal([]byte(wantArgs[*ev.Name]), &want)
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("%s: %s arguments (-want +got):\n%s", syn, *ev.Name, diff)
				}
			}
		}
		if len(names) != 2 {
			t.Errorf("%s: %d calls, want 2", syn, len(names))
		}
		text := prose.String()
		if !strings.HasPrefix(text, "I will read the manifest first, then write the entry point.\n\n") ||
			!strings.HasSuffix(text, "Done: both calls are above.\n") {
			t.Errorf("%s: prose %q", syn, text)
		}
		for _, call := range []string{"^^^", "<tool", "<param", "<function", "project", "[TOOL_CALLS]", "<|", "<｜"} {
			if strings.Contains(text, call) {
				t.Errorf("%s: prose holds call text %q: %q", syn, call, text)
			}
		}
	}
}

// aggregate --syntax reads a single call.
func TestAggregateSyntax(t *testing.T) {
	for _, tc := range []struct{ syntax, in, want string }{
		{"caret", "^^^read_files\npaths: [\na\nb\n]\nmax_lines: 3\n^^^\n", `{"paths":["a","b"],"max_lines":3}`},
		{"xml", "<tool:read_files><param:paths>a</param:paths><param:paths>b</param:paths><param:max_lines>3</param:max_lines></tool:read_files>", `{"paths":["a","b"],"max_lines":3}`},
		{"qwen", "<tool_call>\n<function=read_files>\n<parameter=paths>\n[\"a\", \"b\"]\n</parameter>\n<parameter=max_lines>\n3\n</parameter>\n</function>\n</tool_call>", `{"paths":["a","b"],"max_lines":3}`},
	} {
		res := invoke(tc.in, "aggregate", "--syntax", tc.syntax, "--schema", textCalls+"tools.json", "--split", "3")
		if res.code != 0 || res.stdout != tc.want+"\n" {
			t.Errorf("%s: exit %d, %q %s, want %s", tc.syntax, res.code, res.stdout, res.stderr, tc.want)
		}
	}
	// Without a schema, every value is a string.
	res := invoke("^^^read_files\nmax_lines: 3\n^^^\n", "aggregate", "--syntax", "caret")
	if res.code != 0 || res.stdout != `{"max_lines":"3"}`+"\n" {
		t.Errorf("no schema: exit %d, %q %s", res.code, res.stdout, res.stderr)
	}
	// A block without its closing fence is not complete.
	res = invoke("^^^read_files\nmax_lines: 3\n", "aggregate", "--syntax", "caret")
	if res.code != 1 || !strings.Contains(res.stderr, "line 3") {
		t.Errorf("no closing fence: exit %d, %q %s", res.code, res.stdout, res.stderr)
	}
}

func TestSyntaxUsage(t *testing.T) {
	for _, args := range [][]string{
		{"aggregate", "--syntax", "yaml"},
		{"aggregate", "--schema", textCalls + "tools.json"},
		{"aggregate", "--syntax", "caret", "--schema", textCalls + "missing.json"},
		{"replay", "--syntax", "caret", "--wire", "anthropic"},
		{"replay", "--schema", textCalls + "tools.json"},
		{"replay", "--syntax", "toml"},
	} {
		if res := invoke("", args...); res.code != 2 {
			t.Errorf("%q: exit %d, want 2: %s", args, res.code, res.stderr)
		}
	}
}

// --render draws the calls of a text as it draws a provider's; a call
// declined at the prompt (no terminal: not approved) stops the reading.
func TestReplaySyntaxRender(t *testing.T) {
	res := replayCmd(strings.NewReader(""), "--syntax", "caret", "--schema", textCalls+"tools.json",
		"--rules-dir", textCalls+"rules", "--render", "function_call", "--pace", "none", textCalls+"caret.txt")
	for _, want := range []string{"Calling tool read_files(project: \"notes\"", "Calling tool write_file(", "│ fn main() {",
		"call 1 (no id) write_file: allowed by the policy; unattended (rule 0)"} {
		if !strings.Contains(res.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, res.stdout)
		}
	}
	if res.code != 0 {
		t.Errorf("exit %d: %s", res.code, res.stderr)
	}
	// Without the schema max_lines is "200", which no maximum passes: ask.
	res = replayCmd(strings.NewReader(""), "--syntax", "caret", "--rules-dir", textCalls+"rules",
		"--render", "json", "--pace", "none", textCalls+"caret.txt")
	if res.code != 1 || !strings.Contains(res.stdout, "? [y/n/e] n (no terminal to ask on: not approved)") ||
		!strings.Contains(res.stdout, "stopped reading: the declined call was the only one pending") ||
		strings.Contains(res.stdout, "write_file") {
		t.Errorf("exit %d:\n%s\n%s", res.code, res.stdout, res.stderr)
	}
}
