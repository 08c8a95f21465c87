package openaistream

// This file is structured in the following way:
//
//   - ReadChat, with the events it reads;
//   - ChatReader: the step over one event, and what one chunk does to the
//     Response.
//
// The decoding of a chunk's data is in chat_decode.go, its fast path in
// chat_fast.go.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire"
	"github.com/argstream/argstream/wire/internal/adapter"
	"github.com/argstream/argstream/wire/sse"
)

// ReadChat reads the server-sent events of a Chat Completions streaming
// response ("stream": true) from body and drives resp with the tool calls
// of one choice: choice 0, or the one set with [wire.WithChoice]. It
// returns when the stream is complete: at data [DONE], reading no further
// (the SDKs read nothing after it), or at the end of the body after a
// finish_reason. It does not call resp.End: the caller does, to get the
// Results. The package documentation lists the errors it returns; the
// specifics are below.
//
// # Events read
//
// Chat Completions servers send no "event" field, and the SDKs read every
// event as a chunk whatever its name: an event named other than "error" is
// malformed. Data that begins as [DONE] ends the stream (exactly [DONE];
// anything after those bytes is malformed), whatever the event's name. An
// event named "error" is a *[wire.ProviderError], from the data's "error"
// member, or from the data's own members if it has none, or with the whole
// data as its Message if the data is not a JSON object. Any other data is a
// chunk.
//
// A chunk is one chat.completion.chunk JSON object, of which ReadChat reads
// "id", "error" and "choices" and checks the other members (object, model,
// usage...). Every chunk's "id" must be the stream's (the first one given):
// openai-go's accumulator drops a chunk of another id. A chunk with an
// "error" member is a *wire.ProviderError: an object's type, code, message and
// param (a code or param that is a number keeps its JSON text, "429"; a
// null is ""), or a string as the Message; "error": null is malformed
// (openai-go takes it for an error, the Python SDK does not). Of "choices"
// (empty or null in usage chunks), ReadChat reads the chosen choice, whose
// "index" is wire.WithChoice's (a choice without an index is choice 0, as
// some servers send it when n is 1; an index past 127 is malformed, as
// openai-go drops its chunk), and ignores the others. In the chosen
// choice's "delta", in this order:
//
//   - reasoning_content or reasoning (the reasoning text of DeepSeek, vLLM,
//     OpenRouter...; a string, or an object with a "text" string as some
//     gateways send it): [wire.OnThinking], if set, when not empty. vLLM
//     sends both names with the same text: a delta's second one is ignored.
//   - content, then refusal (the text a model writes instead of content when
//     it refuses): [wire.OnText], if set, when not empty.
//   - tool_calls, element by element. An element has an "index", the
//     call's index in the response (which need not start at 0, but may be
//     at most 127 past the calls so far: openai-go drops a chunk that jumps
//     further, with the other calls' deltas in it), and a "type", if any,
//     of "function" or "custom". A custom tool's call (type "custom", or
//     a "custom" object of "name" and "input", as Codex's apply_patch)
//     has free text as its input, not JSON: it streams as the arguments
//     {"input":TEXT}, TEXT its input deltas quoted one by one, closed by
//     the finish_reason, as [ReadResponses] streams a custom_tool_call
//     ([ChatReader.Custom] says one came). A call is of one kind: an
//     element of the other kind (a custom call's function name or
//     arguments, a function call's custom object or type), or one element
//     of both, is malformed. An element without an index (as Mistral's API
//     sends them, whole) with an id new to the stream and a name is a new
//     call, at the index after the largest so far; the elements without an
//     index and without a name that follow it, without an id or with its id,
//     are later pieces of its arguments (or input), as Gemini's
//     OpenAI-compatible endpoint sends them (by users' reports). The next such
//     new call, or any element with an index, stops it: nothing can come for
//     it later, and an element without an index that is neither is malformed,
//     as is an element with an index that names such a call. The SDKs read
//     such calls otherwise (openai-go files them all at index 0, the
//     JavaScript SDK at none):
//     [ChatReader.Indexless] says one came, for a gateway, which must not
//     forward them. Response.Start(index, id, name) when the element has an
//     "id" or a function "name"; then, if the function's "arguments" string
//     is not empty, Response.Chunk(index, arguments), decoded from JSON. A
//     name that comes again for the same call is appended to the first, as
//     openai-go and the Python SDK append it: the call is then another
//     tool's, and fails (a [*toolcall.MismatchError]); an id that comes again
//     must be the same, or the call fails.
//   - other members (role, audio, the function_call of the deprecated
//     functions API...): checked, not read.
//
// The chosen choice's "finish_reason", when not null or empty, is the end
// of the calls: tool_calls, stop or function_call stop every call
// (Response.StopAll), and bytes for a call after it make that call fail;
// length and content_filter mark the response cut short
// (Response.Incomplete), so that a call's arguments that are a bare number
// end truncated. A body that ends after a finish_reason is complete, [DONE]
// or not, since some servers do not send [DONE], or send it without the
// blank line that ends an event (an event so cut off is dropped, as the
// spec and the SDKs' readers drop it). Any other end of the body is an
// error wrapping [io.ErrUnexpectedEOF].
//
// The data of a chunk is decoded and checked whole before anything is done
// with it: a malformed chunk (not JSON, a member of the wrong kind, an index
// that is negative or not an integer, a tool_calls element without an
// index that is not a whole new call, the chosen choice twice) drives resp with nothing of it, and
// ReadChat returns an error wrapping [ErrMalformed] with the event's number
// (counting every event from 1), having failed resp.
//
// ReadChat allocates per stream (a [ChatReader] kept with its SSE reader
// does not), and per tool call: the strings of its id
// and name, converted once even if a server repeats the id in every delta.
func ReadChat(ctx context.Context, body io.Reader, resp *toolcall.Response, opts ...wire.Option) error {
	return NewChatReader(resp, opts...).ReadEvents(ctx, sse.NewReader(body))
}

