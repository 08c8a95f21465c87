package policy_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/argstream/argstream/policy"
	"github.com/go-json-experiment/json/jsontext"
)

// ruleErrors returns the *RuleErrors in err.
func ruleErrors(err error) []*policy.RuleError {
	var out []*policy.RuleError
	var walk func(error)
	walk = func(err error) {
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range j.Unwrap() {
				walk(e)
			}
			return
		}
		var re *policy.RuleError
		if errors.As(err, &re) {
			out = append(out, re)
		}
	}
	walk(err)
	return out
}

func TestParseRejects(t *testing.T) {
	for _, c := range []struct {
		name, rules string
		// want is each error's rule index, field and a piece of its message.
		want []string
	}{
		{"not JSON", `{"run": "ask"`, []string{`-1  unexpected EOF`}},
		{"unknown top-level key", `{"run": "ask", "path": ["/path"]}`, []string{`-1  unknown key "path"`}},
		{"duplicate key", `{"run": "ask", "run": "skip"}`, []string{`-1  duplicate`}},
		{"missing run", `{"paths": []}`, []string{`-1 run missing`}},
		{"run of the wrong type", `{"run": 1}`, []string{`-1 run must be a list of rules or a mode`}},
		{"unknown bare mode", `{"run": "allow"}`, []string{`-1 run unknown mode "allow"`}},
		{"paths not a list", `{"run": "ask", "paths": "/path"}`, []string{`-1 paths must be a list`}},
		{"malformed path pointer", `{"run": "ask", "paths": ["path"]}`, []string{`-1 paths[0] did you mean "/path"`}},
		{"rule not an object", `{"run": ["ask"]}`, []string{`0  must be an object`}},
		{"unknown rule key", `{"run": [{"arg": "/path", "prefx": "src/", "mode": "ask"}]}`, []string{`0  unknown key "prefx"`}},
		{"case matters", `{"run": [{"Arg": "/path", "prefix": "src/", "mode": "ask"}]}`, []string{`0  unknown key "Arg"`}},
		{"duplicate rule key", `{"run": [{"arg": "/path", "mode": "ask", "mode": "skip"}]}`, []string{`-1  duplicate object member name "mode" within "/run/0"`}},
		{"missing mode", `{"run": [{"arg": "/path", "prefix": "src/"}]}`, []string{`0 mode missing`}},
		{"unknown mode", `{"run": [{"mode": "yolo"}]}`, []string{`0 mode unknown mode "yolo"`}},
		{"mode not a string", `{"run": [{"mode": 1}]}`, []string{`0 mode must be a string`}},
		{"pointer without slash", `{"run": [{"arg": "path", "prefix": "src/", "mode": "ask"}]}`, []string{`0 arg did you mean "/path"`}},
		{"empty pointer", `{"run": [{"arg": "", "prefix": "src/", "mode": "ask"}]}`, []string{`0 arg the empty pointer`}},
		{"bad escape in pointer", `{"run": [{"arg": "/a~2", "const": 1, "mode": "ask"}]}`, []string{`0 arg must be followed by 0 or 1`}},
		{"arg not a string", `{"run": [{"arg": ["/path"], "const": 1, "mode": "ask"}]}`, []string{`0 arg must be a JSON pointer`}},
		{"arg without matcher", `{"run": [{"arg": "/path", "mode": "ask"}]}`, []string{`0  no matcher`}},
		{"matcher without arg", `{"run": [{"prefix": "src/", "mode": "ask"}]}`, []string{`0 prefix needs an "arg"`}},
		{"two matchers", `{"run": [{"arg": "/path", "prefix": "src/", "pattern": "x", "mode": "ask"}]}`, []string{`0  "pattern" and "prefix": a rule has one matcher`}},
		{"prefix not a string", `{"run": [{"arg": "/path", "prefix": 5, "mode": "ask"}]}`, []string{`0 prefix must be a string, got number 5`}},
		{"pattern not a string", `{"run": [{"arg": "/path", "pattern": null, "mode": "ask"}]}`, []string{`0 pattern must be a string, got null`}},
		{"bad pattern", `{"run": [{"arg": "/path", "pattern": "(a", "mode": "ask"}]}`, []string{`0 pattern missing closing )`}},
		{"backreference", `{"run": [{"arg": "/path", "pattern": "(a)\\1", "mode": "ask"}]}`, []string{`0 pattern invalid escape`}},
		{"lookahead", `{"run": [{"arg": "/path", "pattern": "(?!a)", "mode": "ask"}]}`, []string{`0 pattern Perl syntax`}},
		{"string bound", `{"run": [{"arg": "/n", "minimum": "5", "mode": "ask"}]}`, []string{`0 minimum must be a JSON number, got string "5"`}},
		{"object bound", `{"run": [{"arg": "/n", "exclusive_maximum": {}, "mode": "ask"}]}`, []string{`0 exclusive_maximum must be a JSON number, got an object`}},
		{"bound on a path", `{"run": [{"arg": "/path", "maximum": 5, "mode": "ask"}], "paths": ["/path"]}`, []string{`0 maximum a bound never matches`}},
		{"number const on a path", `{"run": [{"arg": "/path", "enum": ["a", 1], "mode": "ask"}], "paths": ["/path"]}`, []string{`0 enum only strings`}},
		{"array const", `{"run": [{"arg": "/path", "const": ["a"], "mode": "ask"}]}`, []string{`0 const an array can never match`}},
		{"array in enum", `{"run": [{"arg": "/path", "enum": ["a", []], "mode": "ask"}]}`, []string{`0 enum an array can never match`}},
		{"enum not a list", `{"run": [{"arg": "/path", "enum": "a", "mode": "ask"}]}`, []string{`0 enum must be an array`}},
		{"empty enum", `{"run": [{"arg": "/path", "enum": [], "mode": "ask"}]}`, []string{`0 enum [] can never match`}},
		{"rule after a catch-all", `{"run": [{"mode": "ask"}, {"arg": "/path", "prefix": "src/", "mode": "skip"}]}`, []string{`1  rule 0 is a catch-all`}},
		{"catch-all after a catch-all", `{"run": [{"mode": "ask"}, {"mode": "skip"}]}`, []string{`1  rule 0 is a catch-all`}},
		{"longer prefix after shorter", `{"run": [{"arg": "/path", "prefix": "sr", "mode": "ask"}, {"arg": "/path", "prefix": "src", "mode": "skip"}]}`,
			[]string{`1 prefix "src" can never match: rule 0 ("prefix": "sr") on the same arg`}},
		{"longer path prefix after shorter", `{"run": [{"arg": "/path", "prefix": "./src", "mode": "ask"}, {"arg": "/path", "prefix": "src/lib/", "mode": "skip"}], "paths": ["/path"]}`,
			[]string{`1 prefix can never match`}},
		{"same pattern twice", `{"run": [{"arg": "/c", "pattern": "a+", "mode": "ask"}, {"arg": "/c", "pattern": "a+", "mode": "skip"}]}`, []string{`1 pattern can never match`}},
		{"const matched by an earlier pattern", `{"run": [{"arg": "/c", "pattern": "^rm", "mode": "skip"}, {"arg": "/c", "const": "rm -rf", "mode": "ask"}]}`, []string{`1 const can never match`}},
		{"enum within an earlier enum", `{"run": [{"arg": "/c", "enum": [1, 2, 3], "mode": "skip"}, {"arg": "/c", "enum": [3.0, 1], "mode": "ask"}]}`, []string{`1 enum can never match`}},
		{"tighter minimum after looser", `{"run": [{"arg": "/n", "minimum": 5, "mode": "skip"}, {"arg": "/n", "exclusive_minimum": 5, "mode": "ask"}]}`, []string{`1 exclusive_minimum can never match`}},
		{"tighter maximum after looser", `{"run": [{"arg": "/n", "exclusive_maximum": 5, "mode": "skip"}, {"arg": "/n", "maximum": 4.99, "mode": "ask"}]}`, []string{`1 maximum can never match`}},
		{"every problem at once", `{"run": [
			{"arg": "/a", "prefix": 1, "mode": "ask"},
			{"arg": "b", "const": 1, "mode": "nope"},
			{"mode": "ask"},
			{"arg": "/c", "const": 1, "mode": "ask"}
		], "paths": ["x"]}`, []string{`-1 paths[0] did you mean "/x"`, `0 prefix must be a string`, `1 mode unknown mode "nope"`, `1 arg did you mean "/b"`, `3  rule 2 is a catch-all`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, _, err := policy.Parse([]byte(c.rules))
			if err == nil || p != nil {
				t.Fatalf("accepted")
			}
			got := ruleErrors(err)
			if len(got) != len(c.want) {
				t.Fatalf("got %d errors, want %d:\n%v", len(got), len(c.want), err)
			}
			for i, w := range c.want {
				rule, rest, _ := strings.Cut(w, " ")
				field, msg, _ := strings.Cut(rest, " ")
				g := got[i]
				if g.Rule != atoi(rule) || g.Field != field || !strings.Contains(g.Error(), msg) {
					t.Errorf("error %d: rule %d, field %q: %v\nwant rule %s, field %q, containing %q", i, g.Rule, g.Field, g, rule, field, msg)
				}
			}
		})
	}
}

