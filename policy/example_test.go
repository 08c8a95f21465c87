package policy_test

import (
	"errors"
	"fmt"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/policy"
	"github.com/argstream/argstream/sink"
	"github.com/go-json-experiment/json/jsontext"
)

// The decision depends only on "path": it is made, and can be acted on,
// while "content" is still streaming. Whether the call may run is known at
// the end, when the arguments have turned out valid.
func ExamplePolicy_Evaluator() {
	p, _, err := policy.Parse([]byte(`{
		"run": [
			{"arg": "/path", "prefix": "src/", "mode": "unattended"},
			{"mode": "ask"}
		],
		"paths": ["/path"]
	}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	var s *argstream.Stream
	ev := p.Evaluator(policy.OnDecision(func(d policy.Decision, at int64) {
		fmt.Printf("  decided %v at byte %d, with %d bytes received\n", d, at, s.Offset())
	}))
	s = argstream.New(ev)
	for _, chunk := range []string{
		`{"path": "src/ma`,
		`in.rs", "content": "fn ma`,
		`in() {\n    println!(\"hel`,
		`lo\");\n}\n"}`,
	} {
		fmt.Printf("chunk %s\n", chunk)
		if err := s.Feed([]byte(chunk)); err != nil {
			fmt.Println(err)
			return
		}
	}
	if err := s.Close(); err != nil {
		fmt.Println(err)
		return
	}
	v := ev.Verdict()
	fmt.Printf("end: %v, executable: %v, without asking: %v\n", v.Decision, v.Executable(), v.Unattended())
	// Output:
	// chunk {"path": "src/ma
	// chunk in.rs", "content": "fn ma
	//   decided unattended (rule 0) at byte 22, with 41 bytes received
	// chunk in() {\n    println!(\"hel
	// chunk lo\");\n}\n"}
	// end: unattended (rule 0), executable: true, without asking: true
}

// A catch-all decides before the first byte, but a suspect value on a
// declared path, here a home directory, keeps the call from running
// unattended: the decision stays, the verdict asks for a yes.
func ExampleVerdict_Unattended() {
	p, _, _ := policy.Parse([]byte(`{"run": "unattended", "paths": ["/path"]}`))
	for _, args := range []string{
		`{"path": "src/notes.md"}`,
		`{"path": "~/.ssh/authorized_keys"}`,
	} {
		ev := p.Evaluator()
		s := argstream.New(ev)
		_ = s.Feed([]byte(args))
		_ = s.Close()
		v := ev.Verdict()
		fmt.Printf("%s: %v at %d, suspect %q, executable %v, without asking %v\n",
			args, v.Decision, v.At, v.SuspectPath, v.Executable(), v.Unattended())
	}
	// Output:
	// {"path": "src/notes.md"}: unattended (rule 0) at 0, suspect "", executable true, without asking true
	// {"path": "~/.ssh/authorized_keys"}: unattended (rule 0) at 0, suspect "/path", executable true, without asking false
}

// A guard on every path of every pattern, existential: one ".env" anywhere
// is enough, and decides as soon as it is complete.
func ExampleParse() {
	p, warnings, err := policy.Parse([]byte(`{
		"run": [
			{"arg": "/patterns/paths", "pattern": "(^|/)\\.env($|\\.)", "mode": "skip"},
			{"arg": "/path", "prefix": "src/", "mode": "unattended"}
		],
		"paths": ["/path", "/patterns/paths"]
	}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, w := range warnings {
		fmt.Println("warning:", w)
	}
	for _, args := range []string{
		`{"path": "src/lib.rs", "patterns": [{"old": "a", "new": "b", "paths": ["src/a.rs", "config/.env"]}]}`,
		`{"path": "src/lib.rs", "patterns": [{"old": "a", "new": "b", "paths": ["src/a.rs"]}]}`,
		`{"path": "src/../../etc/passwd", "patterns": []}`,
	} {
		d, err := p.EvaluateArgs(jsontext.Value(args))
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(d)
	}
	// Output:
	// warning: run: no final catch-all: a call that matches no rule gets the implicit "ask"; end the list with {"mode": ...} to say what you mean
	// skip (rule 0)
	// unattended (rule 1)
	// ask (implicit)
}

// The same rules from Go. Every problem comes back at once, each naming
// its rule, field and reason.
func ExampleNew() {
	_, _, err := policy.New([]policy.Rule{
		{Arg: "/command", Match: policy.Prefix("git"), Mode: policy.Ask},
		{Arg: "/command", Match: policy.Prefix("git push"), Mode: policy.Skip},
		{Arg: "/timeout", Match: policy.Maximum("30s"), Mode: policy.Unattended},
		{Mode: policy.Ask},
	})
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		fmt.Println(e)
	}

	p, _, err := policy.New([]policy.Rule{
		{Arg: "/command", Match: policy.Enum(jsontext.Value(`"ls"`), jsontext.Value(`"git status"`)), Mode: policy.Unattended},
		{Arg: "/command", Match: policy.Pattern(`\brm\s+-[a-zA-Z]*[rR]`), Mode: policy.Skip},
		{Mode: policy.Ask},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	d, _ := p.EvaluateArgs(jsontext.Value(`{"command": "cd /tmp && rm -Rf ~"}`))
	fmt.Println(d)
	// Output:
	// rule 1 ("arg": "/command"): "prefix": "git push" can never match: rule 0 ("prefix": "git") on the same arg comes first and matches every value it matches
	// rule 2 ("arg": "/timeout"): "maximum": must be a JSON number, got 30s
	// skip (rule 1)
}

// The pure evaluator: a rule whose parameter has not come blocks the rules
// after it, until the arguments are complete.
func ExamplePolicy_Evaluate() {
	p, _, _ := policy.Parse([]byte(`{"run": [
		{"arg": "/path", "prefix": "/etc/", "mode": "skip"},
		{"arg": "/start_line", "maximum": 1000, "mode": "unattended"},
		{"mode": "ask"}
	], "paths": ["/path"]}`))
	known := map[string]jsontext.Value{"start_line": jsontext.Value(`1`)}
	fmt.Println(p.Evaluate(known, false))       // "path" may still come
	fmt.Println(p.Evaluate(known, true))        // it never will
	known["start_line"] = jsontext.Value(`"1"`) // a number sent as a string
	fmt.Println(p.Evaluate(known, true))
	// Output:
	// waiting
	// unattended (rule 1)
	// ask (rule 2)
}

// With WithStopOnSkip, a skip stops parsing the call at once, so that the
// caller can cancel it upstream.
func ExampleWithStopOnSkip() {
	p, _, _ := policy.Parse([]byte(`{"run": [
		{"arg": "/command", "pattern": "\\brm\\s+-[a-zA-Z]*[rR]", "mode": "skip"},
		{"mode": "ask"}
	]}`))
	ev := p.Evaluator(policy.WithStopOnSkip())
	s := argstream.New(ev)
	err := s.Feed([]byte(`{"command": "rm -rf /", "description": "clean up every`))
	fmt.Println(errors.Is(err, sink.ErrStop), ev.Decision(), ev.DecidedAt())
	fmt.Println("executable:", ev.Verdict().Executable())
	// Output:
	// true skip (rule 0) 22
	// executable: false
}