// ReadEvents reads the events of one stream from events to its end, as
// [ReadChat] reads them from a body, into r's Response. A caller that reads
// many responses keeps r and events, and readies both for the next one
// with their Reset: then a response allocates only for its calls.
func (r *ChatReader) ReadEvents(ctx context.Context, events *sse.Reader) error {
	stream := adapter.Stream{Name: "openai", Last: "[DONE]", CompleteAtEOF: r.Finished, Malformed: ErrMalformed}
	return r.fail(adapter.Loop(ctx, events, stream, func(ev sse.Event) (bool, error) {
		err := r.Event(ev)
		return r.done, err
	}))
}

// A ChatReader reads the events of one Chat Completions stream, one at a
// time, into a [toolcall.Response]: the step that [ReadChat] loops over, for a
// caller that reads the events itself (a gateway that forwards them). Give
// it every event of the stream, in order, until [ChatReader.Done]: after data
// [DONE] the SDKs read nothing more.
//
// A ChatReader is for one goroutine. Its memory is reused from stream to
// stream with [ChatReader.Reset].
type ChatReader struct {
	cfg  adapter.Config
	resp *toolcall.Response
	dec  adapter.Decoder
	// layout is the layout of the last chunk fastRead read, whose
	// choice had layoutCalls calls.
	layout      adapter.Layout
	layoutCalls int
	kept        chatKept // the fields of that chunk that fastSlot sets again
	n           int64    // events read
	err         error    // the first error: every later Event returns it
	done        bool     // data [DONE] came
	finished    bool     // the chosen choice had a finish_reason

	// names holds, for each call index given to resp, the name it was
	// given, and whether an id was: the SDKs append a second name to the
	// first (the call is then another), and a server that repeats the id
	// in every delta has it converted to a string once.
	names map[int64]chatIdentity
	count int64 // the chosen choice's calls: its largest index + 1
	// indexless holds the id of each call stated without an index
	// (Mistral's API), by the index r gave it; open is the index + 1 of
	// the last of them, which the elements without an index that follow
	// it continue until another element ends it, or 0.
	indexless map[int64]string
	open      int64
	custom    bool // a custom tool's call has come
	// lastFunction is the index + 1 of the last call checkKind found a
	// function's, or 0.
	lastFunction int64
	touched      []int64 // the calls the last event concerned
	known        []int64 // every call's index, in the order they came

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
	quoted     []byte     // a custom call's arguments being written
	choicePos  int        // the position in "choices" of the choice being read
	cur        chatChoice // the choice being read
	chosen     chatChoice // the chosen choice, if hasChosen
	hasChosen  bool
	otherCalls bool // a choice not chosen has tool_calls
	scratch    []byte
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
	name     []byte // function.name, or custom.name
	args     []byte // function.arguments, or custom.input
	// The objects the element has, non-null, as the token decoder reads
	// them (the fast path declines an element with a "custom" member).
	function, custom bool
	// ends is the index + 1 of the call without an index that this
	// element ends (checkCalls), or 0: apply stops it first.
	ends int64
}