func atoi(s string) int {
	n := 0
	neg := strings.HasPrefix(s, "-")
	for _, c := range strings.TrimPrefix(s, "-") {
		n = n*10 + int(c-'0')
	}
	if neg {
		return -n
	}
	return n
}

// Rules that look alike but can each decide are accepted.
func TestParseAcceptsReachable(t *testing.T) {
	for _, rules := range []string{
		`{"run": [{"arg": "/path", "prefix": "src", "mode": "ask"}, {"arg": "/path", "prefix": "sr", "mode": "skip"}, {"mode": "ask"}]}`,
		`{"run": [{"arg": "/path", "prefix": "src/", "mode": "ask"}, {"arg": "/path", "prefix": "src", "mode": "skip"}, {"mode": "ask"}], "paths": ["/path"]}`,
		`{"run": [{"arg": "/path", "prefix": "src", "mode": "ask"}, {"arg": "/path", "prefix": "src-old", "mode": "skip"}, {"mode": "ask"}], "paths": ["/path"]}`,
		`{"run": [{"arg": "/path", "prefix": "src", "mode": "ask"}, {"arg": "/other", "prefix": "src/x", "mode": "skip"}, {"mode": "ask"}]}`,
		`{"run": [{"arg": "/n", "exclusive_minimum": 5, "mode": "skip"}, {"arg": "/n", "minimum": 5, "mode": "ask"}, {"mode": "ask"}]}`,
		`{"run": [{"arg": "/n", "minimum": 5, "mode": "skip"}, {"arg": "/n", "maximum": 10, "mode": "ask"}, {"mode": "ask"}]}`,
		`{"run": [{"arg": "/n", "enum": [1, 2], "mode": "skip"}, {"arg": "/n", "enum": [2, 3], "mode": "ask"}, {"mode": "ask"}]}`,
		`{"run": [{"arg": "/c", "pattern": "^rm", "mode": "skip"}, {"arg": "/c", "const": "ls", "mode": "ask"}, {"mode": "ask"}]}`,
		`{"run": [{"arg": "/c", "const": 1, "mode": "skip"}, {"arg": "/c", "const": "1", "mode": "ask"}, {"mode": "ask"}]}`,
		`{"run": [{"arg": "/a~1b", "const": {"x": [1, 2]}, "mode": "skip"}, {"mode": "edit"}]}`,
		`{"run": [{"arg": "/", "const": null, "mode": "skip"}, {"mode": "unattended"}]}`,
		// A restrictive rule takes every suspect value as matching, the
		// suspect const "src/a." among them, but not "src/a", which the
		// const also matches.
		`{"run": [{"arg": "/path", "prefix": "lib/", "mode": "skip"}, {"arg": "/path", "const": "src/a.", "mode": "ask"}, {"mode": "ask"}], "paths": ["/path"], "path_style": "windows"}`,
		`{"run": [{"arg": "/path", "prefix": "lib/", "mode": "skip"}, {"arg": "/path", "enum": ["src/a.", "src/b"], "mode": "unattended"}, {"mode": "ask"}], "paths": ["/path"], "path_style": "windows"}`,
	} {
		if _, warns, err := policy.Parse([]byte(rules)); err != nil || len(warns) > 0 {
			t.Errorf("%s: %v, warnings %v", rules, err, warns)
		}
	}
}

