package openaistream

// This file is structured in the following way:
//
//   - ReadChat, with the events it reads;
//   - ChatReader: the event loop, and what one chunk does to the Response;
//   - the decoding of a chunk's data into the ChatReader's reused fields:
//     the whole data is decoded, and checked, before anything is done.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire/internal/adapter"
	"github.com/argstream/argstream/wire/sse"
)

// ReadChat reads the server-sent events of a Chat Completions streaming
// response ("stream": true) from body and drives resp with the tool calls
// of one choice: choice 0, or the one set with Choice. It returns when the
// stream is complete: at data [DONE], reading no further (the SDKs read
// nothing after it), or at the end of the body after a finish_reason. It
// does not call resp.End: the caller does, to get the Results. The package
// documentation lists the errors it returns; the specifics are below.
//
// # Events read
//
// Chat Completions servers send no "event" field, and the SDKs read every
// event as a chunk whatever its name: an event named other than "error" is
// malformed. Data that begins as [DONE] ends the stream (exactly [DONE];
// anything after those bytes is malformed), whatever the event's name. An
// event named "error" is a *ProviderError, from the data's "error" member,
// or from the data's own members if it has none, or with the whole data as
// its Message if the data is not a JSON object. Any other data is a chunk.
//
// A chunk is one chat.completion.chunk JSON object, of which ReadChat reads
// "id", "error" and "choices" and checks the other members (object, model,
// usage...). Every chunk's "id" must be the stream's (the first one given):
// openai-go's accumulator drops a chunk of another id. A chunk with an
// "error" member is a *ProviderError: an object's type, code, message and
// param (a code or param that is a number keeps its JSON text, "429"; a
// null is ""), or a string as the Message; "error": null is malformed
// (openai-go takes it for an error, the Python SDK does not). Of "choices"
// (empty or null in usage chunks), ReadChat reads the chosen choice, whose
// "index" is the Choice option's (a choice without an index is choice 0, as
// some servers send it when n is 1; an index past 127 is malformed, as
// openai-go drops its chunk), and ignores the others. In the chosen
// choice's "delta", in this order:
//
//   - reasoning_content or reasoning (the reasoning text of DeepSeek, vLLM,
//     OpenRouter...; a string, or an object with a "text" string as some
//     gateways send it): OnThinking, if set, when not empty. vLLM sends both
//     names with the same text: a delta's second one is ignored.
//   - content, then refusal (the text a model writes instead of content when
//     it refuses): OnText, if set, when not empty.
//   - tool_calls, element by element. An element must have an "index", the
//     call's index in the response (which need not start at 0, but may be
//     at most 127 past the calls so far: openai-go drops a chunk that jumps
//     further, with the other calls' deltas in it), and a "type", if any,
//     of "function" (a custom tool's is malformed: its free text is not
//     read yet). Response.Start(index, id, name) when the element has an
//     "id" or a function "name"; then, if the function's "arguments" string
//     is not empty, Response.Chunk(index, arguments), decoded from JSON. A
//     name that comes again for the same call is appended to the first, as
//     openai-go and the Python SDK append it: the call is then another
//     tool's, and fails (a *toolcall.MismatchError); an id that comes again
//     must be the same, or the call fails.
//   - other members (role, audio, the function_call of the deprecated
//     functions API...): checked, not read.
//
// The chosen choice's "finish_reason", when not null or empty, is the end
// of the calls: tool_calls, stop or function_call stop every call
// (Response.StopAll), and bytes for a call after it make that call fail;
// length and content_filter mark the response cut short
// (Response.Incomplete), so that a call's arguments that are a bare number
// end truncated. A body that ends cleanly (between events) after a
// finish_reason is complete, [DONE] or not, since some servers do not send
// [DONE]. Any other end of the body is an error wrapping io.ErrUnexpectedEOF.
//
// The data of a chunk is decoded and checked whole before anything is done
// with it: a malformed chunk (not JSON, a member of the wrong kind, an index
// that is negative or not an integer, a tool_calls element without its
// index, the chosen choice twice) drives resp with nothing of it, and
// ReadChat returns an error wrapping ErrMalformed with the event's number
// (counting every event from 1), having failed resp.
//
// ReadChat allocates per stream, and per tool call: the strings of its id
// and name, converted once even if a server repeats the id in every delta.
func ReadChat(ctx context.Context, body io.Reader, resp *toolcall.Response, opts ...Option) error {
	r := NewChatReader(resp, opts...)
	stream := adapter.Stream{Name: "openai", Last: "[DONE]", CompleteAtEOF: func() bool { return r.finished }, Malformed: ErrMalformed}
	return r.fail(adapter.Loop(ctx, sse.NewReader(body), stream, func(ev sse.Event) (bool, error) {
		err := r.Event(ev)
		return r.done, err
	}))
}

