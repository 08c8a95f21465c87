package genaisdk

import (
	"encoding/json"
	"fmt"

	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire"
	"google.golang.org/genai"
)

// Feeder drives a toolcall.Response with the responses of
// client.Models.GenerateContentStream, one at a time: call Feed for each
// response the stream yields, then End on the Response after the loop.
//
// A Feeder keeps what a stream's responses do not repeat: the index of the
// next call (Gemini numbers its calls by their order alone), the call whose
// arguments still stream (Vertex AI's partialArgs) and the JSON text
// written of them so far, and the ids seen. It is for one stream at a time:
// Reset it with the Response, for the next one.
type Feeder struct {
	r      *toolcall.Response
	next   int64               // the index of the next call
	ids    map[string]struct{} // the ids of the calls so far
	stream *streamed           // the call whose arguments stream, if any
	ended  bool                // candidate 0 had a finishReason
	err    error               // the stream was malformed
}

// NewFeeder returns a Feeder that drives r.
func NewFeeder(r *toolcall.Response) *Feeder { return &Feeder{r: r} }

// Reset makes f drive r (the same Response, reset, or another) from its
// first call, for the next stream.
func (f *Feeder) Reset(r *toolcall.Response) { *f = Feeder{r: r} }

// Feed drives the Response with one response of the stream.
//
// Each functionCall part of candidate 0 (the first candidate; its index
// must be 0) is a call at the next index: 0, 1, 2... in the order the
// calls come, across the stream's responses. A whole call (one part) is
// Start, Chunk of its Args marshalled as JSON ({} when it has none), then
// Stop. The SDK has decoded the arguments into a map: encoding/json writes
// its keys sorted, not in the order the model wrote them, and its numbers
// as float64 gives them; so a policy may decide at another byte than with
// wire/geministream's Read on the raw body, but not otherwise, and the
// arguments are JSON-equal.
//
// A call whose arguments stream (Vertex AI's streamFunctionCallArguments:
// a first part with a name and WillContinue true, parts with PartialArgs,
// a last part whose WillContinue is not true) is started at its first
// part, each next part's values are a Chunk of one JSON text, written as
// wire/geministream writes it (see its "Streamed arguments"), and its last
// part Stops it. The SDK reads an empty StringValue as none: a PartialArg
// with no value is taken as the empty string.
//
// A FinishReason MAX_TOKENS marks the response cut short
// (toolcall.Response.Incomplete): a call still streaming ends truncated.
//
// Feed returns the Response's own errors (toolcall.ErrIndex,
// toolcall.ErrTooManyCalls, toolcall.ErrEnded) and, for a stream that is
// not what the API documents (a call's parts that cannot be written as
// one JSON text, a call in another candidate, an id repeated, a call
// after the end...), an error wrapping wire.ErrMalformed: Feed has then
// failed the Response (toolcall.Response.Fail), no call of it runs, and
// every later Feed returns the same error. A call's own errors (invalid
// arguments) are in its Result.
func (f *Feeder) Feed(resp *genai.GenerateContentResponse) error {
	if f.err != nil {
		return f.err
	}
	if resp == nil {
		return nil
	}
	if err := f.feed(resp); err != nil {
		if errorsIsMalformed(err) {
			f.err = err
			f.r.Fail(err)
		}
		return err
	}
	return nil
}

func (f *Feeder) feed(resp *genai.GenerateContentResponse) error {
	var c0 *genai.Candidate
	for i, c := range resp.Candidates {
		if i == 0 && c != nil && c.Index == 0 {
			c0 = c
			continue
		}
		if c != nil && c.Content != nil {
			for _, p := range c.Content.Parts {
				if p != nil && p.FunctionCall != nil {
					return malformed("a function call in candidate %d, not candidate 0", c.Index)
				}
			}
		}
	}
	if c0 != nil && c0.Content != nil {
		for _, p := range c0.Content.Parts {
			if p == nil || p.FunctionCall == nil {
				continue
			}
			if p.Text != "" {
				return malformed("a part holds both text and a functionCall")
			}
			if f.ended {
				return malformed("a function call after the response's finishReason")
			}
			if err := f.call(p.FunctionCall); err != nil {
				return err
			}
		}
	}
	end := c0 != nil && c0.FinishReason != ""
	blocked := resp.PromptFeedback != nil && resp.PromptFeedback.BlockReason != ""
	if !end && !blocked {
		return nil
	}
	f.ended = true
	if end && c0.FinishReason == genai.FinishReasonMaxTokens {
		f.r.Incomplete() // a call still streaming ends truncated
		return nil
	}
	if f.stream != nil {
		why := "promptFeedback blockReason"
		if end {
			why = "finishReason " + string(c0.FinishReason)
		}
		return malformed("the response ended (%s) while call %d's arguments streamed", why, f.stream.index)
	}
	return nil
}

