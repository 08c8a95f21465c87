package toolcall

// This file is the package's errors: the sentinels a Response returns or
// a call's Result holds, and MismatchError, a call stated twice
// differently.

import (
	"errors"
	"fmt"

	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/sink"
)

var (
	// ErrDeclined is a declined call's error: Decline, or a skip decision
	// with WithDeclineOnSkip, cut its arguments short. It wraps sink.ErrStop
	// (errors.Is holds for both), which is also what the call's sinks get
	// in End.
	ErrDeclined error = declined{}
	// ErrEnded is returned by Start, Chunk and Stop after End, until Reset.
	ErrEnded = errors.New("toolcall: the response has ended")
	// ErrIndex is returned for a negative call index.
	ErrIndex = errors.New("toolcall: negative call index")
	// ErrTooManyCalls is returned by the method that would open one call
	// more than WithMaxCalls allows (DefaultMaxCalls by default): each call
	// holds a Stream and an aggregator, so a response that opens calls
	// without end must not hold memory without end.
	ErrTooManyCalls = errors.New("toolcall: too many calls in one response")
	// ErrAfterStop is a call's error when argument bytes came for it after
	// its Stop: the arguments its Stop closed are not all there was.
	ErrAfterStop = errors.New("toolcall: argument bytes after the call's Stop")
	// ErrLateName is a call's error when its tool name became known only
	// after its argument bytes had begun and a policy applies to that name:
	// the policy did not see the whole arguments, so the call may not run.
	ErrLateName = errors.New("toolcall: tool name known only after the arguments began; its policy did not see them")
	// ErrNotApproved is the error of a call whose policy decided Ask or
	// Edit, or Unattended with a suspect declared path
	// (policy.Verdict.SuspectPath), and that nobody approved (Approve)
	// before its Result was made: its arguments are complete and valid, and
	// in the Result, but it may not run.
	ErrNotApproved = errors.New("toolcall: the call needs approval and was not approved")
	// ErrRestated is wrapped by a *MismatchError: a call stated a second
	// time (a second start, a done event, a final response) differently
	// from what streamed.
	ErrRestated = errors.New("toolcall: call restated differently")
)

// MismatchError is the error of a call that the provider stated twice,
// differently: a second start under another name or id, or a restatement
// (Restate) whose arguments differ from the arguments that streamed. Such a
// call is not executable: what the policy judged and what the stream's
// other readers (the official SDKs among them) would run may differ.
//
// [MismatchError.Streamed] and [MismatchError.Restated] are the two values
// (the arguments shortened to their first bytes), written by the model or a
// relay: escape them before showing them to a person. A MismatchError is
// immutable once returned.
type MismatchError struct {
	Call     fragment.Call // the call's identity as it first came
	What     string        // "name", "id", "server" or "arguments"
	Streamed string
	Restated string
}

func (e *MismatchError) Error() string {
	return fmt.Sprintf("toolcall: call %d (%q) restated with its %s changed: %q, then %q",
		e.Call.Index, e.Call.Name, e.What, e.Streamed, e.Restated)
}

// Unwrap returns [ErrRestated].
func (e *MismatchError) Unwrap() error { return ErrRestated }

// mismatchShown is how many bytes of each value a [MismatchError] keeps.
const mismatchShown = 256

func newMismatch(c fragment.Call, what string, streamed, restated []byte) *MismatchError {
	short := func(b []byte) string {
		if len(b) > mismatchShown {
			return string(b[:mismatchShown]) + "…"
		}
		return string(b)
	}
	return &MismatchError{Call: c, What: what, Streamed: short(streamed), Restated: short(restated)}
}

// declined is [ErrDeclined]: its message says the call was declined, not
// how ([sink.ErrStop]'s "sink: stop" would read as a failure).
type declined struct{}

func (declined) Error() string { return "toolcall: call declined" }
func (declined) Unwrap() error { return sink.ErrStop }
