package ollamasdk

import (
	"fmt"

	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire"
	"github.com/ollama/ollama/api"
)

// Feeder drives a toolcall.Response with the responses client.Chat gives
// its callback, one at a time: call Feed for each, then End on the Response
// after Chat returns. Feed has the type of api.ChatResponseFunc, so that
// f.Feed may be Chat's callback itself.
//
// A Feeder keeps what a stream's responses do not tell: the index of the
// next call (Ollama numbers its calls by their order alone) and whether the
// done response has come. It is for one stream at a time, and for one
// goroutine (Chat calls its callback from the caller's): Reset it with the
// Response, for the next one.
type Feeder struct {
	r    *toolcall.Response
	next int64 // the index of the next call
	done bool  // the response with done true has come
	err  error // the stream was malformed
}

// NewFeeder returns a Feeder that drives r.
func NewFeeder(r *toolcall.Response) *Feeder { return &Feeder{r: r} }

// Reset makes f drive r (the same Response, reset, or another) from its
// first call, for the next stream.
func (f *Feeder) Reset(r *toolcall.Response) { *f = Feeder{r: r} }

// Done reports whether the response with done true has come. Chat returns
// nil when the body ends before it: Done is how to tell a response cut
// short (its calls, each whole, are executable all the same; whether to
// run them is the caller's decision).
func (f *Feeder) Done() bool { return f.done }

// Feed drives the Response with one response of the stream.
//
// Each element of resp.Message.ToolCalls is one whole call, at the next
// index: 0, 1, 2... in the order the calls come, across the stream's
// responses. It is Start (its ID, its function's name), Chunk of its
// arguments as the SDK writes them again (Arguments.MarshalJSON: the
// members of the object in the model's order, nested objects' members
// sorted, numbers as float64 gives them), and Stop. function.index is not
// used: Ollama leaves it 0 for every call of most models. A call without a
// name (Name "") is started all the same, as Read starts one whose name is
// "": the Response never makes it executable.
//
// resp.Done ends the stream; with it, a DoneReason "length" marks the
// response cut short (toolcall.Response.Incomplete). Text and thinking
// (resp.Message.Content and Thinking) are not calls: Feed ignores them,
// and the caller reads them from the same response.
//
// Feed returns the Response's own errors (toolcall.ErrTooManyCalls,
// toolcall.ErrEnded) and, for a stream that is not what the API documents
// (a response after the done one), an error
// wrapping wire.ErrMalformed: Feed has then failed the Response
// (toolcall.Response.Fail), no call of it runs, and every later Feed
// returns the same error (returned by Chat's callback, it also ends Chat).
// A call's own errors (invalid arguments) are in its Result.
func (f *Feeder) Feed(resp api.ChatResponse) error {
	if f.err != nil {
		return f.err
	}
	if err := f.feed(&resp); err != nil {
		if _, ok := err.(*malformedError); ok {
			f.err = err
			f.r.Fail(err)
		}
		return err
	}
	return nil
}

func (f *Feeder) feed(resp *api.ChatResponse) error {
	if f.done {
		return malformed("a response after the one with done true")
	}
	for i := range resp.Message.ToolCalls {
		tc := &resp.Message.ToolCalls[i]
		args, err := tc.Function.Arguments.MarshalJSON()
		if err != nil { // the SDK decoded them from JSON: cannot happen
			return malformed("arguments of call %d: %v", f.next, err)
		}
		index := f.next
		f.next++
		if err := f.r.Start(fragment.Call{Index: index, ID: tc.ID, Name: tc.Function.Name}, nil); err != nil {
			return err
		}
		if err := f.r.Chunk(index, args); err != nil {
			return err
		}
		if err := f.r.Stop(index); err != nil {
			return err
		}
	}
	if resp.Done {
		f.done = true
		if resp.DoneReason == "length" {
			f.r.Incomplete()
		}
	}
	return nil
}

type malformedError struct{ msg string }

func (e *malformedError) Error() string { return "ollamasdk: malformed response: " + e.msg }
func (e *malformedError) Unwrap() error { return wire.ErrMalformed }

func malformed(format string, a ...any) error {
	return &malformedError{msg: fmt.Sprintf(format, a...)}
}
