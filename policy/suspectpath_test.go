package policy_test

import (
	"fmt"
	"testing"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/policy"
	"github.com/go-json-experiment/json/jsontext"
)

// moreSpellings are the kinds of suspect paths PathStyle lists that
// TestSuspectSpellings does not: those of one style, and control
// characters; and paths that are suspect in neither.
var moreSpellings = []policy.Spelling{
	{`src\x`, [2]bool{true, false}},               // a backslash, a name's byte in POSIX style
	{`C:\src\x`, [2]bool{true, false}},            // ... and a ":"
	{"src/a:b", [2]bool{true, true}},              // a stream
	{"src/a.", [2]bool{true, true}},               // a trailing dot
	{"src/a ", [2]bool{true, true}},               // a trailing space
	{"src/nul", [2]bool{true, true}},              // a reserved device name
	{"src/CON.txt", [2]bool{true, true}},          // ... with an extension
	{"//server/share/x", [2]bool{true, false}},    // UNC on Windows, implementation-defined in POSIX
	{`\\server`, [2]bool{true, true}},             // UNC without a share
	{`\\?\C:\x`, [2]bool{true, true}},             // device paths
	{"//./pipe/x", [2]bool{true, true}},           //
	{"C:x", [2]bool{true, true}},                  // drive-relative
	{"src/a*", [2]bool{false, true}},              // a wildcard
	{"src/a?b", [2]bool{false, true}},             //
	{"src/\u212Aey", [2]bool{false, true}},        // the Kelvin sign, which folds to k
	{"src/a\x00.rs", [2]bool{true, true}},         // control characters
	{"src/\x1b[31m", [2]bool{true, true}},         //
	{"src/a\nb", [2]bool{true, true}},             //
	{"", [2]bool{false, false}},                   // the empty string, which has no pieces
	{"src/a.rs", [2]bool{false, false}},           //
	{"./src/../lib/a.rs", [2]bool{false, false}},  //
	{"/etc/passwd", [2]bool{false, false}},        // outside any prefix, but not suspect
	{`C:/Users/a/x.txt`, [2]bool{true, false}},    // a ":" in POSIX style
	{"src/caf\u00E9/x.rs", [2]bool{false, false}}, //
}

// A call whose declared path is suspect never runs unattended, whichever
// rule decided Unattended: a catch-all, at offset 0, or a rule on another
// parameter, before or after the path arrives. The decision stays what the
// rules decided, and the verdict names the path: Unattended() is false,
// Executable() true (it may run once approved). Every spelling, in each
// style, in several places (first among others, in arrays), streamed whole
// and byte by byte.
func TestSuspectPathNeverUnattended(t *testing.T) {
	const paths = `"paths": ["/path", "/patterns/paths"], "path_style": %q`
	policies := []struct{ name, rules string }{
		{"catch-all", `{"run": "unattended", ` + paths + `}`},
		{"rule on another parameter", `{"run": [{"arg": "/mode", "const": "read", "mode": "unattended"}, {"mode": "ask"}], ` + paths + `}`},
	}
	// In args, %s is the path as a JSON string. at is the verdict's
	// SuspectPath if it is suspect, clean if it is not.
	shapes := []struct{ args, at, clean string }{
		{`{"path": %s, "mode": "read"}`, "/path", ""},
		{`{"mode": "read", "content": "~/x", "path": %s}`, "/path", ""},
		{`{"mode": "read", "path": ["src/a", %s, "$HOME/x"]}`, "/path/1", "/path/2"},
		{`{"patterns": [{"paths": ["src/a"]}, {"old": "~", "paths": ["src/b", [%s]]}], "mode": "read"}`, "/patterns/1/paths/1/0", ""},
	}
	spellings := append(policy.SuspectSpellings(), moreSpellings...)
	for _, pol := range policies {
		for _, style := range []policy.PathStyle{policy.POSIX, policy.Windows} {
			p := mustParse(t, fmt.Sprintf(pol.rules, style))
			for _, sp := range spellings {
				if policy.IsSuspect(sp.Path, style) != sp.Suspect[style] {
					t.Fatalf("%v: %q suspect = %v, the test says %v", style, sp.Path, !sp.Suspect[style], sp.Suspect[style])
				}
				q, err := jsontext.AppendQuote(nil, sp.Path)
				if err != nil {
					t.Fatal(err)
				}
				for _, sh := range shapes {
					args := fmt.Sprintf(sh.args, q)
					want := sh.clean
					if sp.Suspect[style] {
						want = sh.at
					}
					for _, chunks := range [][][]byte{{[]byte(args)}, bytewise(args)} {
						var reported []policy.Decision
						v, err := stream(p, chunks, policy.OnDecision(func(d policy.Decision, _ int64) { reported = append(reported, d) }))
						name := fmt.Sprintf("%s, %v, %s in %d chunks", pol.name, style, args, len(chunks))
						switch unattended := decided(policy.Unattended, 0); {
						case err != nil:
							t.Errorf("%s: %v", name, err)
						case v.Decision != unattended || len(reported) != 1 || reported[0] != unattended:
							t.Errorf("%s: decided %v, reported %v; want %v", name, v.Decision, reported, unattended)
						case v.SuspectPath != jsontext.Pointer(want):
							t.Errorf("%s: SuspectPath %q, want %q", name, v.SuspectPath, want)
						case v.Unattended() != (want == "") || !v.Executable():
							t.Errorf("%s: Unattended() %v, Executable() %v; want %v, true", name, v.Unattended(), v.Executable(), want == "")
						}
					}
				}
			}
		}
	}
}

