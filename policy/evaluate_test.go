package policy_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/argstream/argstream/policy"
	"github.com/go-json-experiment/json/jsontext"
)

// The test list of RFD D26's Phase 1, the pure evaluator (docs/design.md,
// "RFD D26's phases"), and the matcher semantics it rests on.
func TestEvaluate(t *testing.T) {
	const createFile = `{"run": [
		{"arg": "/path", "prefix": "src/", "mode": "unattended"},
		{"arg": "/content", "pattern": "rm -rf", "mode": "skip"},
		{"mode": "ask"}
	], "paths": ["/path"]}`
	const noCatchAll = `{"run": [
		{"arg": "/path", "prefix": "src/", "mode": "unattended"},
		{"arg": "/n", "maximum": 10, "mode": "edit"}
	], "paths": ["/path"]}`
	const modify = `{"run": [
		{"arg": "/patterns/paths", "pattern": "(^|/)\\.env($|\\.)", "mode": "skip"},
		{"mode": "unattended"}
	]}`
	for _, c := range []struct {
		name     string
		rules    string
		known    map[string]jsontext.Value
		complete bool
		want     policy.Decision
	}{
		{"catch-all decides with nothing known", `{"run": "ask"}`, known(), false, decided(policy.Ask, 0)},
		{"catch-all rule", `{"run": [{"mode": "skip"}]}`, known(), false, decided(policy.Skip, 0)},
		{"empty list is the implicit ask", `{"run": []}`, known(), false, decided(policy.Ask, policy.ImplicitRule)},
		{"single match", createFile, known("path", `"src/main.rs"`), false, decided(policy.Unattended, 0)},
		{"elimination then waiting", createFile, known("path", `"lib.rs"`), false, policy.Decision{}},
		{"elimination then match", createFile, known("path", `"lib.rs"`, "content", `"rm -rf /"`), false, decided(policy.Skip, 1)},
		{"catch-all after eliminations", createFile, known("path", `"lib.rs"`, "content", `"fn main() {}"`), false, decided(policy.Ask, 2)},
		{"waiting on a missing parameter", createFile, known("content", `"rm -rf /"`), false, policy.Decision{}},
		{"a missing parameter does not match at the end", createFile, known("content", `"rm -rf /"`), true, decided(policy.Skip, 1)},
		{"nothing at all at the end", createFile, known(), true, decided(policy.Ask, 2)},
		{"implicit fallback", noCatchAll, known("path", `"lib.rs"`, "n", `11`), false, decided(policy.Ask, policy.ImplicitRule)},
		{"implicit fallback at the end", noCatchAll, known(), true, decided(policy.Ask, policy.ImplicitRule)},
		{"a later match waits for an earlier rule", noCatchAll, known("n", `1`), false, policy.Decision{}},
		{"nested existential match", modify, known("patterns", `[{"paths": ["src/a.rs"]}, {"paths": ["a", "config/.env"]}]`), false, decided(policy.Skip, 0)},
		{"nested existential no match", modify, known("patterns", `[{"paths": ["src/a.rs"]}, {"paths": []}, {"old": ".env"}]`), false, decided(policy.Unattended, 1)},
		{"nested through an object", modify, known("patterns", `{"paths": ".env"}`), false, decided(policy.Skip, 0)},
		{"nested through arrays of arrays", modify, known("patterns", `[[{"paths": [[".env.local"]]}]]`), false, decided(policy.Skip, 0)},
		{"pointer into a scalar resolves to nothing", modify, known("patterns", `".env"`), false, decided(policy.Unattended, 1)},
		{"an array parameter means each element", createFile, known("path", `["src/b.rs", "src/a.rs"]`), false, decided(policy.Unattended, 0)},
		{"unattended needs every element", createFile, known("path", `["src/a.rs", "lib.rs"]`, "content", `"x"`), false, decided(policy.Ask, 2)},
		{"unattended needs an element", createFile, known("path", `[[]]`, "content", `"x"`), false, decided(policy.Ask, 2)},
		{"skip needs one element", createFile, known("path", `"lib.rs"`, "content", `["ls", "rm -rf /"]`), false, decided(policy.Skip, 1)},
		{"an empty array resolves to nothing", createFile, known("path", `[]`, "content", `""`), false, decided(policy.Ask, 2)},
		{"invalid JSON matches nothing", createFile, known("path", `"src/a`, "content", `"x"`), false, decided(policy.Ask, 2)},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := mustParse(t, c.rules)
			if got := p.Evaluate(c.known, c.complete); got != c.want {
				t.Errorf("Evaluate = %v, want %v", got, c.want)
			}
		})
	}
}

