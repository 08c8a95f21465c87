package policy

// Verdict is what an Evaluator knows about its call: the decision, where it
// became known, and whether the arguments turned out valid.
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
	// StopOnSkip) otherwise.
	Err error
}

// Verdict returns the evaluator's verdict so far.
func (e *Evaluator) Verdict() Verdict {
	return Verdict{Decision: e.decision, At: e.at, Ended: e.ended, Err: e.err}
}

// Valid reports whether the stream has ended with complete, valid
// arguments.
func (v Verdict) Valid() bool { return v.Ended && v.Err == nil }

// Executable reports whether the call may run: its arguments ended complete
// and valid, and the decision is not Skip. (Ask still needs the user's yes,
// and Edit the user's edit.) A call whose stream failed is never
// executable, whatever was decided while it streamed.
func (v Verdict) Executable() bool { return v.Valid() && v.Decided() && v.Mode != Skip }