// The verdict's SuspectPath in the other cases: after other decisions, on
// values that are not strings, without declared paths, on a stream that
// fails, and across Reset.
func TestSuspectPathVerdict(t *testing.T) {
	const (
		write = `{"run": [{"arg": "/path", "prefix": "src/", "mode": "unattended"}, {"arg": "/mode", "const": "x", "mode": "skip"}, {"mode": "ask"}], "paths": ["/path"]}`
		any   = `{"run": "unattended", "paths": ["/path"]}`
		none  = `{"run": "unattended"}`
	)
	for _, c := range []struct {
		rules, args string
		want        policy.Decision
		suspect     jsontext.Pointer
		unattended  bool
		executable  bool
		failed      bool // the stream fails
	}{
		{write, `{"path": "src/a.rs"}`, decided(policy.Unattended, 0), "", true, true, false},
		{write, `{"path": "~/a.rs"}`, decided(policy.Ask, 2), "/path", false, true, false},
		{write, `{"path": "$HOME", "mode": "x"}`, decided(policy.Skip, 1), "/path", false, false, false},
		{write, `{"path": ["src/a", "src/b"], "mode": "y"}`, decided(policy.Unattended, 0), "", true, true, false},
		// JSON escapes: what counts is the decoded text, at the decoded key.
		{any, `{"p\u0061th": "\u007e/.ssh/authorized_keys"}`, decided(policy.Unattended, 0), "/path", false, true, false},
		{any, `{"path": "src/\u0000"}`, decided(policy.Unattended, 0), "/path", false, true, false},
		// Only strings are paths; the members of an object at the pointer
		// are not the pointer's values.
		{any, `{"path": 1}`, decided(policy.Unattended, 0), "", true, true, false},
		{any, `{"path": null}`, decided(policy.Unattended, 0), "", true, true, false},
		{any, `{"path": {"a": "~"}}`, decided(policy.Unattended, 0), "", true, true, false},
		{any, `{"paths": "~", "path2": "~", "pat": "~", "": "~"}`, decided(policy.Unattended, 0), "", true, true, false},
		{any, `["~"]`, decided(policy.Unattended, 0), "", true, true, false},
		// Without "paths", nothing is a path.
		{none, `{"path": "~/.ssh/authorized_keys"}`, decided(policy.Unattended, 0), "", true, true, false},
		// A failed stream is never Unattended(), suspect or not; a suspect
		// value seen before the failure is reported.
		{any, `{"path": "src/a"`, decided(policy.Unattended, 0), "", false, false, true},
		{any, `{"path": "~", "x": `, decided(policy.Unattended, 0), "/path", false, false, true},
		{any, `{"path": "src/a", "path": "src/b"}`, decided(policy.Unattended, 0), "", false, false, true},
	} {
		p := mustParse(t, c.rules)
		for _, chunks := range [][][]byte{{[]byte(c.args)}, bytewise(c.args)} {
			v, err := stream(p, chunks)
			if (err != nil) != c.failed || v.Decision != c.want || v.SuspectPath != c.suspect ||
				v.Unattended() != c.unattended || v.Executable() != c.executable {
				t.Errorf("%s on %s in %d chunks: %+v, %v; want %v, SuspectPath %q, Unattended() %v, Executable() %v, failed %v",
					c.rules, c.args, len(chunks), v, err, c.want, c.suspect, c.unattended, c.executable, c.failed)
			}
		}
	}

	// An evaluator reused after a suspect call starts clean, and a call cut
	// in the middle of a path leaves nothing of it behind.
	ev := mustParse(t, any).Evaluator()
	s := argstream.New(ev)
	for _, c := range []struct {
		args    string
		suspect jsontext.Pointer
	}{
		{`{"path": "~"}`, "/path"},
		{`{"path": "src/a"}`, ""},
		{`{"path": ["a", "%2e"]}`, "/path/1"},
		{`{"path": "$HO`, ""},
		{`{"path": "ME"}`, ""},
	} {
		ev.Reset()
		s.Reset(fragment.Call{})
		_ = s.Feed([]byte(c.args))
		_ = s.Close()
		if v := ev.Verdict(); v.SuspectPath != c.suspect {
			t.Errorf("reused, %s: SuspectPath %q, want %q", c.args, v.SuspectPath, c.suspect)
		}
	}
}