// match evaluates one rule on one value: true if it decides.
func match(t *testing.T, rule, value string) bool {
	t.Helper()
	p := mustParse(t, `{"run": [`+rule+`, {"mode": "ask"}]}`)
	return p.Evaluate(known("v", value), true).Rule == 0
}

// longOne is exactly 1, in a text that Go 1.26's strconv.ParseFloat misreads
// as 0.1.
var longOne = "1" + strings.Repeat("0", 800) + "e-800"

func TestMatchers(t *testing.T) {
	for _, c := range []struct {
		rule, value string
		want        bool
	}{
		// const and enum: JSON equality, exact numbers.
		{`{"arg": "/v", "const": 1, "mode": "skip"}`, `1`, true},
		{`{"arg": "/v", "const": 1, "mode": "skip"}`, `1.0`, true},
		{`{"arg": "/v", "const": 1, "mode": "skip"}`, `10e-1`, true},
		{`{"arg": "/v", "const": 1, "mode": "skip"}`, `"1"`, false},
		{`{"arg": "/v", "const": 1, "mode": "skip"}`, `true`, false},
		{`{"arg": "/v", "const": 9007199254740993, "mode": "unattended"}`, `9007199254740992`, false},
		// A restrictive rule also holds when the float64 a tool reads matches.
		{`{"arg": "/v", "const": 9007199254740993, "mode": "skip"}`, `9007199254740992`, true},
		{`{"arg": "/v", "const": 0.1, "mode": "unattended"}`, `0.1`, true},
		{`{"arg": "/v", "const": "a", "mode": "skip"}`, `"a"`, true},
		{`{"arg": "/v", "const": "a", "mode": "skip"}`, `"\u0061"`, true},
		{`{"arg": "/v", "const": "é", "mode": "skip"}`, `"e\u0301"`, false},
		{`{"arg": "/v", "const": null, "mode": "skip"}`, `null`, true},
		{`{"arg": "/v", "const": null, "mode": "skip"}`, `false`, false},
		{`{"arg": "/v", "const": false, "mode": "skip"}`, `false`, true},
		{`{"arg": "/v", "const": {"a": 1, "b": [1, "x"]}, "mode": "skip"}`, `{"b": [1.0, "x"], "a": 1}`, true},
		{`{"arg": "/v", "const": {"a": 1, "b": [1, "x"]}, "mode": "skip"}`, `{"b": ["x", 1], "a": 1}`, false},
		{`{"arg": "/v", "const": {"a": 1}, "mode": "skip"}`, `{"a": 1, "b": 2}`, false},
		{`{"arg": "/v", "const": "x", "mode": "skip"}`, `["y", "x"]`, true},
		{`{"arg": "/v", "enum": ["a", 2, null], "mode": "skip"}`, `2.00`, true},
		{`{"arg": "/v", "enum": ["a", 2, null], "mode": "skip"}`, `"2"`, false},
		{`{"arg": "/v", "enum": ["a", 2, null], "mode": "skip"}`, `null`, true},
		// pattern: unanchored RE2 search on strings only.
		{`{"arg": "/v", "pattern": "rm\\s+-rf", "mode": "skip"}`, `"cd / && rm  -rf x"`, true},
		{`{"arg": "/v", "pattern": "^ls$", "mode": "skip"}`, `"ls -la"`, false},
		{`{"arg": "/v", "pattern": "1", "mode": "skip"}`, `1`, false},
		{`{"arg": "/v", "pattern": "\\d", "mode": "skip"}`, `"٣"`, false},
		{`{"arg": "/v", "pattern": "^.$", "mode": "skip"}`, `"😀"`, true},
		// prefix on a plain string: bytes.
		{`{"arg": "/v", "prefix": "src", "mode": "skip"}`, `"src-old/x"`, true},
		{`{"arg": "/v", "prefix": "git ", "mode": "skip"}`, `"git status"`, true},
		{`{"arg": "/v", "prefix": "1", "mode": "skip"}`, `12`, false},
		// Bounds: numbers only, exact.
		{`{"arg": "/v", "minimum": 1, "mode": "skip"}`, `1`, true},
		{`{"arg": "/v", "minimum": 1, "mode": "unattended"}`, `0.999999999999999999999`, false},
		{`{"arg": "/v", "minimum": 1, "mode": "skip"}`, `0.999999999999999999999`, true},
		{`{"arg": "/v", "minimum": 1, "mode": "skip"}`, `0.9999999`, false},
		{`{"arg": "/v", "exclusive_minimum": 1, "mode": "skip"}`, `1.0`, false},
		{`{"arg": "/v", "exclusive_minimum": 1, "mode": "skip"}`, `1.000000000000000000001`, true},
		{`{"arg": "/v", "maximum": 10, "mode": "skip"}`, `1e1`, true},
		{`{"arg": "/v", "maximum": 10, "mode": "skip"}`, `-1e400`, true},
		{`{"arg": "/v", "exclusive_maximum": 10, "mode": "skip"}`, `10`, false},
		{`{"arg": "/v", "exclusive_maximum": 9007199254740993, "mode": "skip"}`, `9007199254740992`, true},
		{`{"arg": "/v", "maximum": 9007199254740992, "mode": "unattended"}`, `9007199254740993`, false},
		{`{"arg": "/v", "maximum": 9007199254740992, "mode": "skip"}`, `9007199254740993`, true},
		// A permissive bound holds for the exact decimal and the float64
		// alike: Python and Go read 99.99999999999999999 as 100.0 and
		// 1e-400 as 0.
		{`{"arg": "/v", "exclusive_maximum": 100, "mode": "unattended"}`, `99.99999999999999999`, false},
		{`{"arg": "/v", "exclusive_maximum": 100, "mode": "unattended"}`, `99.9999999999`, true},
		{`{"arg": "/v", "exclusive_minimum": 0, "mode": "unattended"}`, `1e-400`, false},
		{`{"arg": "/v", "exclusive_minimum": 0, "mode": "unattended"}`, `1e-300`, true},
		{`{"arg": "/v", "maximum": 1e308, "mode": "unattended"}`, `1e309`, false},
		{`{"arg": "/v", "maximum": 100, "mode": "unattended"}`, `100.000000000000000001`, false},
		{`{"arg": "/v", "maximum": 0.1, "mode": "unattended"}`, `0.1`, true},
		{`{"arg": "/v", "exclusive_minimum": 100, "mode": "skip"}`, `100.00000000000000001`, true},
		{`{"arg": "/v", "exclusive_maximum": 0, "mode": "skip"}`, `-1e-400`, true},
		// Go 1.26's strconv.ParseFloat reads 1<800 zeros>e-800 (exactly 1) as
		// 0.1, Go 1.27's as 1: a number text that long never passes a
		// permissive rule, and always triggers a restrictive numeric one.
		{`{"arg": "/v", "minimum": 1, "mode": "unattended"}`, longOne, false},
		{`{"arg": "/v", "const": 1, "mode": "unattended"}`, longOne, false},
		{`{"arg": "/v", "exclusive_maximum": 0.5, "mode": "skip"}`, longOne, true},
		{`{"arg": "/v", "const": 0.1, "mode": "skip"}`, longOne, true},
		{`{"arg": "/v", "minimum": 1, "mode": "skip"}`, longOne, true},
		{`{"arg": "/v", "exclusive_maximum": 0.5, "mode": "skip"}`, "1" + strings.Repeat("0", 700) + "e-700", false},
		{`{"arg": "/v", "minimum": 0, "mode": "skip"}`, `-0`, true},
		{`{"arg": "/v", "maximum": 10, "mode": "skip"}`, `[20, 5]`, true},
		// Quantifiers: unattended needs every value (and one), the others one.
		{`{"arg": "/v", "maximum": 10, "mode": "unattended"}`, `[20, 5]`, false},
		{`{"arg": "/v", "maximum": 10, "mode": "unattended"}`, `[[5], [10]]`, true},
		{`{"arg": "/v", "maximum": 100, "mode": "unattended"}`, `[[50], [500]]`, false},
		{`{"arg": "/v", "maximum": 10, "mode": "unattended"}`, `[]`, false},
		{`{"arg": "/v", "maximum": 10, "mode": "unattended", "quantifier": "any"}`, `[20, 5]`, true},
		{`{"arg": "/v", "maximum": 10, "mode": "skip", "quantifier": "all"}`, `[20, 5]`, false},
		{`{"arg": "/v", "maximum": 10, "mode": "skip", "quantifier": "all"}`, `[2, 5]`, true},
		{`{"arg": "/v", "maximum": 10, "mode": "skip"}`, `{"n": 5}`, false},
	} {
		if got := match(t, c.rule, c.value); got != c.want {
			t.Errorf("%s on %s = %v, want %v", c.rule, c.value, got, c.want)
		}
	}
}

