package policy_test

import (
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/policy"
	"github.com/argstream/argstream/sink"
)

// The test list of RFD D26's Phase 2, the streaming evaluator
// (docs/design.md, "RFD D26's phases"): each case gives the decision and the
// exact byte at which it becomes known, marked by "|" in the arguments, which
// every chunking must agree on.
func TestEvaluatorDecidesAt(t *testing.T) {
	const createFile = `{"run": [
		{"arg": "/path", "prefix": "src/", "mode": "unattended"},
		{"arg": "/content", "pattern": "rm -rf", "mode": "skip"},
		{"mode": "ask"}
	], "paths": ["/path"]}`
	const modify = `{"run": [
		{"arg": "/patterns/paths", "pattern": "(^|/)\\.env($|\\.)", "mode": "skip"},
		{"arg": "/path", "prefix": "src/", "mode": "unattended"},
		{"mode": "ask"}
	], "paths": ["/path", "/patterns/paths"]}`
	for _, c := range []struct {
		name, rules, args string
		want              policy.Decision
	}{
		{"catch-all before any byte", `{"run": "edit"}`, `|{"path": "x"}`, decided(policy.Edit, 0)},
		{"single match as the value ends", createFile, `{"path": "src/main.rs"|, "content": "fn main() {}"}`, decided(policy.Unattended, 0)},
		{"elimination, then the next rule's parameter", createFile, `{"path": "lib.rs", "content": "rm -rf /"|}`, decided(policy.Skip, 1)},
		{"catch-all after eliminations", createFile, `{"path": "lib.rs", "content": "fn main() {}"|}`, decided(policy.Ask, 2)},
		{"arrival order: a later rule's parameter first waits", createFile, `{"content": "rm -rf /", "path": "src/a.rs"|}`, decided(policy.Unattended, 0)},
		{"arrival order: a matched later rule decides on elimination", createFile, `{"content": "rm -rf /", "path": "lib.rs"|}`, decided(policy.Skip, 1)},
		{"waiting on a missing parameter until the end", createFile, `{"content": "fn main() {}"}|`, decided(policy.Ask, 2)},
		{"a missing parameter at the end", createFile, `{"content": "rm -rf /"}|  `, decided(policy.Skip, 1)},
		{"early array match", modify, `{"patterns": [{"old": "a", "paths": ["src/a.rs", ".env"|, "x"]}, {"paths": ["y"]}], "path": "src/x.rs"}`, decided(policy.Skip, 0)},
		{"array exhausted without match", modify, `{"patterns": [{"paths": ["src/a.rs"]}, {"paths": [".envy", "a.env"]}], "path": "src/x.rs"|}`, decided(policy.Unattended, 1)},
		{"array exhausted, next parameter already known", modify, `{"path": "src/x.rs", "patterns": [{"paths": ["src/a.rs"]}, {"paths": []}]|}`, decided(policy.Unattended, 1)},
		{"nested match blocked by nothing", modify, `{"path": "lib.rs", "patterns": [{"paths": [[{"x": 1}], "config/.env.local"|]}]}`, decided(policy.Skip, 0)},
		{"a number is known at the byte after it", `{"run": [{"arg": "/n", "maximum": 10, "mode": "unattended"}, {"mode": "ask"}]}`, `{"n": 10,| "content": "x"}`, decided(policy.Unattended, 0)},
		{"a number at the end of an object", `{"run": [{"arg": "/n", "maximum": 10, "mode": "unattended"}, {"mode": "ask"}]}`, `{"n": 11}|`, decided(policy.Ask, 1)},
		{"an object value completes at its brace", `{"run": [{"arg": "/o", "const": {"a": [1]}, "mode": "skip"}, {"mode": "ask"}]}`, `{"o": {"a": [1.0]}|, "z": 1}`, decided(policy.Skip, 0)},
		{"implicit ask", `{"run": [{"arg": "/path", "const": "x", "mode": "skip"}]}`, `{"path": "y"|, "content": "z"}`, decided(policy.Ask, policy.ImplicitRule)},
		{"not an object: no parameters", createFile, `["src/a.rs"]|`, decided(policy.Ask, 2)},
		{"escaped pointer tokens", `{"run": [{"arg": "/a~1b/~0c", "const": 1, "mode": "skip"}, {"mode": "ask"}]}`, `{"a/b": {"~c": 1}|}`, decided(policy.Skip, 0)},
		{"the empty key", `{"run": [{"arg": "/", "const": "x", "mode": "skip"}, {"mode": "ask"}]}`, `{"": "x"|, "path": "y"}`, decided(policy.Skip, 0)},
		// Unattended needs every value: ruled out by the first that fails,
		// matched only when the parameter is complete.
		{"all: ruled out by the first bad element", createFile, `{"content": "x", "path": ["src/a", "/etc/passwd"|, "src/b"]}`, decided(policy.Ask, 2)},
		{"all: matched when the array ends", createFile, `{"path": ["src/a", "src/b"]|, "content": "rm -rf"}`, decided(policy.Unattended, 0)},
		{"all: an empty array never matches", createFile, `{"path": [], "content": "x"|}`, decided(policy.Ask, 2)},
		{"all: nested arrays", `{"run": [{"arg": "/n", "maximum": 100, "mode": "unattended"}, {"mode": "ask"}]}`, `{"n": [[50], [500]|]}`, decided(policy.Ask, 1)},
		{"all: through objects in arrays", `{"run": [{"arg": "/p/x", "const": 1, "mode": "unattended"}, {"mode": "ask"}]}`, `{"p": [{"x": 1}, {"y": 2}, {"x": 1.0}]|}`, decided(policy.Unattended, 0)},
		{"any on unattended, explicitly", `{"run": [{"arg": "/path", "prefix": "src/", "mode": "unattended", "quantifier": "any"}, {"mode": "ask"}], "paths": ["/path"]}`, `{"path": ["src/a"|, "/etc/passwd"]}`, decided(policy.Unattended, 0)},
		{"escaped key text", `{"run": [{"arg": "/path", "const": "x", "mode": "skip"}, {"mode": "ask"}]}`, `{"p\u0061th": "\u0078"|}`, decided(policy.Skip, 0)},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := mustParse(t, c.rules)
			at := int64(strings.Index(c.args, "|"))
			args := strings.Replace(c.args, "|", "", 1)
			for _, chunks := range [][][]byte{{[]byte(args)}, bytewise(args), testutil.SplitEvery([]byte(args), 5)} {
				v, err := stream(p, chunks)
				if err != nil {
					t.Fatal(err)
				}
				if v.Decision != c.want || v.At != at || !v.Executable() != (c.want.Mode == policy.Skip) {
					t.Errorf("%d chunks: got %v at %d (executable %v), want %v at %d", len(chunks), v.Decision, v.At, v.Executable(), c.want, at)
				}
			}
		})
	}
}