// chatIdentity is what a [ChatReader] gave the Response of one call's
// identity, and the call's kind.
type chatIdentity struct {
	id, name string
	kind     callKind
	// A custom call's arguments have begun, {"input":", and have ended.
	opened, closed bool
}

// callKind is the kind of a Chat tool call, known from the first element
// that says it.
type callKind uint8

const (
	kindUnknown  callKind = iota
	kindFunction          // a function's: its arguments are JSON
	kindCustom            // a custom tool's: its input is free text
)

// kind reports the kind t says its call is, or an error if it says both.
func (t *chatCall) kind() (callKind, error) {
	custom := t.custom || t.hasType && string(t.typ) == "custom"
	// A name or arguments not the custom object's are the function's (the
	// fast path, which declines a custom object, does not set function).
	function := !t.custom && (len(t.name) > 0 || len(t.args) > 0) || t.hasType && string(t.typ) == "function"
	switch {
	case t.hasType && string(t.typ) != "function" && string(t.typ) != "custom":
		return 0, fmt.Errorf("a tool call of type %q", t.typ)
	case t.function && t.custom:
		return 0, errors.New("a tool_calls element with both a function and a custom object")
	case custom && function:
		return 0, fmt.Errorf("a tool_calls element of type %q with a function's name or arguments, or a custom object", t.typ)
	case custom:
		return kindCustom, nil
	case function:
		return kindFunction, nil
	}
	return kindUnknown, nil
}

// maxIndexGrowth is how far past the calls so far a new call's index, and
// how far from 0 a choice's index, may be: openai-go's
// ChatCompletionAccumulator drops a chunk that goes further (it bounds the
// memory an index makes it allocate), and with it the other calls' deltas
// of that chunk, which it would then read otherwise.
const maxIndexGrowth = 128

// NewChatReader returns a [ChatReader] of one stream into resp.
func NewChatReader(resp *toolcall.Response, opts ...wire.Option) *ChatReader {
	return &ChatReader{cfg: adapter.NewConfig(opts), resp: resp}
}

// Reset readies r for the next stream, into resp, keeping its memory and
// its options.
func (r *ChatReader) Reset(resp *toolcall.Response) {
	r.resp, r.n, r.err, r.done, r.finished = resp, 0, nil, false, false
	clear(r.names)
	clear(r.indexless)
	r.open = 0
	r.custom, r.lastFunction, r.otherCalls = false, 0, false
	r.count, r.hasChunkID = 0, false
	r.touched, r.known = r.touched[:0], r.known[:0]
}

// Done reports whether data [DONE] has come.
func (r *ChatReader) Done() bool { return r.done }