// A ChatReader reads the events of one Chat Completions stream, one at a
// time, into a toolcall.Response: the step that ReadChat loops over, for a
// caller that reads the events itself (a gateway that forwards them). Give
// it every event of the stream, in order, until Done: after data [DONE]
// the SDKs read nothing more.
//
// A ChatReader is for one goroutine. Its memory is reused from stream to
// stream with Reset.
type ChatReader struct {
	cfg      config
	resp     *toolcall.Response
	dec      adapter.Decoder
	n        int64 // events read
	err      error // the first error: every later Event returns it
	done     bool  // data [DONE] came
	finished bool  // the chosen choice had a finish_reason

	// names holds, for each call index given to resp, the name it was
	// given, and whether an id was: the SDKs append a second name to the
	// first (the call is then another), and a server that repeats the id
	// in every delta has it converted to a string once.
	names   map[int64]chatIdentity
	count   int64   // the chosen choice's calls: its largest index + 1
	touched []int64 // the calls the last event concerned
	known   []int64 // every call's index, in the order they came

	chunkID    []byte // the "id" of the stream's chunks
	hasChunkID bool   // a chunk with an id has come: chunkID
	id         []byte // the "id" of the chunk being read
	hasID      bool

	// The fields of the chunk being read; byte slices are reused.
	errorEvent bool // the event's type is "error": its own members may be the error
	hasError   bool // the data has a non-null "error" member, which wins
	errType    []byte
	errCode    []byte
	errMessage []byte
	errParam   []byte
	choicePos  int        // the position in "choices" of the choice being read
	cur        chatChoice // the choice being read
	chosen     chatChoice // the chosen choice, if hasChosen
	hasChosen  bool
	otherCalls bool // a choice not chosen has tool_calls
	scratch    []byte
	// fastScratch receives the strings fastChunk checks.
	fastScratch []byte
}

// chatChoice is one element of a chunk's "choices".
type chatChoice struct {
	index    int64
	finish   []byte
	thinking []byte
	text     []byte
	refusal  []byte
	calls    []chatCall // calls[:nCalls] are this chunk's
	nCalls   int
}

// chatCall is one element of a delta's "tool_calls".
type chatCall struct {
	index    int64
	hasIndex bool
	hasType  bool
	typ      []byte
	id       []byte
	name     []byte
	args     []byte
}

// chatIdentity is what a ChatReader gave the Response of one call's
// identity.
type chatIdentity struct {
	id, name string
}

// maxIndexGrowth is how far past the calls so far a new call's index, and
// how far from 0 a choice's index, may be: openai-go's
// ChatCompletionAccumulator drops a chunk that goes further (it bounds the
// memory an index makes it allocate), and with it the other calls' deltas
// of that chunk, which it would then read otherwise.
const maxIndexGrowth = 128

// NewChatReader returns a ChatReader of one stream into resp.
func NewChatReader(resp *toolcall.Response, opts ...Option) *ChatReader {
	return &ChatReader{cfg: newConfig(opts), resp: resp}
}

// Reset readies r for the next stream, into resp, keeping its memory and
// its options.
func (r *ChatReader) Reset(resp *toolcall.Response) {
	r.resp, r.n, r.err, r.done, r.finished = resp, 0, nil, false, false
	clear(r.names)
	r.count, r.hasChunkID = 0, false
	r.touched, r.known = r.touched[:0], r.known[:0]
}

// Done reports whether data [DONE] has come.
func (r *ChatReader) Done() bool { return r.done }

// Finished reports whether the chosen choice has had its finish_reason:
// a stream that ends cleanly after it is complete, [DONE] or not.
func (r *ChatReader) Finished() bool { return r.finished }

// Event reads one event of the stream and drives the Response with it. It
// returns a *ProviderError for an error, an error wrapping ErrMalformed
// (having failed the Response) for a malformed event, and the Response's
// own errors (toolcall.ErrTooManyCalls, toolcall.ErrEnded). After an error
// or after [DONE], Event returns the error, or an error wrapping
// ErrMalformed for an event after [DONE].
func (r *ChatReader) Event(ev sse.Event) error {
	if r.err != nil {
		return r.err
	}
	r.n++
	r.touched = r.touched[:0]
	r.err = r.fail(r.event(ev))
	return r.err
}

