package policy

import "github.com/go-json-experiment/json/jsontext"

// Verdict is what an [Evaluator] knows about its call: the decision, where it
// became known, whether the arguments turned out valid, and whether a
// declared path among them is suspect.
//
// [Mode] == [Unattended] is not permission to run the call without asking: a
// caller must check Unattended(), which also needs valid arguments and no
// suspect declared path. [Verdict.Executable] says whether the call may run
// at all: where Unattended() is false, only after the user's yes (or edit).
type Verdict struct {
	// Decision is the decision, or the zero Decision (waiting) if none was
	// reached.
	Decision
	// At is the offset at which the decision became known, or -1.
	At int64
	// Ended says the stream has ended (End was called).
	Ended bool
	// Err is the error the stream ended with: nil if the arguments are
	// complete and valid; a syntax error, a sink's error, or ErrSkip (see
	// WithStopOnSkip) otherwise.
	Err error
	// SuspectPath is the location of the first string, in the order of the
	// arguments, that a pointer declared in WithPaths resolves to and that is
	// suspect in the policy's path style (see PathStyle): "/path", or
	// "/patterns/1/paths/0" where arrays were met. It is "" if there is
	// none, so far (the Evaluator follows those values to the end of the
	// arguments, after the decision too), or if the policy declares no
	// paths. A suspect path may name any file, so a call with one never
	// runs unattended (see Unattended), whichever rule decided, on
	// whichever parameter. Values that are not strings are never suspect.
	SuspectPath jsontext.Pointer
}

// Verdict returns the evaluator's verdict so far.
func (e *Evaluator) Verdict() Verdict {
	return Verdict{Decision: e.decision, At: e.at, Ended: e.ended, Err: e.err, SuspectPath: e.suspect}
}

// Valid reports whether the stream has ended with complete, valid
// arguments.
func (v Verdict) Valid() bool { return v.Ended && v.Err == nil }

// Executable reports whether the call may run: its arguments ended complete
// and valid, and the decision is not [Skip]. It does not say the call may
// run without asking: [Ask] still needs the user's yes, [Edit] the user's edit,
// and Unattended with a suspect declared path the user's yes, as Ask does
// (see Unattended). A call whose stream failed is never executable,
// whatever was decided while it streamed.
func (v Verdict) Executable() bool { return v.Valid() && v.Decided() && v.Mode != Skip }

// Unattended reports whether the call may run without asking anyone: its
// arguments ended complete and valid, the decision is Unattended, and no
// declared path is suspect ([Verdict.SuspectPath] is ""). Check it rather
// than the [Mode], which is only what the rules decided, possibly early: a
// call decided Unattended with a suspect declared path needs approval as an
// [Ask] does, and may run once the user says yes (it stays
// [Verdict.Executable]).
func (v Verdict) Unattended() bool {
	return v.Valid() && v.Decided() && v.Mode == Unattended && v.SuspectPath == ""
}