// Finished reports whether the chosen choice has had its finish_reason:
// a stream that ends cleanly after it is complete, [DONE] or not.
func (r *ChatReader) Finished() bool { return r.finished }

// Event reads one event of the stream and drives the Response with it. It
// returns a [*wire.ProviderError] for an error, an error wrapping
// [ErrMalformed] (having failed the Response) for a malformed event, and the
// Response's own errors ([toolcall.ErrTooManyCalls], [toolcall.ErrEnded]).
// After an error or after [DONE], Event returns the error, or an error
// wrapping ErrMalformed for an event after [DONE].
func (r *ChatReader) Event(ev sse.Event) error {
	if r.err != nil {
		return r.err
	}
	r.n++
	r.touched = r.touched[:0]
	r.err = r.fail(r.event(ev))
	return r.err
}

// OtherCalls reports whether an event so far carried tool calls in a
// choice that r does not read (see [wire.WithChoice]): calls no policy
// judged.
func (r *ChatReader) OtherCalls() bool { return r.otherCalls }

// Indexless reports whether a call stated without an index has come. The
// SDKs read such calls otherwise (openai-go files every one at index 0,
// appending their names and arguments; the JavaScript SDK files none), so
// a gateway must not forward them to a client of the official SDKs.
func (r *ChatReader) Indexless() bool { return len(r.indexless) > 0 }

// Custom reports whether a custom tool's call has come. The SDKs do not
// read its input as r does (openai-go has no member for it; the
// JavaScript SDK keeps only the last delta's "custom" object, not their
// text put together), so a gateway must not forward it to their clients.
func (r *ChatReader) Custom() bool { return r.custom }

// EventCalls returns the indexes of the calls the last event concerned:
// started or fed, or all of them for a finish_reason, which ends them all.
// It is borrowed until the next [ChatReader.Event].
func (r *ChatReader) EventCalls() []int64 { return r.touched }