// OtherCalls reports whether the last event carried tool calls in a
// choice that r does not read (see Choice): calls no policy judged.
func (r *ChatReader) OtherCalls() bool { return r.otherCalls }

// EventCalls returns the indexes of the calls the last event concerned:
// started or fed, or all of them for a finish_reason, which ends them all.
// It is borrowed until the next Event.
func (r *ChatReader) EventCalls() []int64 { return r.touched }

// fail fails the Response for a malformed stream, and returns err.
func (r *ChatReader) fail(err error) error {
	if errors.Is(err, ErrMalformed) {
		r.resp.Fail(err)
	}
	return err
}

// reset empties c for the next choice, keeping its buffers.
func (c *chatChoice) reset() {
	c.index, c.nCalls = 0, 0
	c.finish, c.thinking, c.text, c.refusal = c.finish[:0], c.thinking[:0], c.text[:0], c.refusal[:0]
}

// nextCall adds an empty call to c's calls, keeping the buffers of the one
// used there before, and returns it.
func (c *chatChoice) nextCall() *chatCall {
	if c.nCalls == len(c.calls) {
		c.calls = append(c.calls, chatCall{})
	}
	t := &c.calls[c.nCalls]
	c.nCalls++
	t.index, t.hasIndex, t.hasType = 0, false, false
	t.typ, t.id, t.name, t.args = t.typ[:0], t.id[:0], t.name[:0], t.args[:0]
	return t
}

// keepReasoning makes r.scratch, the text of a delta's reasoning member,
// c's thinking, unless an earlier member gave some: vLLM sends the same
// text under both names.
func (r *ChatReader) keepReasoning(c *chatChoice) {
	if len(c.thinking) == 0 {
		c.thinking, r.scratch = r.scratch, c.thinking
	}
}

// event handles one event.
func (r *ChatReader) event(ev sse.Event) error {
	if r.done {
		return r.malformed(errors.New("an event after data [DONE]"))
	}
	// The SDKs end the stream at data that begins as [DONE], whatever the
	// event's name.
	if bytes.HasPrefix(ev.Data, []byte(sse.Done)) {
		if !ev.IsDone() {
			return r.malformed(fmt.Errorf("data %q, which begins as [DONE] does", ev.Data))
		}
		r.done = true
		return nil
	}
	switch string(ev.Type) {
	case "":
	case "error":
		if err := r.parse(ev.Data, true); err != nil {
			return &ProviderError{Message: string(ev.Data)}
		}
		return r.providerError()
	default:
		// The SDKs read every event as a chunk whatever its name, others
		// skip the names they do not know.
		return r.malformed(fmt.Errorf("an event named %q", ev.Type))
	}
	if err := r.parse(ev.Data, false); err != nil {
		return err
	}
	if r.hasError {
		return r.providerError()
	}
	// openai-go's ChatCompletionAccumulator drops a chunk whose id is not
	// the stream's (the first id that came), and reads the others.
	switch {
	case !r.hasChunkID:
		r.chunkID, r.hasChunkID = append(r.chunkID[:0], r.id...), len(r.id) > 0
	case !bytes.Equal(r.id, r.chunkID):
		return r.malformed(fmt.Errorf("a chunk of id %q in the stream of %q", r.id, r.chunkID))
	}
	if r.hasChosen {
		if err := r.checkCalls(&r.chosen); err != nil {
			return err
		}
		return r.apply(&r.chosen)
	}
	return nil
}

