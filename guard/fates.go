package guard

// This file is the fates of a stream's calls (stream.go): what the
// policy decides of each (OnDecision), what the calls' errors make of
// them, and the questions the wires' rewriters ask of them.

import (
	"errors"
	"fmt"
	"slices"

	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/policy"
	"github.com/argstream/argstream/sink"
	"github.com/argstream/argstream/token"
	"github.com/argstream/argstream/toolcall"
)

// newSink is the toolcall sink constructor: it learns of each call at its
// start.
func (s *stream) newSink(c fragment.Call) sink.Sink {
	cs := &callState{call: c, decidedAt: -1}
	s.calls[c.Index] = cs
	if c.Name != "" && s.unjudged(c.Name) {
		cs.fate = fateForward
	}
	return &callSink{s: s, c: cs}
}

// unjudged reports whether the calls of the tool name are forwarded with
// no policy to judge them.
func (s *stream) unjudged(name string) bool {
	return s.g.cfg.Policy == nil || s.g.cfg.Policy(name) == nil
}

// callSink learns a call's name when it comes after its start.
type callSink struct {
	s *stream
	c *callState
}

func (k *callSink) Push(p *fragment.Progress) error {
	k.c.call = *p.Call
	if k.c.fate == fatePending && p.Call.Name != "" && k.c.decision.Mode == 0 && k.s.unjudged(p.Call.Name) {
		k.c.fate = fateForward
	}
	return nil
}

func (k *callSink) End(error) {}

// decided is OnDecision: the fate of a call, the moment its policy decides.
func (s *stream) decided(r *toolcall.Response, c fragment.Call, d policy.Decision, at int64) {
	cs := s.calls[c.Index]
	if cs == nil || cs.fate != fatePending {
		return
	}
	cs.call, cs.decision, cs.decidedAt = c, d, at
	switch d.Mode {
	case policy.Skip:
		s.blockCall(cs, "")
	case policy.Ask:
		if s.g.cfg.BlockAsk {
			s.blockCall(cs, "")
			return
		}
		cs.fate = fateForward
	case policy.Unattended:
		if s.g.cfg.BlockAsk {
			if p := s.g.cfg.Policy(c.Name); p != nil && p.DeclaresPaths() {
				cs.awaitPaths = true // checkCalls gives its fate
				return
			}
		}
		cs.fate = fateForward
	default:
		cs.fate = fateForward
	}
}

// blockCall blocks a call: the rest of its arguments are discarded, and if
// it was the only call still streaming, the upstream is cancelled once the
// event being read is done with.
func (s *stream) blockCall(cs *callState, reason string) {
	if cs.fate == fateBlock {
		return
	}
	cs.fate, cs.reason = fateBlock, reason
	s.blocked++
	if s.resp.Decline(cs.call.Index) && s.w.canCancel(s) {
		cs.cancelled = true
		s.stopNow = true
	}
}

// checkCalls looks at the calls an event concerned: one whose arguments
// failed is blocked if it was pending, and ends the client's stream if it
// was forwarded, since the client's SDK would run what the gateway did not
// judge (anthropic-sdk-go runs invalid arguments as {}).
func (s *stream) checkCalls(calls []int64) {
	for _, i := range calls {
		cs := s.calls[i]
		if cs == nil {
			continue
		}
		err := s.resp.Err(i)
		if err == nil && cs.awaitPaths && cs.fate == fatePending {
			// An unattended call with a suspect declared path is an ask,
			// which is blocked; without one, once its arguments have
			// ended, it goes.
			switch v := s.resp.Verdict(i); {
			case v.SuspectPath != "":
				s.blockCall(cs, fmt.Sprintf("its declared path %s is spelled so that a tool may read another file, which makes it an ask", v.SuspectPath))
				continue
			case v.Ended && v.Err == nil:
				cs.fate = fateForward
			}
		}
		if err == nil || errors.Is(err, toolcall.ErrDeclined) {
			continue
		}
		switch cs.fate {
		case fatePending:
			s.blockCall(cs, "its arguments failed: "+describe(err))
		case fateForward:
			if cs.emitted {
				s.fatal = fmt.Errorf("the arguments of call %d, forwarded, failed: %s", i, describe(err))
			} else {
				cs.fate = fatePending // nothing of it went out: block it instead
				s.blockCall(cs, "its arguments failed: "+describe(err))
			}
		}
	}
}

// blockHeld blocks the pending calls of the held blocks: their decisions
// came too late to hold the response for them.
func (s *stream) blockHeld() {
	for _, b := range s.queue {
		for _, i := range b.calls {
			if cs := s.calls[i]; cs != nil && cs.fate == fatePending {
				s.blockCall(cs, fmt.Sprintf("its decision had not come when %d bytes of the response were held back", s.g.cfg.MaxHeld))
			}
		}
	}
	s.flush()
}

// isBlocked reports whether the call i is blocked.
func (s *stream) isBlocked(i int64) bool {
	c := s.calls[i]
	return c != nil && c.fate == fateBlock
}

// anyBlocked reports whether one of the calls is blocked.
func (s *stream) anyBlocked(calls []int64) bool {
	return slices.ContainsFunc(calls, s.isBlocked)
}

// anyForwarded reports whether a call the client runs was forwarded.
func (s *stream) anyForwarded() bool {
	for _, c := range s.calls {
		if c.fate == fateForward && !c.call.Server {
			return true
		}
	}
	return false
}

// notice is the text that stands for the blocked call i.
func (s *stream) notice(i int64) string {
	c := s.calls[i]
	return s.g.cfg.Notice(c.call, c.decision, c.reason)
}

// describe says what is wrong with a call's arguments, for the client and
// the model: what and where, without the values the model wrote (a
// restatement's arguments are not repeated to the client that was denied
// them).
func describe(err error) string {
	var m *toolcall.MismatchError
	var se *token.SyntaxError
	switch {
	case errors.As(err, &m):
		return "the provider restated it with another " + m.What
	case errors.As(err, &se):
		return fmt.Sprintf("%v at byte %d of its arguments", se.Err, se.Offset)
	}
	return err.Error()
}