// Numbers that arrive as strings never satisfy a bound: a string cannot
// pass an "unattended" limit, whatever it says.
func TestNumbersAsStrings(t *testing.T) {
	p := mustParse(t, `{"run": [
		{"arg": "/start_line", "maximum": 1000, "mode": "unattended"},
		{"mode": "ask"}
	]}`)
	for _, c := range []struct {
		args string
		want policy.Decision
	}{
		{`{"start_line": 1}`, decided(policy.Unattended, 0)},
		{`{"start_line": 1000.0}`, decided(policy.Unattended, 0)},
		{`{"start_line": 1001}`, decided(policy.Ask, 1)},
		{`{"start_line": "1"}`, decided(policy.Ask, 1)},
		{`{"start_line": "1000000"}`, decided(policy.Ask, 1)},
		{`{"start_line": "-1e999"}`, decided(policy.Ask, 1)},
		{`{"start_line": ["1", 2000]}`, decided(policy.Ask, 1)},
		{`{"start_line": ["1", 2]}`, decided(policy.Ask, 1)},
		{`{"start_line": [1, 2]}`, decided(policy.Unattended, 0)},
	} {
		got, err := p.EvaluateArgs(jsontext.Value(c.args))
		if err != nil || got != c.want {
			t.Errorf("EvaluateArgs(%s) = %v, %v; want %v", c.args, got, err, c.want)
		}
		v, err := stream(p, bytewise(c.args))
		if err != nil || v.Decision != c.want {
			t.Errorf("streaming %s = %v, %v; want %v", c.args, v.Decision, err, c.want)
		}
	}
}