// apply does what the chosen choice of a chunk says.
func (r *ChatReader) apply(c *chatChoice) error {
	if len(c.thinking) > 0 && r.cfg.onThinking != nil {
		r.cfg.onThinking(r.cfg.choice, c.thinking)
	}
	if r.cfg.onText != nil {
		if len(c.text) > 0 {
			r.cfg.onText(r.cfg.choice, c.text)
		}
		if len(c.refusal) > 0 {
			r.cfg.onText(r.cfg.choice, c.refusal)
		}
	}
	for i := range c.nCalls {
		t := &c.calls[i]
		if !slices.Contains(r.touched, t.index) {
			r.touched = append(r.touched, t.index)
		}
		if n := len(r.known); (n == 0 || r.known[n-1] != t.index) && !slices.Contains(r.known, t.index) {
			r.known = append(r.known, t.index) // at most the Response's calls
		}
		if err := r.identify(t); err != nil {
			return err
		}
		if len(t.args) > 0 {
			if err := r.resp.Chunk(t.index, t.args); err != nil {
				return err
			}
		}
	}
	if len(c.finish) > 0 {
		// The end of every call: an event that concerns them all.
		r.finished = true
		r.touched = append(r.touched[:0], r.known...)
	}
	switch string(c.finish) {
	case "":
	case "length", "content_filter":
		// Cut short: a call's arguments may be missing their end.
		r.resp.Incomplete()
	default: // tool_calls, stop, function_call: every call is complete
		return r.resp.StopAll()
	}
	return nil
}

// identify gives resp the id and name of t, each the first time it comes.
// A second name is appended to the first, as the SDKs append it: the call
// is then one of another tool, and fails as a call stated twice. An id
// that comes again is compared by the Response (it is converted to a
// string only when it differs, for the servers that repeat it in every
// delta).
func (r *ChatReader) identify(t *chatCall) error {
	known, seen := r.names[t.index]
	var id, name string
	if len(t.id) > 0 && string(t.id) != known.id {
		id = string(t.id)
		if known.id == "" {
			known.id = id
		}
	}
	if len(t.name) > 0 {
		name = known.name + string(t.name)
		known.name = name
	}
	if id == "" && name == "" {
		return nil
	}
	if !seen && r.names == nil {
		r.names = make(map[int64]chatIdentity)
	}
	r.names[t.index] = known
	return r.resp.Start(fragment.Call{Index: t.index, ID: id, Name: name}, nil)
}

// checkCalls checks c's calls before any is applied: their type, and the
// growth of their indexes.
func (r *ChatReader) checkCalls(c *chatChoice) error {
	for i := range c.nCalls {
		t := &c.calls[i]
		if t.hasType && string(t.typ) != "function" {
			// The SDKs append its deltas as a function's, or as a custom
			// tool's free text.
			return r.malformed(fmt.Errorf("a tool call of type %q", t.typ))
		}
		if t.index < r.count {
			continue
		}
		if t.index-r.count >= maxIndexGrowth {
			return r.malformed(fmt.Errorf("a call at index %d, %d past the last", t.index, t.index-r.count+1))
		}
		r.count = t.index + 1
	}
	return nil
}

func (r *ChatReader) providerError() error {
	return &ProviderError{Type: string(r.errType), Code: string(r.errCode), Message: string(r.errMessage), Param: string(r.errParam)}
}

// malformed wraps err, found in the data of the current event.
func (r *ChatReader) malformed(err error) error {
	return fmt.Errorf("%w: event %d: %w", ErrMalformed, r.n, err)
}

// parse decodes the fields of one event's data into r. With errorEvent, the
// data's own message, type, code and param are the error's, unless it has
// an "error" member.
func (r *ChatReader) parse(data []byte, errorEvent bool) error {
	r.errorEvent, r.hasError = errorEvent, false
	r.errType, r.errCode, r.errMessage, r.errParam = r.errType[:0], r.errCode[:0], r.errMessage[:0], r.errParam[:0]
	r.hasChosen, r.otherCalls = false, false
	r.id, r.hasID = r.id[:0], false

	if !errorEvent && r.fastChunk(data) {
		return nil
	}
	return r.parseSlow(data)
}

// parseSlow decodes data token by token with r.dec; parse has reset r.
func (r *ChatReader) parseSlow(data []byte) error {
	r.dec.Reset(data)
	if err := r.dec.Root(chunkNames, r.field); err != nil {
		return r.malformed(err)
	}
	return nil
}

// The member names of the objects of a chunk.
var (
	chunkNames     = adapter.Names{"id", "choices", "error", "message", "type", "code", "param"}
	chatErrorNames = adapter.Names{"type", "code", "message", "param"}
	choiceNames    = adapter.Names{"index", "delta", "finish_reason"}
	deltaNames     = adapter.Names{"content", "refusal", "reasoning_content", "reasoning", "tool_calls"}
	reasoningNames = adapter.Names{"text"}
	callNames      = adapter.Names{"index", "id", "type", "function"}
	functionNames  = adapter.Names{"name", "arguments"}
)