func TestWarnings(t *testing.T) {
	for _, c := range []struct {
		rules string
		want  []string
	}{
		{`{"run": [{"arg": "/path", "prefix": "src/", "mode": "unattended"}]}`, []string{`run: no final catch-all`}},
		{`{"run": []}`, []string{`run: no rules`}},
		// A path no rule names still counts: a suspect one never runs
		// unattended.
		{`{"run": "unattended", "paths": ["/path"]}`, nil},
		{`{"run": [{"arg": "/patterns/0/paths", "pattern": "x", "mode": "skip"}, {"mode": "ask"}]}`, []string{`rule 0 ("arg": "/patterns/0/paths"): "arg": token "0" names the object key "0"`}},
	} {
		p, warns, err := policy.Parse([]byte(c.rules))
		if err != nil || p == nil {
			t.Errorf("%s: %v", c.rules, err)
			continue
		}
		var got []string
		for _, w := range warns {
			got = append(got, w.String())
		}
		if len(got) != len(c.want) {
			t.Errorf("%s: warnings %q, want %q", c.rules, got, c.want)
			continue
		}
		for i := range got {
			if !strings.HasPrefix(got[i], c.want[i]) {
				t.Errorf("%s: warning %q, want %q...", c.rules, got[i], c.want[i])
			}
		}
	}
}