// fail fails the Response for a malformed stream, and returns err.
func (r *ChatReader) fail(err error) error {
	return adapter.FailMalformed(r.resp, err, ErrMalformed)
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
	t.index, t.hasIndex, t.hasType, t.function, t.custom, t.ends = 0, false, false, false, false, 0
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
			return &wire.ProviderError{Wire: wire.OpenAIChat, Message: string(ev.Data)}
		}
		if !r.hasError {
			// The SDKs read it as a chunk, and read on.
			return r.malformed(errors.New("an event named error whose data has no error member"))
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
	if len(c.thinking) > 0 && r.cfg.OnThinking != nil {
		r.cfg.OnThinking(r.cfg.Choice, c.thinking)
	}
	if r.cfg.OnText != nil {
		if len(c.text) > 0 {
			r.cfg.OnText(r.cfg.Choice, c.text)
		}
		if len(c.refusal) > 0 {
			r.cfg.OnText(r.cfg.Choice, c.refusal)
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
		if t.ends > 0 {
			// A call without an index that nothing can continue now.
			if err := r.closeCustom(t.ends - 1); err != nil {
				return err
			}
			if err := r.resp.Stop(t.ends - 1); err != nil {
				return err
			}
		}
		if err := r.identify(t); err != nil {
			return err
		}
		if err := r.arguments(t); err != nil {
			return err
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
		for _, index := range r.known {
			if err := r.closeCustom(index); err != nil {
				return err
			}
		}
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
// growth of their indexes; it gives each call stated without an index the
// next one.
func (r *ChatReader) checkCalls(c *chatChoice) error {
	for i := range c.nCalls {
		t := &c.calls[i]
		kind, err := t.kind()
		if err != nil {
			return r.malformed(err)
		}
		if !t.hasIndex {
			if err := r.placeIndexless(c, t); err != nil {
				return err
			}
		} else {
			if _, ok := r.indexless[t.index]; ok {
				return r.malformed(fmt.Errorf("a tool_calls element at index %d, the call stated without an index", t.index))
			}
			if t.index-r.count >= maxIndexGrowth {
				return r.malformed(fmt.Errorf("a call at index %d, %d past the last", t.index, t.index-r.count+1))
			}
			r.count = max(r.count, t.index+1)
			// The streams that mix both forms are not continued across.
			t.ends, r.open = r.open, 0
		}
		if err := r.checkKind(t.index, kind); err != nil {
			return err
		}
	}
	return nil
}

// checkKind records that the call at index is of kind, if it is known,
// and checks it is the kind an earlier element said. An error fails the
// reader, so that the kinds of the chunk's elements may be recorded
// before it is applied. The deltas of a function's arguments, one call's
// after another's, cost no lookup (lastFunction).
func (r *ChatReader) checkKind(index int64, kind callKind) error {
	if kind == kindUnknown || kind == kindFunction && index+1 == r.lastFunction {
		return nil
	}
	known, seen := r.names[index]
	switch known.kind {
	case kind:
	case kindUnknown:
		if !seen && len(r.names) == maxTrackedCalls {
			// The Response takes far fewer; the chunk is not yet its.
			return r.malformed(fmt.Errorf("more than %d tool calls", maxTrackedCalls))
		}
		if r.names == nil {
			r.names = make(map[int64]chatIdentity)
		}
		known.kind = kind
		r.names[index] = known
		r.custom = r.custom || kind == kindCustom
	case kindCustom:
		return r.malformed(fmt.Errorf("a function's tool_calls element for call %d, a custom tool's", index))
	default:
		return r.malformed(fmt.Errorf("a custom tool's tool_calls element for call %d, a function's", index))
	}
	if kind == kindFunction {
		r.lastFunction = index + 1
	}
	return nil
}

// maxTrackedCalls bounds the calls whose kind a ChatReader records before
// the Response takes them, at most toolcall.DefaultMaxCalls by default.
const maxTrackedCalls = 1 << 16

// placeIndexless gives t, a tool_calls element of c without an index, its
// call's index. An element without a name, and without an id or with the id of
// the open call without an index (r.open), continues that call, as Gemini's
// OpenAI-compatible endpoint sends its arguments' later pieces. Any other must
// state a new call, its id and name (and its arguments, if any), as Mistral's
// API sends them, with an id no call of the stream has, nor another element of
// the chunk; it ends the open one.
func (r *ChatReader) placeIndexless(c *chatChoice, t *chatCall) error {
	if r.open > 0 && len(t.name) == 0 && (len(t.id) == 0 || string(t.id) == r.indexless[r.open-1]) {
		t.index = r.open - 1
		return nil
	}
	if len(t.id) == 0 || len(t.name) == 0 {
		return r.malformed(errors.New("a tool_calls element without an index, and without the id and name of a new call"))
	}
	// The calls of the chunk with an index are not yet the Response's; the
	// elements without one before t are in r.indexless.
	came := slices.ContainsFunc(c.calls[:c.nCalls], func(o chatCall) bool { return o.hasIndex && bytes.Equal(o.id, t.id) })
	for _, known := range r.names {
		came = came || known.id == string(t.id)
	}
	for _, id := range r.indexless {
		came = came || id == string(t.id)
	}
	if came {
		return r.malformed(fmt.Errorf("a tool_calls element without an index, of call %q, which has come", t.id))
	}
	if r.indexless == nil {
		r.indexless = make(map[int64]string)
	}
	t.index, t.ends = r.count, r.open
	r.count++
	r.indexless[t.index] = string(t.id)
	r.open = t.index + 1
	return nil
}

func (r *ChatReader) providerError() error {
	return &wire.ProviderError{Wire: wire.OpenAIChat, Type: string(r.errType), Code: string(r.errCode), Message: string(r.errMessage), Param: string(r.errParam)}
}

// malformed wraps err, found in the data of the current event.
func (r *ChatReader) malformed(err error) error {
	return fmt.Errorf("openai: %w: event %d: %w", ErrMalformed, r.n, err)
}