// The fast path. Most chunks of a stream carry one choice with a small
// delta (text, reasoning, a role, a finish_reason, or a tool call's
// arguments) and are written by the API with no white space and plain
// names, so fastChunk reads them by comparing bytes, which costs a fraction
// of the token decoder. It takes only what it can read exactly as parseSlow
// does, and declines anything else (white space, escaped names, repeated
// members it reads, a value of another kind, another layout of tool_calls),
// which parseSlow then reads.

// fastChunk reads data, for parse, if it is a chunk laid out as the API
// writes one for the chosen choice, comparing bytes rather than decoding
// tokens: an object of plain names (no escapes, no white space but after
// it), whose values are strings, plain integers, true, false or null, but
// for one "choices" read by fastChoices; no "error" member. It reports
// false on any difference: then parseSlow reads data, and its answer is
// the answer. When it reports true, r holds what parseSlow would have read.
// It reads into the byte slices of r.chosen, so that it allocates nothing
// once they have grown.
func (r *ChatReader) fastChunk(data []byte) bool {
	hasChoices := false
	i := fastMembers(data, 0, func(name []byte, i int) int {
		switch string(name) {
		case "choices":
			if hasChoices {
				return -1
			}
			hasChoices = true
			return r.fastChoices(data, i)
		case "id":
			r.hasID = true
			r.id, i = fastNullableString(r.id, data, i)
			return i
		case "error", "message", "type", "code", "param", "":
			return -1
		}
		return fastScalar(data, i, &r.fastScratch)
	})
	if i < 0 || !hasChoices || adapter.SkipSpace(data, i) != len(data) {
		return false
	}
	r.hasChosen = true
	return true
}

// fastChoices reads the value of "choices" at data[i:] into r.chosen if it
// is an array of exactly one choice, the chosen one: an object, its members
// in any order, of which "index" (a plain integer), "delta" (read by
// fastDelta) and "finish_reason" (a string or null) at most once, and
// other members whose values fastScalar reads (logprobs...). It returns the
// index of the byte after the array, or -1.
func (r *ChatReader) fastChoices(data []byte, i int) int {
	if i >= len(data) || data[i] != '[' {
		return -1
	}
	c := &r.chosen
	c.reset()
	var seen fastSeen
	i = fastMembers(data, i+1, func(name []byte, i int) int {
		switch string(name) {
		case "index":
			var ok bool
			if c.index, i, ok = adapter.Index(data, i); !ok {
				return -1
			}
			return seen.once(0, i)
		case "delta":
			return seen.once(1, r.fastDelta(data, i))
		case "finish_reason":
			c.finish, i = fastNullableString(c.finish, data, i)
			return seen.once(2, i)
		}
		return fastScalar(data, i, &r.fastScratch)
	})
	if i < 0 || i >= len(data) || data[i] != ']' || c.index != r.cfg.choice || c.index >= maxIndexGrowth {
		return -1
	}
	return i + 1
}

// fastDelta reads the "delta" object at data[i:] into r.chosen as
// deltaField does, its members in any order: "content", "refusal",
// "reasoning_content" and "reasoning" strings or nulls, "tool_calls" read
// by fastCalls, each at most once, and other members whose values
// fastScalar reads (role...). It returns the index of the byte after the
// object, or -1.
func (r *ChatReader) fastDelta(data []byte, i int) int {
	c := &r.chosen
	var seen fastSeen
	return fastMembers(data, i, func(name []byte, i int) int {
		switch string(name) {
		case "content":
			c.text, i = fastNullableString(c.text, data, i)
			return seen.once(0, i)
		case "refusal":
			c.refusal, i = fastNullableString(c.refusal, data, i)
			return seen.once(1, i)
		case "reasoning_content":
			return seen.once(2, r.fastReasoning(data, i))
		case "reasoning":
			return seen.once(3, r.fastReasoning(data, i))
		case "tool_calls":
			return seen.once(4, r.fastCalls(data, i))
		}
		return fastScalar(data, i, &r.fastScratch)
	})
}

// fastReasoning reads the value of "reasoning_content" or "reasoning" at
// data[i:], a string or null (an object is left to parseSlow), as
// deltaField does: into r.scratch, which becomes r.chosen's thinking if
// that is empty, so that a delta's second one counts only if the first
// was empty. It returns the index of the byte after the value, or -1.
func (r *ChatReader) fastReasoning(data []byte, i int) int {
	r.scratch, i = fastNullableString(r.scratch, data, i)
	r.keepReasoning(&r.chosen)
	return i
}