func TestEvaluateArgs(t *testing.T) {
	p := mustParse(t, `{"run": [{"arg": "/path", "prefix": "src/", "mode": "unattended"}, {"mode": "ask"}], "paths": ["/path"]}`)
	for _, c := range []struct {
		args string
		want policy.Decision
		ok   bool
	}{
		{`{"path": "src/a.rs", "content": "x"}`, decided(policy.Unattended, 0), true},
		{` {"content": "x", "path": "./src/a.rs"} `, decided(policy.Unattended, 0), true},
		{`{"path": "src/../../a"}`, decided(policy.Ask, 1), true},
		{`["src/a.rs"]`, decided(policy.Ask, 1), true},
		{`"src/a.rs"`, decided(policy.Ask, 1), true},
		{`{"path": "src/a.rs"`, policy.Decision{}, false},
		{`{"path": "src/a.rs", "path": "x"}`, policy.Decision{}, false},
		{`{} {}`, policy.Decision{}, false},
		{``, policy.Decision{}, false},
	} {
		got, err := p.EvaluateArgs(jsontext.Value(c.args))
		if got != c.want || (err == nil) != c.ok {
			t.Errorf("EvaluateArgs(%s) = %v, %v; want %v (ok %v)", c.args, got, err, c.want, c.ok)
		}
	}
}

