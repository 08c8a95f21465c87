package policy

import "fmt"

// Mode is what to do with a tool call.
type Mode uint8

// Modes. The zero [Mode] is no mode: a [Decision] that is still waiting.
const (
	Ask        Mode = iota + 1 // ask the user before running the call
	Unattended                 // run the call without asking
	Edit                       // open the complete arguments for editing, then run
	Skip                       // do not run the call
)

var modeNames = [...]string{Ask: "ask", Unattended: "unattended", Edit: "edit", Skip: "skip"}

// ParseMode returns the [Mode] named s: "ask", "unattended", "edit" or "skip".
func ParseMode(s string) (Mode, error) {
	for m, name := range modeNames {
		if name != "" && name == s {
			return Mode(m), nil
		}
	}
	return 0, fmt.Errorf("unknown mode %q (want ask, unattended, edit or skip)", s)
}

// String returns the mode's name as the rules file spells it, or "waiting"
// for the zero [Mode].
func (m Mode) String() string {
	if m == 0 {
		return "waiting"
	}
	if int(m) < len(modeNames) {
		return modeNames[m]
	}
	return fmt.Sprintf("Mode(%d)", uint8(m))
}

// valid reports whether m is one of the four modes.
func (m Mode) valid() bool { return m >= Ask && m <= Skip }

// MarshalText returns the mode's name. The zero [Mode] has none.
func (m Mode) MarshalText() ([]byte, error) {
	if !m.valid() {
		return nil, fmt.Errorf("policy: cannot marshal %v", m)
	}
	return []byte(modeNames[m]), nil
}

// UnmarshalText sets m to the mode named by text (see [ParseMode]).
func (m *Mode) UnmarshalText(text []byte) error {
	mode, err := ParseMode(string(text))
	if err != nil {
		return err
	}
	*m = mode
	return nil
}

// ImplicitRule is the [Rule] index of a [Decision] made by the implicit ask
// that closes every rule list: no rule matched.
const ImplicitRule = -1

// Decision is the outcome of evaluating a policy: a [Mode] and the rule that
// chose it. The zero Decision is "waiting": the first rule that is neither
// matched nor eliminated needs a parameter that has not (completely) arrived.
type Decision struct {
	// Mode is the decided mode, or the zero Mode while waiting.
	Mode Mode
	// Rule is the index of the deciding rule in the policy's list, or
	// ImplicitRule when no rule matched. It is 0 while waiting.
	Rule int
}

// Decided reports whether d is a decision rather than waiting.
func (d Decision) Decided() bool { return d.Mode != 0 }

// NeedsCompleteArguments reports whether acting on d needs the complete
// arguments even though d itself is known early: true for [Edit], since one can
// only edit the whole arguments.
func (d Decision) NeedsCompleteArguments() bool { return d.Mode == Edit }

// String returns "waiting", or the mode and the rule: "ask (rule 1)",
// "ask (implicit)".
func (d Decision) String() string {
	switch {
	case !d.Decided():
		return "waiting"
	case d.Rule == ImplicitRule:
		return d.Mode.String() + " (implicit)"
	}
	return fmt.Sprintf("%v (rule %d)", d.Mode, d.Rule)
}
