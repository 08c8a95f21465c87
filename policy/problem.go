package policy

import (
	"fmt"
	"strings"
)

// RuleError is one reason a policy was refused: which rule, which field,
// why. [New] and [Parse] return every problem they find, joined
// ([errors.Join]); [errors.As] finds the first, and the joined error's
// Unwrap() []error gives them all.
type RuleError struct {
	// Rule is the rule's 0-based index in the list, or -1 for a problem
	// outside the rules ("paths", or the file as a whole).
	Rule int
	// Arg is the rule's "arg", or "" for a catch-all.
	Arg string
	// Field is the key at fault: "arg", "mode", a matcher key such as
	// "prefix", "paths[1]", "run"; or "" for the rule as a whole.
	Field string
	// Err says why.
	Err error
}

func (e *RuleError) Error() string { return describe(e.Rule, e.Arg, e.Field, e.Err.Error()) }

// Unwrap returns e.Err.
func (e *RuleError) Unwrap() error { return e.Err }

// Warning is a problem that does not stop a policy from working as written,
// such as a list without a final catch-all.
type Warning struct {
	Rule  int    // as in RuleError
	Arg   string // as in RuleError
	Field string // as in RuleError
	Msg   string // what to look at
}

// String returns the warning in the form of a [RuleError]'s message.
func (w Warning) String() string { return describe(w.Rule, w.Arg, w.Field, w.Msg) }

// describe writes `rule 2 ("arg": "/path"): "prefix": why`, `rule 3: why`
// or `paths[1]: why`.
func describe(rule int, arg, field, why string) string {
	var b strings.Builder
	if rule >= 0 {
		fmt.Fprintf(&b, "rule %d", rule)
		if arg != "" {
			fmt.Fprintf(&b, " (\"arg\": %q)", arg)
		}
		b.WriteString(": ")
		if field != "" {
			fmt.Fprintf(&b, "%q: ", field)
		}
	} else if field != "" {
		b.WriteString(field + ": ")
	}
	b.WriteString(why)
	return b.String()
}