// A prefix on a parameter declared in "paths" compares whole components of
// normalised paths, and a path that climbs out never matches; on a plain
// string it is a byte prefix. Streaming and pure evaluation agree.
func TestPathPrefixSafety(t *testing.T) {
	p := mustParse(t, `{"run": [
		{"arg": "/path", "prefix": "src/", "mode": "unattended"},
		{"arg": "/raw", "prefix": "src/", "mode": "edit"},
		{"mode": "ask"}
	], "paths": ["/path"]}`)
	for _, c := range []struct {
		path string
		want policy.Mode
	}{
		{"src/lib.rs", policy.Unattended},
		{"./src/lib.rs", policy.Unattended},
		{"src/a/../b/lib.rs", policy.Unattended},
		{"src//lib.rs", policy.Unattended},
		// On POSIX a backslash is part of a name, and a Windows tool would
		// read it as a separator: such a path never runs unattended.
		{`src\\lib.rs`, policy.Ask},
		{"src-old/lib.rs", policy.Ask},
		{"src", policy.Ask},
		{"src/", policy.Ask},
		{"src/..", policy.Ask},
		{"src/../lib.rs", policy.Ask},
		{"src/../../etc/passwd", policy.Ask},
		{`src\\..\\..\\etc\\passwd`, policy.Ask},
		{"../src/lib.rs", policy.Ask},
		{"/src/lib.rs", policy.Ask},
		{"SRC/lib.rs", policy.Ask},
	} {
		for _, field := range []string{"path", "raw"} {
			args := `{"` + field + `": "` + c.path + `"}`
			want := c.want
			if field == "raw" { // a byte prefix
				want = policy.Ask
				if strings.HasPrefix(c.path, "src/") {
					want = policy.Edit
				}
			}
			d, err := p.EvaluateArgs(jsontext.Value(args))
			if err != nil || d.Mode != want {
				t.Errorf("%s: %v, %v; want %v", args, d, err, want)
			}
			if v, err := stream(p, bytewise(args)); err != nil || v.Mode != want {
				t.Errorf("streaming %s: %v, %v; want %v", args, v.Decision, err, want)
			}
		}
	}
}

// The bypasses of the security review, with the README's rules: in the
// default POSIX style a backslash is part of a name (src/a\b/../../x is x),
// and in either style no spelling of .env escapes the skip rule.
func TestPathStyleBypasses(t *testing.T) {
	const create = `{"run": [{"arg": "/path", "prefix": "src/", "mode": "unattended"}, {"mode": "ask"}], "paths": ["/path"]%s}`
	const modify = `{"run": [
		{"arg": "/patterns/paths", "pattern": "(^|/)\\.env($|\\.)", "mode": "skip"},
		{"arg": "/path", "prefix": "src/", "mode": "unattended"},
		{"mode": "ask"}
	], "paths": ["/path", "/patterns/paths"]%s}`
	for _, c := range []struct {
		rules, style, args string
		want               policy.Mode
	}{
		{create, "posix", `{"path": "src/a\\b/../../x"}`, policy.Ask},
		{create, "posix", `{"path": "src/a\\b\\c\\d\\e\\f\\g\\h/../../../../../../../../etc/passwd"}`, policy.Ask},
		// A Windows tool reads every backslash as a separator: src\etc\passwd.
		{create, "windows", `{"path": "src/a\\b\\c\\d\\e\\f\\g\\h/../../../../../../../../etc/passwd"}`, policy.Unattended},
		{create, "windows", `{"path": "src/a\\b\\c\\d\\e\\f\\g\\h/../../../../../../../../../etc/passwd"}`, policy.Ask},
		{create, "posix", `{"path": "src/main.rs"}`, policy.Unattended},
		{create, "windows", `{"path": "src\\main.rs"}`, policy.Unattended},
		{create, "windows", `{"path": "SRC\\Main.rs"}`, policy.Unattended},
		{create, "windows", `{"path": "src\\CON"}`, policy.Ask},
		{create, "windows", `{"path": "src\\x.rs::$DATA"}`, policy.Ask},
		{create, "windows", `{"path": "C:\\src\\x.rs"}`, policy.Ask},
		{create, "windows", `{"path": "src\\..\\..\\x.rs"}`, policy.Ask},
		{create, "posix", `{"path": ["src/a", "/etc/passwd"]}`, policy.Ask},
		{modify, "posix", `{"path": "src/a.rs", "patterns": [{"paths": ["src/ok.rs"]}]}`, policy.Unattended},
	} {
		p := mustParse(t, fmt.Sprintf(c.rules, `, "path_style": "`+c.style+`"`))
		if d, err := p.EvaluateArgs(jsontext.Value(c.args)); err != nil || d.Mode != c.want {
			t.Errorf("%s, %s: %v, %v; want %v", c.style, c.args, d, err, c.want)
		}
		if v, err := stream(p, bytewise(c.args)); err != nil || v.Mode != c.want {
			t.Errorf("streaming %s, %s: %v, %v; want %v", c.style, c.args, v.Decision, err, c.want)
		}
	}
	for _, style := range []string{"posix", "windows"} {
		p := mustParse(t, fmt.Sprintf(modify, `, "path_style": "`+style+`"`))
		for _, env := range []string{`src/.env`, `src/.ENV`, `src/.env `, `src\\.env`, `src/.env::$DATA`, `src/.env.`, `src/.env/.`, `SRC\\.Env.local`} {
			args := `{"path": "src/a.rs", "patterns": [{"paths": ["src/ok.rs", "` + env + `"]}]}`
			if d, err := p.EvaluateArgs(jsontext.Value(args)); err != nil || d != decided(policy.Skip, 0) {
				t.Errorf("%s, %s: %v, %v; want skip", style, args, d, err)
			}
			if v, err := stream(p, bytewise(args)); err != nil || v.Decision != decided(policy.Skip, 0) {
				t.Errorf("streaming %s, %s: %v, %v; want skip", style, args, v.Decision, err)
			}
		}
	}
}