// The message names the rule, the field and the reason.
func TestRuleErrorMessage(t *testing.T) {
	_, _, err := policy.Parse([]byte(`{"run": [
		{"arg": "/path", "prefix": "sr", "mode": "ask"},
		{"arg": "/path", "prefix": "src", "mode": "unattended"},
		{"mode": "ask"}]}`))
	const want = `rule 1 ("arg": "/path"): "prefix": "src" can never match: rule 0 ("prefix": "sr") on the same arg comes first and matches every value it matches`
	if err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
}

// New takes the same rules from Go, and checks them the same way.
func TestNew(t *testing.T) {
	p, warns, err := policy.New([]policy.Rule{
		{Arg: "/path", Match: policy.Prefix("src/"), Mode: policy.Unattended},
		{Arg: "/n", Match: policy.Maximum("10"), Mode: policy.Unattended},
		{Arg: "/n", Match: policy.ExclusiveMinimum("1e3"), Mode: policy.Skip},
		{Arg: "/mode", Match: policy.Enum(jsontext.Value(`"a"`), jsontext.Value(`1`)), Mode: policy.Edit},
		{Arg: "/c", Match: policy.Pattern(`rm\s+-rf`), Mode: policy.Skip},
		{Arg: "/o", Match: policy.Const(jsontext.Value(`{"k": null}`)), Mode: policy.Skip},
		{Arg: "/n", Match: policy.Minimum("-5"), Mode: policy.Ask},
		{Mode: policy.Ask},
	}, policy.WithPaths("/path"))
	if err != nil || len(warns) > 0 {
		t.Fatal(err, warns)
	}
	for args, want := range map[string]policy.Decision{
		`{"path": "./src/x", "n": 1}`:           decided(policy.Unattended, 0),
		`{"path": "src-old/x", "n": 1}`:         decided(policy.Unattended, 1),
		`{"path": "x", "n": 1001}`:              decided(policy.Skip, 2),
		`{"path": "x", "n": 1000, "mode": 1.0}`: decided(policy.Edit, 3),
		`{"o": {"k": null}}`:                    decided(policy.Skip, 5),
		`{"n": -5}`:                             decided(policy.Unattended, 1),
	} {
		if got, err := p.EvaluateArgs(jsontext.Value(args)); err != nil || got != want {
			t.Errorf("%s: %v, %v; want %v", args, got, err, want)
		}
	}

	_, _, err = policy.New([]policy.Rule{
		{Arg: "/path", Match: policy.Prefix("src"), Mode: policy.Skip},
		{Arg: "/path", Match: policy.Prefix("src/lib"), Mode: policy.Skip},
		{Arg: "/n", Match: policy.Minimum("one"), Mode: policy.Skip},
		{Arg: "/n", Match: policy.Pattern("\xff"), Mode: policy.Skip},
		{Arg: "/x", Mode: 9},
		{Match: policy.Const(jsontext.Value(`1`)), Mode: policy.Ask},
	})
	want := []string{
		`rule 1 ("arg": "/path"): "prefix": "src/lib" can never match`,
		`rule 2 ("arg": "/n"): "minimum": must be a JSON number, got one`,
		`rule 3 ("arg": "/n"): "pattern": "\xff" is not valid UTF-8`,
		`rule 4 ("arg": "/x"): "mode": unknown mode Mode(9)`,
		`rule 4 ("arg": "/x"): no matcher`,
		`rule 5: "const": a matcher needs an "arg"`,
	}
	got := ruleErrors(err)
	if len(got) != len(want) {
		t.Fatalf("got %v, want %d errors", err, len(want))
	}
	for i := range want {
		if !strings.HasPrefix(got[i].Error(), want[i]) {
			t.Errorf("got  %v\nwant %s...", got[i], want[i])
		}
	}
}

func TestParseMode(t *testing.T) {
	for _, m := range []policy.Mode{policy.Ask, policy.Unattended, policy.Edit, policy.Skip} {
		got, err := policy.ParseMode(m.String())
		if err != nil || got != m {
			t.Errorf("ParseMode(%q) = %v, %v", m.String(), got, err)
		}
		if text, err := m.MarshalText(); err != nil || string(text) != m.String() {
			t.Errorf("MarshalText(%v) = %s, %v", m, text, err)
		}
	}
	for _, s := range []string{"", "Ask", "ASK", "deny", " ask"} {
		if _, err := policy.ParseMode(s); err == nil {
			t.Errorf("ParseMode(%q) accepted", s)
		}
	}
	if _, err := policy.Mode(0).MarshalText(); err == nil {
		t.Error("the zero Mode marshalled")
	}
}
