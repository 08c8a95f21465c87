package main

// The policies of --rules and --rules-dir, for replay and proxy.

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/argstream/argstream/policy"
)

// policies are the policy of each tool, from --rules or --rules-dir.
type policies struct {
	all    *policy.Policy            // --rules: every tool's
	byTool map[string]*policy.Policy // --rules-dir, by tool name; nil for --rules
}

// unlistedPolicy is the policy of a tool that --rules-dir has no file for:
// no rules, so the implicit ask (rule -1) decides at the call's start.
var unlistedPolicy = func() *policy.Policy {
	p, _, err := policy.New(nil)
	if err != nil {
		panic(err)
	}
	return p
}()

// lookup is toolcall's policy lookup. A tool name is only ever a key in
// the map of the files listed in DIR, never joined into a path.
func (ps *policies) lookup(name string) *policy.Policy {
	if ps.byTool == nil {
		return ps.all
	}
	if p := ps.byTool[name]; p != nil {
		return p
	}
	return unlistedPolicy
}

// unlisted reports whether --rules-dir has no file for the tool name.
func (ps *policies) unlisted(name string) bool {
	return ps != nil && ps.byTool != nil && ps.byTool[name] == nil
}

// rulesFlags adds --rules and --rules-dir to fs, for replay and proxy,
// which read them the same way (loadPolicies).
func rulesFlags(fs *flag.FlagSet) (file, dir *string) {
	file = fs.String("rules", "", "the policy of every tool, `RULES.json` (as for argstream policy)")
	dir = fs.String("rules-dir", "", "a policy per tool, `DIR`/TOOLNAME.json; a tool without one gets ask")
	return file, dir
}

// loadPolicies loads --rules or --rules-dir, printing their warnings, or
// their errors, each naming its file.
func loadPolicies(e env, file, dir string) (*policies, bool) {
	switch {
	case file != "":
		p, ok := loadRules(e, file)
		return &policies{all: p}, ok
	case dir != "":
		return loadRulesDir(e, dir)
	}
	return nil, true
}

// loadRulesDir loads every DIR/TOOLNAME.json, listed from DIR; other files
// are ignored.
func loadRulesDir(e env, dir string) (*policies, bool) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		usageError(e, &ioError{dir, err})
		return nil, false
	}
	ps := &policies{byTool: make(map[string]*policy.Policy)}
	ok := true
	for _, ent := range entries {
		tool, isRules := strings.CutSuffix(ent.Name(), ".json")
		if !isRules {
			continue
		}
		file := filepath.Join(dir, ent.Name())
		if tool == "" {
			usageError(e, &ioError{file, errors.New("no tool name: a rules file is named TOOLNAME.json")})
			ok = false
			continue
		}
		p, loaded := loadRules(e, file)
		if !loaded {
			ok = false
			continue
		}
		ps.byTool[tool] = p
	}
	if ok && len(ps.byTool) == 0 {
		fmt.Fprintf(e.stderr, "argstream: %s: warning: no TOOLNAME.json file: every call gets ask\n", dir)
	}
	return ps, ok
}
