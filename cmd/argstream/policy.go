package main

import (
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
	TotalBytes    int64  `json:"total_bytes"`
}

// runPolicy decides a policy on the arguments while they stream. The
// decision line is printed the moment the decision is known; parsing goes
// on to the end even then (a skip included), because the exit status says
// whether the arguments are valid: a decision is only about a call whose
// arguments end up valid.
func runPolicy(e env, args []string) int {
	var in input
	fs := newFlags(e, "policy", policyUsage)
	in.register(fs)
	rulesFile := fs.String("rules", "", "the rules file: {\"run\": [RULE, ...] or \"MODE\", \"paths\": [POINTER, ...]}")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if *rulesFile == "" {
		return usageError(e, errors.New("--rules RULES.json is required"))
	}
	p, ok := loadRules(e, *rulesFile)
	if !ok {
		return exitUsage
	}
	chunks, err := in.load(e, fs.Args())
	if err != nil {
		return usageError(e, err)
	}
	var total int64
	for _, c := range chunks {
		total += int64(len(c))
	}

	ev := p.Evaluator(policy.OnDecision(func(d policy.Decision, at int64) {
		line, _ := json.Marshal(decisionLine{Mode: d.Mode.String(), Rule: d.Rule, DecidedAtByte: at, TotalBytes: total})
		fmt.Fprintf(e.stdout, "%s\n", line)
	}))
	if err := feed(argstream.New(ev), chunks); err != nil {
		return report(e, err)
	}
	return exitOK
}

// loadRules reads, checks and returns the policy, printing its warnings,
// or its errors one per line.
func loadRules(e env, name string) (*policy.Policy, bool) {
	data, err := os.ReadFile(name)
	if err != nil {
		fmt.Fprintf(e.stderr, "argstream: %v\n", err)
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