// fastCall is an element of a delta's "tool_calls" that carries a delta of
// one call's arguments, as the API writes it: fastCall[0], the call's
// index, fastCall[1], the arguments string, fastCall[2].
var fastCall = [3]string{`{"index":`, `,"function":{"arguments":`, `}}`}

// fastCalls reads the value of "tool_calls" at data[i:], an array of one
// or more elements read by fastCallElem, into r.chosen's calls, and returns
// the index of the byte after it, or -1.
func (r *ChatReader) fastCalls(data []byte, i int) int {
	if i >= len(data) || data[i] != '[' {
		return -1
	}
	for i++; ; i++ {
		if i = r.fastCallElem(r.chosen.nextCall(), data, i); i < 0 || i >= len(data) {
			return -1
		}
		if data[i] == ']' {
			return i + 1
		}
		if data[i] != ',' {
			return -1
		}
	}
}

// fastCallElem reads the element of "tool_calls" at data[i:] into t, an
// empty call, as call and callField do: first as laid out in fastCall, the common case; else as
// an object whose members come in any order, "index" (a plain integer,
// required), "id" and "type" (strings or nulls) and "function" (an object
// of "name" and "arguments", strings or nulls, and others whose values
// fastScalar reads) at most once each, and others whose values fastScalar
// reads. It returns the index of the byte after the element, or -1.
func (r *ChatReader) fastCallElem(t *chatCall, data []byte, i int) int {
	if hasAt(data, i, fastCall[0]) {
		j := i + len(fastCall[0])
		var ok bool
		if t.index, j, ok = adapter.Index(data, j); ok && hasAt(data, j, fastCall[1]) {
			if t.args, j = adapter.Unquote(t.args, data, j+len(fastCall[1])); j >= 0 && hasAt(data, j, fastCall[2]) {
				t.hasIndex = true
				return j + len(fastCall[2])
			}
		}
		t.index, t.args = 0, t.args[:0]
	}
	var seen fastSeen
	i = fastMembers(data, i, func(name []byte, i int) int {
		switch string(name) {
		case "index":
			var ok bool
			if t.index, i, ok = adapter.Index(data, i); !ok {
				return -1
			}
			t.hasIndex = true
			return seen.once(0, i)
		case "id":
			t.id, i = fastNullableString(t.id, data, i)
			return seen.once(1, i)
		case "type":
			t.hasType = !hasAt(data, i, "null")
			t.typ, i = fastNullableString(t.typ, data, i)
			return seen.once(2, i)
		case "function":
			var fn fastSeen
			i = fastMembers(data, i, func(name []byte, i int) int {
				switch string(name) {
				case "name":
					t.name, i = fastNullableString(t.name, data, i)
					return fn.once(0, i)
				case "arguments":
					t.args, i = fastNullableString(t.args, data, i)
					return fn.once(1, i)
				}
				return fastScalar(data, i, &r.fastScratch)
			})
			return seen.once(3, i)
		}
		return fastScalar(data, i, &r.fastScratch)
	})
	if !t.hasIndex {
		return -1 // parseSlow's error: an element without its index
	}
	return i
}

func (r *ChatReader) field(key []byte) (err error) {
	switch string(key) {
	case "id":
		r.hasID = true
		r.id, _, err = r.dec.NullableString(r.id)
		return err
	case "choices":
		return r.dec.Array(r.choice)
	case "error":
		return r.errorMember()
	case "message", "type", "code", "param":
		if r.errorEvent && !r.hasError {
			return r.errorField(key) // an error event's own members
		}
	}
	return r.dec.Skip()
}

// errorMember reads a chunk's "error": null (no error), a string (its
// message) or an object.
func (r *ChatReader) errorMember() (err error) {
	kind := r.dec.Kind()
	if kind == 'n' {
		// openai-go takes any "error" member for an error, the Python SDK
		// only one that is not null.
		return errors.New("/error is null")
	}
	r.hasError = true
	r.errType, r.errCode, r.errMessage, r.errParam = r.errType[:0], r.errCode[:0], r.errMessage[:0], r.errParam[:0]
	if kind == '"' {
		r.errMessage, err = r.dec.String(r.errMessage)
		return err
	}
	return r.dec.Object(chatErrorNames, r.errorField)
}