// Keys a tool runtime would confuse fail the call whatever was decided: a
// Go tool matches "PATH" to the field it reads as "path".
func TestConfusableKeysAreNotExecutable(t *testing.T) {
	p := mustParse(t, `{"run": [{"arg": "/path", "prefix": "src/", "mode": "unattended"}, {"mode": "ask"}], "paths": ["/path"]}`)
	for _, args := range []string{
		`{"path": "src/a", "PATH": "/etc/passwd"}`,
		`{"path": "src/a", "path\u0000": "/etc/passwd"}`,
		`{"path": "src/a", "path": "/etc/passwd"}`,
	} {
		if d, err := p.EvaluateArgs(jsontext.Value(args)); err == nil {
			t.Errorf("EvaluateArgs(%s) = %v, want an error", args, d)
		}
		for _, chunks := range [][][]byte{{[]byte(args)}, bytewise(args)} {
			v, err := stream(p, chunks)
			if err == nil || v.Valid() || v.Executable() {
				t.Errorf("streaming %s in %d chunks: %+v, %v; want a failed, not executable call", args, len(chunks), v, err)
			}
		}
	}
}

// The spellings of issue 20, defect 7: what a tool, a shell or a Windows
// code page may expand or map to another path never runs unattended, and
// a restrictive rule takes it as matching, since it may name the file the
// rule guards. An 8.3 short name is such a spelling in Windows style only.
func TestPathSpellingBypasses(t *testing.T) {
	const (
		src = `{"run": [{"arg": "/path", "prefix": "src/", "mode": "unattended"}, {"mode": "ask"}],
			"paths": ["/path"], "path_style": %q}`
		here = `{"run": [{"arg": "/path", "prefix": "./", "mode": "unattended"}, {"mode": "ask"}],
			"paths": ["/path"], "path_style": %q}`
		guard = `{"run": [
			{"arg": "/path", "pattern": "(^|/)\\.(env|git)($|[./])", "mode": "skip"},
			{"arg": "/path", "prefix": "C:\\Program Files\\", "mode": "skip"},
			{"arg": "/path", "prefix": "", "mode": "unattended"},
			{"mode": "ask"}
		], "paths": ["/path"], "path_style": %q}`
	)
	both := []string{"posix", "windows"}
	for _, c := range []struct {
		rules  string
		styles []string
		path   string
		want   policy.Decision
	}{
		// Lookalikes of separators and dots.
		{src, both, "src/..\uFF3C..\uFF3CWindows", decided(policy.Ask, 1)},
		{src, both, "src/..\uFF0F..\uFF0Fetc/passwd", decided(policy.Ask, 1)},
		{src, both, "src/..\u2215..\u2215etc/passwd", decided(policy.Ask, 1)},
		{src, both, "src/..\u2044..\u2044etc/passwd", decided(policy.Ask, 1)},
		{src, both, "src/..\u00A5..\u00A5Windows", decided(policy.Ask, 1)},
		{src, both, "src/..\u20A9..\u20A9Windows", decided(policy.Ask, 1)},
		{src, both, "src/..\uFE68..\uFE68Windows", decided(policy.Ask, 1)},
		{src, both, "src/..\u29F5..\u29F5Windows", decided(policy.Ask, 1)},
		{src, both, "src/\uFF0E\uFF0E/\uFF0E\uFF0E/etc/passwd", decided(policy.Ask, 1)},
		{src, both, "src/\u2025/\u2025/etc/passwd", decided(policy.Ask, 1)},
		{src, both, "src/\u2024\u2024/\u2024\u2024/etc/passwd", decided(policy.Ask, 1)},
		{here, both, "C\uFF1A/Windows/win.ini", decided(policy.Ask, 1)},
		{guard, both, ".git\uFF3Chooks\uFF3Cpre-commit", decided(policy.Skip, 0)},
		{guard, both, "src/\uFF0Eenv", decided(policy.Skip, 0)},
		// Shell and cmd expansions, URL escapes.
		{here, both, "~/.ssh/authorized_keys", decided(policy.Ask, 1)},
		{here, both, "~root/.bashrc", decided(policy.Ask, 1)},
		{here, both, "$HOME/.bashrc", decided(policy.Ask, 1)},
		{here, both, "${HOME}/.profile", decided(policy.Ask, 1)},
		{here, both, "\uFF5E/.ssh/authorized_keys", decided(policy.Ask, 1)},
		{here, []string{"windows"}, `%USERPROFILE%\.ssh\authorized_keys`, decided(policy.Ask, 1)},
		{src, both, "src/%2e%2e/%2e%2e/etc/passwd", decided(policy.Ask, 1)},
		{guard, both, "~root/.bashrc", decided(policy.Skip, 0)},
		{guard, both, "$HOME/.env", decided(policy.Skip, 0)},
		{guard, both, "%2eenv", decided(policy.Skip, 0)},
		// 8.3 short names: .env, .git and Program Files in Windows style.
		{guard, []string{"windows"}, "ENV~1", decided(policy.Skip, 0)},
		{guard, []string{"windows"}, "src/ENV~1", decided(policy.Skip, 0)},
		{guard, []string{"windows"}, "GIT~1/hooks/pre-commit", decided(policy.Skip, 0)},
		{guard, []string{"windows"}, `C:\PROGRA~1\x\y.dll`, decided(policy.Skip, 0)},
		{src, []string{"windows"}, `src\ENV~1`, decided(policy.Ask, 1)},
		// In POSIX style ENV~1 is the name of a file like any other.
		{guard, []string{"posix"}, "GIT~1/hooks/pre-commit", decided(policy.Unattended, 2)},
		// Ordinary names still pass the guard and run unattended.
		{guard, both, "src/lib.rs", decided(policy.Unattended, 2)},
		{guard, both, "src/a~b.rs", decided(policy.Unattended, 2)},
		{guard, both, "src/caf\u00E9.rs", decided(policy.Unattended, 2)},
		{here, both, "src/lib.rs~", decided(policy.Unattended, 0)},
	} {
		for _, style := range c.styles {
			p := mustParse(t, fmt.Sprintf(c.rules, style))
			q, err := jsontext.AppendQuote(nil, c.path)
			if err != nil {
				t.Fatal(err)
			}
			args := `{"path": ` + string(q) + `}`
			if d, err := p.EvaluateArgs(jsontext.Value(args)); err != nil || d != c.want {
				t.Errorf("%s, %s: %v, %v; want %v", style, args, d, err, c.want)
			}
			if v, err := stream(p, bytewise(args)); err != nil || v.Decision != c.want {
				t.Errorf("streaming %s, %s: %v, %v; want %v", style, args, v.Decision, err, c.want)
			}
		}
	}
}