// call drives the Response with one functionCall part.
func (f *Feeder) call(fc *genai.FunctionCall) error {
	cont := fc.WillContinue != nil && *fc.WillContinue
	if s := f.stream; s != nil { // a part of the call that streams
		switch {
		case fc.Name != "":
			return malformed("call %q begun while call %d streams", fc.Name, s.index)
		case fc.ID != "" && fc.ID != s.id:
			return malformed("a part of call %d with another id, %q", s.index, fc.ID)
		case len(fc.Args) > 0:
			return malformed("args in a part of call %d, which streams", s.index)
		}
		b, err := s.add(nil, fc.PartialArgs)
		if err != nil {
			return err
		}
		if !cont {
			if b, err = s.end(b); err != nil {
				return err
			}
			f.stream = nil
		}
		if len(b) > 0 {
			if err := f.r.Chunk(s.index, b); err != nil {
				return err
			}
		}
		if !cont {
			return f.r.Stop(s.index)
		}
		return nil
	}
	if fc.Name == "" {
		return malformed("a functionCall without a name, and no call streams")
	}
	if fc.ID != "" {
		if _, ok := f.ids[fc.ID]; ok {
			return malformed("call id %q repeated", fc.ID)
		}
		if f.ids == nil {
			f.ids = map[string]struct{}{}
		}
		f.ids[fc.ID] = struct{}{}
	}
	index := f.next
	f.next++
	var args []byte
	switch {
	case len(fc.PartialArgs) > 0 || cont:
		if len(fc.Args) > 0 {
			return malformed("args in a part that streams")
		}
		s := &streamed{index: index, id: fc.ID}
		b, err := s.add(nil, fc.PartialArgs)
		if err != nil {
			return err
		}
		if cont {
			f.stream = s
			if err := f.r.Start(fragment.Call{Index: index, ID: fc.ID, Name: fc.Name}, nil); err != nil {
				return err
			}
			if len(b) > 0 {
				return f.r.Chunk(index, b)
			}
			return nil
		}
		if args, err = s.end(b); err != nil { // a call of one part
			return err
		}
	case len(fc.Args) == 0:
		args = []byte("{}")
	default:
		var err error
		if args, err = json.Marshal(fc.Args); err != nil {
			return malformed("args of call %q: %v", fc.Name, err) // not from JSON: cannot happen
		}
	}
	if err := f.r.Start(fragment.Call{Index: index, ID: fc.ID, Name: fc.Name}, nil); err != nil {
		return err
	}
	if err := f.r.Chunk(index, args); err != nil {
		return err
	}
	return f.r.Stop(index)
}

type malformedError struct{ msg string }

func (e *malformedError) Error() string { return "genaisdk: malformed response: " + e.msg }
func (e *malformedError) Unwrap() error { return wire.ErrMalformed }

func malformed(format string, a ...any) error {
	return &malformedError{msg: fmt.Sprintf(format, a...)}
}

func errorsIsMalformed(err error) bool {
	_, ok := err.(*malformedError)
	return ok
}

// quote appends s as a JSON string, without its quotes if bare.
func quote(b []byte, s string, bare bool) []byte {
	q, _ := json.Marshal(s) // a string always marshals
	if bare {
		q = q[1 : len(q)-1]
	}
	return append(b, q...)
}

// number appends v as JSON, as encoding/json writes a float64 of Args.
func number(b []byte, v float64) ([]byte, error) {
	q, err := json.Marshal(v)
	return append(b, q...), err
}