// A decision that depends only on "path" arrives while a large "content"
// is still streaming, and the content is not stored.
func TestDecisionBeforeLargeContent(t *testing.T) {
	p := mustParse(t, `{"run": [{"arg": "/path", "prefix": "src/", "mode": "unattended"}, {"mode": "ask"}], "paths": ["/path"]}`)
	const head = `{"path": "src/main.rs", "content": "`
	content := strings.Repeat(`fn main() { println!(\"hello\"); }\n`, 30<<10) // 1 MiB
	args := []byte(head + content + `"}`)

	var fed int64 = -1
	var s *argstream.Stream
	ev := p.Evaluator(policy.OnDecision(func(d policy.Decision, at int64) { fed = s.Offset() }))
	s = argstream.New(ev)
	for _, c := range testutil.SplitEvery(args, 16) {
		if err := s.Feed(c); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	v := ev.Verdict()
	if want := int64(len(`{"path": "src/main.rs"`)); v.Decision != decided(policy.Unattended, 0) || v.At != want {
		t.Errorf("got %v at %d, want unattended (rule 0) at %d", v.Decision, v.At, want)
	}
	if fed < 0 || fed > int64(len(head)) {
		t.Errorf("decided after %d of %d bytes were fed, want within the first %d", fed, len(args), len(head))
	}
	if !v.Executable() {
		t.Errorf("verdict %+v not executable", v)
	}
}

// The evaluator keeps only what some rule's pointer can resolve to: a rule
// still waiting on a parameter after a 1 MiB "content" makes it store
// nothing of that content.
func TestEvaluatorDoesNotBufferUnreferencedValues(t *testing.T) {
	p := mustParse(t, `{"run": [{"arg": "/path", "prefix": "src/", "mode": "unattended"}, {"mode": "ask"}], "paths": ["/path"]}`)
	args := []byte(`{"content": "` + strings.Repeat("x", 1<<20) + `", "path": "src/a.rs"}`)
	chunks := testutil.SplitEvery(args, 4096)
	ev := p.Evaluator()
	s := argstream.New(ev)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for _, c := range chunks {
		if err := s.Feed(c); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > 256<<10 {
		t.Errorf("allocated %d bytes for 1 MiB of unreferenced content", got)
	}
	if d := ev.Decision(); d != decided(policy.Unattended, 0) {
		t.Errorf("got %v", d)
	}
}

// A decision is only about arguments that end up valid: a stream that
// fails after deciding is never executable, and the decision stays what
// it was.
func TestInvalidArgumentsAreNotExecutable(t *testing.T) {
	p := mustParse(t, `{"run": [{"arg": "/path", "prefix": "src/", "mode": "unattended"}, {"mode": "ask"}], "paths": ["/path"]}`)
	for _, args := range []string{
		`{"path": "src/a.rs", "content": "trunc`,
		`{"path": "src/a.rs", "path": "/etc/passwd"}`, // a second "path" must not slip past
		`{"path": "src/a.rs", "content": "x"} {}`,
		`{"path": "src/a.rs", "content": "\x"}`,
		`{"path": "src/a.rs", "n": 01}`,
	} {
		for _, chunks := range [][][]byte{{[]byte(args)}, bytewise(args)} {
			v, err := stream(p, chunks)
			if err == nil {
				t.Errorf("%s: no error", args)
			}
			if v.Decision != decided(policy.Unattended, 0) || v.At != int64(len(`{"path": "src/a.rs"`)) {
				t.Errorf("%s: decided %v at %d", args, v.Decision, v.At)
			}
			if v.Valid() || v.Executable() || !v.Ended || v.Err == nil {
				t.Errorf("%s: verdict %+v is valid or executable", args, v)
			}
		}
	}
	// Undecided and invalid.
	v, err := stream(p, [][]byte{[]byte(`{"content": "x", "pa`)})
	if err == nil || v.Decided() || v.At != -1 || v.Executable() {
		t.Errorf("truncated before deciding: %+v, %v", v, err)
	}
}

// With WithStopOnSkip the stream stops at a skip; without it, parsing goes on
// and the arguments are validated.
func TestSkip(t *testing.T) {
	p := mustParse(t, `{"run": [{"arg": "/command", "pattern": "\\brm\\s+-[a-zA-Z]*r", "mode": "skip"}, {"mode": "ask"}]}`)
	args := `{"command": "rm -rf /", "timeout": 30, "bad": tru}`
	decidedAt := int64(len(`{"command": "rm -rf /"`))

	ev := p.Evaluator(policy.WithStopOnSkip())
	s := argstream.New(ev)
	err := s.Feed([]byte(args))
	if !errors.Is(err, sink.ErrStop) || !errors.Is(err, policy.ErrSkip) {
		t.Fatalf("Feed = %v, want ErrSkip", err)
	}
	v := ev.Verdict()
	if v.Decision != decided(policy.Skip, 0) || v.At != decidedAt || !errors.Is(v.Err, policy.ErrSkip) || v.Executable() {
		t.Errorf("verdict %+v", v)
	}

	v, err = stream(p, [][]byte{[]byte(args)})
	if err == nil || errors.Is(err, sink.ErrStop) {
		t.Errorf("without WithStopOnSkip: %v, want the syntax error", err)
	}
	if v.Decision != decided(policy.Skip, 0) || v.At != decidedAt || v.Valid() {
		t.Errorf("without WithStopOnSkip: %+v", v)
	}

	// A skip decided before any byte stops at the first fragment.
	p = mustParse(t, `{"run": "skip"}`)
	ev = p.Evaluator(policy.WithStopOnSkip())
	if err := argstream.New(ev).Feed([]byte(`{"a": 1}`)); !errors.Is(err, policy.ErrSkip) {
		t.Errorf("catch-all skip: Feed = %v", err)
	}
}

func TestEditNeedsCompleteArguments(t *testing.T) {
	p := mustParse(t, `{"run": [{"arg": "/path", "prefix": "/etc/", "mode": "edit"}, {"mode": "ask"}], "paths": ["/path"]}`)
	ev := p.Evaluator()
	s := argstream.New(ev)
	s.Feed([]byte(`{"path": "/etc/hosts", "content": "127.0.0.1 loc`))
	d := ev.Decision()
	if d != decided(policy.Edit, 0) || !d.NeedsCompleteArguments() {
		t.Errorf("got %v (needs complete %v)", d, d.NeedsCompleteArguments())
	}
	if ev.Verdict().Executable() {
		t.Error("executable before the arguments ended")
	}
	s.Feed([]byte(`alhost\n"}`))
	if err := s.Close(); err != nil || !ev.Verdict().Executable() {
		t.Errorf("after the end: %+v, %v", ev.Verdict(), err)
	}
}

// OnDecision is called exactly once per call; Reset starts over.
func TestOnDecisionAndReset(t *testing.T) {
	p := mustParse(t, `{"run": [{"arg": "/path", "prefix": "src/", "mode": "unattended"}, {"mode": "ask"}]}`)
	var calls []string
	ev := p.Evaluator(policy.OnDecision(func(d policy.Decision, at int64) {
		calls = append(calls, d.String())
	}))
	for _, args := range []string{`{"path": "src/a"}`, `{"path": "lib/a"}`, `{"n": 1}`} {
		ev.Reset()
		s := argstream.New(ev)
		if err := s.Feed([]byte(args)); err != nil {
			t.Fatal(err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"unattended (rule 0)", "ask (rule 1)", "ask (rule 1)"}
	if strings.Join(calls, ";") != strings.Join(want, ";") {
		t.Errorf("calls %q, want %q", calls, want)
	}

	p = mustParse(t, `{"run": "ask"}`)
	calls = nil
	ev = p.Evaluator(policy.OnDecision(func(d policy.Decision, at int64) {
		calls = append(calls, d.String())
	}))
	if len(calls) != 1 || ev.DecidedAt() != 0 {
		t.Errorf("catch-all: calls %q at %d, want one at 0", calls, ev.DecidedAt())
	}
}

// Sinks that stop the stream for their own reasons leave the call not
// executable, and the evaluator sees End with their error.
func TestEvaluatorInMulti(t *testing.T) {
	p := mustParse(t, `{"run": [{"arg": "/path", "prefix": "src/", "mode": "unattended"}, {"mode": "ask"}]}`)
	ev := p.Evaluator()
	boom := errors.New("boom")
	n := 0
	other := sink.PushFunc(func(*fragment.Progress) error {
		if n++; n == 3 {
			return boom
		}
		return nil
	})
	s := argstream.New(sink.Multi(ev, other))
	err := s.Feed([]byte(`{"path": "src/a", "content": "abc"}`))
	if !errors.Is(err, boom) {
		t.Fatalf("Feed = %v", err)
	}
	v := ev.Verdict()
	if v.Decision != decided(policy.Unattended, 0) || !errors.Is(v.Err, boom) || v.Executable() {
		t.Errorf("verdict %+v", v)
	}
}
