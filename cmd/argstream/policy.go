package main

import (
	"bufio"
	"errors"
	"fmt"
	"os"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/policy"
	"github.com/go-json-experiment/json"
)

const policyUsage = "policy --rules RULES.json " + inputUsage + " [FILE]"

// decisionLine is the one JSON line policy prints.
type decisionLine struct {
	Mode          string `json:"mode"`
	Rule          int    `json:"rule"`
	DecidedAtByte int64  `json:"decided_at_byte"`
	// TotalBytes is the input's length when it is known before the input
	// is read: a regular file (FILE, or stdin redirected from one) and
	// --chunks. It is left out for a pipe.
	TotalBytes *int64 `json:"total_bytes,omitzero"`
}

// runPolicy decides a policy on the arguments while they stream. The
// decision line is printed, and flushed, the moment the decision is known,
// while the rest of a pipe's input is still to come; parsing goes on to
// the end even then (a skip included), because the exit status says
// whether the arguments are valid: a decision is only about a call whose
// arguments end up valid.
func runPolicy(e env, args []string) int {
	fs := newFlags("policy")
	rulesFile := fs.String("rules", "", "the rules, `RULES.json`: {\"run\": [RULE, ...] or \"MODE\", \"paths\": [POINTER, ...]}")
	var p *policy.Policy
	src, code, ok := openCallInput(e, fs, policyUsage, args, func() (int, bool) {
		if *rulesFile == "" {
			return usageError(e, errors.New("--rules RULES.json is required")), false
		}
		var ok bool
		p, ok = loadRules(e, *rulesFile)
		return exitUsage, ok
	})
	if !ok {
		return code
	}
	defer src.close()
	var total *int64
	if src.size >= 0 {
		total = &src.size
	}

	w := bufio.NewWriter(e.stdout)
	ev := p.Evaluator(policy.OnDecision(func(d policy.Decision, at int64) {
		line, _ := json.Marshal(decisionLine{Mode: d.Mode.String(), Rule: d.Rule, DecidedAtByte: at, TotalBytes: total})
		fmt.Fprintf(w, "%s\n", line)
	}))
	return report(e, src.name, src.feed(argstream.New(ev, src.opts...), w.Flush))
}

// loadRules reads, checks and returns the policy, printing its warnings,
// or its errors one per line.
func loadRules(e env, name string) (*policy.Policy, bool) {
	data, err := os.ReadFile(name)
	if err != nil {
		usageError(e, &ioError{name, err})
		return nil, false
	}
	p, warns, err := policy.Parse(data)
	for _, w := range warns {
		fmt.Fprintf(e.stderr, "argstream: %s: warning: %s\n", name, w)
	}
	if err != nil {
		errs := []error{err}
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			errs = j.Unwrap()
		}
		for _, err := range errs {
			fmt.Fprintf(e.stderr, "argstream: %s: %v\n", name, err)
		}
		return nil, false
	}
	return p, true
}