func (r *ChatReader) errorField(key []byte) (err error) {
	switch string(key) {
	case "type":
		r.errType, err = r.scalar(r.errType)
	case "code":
		r.errCode, err = r.scalar(r.errCode)
	case "message":
		r.errMessage, err = r.scalar(r.errMessage)
	case "param":
		r.errParam, err = r.scalar(r.errParam)
	default:
		err = r.dec.Skip()
	}
	return err
}

// scalar reads a string, decoded, a null, as empty, or any other value, as
// its JSON text, into dst[:0].
func (r *ChatReader) scalar(dst []byte) ([]byte, error) {
	switch r.dec.Kind() {
	case '"', 'n':
		dst, _, err := r.dec.NullableString(dst)
		return dst, err
	}
	v, err := r.dec.Value()
	return append(dst[:0], v...), err
}

// choice reads the element i of "choices" into r.cur, and keeps it in
// r.chosen if it is the chosen one.
func (r *ChatReader) choice(i int) error {
	c := &r.cur
	c.reset()
	r.choicePos = i
	if err := r.dec.Object(choiceNames, r.choiceField); err != nil {
		return err
	}
	if c.index >= maxIndexGrowth {
		return fmt.Errorf("/choices/%d is choice %d, past %d", i, c.index, maxIndexGrowth-1)
	}
	if c.index != r.cfg.choice {
		r.otherCalls = r.otherCalls || c.nCalls > 0
		return nil
	}
	if r.hasChosen {
		return fmt.Errorf("/choices/%d is choice %d again", i, c.index)
	}
	r.cur, r.chosen, r.hasChosen = r.chosen, r.cur, true
	return nil
}

func (r *ChatReader) choiceField(key []byte) (err error) {
	c := &r.cur
	switch string(key) {
	case "index":
		c.index, err = r.dec.Index()
	case "delta":
		err = r.dec.Object(deltaNames, r.deltaField)
	case "finish_reason":
		c.finish, _, err = r.dec.NullableString(c.finish)
	default:
		err = r.dec.Skip()
	}
	return err
}

func (r *ChatReader) deltaField(key []byte) (err error) {
	c := &r.cur
	switch string(key) {
	case "content":
		c.text, _, err = r.dec.NullableString(c.text)
	case "refusal":
		c.refusal, _, err = r.dec.NullableString(c.refusal)
	case "reasoning_content", "reasoning":
		if r.dec.Kind() == '{' {
			r.scratch = r.scratch[:0]
			err = r.dec.Object(reasoningNames, r.reasoningField)
		} else {
			r.scratch, _, err = r.dec.NullableString(r.scratch)
		}
		r.keepReasoning(c)
	case "tool_calls":
		err = r.dec.Array(r.call)
	default:
		err = r.dec.Skip()
	}
	return err
}

// reasoningField reads a member of a reasoning object: its "text".
func (r *ChatReader) reasoningField(key []byte) (err error) {
	if string(key) == "text" {
		r.scratch, _, err = r.dec.NullableString(r.scratch)
		return err
	}
	return r.dec.Skip()
}

// call reads the element i of a delta's "tool_calls" into the next
// chatCall of r.cur, reusing its buffers.
func (r *ChatReader) call(i int) error {
	t := r.cur.nextCall()
	if err := r.dec.Object(callNames, r.callField); err != nil {
		return err
	}
	if !t.hasIndex {
		return fmt.Errorf("/choices/%d/delta/tool_calls/%d has no index", r.choicePos, i)
	}
	return nil
}

func (r *ChatReader) callField(key []byte) (err error) {
	c := &r.cur
	t := &c.calls[c.nCalls-1]
	switch string(key) {
	case "index":
		t.index, err = r.dec.Index()
		t.hasIndex = err == nil
	case "id":
		t.id, _, err = r.dec.NullableString(t.id)
	case "type":
		t.typ, t.hasType, err = r.dec.NullableString(t.typ)
	case "function":
		err = r.dec.Object(functionNames, r.functionField)
	default:
		err = r.dec.Skip()
	}
	return err
}

func (r *ChatReader) functionField(key []byte) (err error) {
	c := &r.cur
	t := &c.calls[c.nCalls-1]
	switch string(key) {
	case "name":
		t.name, _, err = r.dec.NullableString(t.name)
	case "arguments":
		t.args, _, err = r.dec.NullableString(t.args)
	default:
		err = r.dec.Skip()
	}
	return err
}
