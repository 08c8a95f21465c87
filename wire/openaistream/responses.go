package openaistream

// This file is structured in the following way:
//
//   - ReadResponses and its documentation: the events it reads;
//   - ResponsesReader: the step over one event, its kind (its data's
//     "type") and what it does to the Response.
//
// The decoding of an event's data is in responses_decode.go; the
// arguments of a custom_tool_call (its free text as {"input":TEXT}), in
// responses_custom.go.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire"
	"github.com/argstream/argstream/wire/internal/adapter"
	"github.com/argstream/argstream/wire/sse"
)

// ReadResponses reads the server-sent events of an OpenAI Responses API
// streaming response (POST /v1/responses with "stream": true) from body to
// its end, or to data [DONE], and drives resp with its function calls. It
// does not call resp.End: the caller does, to get the Results. Each call's
// index in resp is its item's output_index, its id the item's call_id (what
// the caller sends back in its function_call_output item), its name the
// item's name.
//
// # Events read
//
// The kind of an event is its data's "type", which the SDKs go by; an
// "event" field, if there is one, must name the same type, or the event is
// malformed. Every event's data must be a JSON object with a type, the
// event types to come included (the SDKs decode each one). ReadResponses
// reads:
//
//   - response.output_item.added whose item type is function_call:
//     Response.Start(output_index, call_id, name). An item of type mcp_call
//     (a tool of a remote MCP server, which OpenAI calls itself) is a call
//     too, with the item's id as its id, since it has no call_id, and
//     Call.Server set: never executable. The item's arguments, empty in
//     OpenAI's streams, are the first bytes of the arguments, which the
//     deltas extend, as the SDKs append them. An item of type
//     custom_tool_call (a custom tool, whose input is free text: Codex's
//     apply_patch) is a call whose arguments are the JSON object
//     {"input":TEXT}: they stream as the text does, its deltas escaped as in
//     a JSON string, so that policies ("/input"), sinks and renderers read
//     it as any call; they end with its input (custom_tool_call_input.done,
//     or the item done). An output_index or item id added twice is
//     malformed. Every other item (message, reasoning, web_search_call,
//     file_search_call, tool_search_call, code_interpreter_call, and the
//     item types to come) is not a call, and is ignored with its events.
//   - response.function_call_arguments.delta,
//     response.mcp_call_arguments.delta and
//     response.custom_tool_call_input.delta: Response.Chunk(output_index,
//     delta). The event's item_id must be a call's item, of the kind the
//     event names (the SDKs apply each to its own kind of item only), and
//     its output_index, if any, that call's; an event without output_index
//     is for the call whose item id is its item_id.
//   - response.function_call_arguments.done,
//     response.mcp_call_arguments.done and
//     response.custom_tool_call_input.done (its "input", as {"input":TEXT}),
//     response.output_item.done of a call item, and the output of
//     response.completed and response.incomplete:
//     restatements of the call (Response.Restate), which must equal what
//     streamed (the same name and ids, the same JSON arguments), or the call
//     fails (a [*toolcall.MismatchError]): a reader of the final response, of
//     the done events, and of the deltas must all run the same call. A call
//     stated only whole (output_item.done or the final output, with no
//     added event) is read from that statement. The final output must list
//     every call that streamed, at its output_index, or the stream is
//     malformed.
//   - response.output_text.delta, and response.refusal.delta (the text a
//     model writes instead of an answer when it refuses, which the user
//     should see as well): the [wire.OnText] callback, if set, with the
//     output_index and the delta; response.reasoning_summary_text.delta and
//     response.reasoning_text.delta: the [wire.OnThinking] callback.
//   - response.completed, and response.incomplete (the response was cut
//     short, by max_output_tokens or a content filter, which marks resp
//     Incomplete: a call whose arguments were cut off, or are a bare
//     number, ends truncated): the end of the response. The SDKs read on
//     after it, and so does ReadResponses: any event after it but data
//     [DONE] is malformed.
//   - response.failed: a *[wire.ProviderError] whose Type is "response.failed",
//     and whose Code and Message are the response's error.code and
//     error.message.
//   - error: a *wire.ProviderError with the event's code, message and param, at
//     the top level of the data as OpenAI documents them, or in an "error"
//     object with its type, as OpenAI also sends them; a field at the top
//     level takes precedence. An error event whose data is not JSON gives a
//     *wire.ProviderError with the data as its Message.
//   - data [DONE], which some proxies send: the end of the stream (the SDKs
//     read nothing after it); before response.completed, an error wrapping
//     [io.ErrUnexpectedEOF].
//   - every other event (response.created, response.in_progress,
//     response.queued, response.content_part.added, the .done events of
//     text, the events of the built-in tools, and the event types to come):
//     checked, and ignored.
//
// An event read whose data is not the JSON the API documents, or that two
// readers could read differently (see the package documentation), is
// malformed: ReadResponses fails resp and returns an error wrapping
// [ErrMalformed], with the event's number in the stream (from 1, every event
// counted). Malformed are also: a field of the wrong kind (an output_index
// that is not an integer from 0, a delta that is not a string, a call item's
// id, call_id, name or arguments neither a string nor null); an output_item
// event whose item has no type or, for a call, no output_index, no id, no
// name, or (a function_call) no call_id; a call item restated (done, or in
// the final output) without its arguments string; an arguments event
// without item_id; any event but an error with an "error" member, null
// included; a delta event without its delta; a text or reasoning delta
// without output_index. A call's own errors (arguments invalid, truncated, restated
// otherwise, or with bytes after the call's done events) are not
// ReadResponses' errors: they are in its Result.
//
// The package documentation lists the other errors. A stream that ends
// before response.completed or response.incomplete gives an error wrapping
// io.ErrUnexpectedEOF; End then reports each call whose arguments all came
// as complete, and the others truncated. After them, an event that no
// blank line ended is dropped, as the spec and the SDKs' readers drop it.
//
// # Memory
//
// ReadResponses allocates per stream (its reader and buffers: a
// [ResponsesReader] kept with its SSE reader does not) and per call
// (the strings of its id and name, and what maps the call's item id to its
// output_index), never per delta once its buffers have grown to the
// largest event. Comparing a restatement costs one parse of it into a
// buffer the Response keeps.
func ReadResponses(ctx context.Context, body io.Reader, resp *toolcall.Response, opts ...wire.Option) error {
	return NewResponsesReader(resp, opts...).ReadEvents(ctx, sse.NewReader(body))
}

// ReadEvents reads the events of one stream from events to its end, as
// [ReadResponses] reads them from a body, into r's Response. A caller that
// reads many responses keeps r and events, and readies both for the next
// one with their Reset: then a response allocates only for its calls.
func (r *ResponsesReader) ReadEvents(ctx context.Context, events *sse.Reader) error {
	stream := adapter.Stream{Name: "openai", Last: "response.completed", CompleteAtEOF: r.complete, Malformed: ErrMalformed}
	return r.fail(adapter.Loop(ctx, events, stream, func(ev sse.Event) (bool, error) {
		err := r.Event(ev)
		if err == nil && r.done && !r.ended {
			err = fmt.Errorf("openai: stream ended (data [DONE]) before response.completed: %w", io.ErrUnexpectedEOF)
		}
		return r.done, err
	}))
}

// responsesKind is what a [ResponsesReader] does with an event.
type responsesKind int

const (
	responsesIgnored   responsesKind = iota
	responsesItemAdded               // response.output_item.added
	responsesItemDone                // response.output_item.done
	responsesArgsDelta               // response.function_call_arguments.delta, mcp_call's, custom_tool_call_input's
	responsesArgsDone                // response.function_call_arguments.done, mcp_call's, custom_tool_call_input's
	responsesText                    // response.output_text.delta, response.refusal.delta
	responsesThinking                // response.reasoning_summary_text.delta, response.reasoning_text.delta
	responsesEnd                     // response.completed, response.incomplete
	responsesError                   // error
	responsesFailed                  // response.failed
)

func responsesKindOf(typ []byte) responsesKind {
	switch string(typ) {
	case "response.output_item.added":
		return responsesItemAdded
	case "response.output_item.done":
		return responsesItemDone
	case "response.function_call_arguments.delta", "response.mcp_call_arguments.delta", "response.custom_tool_call_input.delta":
		return responsesArgsDelta
	case "response.function_call_arguments.done", "response.mcp_call_arguments.done", "response.custom_tool_call_input.done":
		return responsesArgsDone
	case "response.output_text.delta", "response.refusal.delta":
		return responsesText
	case "response.reasoning_summary_text.delta", "response.reasoning_text.delta":
		return responsesThinking
	case "response.completed", "response.incomplete":
		return responsesEnd
	case "error":
		return responsesError
	case "response.failed":
		return responsesFailed
	}
	return responsesIgnored
}

// responsesCall is what the reader remembers of one call, by output_index.
type responsesCall struct {
	itemID string // its item's id
	typ    string // its item's type: function_call, mcp_call, custom_tool_call
	// closed: a custom_tool_call's input has ended, and so has the JSON
	// text its arguments are ({"input":TEXT}).
	closed bool
}

func (c responsesCall) server() bool { return c.typ == "mcp_call" }
func (c responsesCall) custom() bool { return c.typ == "custom_tool_call" }

// eventItemType is the type of the call item an arguments event
// (responsesArgsDelta, responsesArgsDone) belongs to: the SDKs apply
// function_call_arguments events to function_call items only, and so on.
func eventItemType(typ []byte) string {
	switch {
	case bytes.HasPrefix(typ, []byte("response.function_call_arguments.")):
		return "function_call"
	case bytes.HasPrefix(typ, []byte("response.mcp_call_arguments.")):
		return "mcp_call"
	}
	return "custom_tool_call"
}

// A ResponsesReader reads the events of one Responses API stream, one at a
// time, into a [toolcall.Response]: the step that [ReadResponses] loops over,
// for a caller that reads the events itself (a gateway that forwards
// them). Give it every event of the stream, in order: after
// response.completed ([ResponsesReader.Ended]) the SDKs read on, and any
// event but data [DONE] is malformed; after [DONE] ([ResponsesReader.Done])
// they read nothing more.
//
// A ResponsesReader is for one goroutine. Its memory is reused from stream
// to stream with [ResponsesReader.Reset].
type ResponsesReader struct {
	cfg  adapter.Config
	resp *toolcall.Response
	dec  adapter.Decoder
	// layout is the layout of the last event fastRead read, kept the
	// fields of that event that restore sets again.
	layout adapter.Layout
	kept   responsesKept
	n      int64 // events read
	err    error // the first error: every later Event returns it
	ended  bool  // response.completed or response.incomplete came
	done   bool  // data [DONE] came

	otherCalls bool // an item added is a call the client runs that r does not read

	calls   map[int64]responsesCall // the calls, by output_index
	items   map[string]int64        // a call's item id -> its output_index
	touched []int64                 // the calls the last event concerned

	// The event being read; byte slices are reused.
	kind      responsesKind
	typ       []byte
	index     int64
	hasIndex  bool
	itemID    []byte
	hasItemID bool
	str       []byte // delta, arguments or input, decoded
	hasStr    bool
	quoted    []byte // a custom call's input, as the JSON text of its arguments
	name      []byte // the name of an arguments done event
	// The fast path's reads of an event's arguments and input, before
	// its type says which one is r.str (fastMembers).
	spareArgs, spareInput []byte
	item                  responsesItem
	output                []responsesItem // response.output of response.completed
	nOutput               int
	flat                  responsesErr // an error event's code, message and param
	nested                responsesErr // the same in its "error" object, or response.failed's
}

// responsesItem is an output item. id, callID, name, args and input are
// read whatever the item's type, but they are checked only for a call: bad
// names a field that is not a string (nor null).
type responsesItem struct {
	typ, id, callID, name, args, input []byte
	hasArgs, hasInput                  bool
	bad                                string
}

func (it *responsesItem) reset() {
	it.typ, it.id, it.callID, it.name, it.args, it.input = it.typ[:0], it.id[:0], it.callID[:0], it.name[:0], it.args[:0], it.input[:0]
	it.hasArgs, it.hasInput, it.bad = false, false, ""
}

// clientRunItems are the output items, other than function_call and
// custom_tool_call, that the client runs: their input is a structure of
// the API's own, not arguments that a policy judges.
var clientRunItems = map[string]bool{
	"local_shell_call": true, "shell_call": true, "apply_patch_call": true, "computer_call": true,
}

// isCall reports whether the item is a call: a function_call, an mcp_call
// (a tool of a remote MCP server, which OpenAI calls itself) or a
// custom_tool_call (a tool whose input is free text).
func (it *responsesItem) isCall() bool {
	switch string(it.typ) {
	case "function_call", "mcp_call", "custom_tool_call":
		return true
	}
	return false
}

// call is the identity of the call item it, at index.
func (it *responsesItem) call(index int64) fragment.Call {
	c := fragment.Call{Index: index, ID: string(it.callID), Name: string(it.name)}
	if string(it.typ) == "mcp_call" {
		c.ID, c.Server = string(it.id), true
	}
	return c
}

// responsesErr is the error object of an error or response.failed event.
type responsesErr struct {
	typ, code, msg, param []byte
}

// NewResponsesReader returns a [ResponsesReader] of one stream into resp.
func NewResponsesReader(resp *toolcall.Response, opts ...wire.Option) *ResponsesReader {
	return &ResponsesReader{cfg: adapter.NewConfig(opts), resp: resp}
}

// Reset readies r for the next stream, into resp, keeping its memory and
// its options.
func (r *ResponsesReader) Reset(resp *toolcall.Response) {
	r.resp, r.n, r.err, r.ended, r.done, r.otherCalls = resp, 0, nil, false, false, false
	clear(r.calls)
	clear(r.items)
	r.touched = r.touched[:0]
}

// EventType returns the type of the last event read, borrowed until the
// next [ResponsesReader.Event].
func (r *ResponsesReader) EventType() []byte { return r.typ }

// Ended reports whether response.completed or response.incomplete has come.
func (r *ResponsesReader) Ended() bool { return r.ended }

// Done reports whether data [DONE] has come: the SDKs read no further.
func (r *ResponsesReader) Done() bool { return r.done }

func (r *ResponsesReader) complete() bool { return r.ended }

// Event reads one event of the stream and drives the Response with it. It
// returns a [*wire.ProviderError] for an error or response.failed event, an
// error wrapping [ErrMalformed] (having failed the Response) for a malformed
// event, and the Response's own errors ([toolcall.ErrTooManyCalls],
// [toolcall.ErrEnded]). After an error, Event returns it again.
func (r *ResponsesReader) Event(ev sse.Event) error {
	if r.err != nil {
		return r.err
	}
	r.n++
	r.touched = r.touched[:0]
	r.err = r.fail(r.event(ev))
	return r.err
}

// EventCalls returns the indexes (output_index) of the calls the last event
// concerned: started, fed, restated (response.completed restates them
// all). It is borrowed until the next [ResponsesReader.Event].
func (r *ResponsesReader) EventCalls() []int64 { return r.touched }

// OtherCalls reports whether an output item added so far is a call the
// client runs that r does not read, its input a structure of the API's own
// (local_shell_call, shell_call, apply_patch_call, computer_call): a call
// no policy judged.
func (r *ResponsesReader) OtherCalls() bool { return r.otherCalls }

// fail fails the Response for a malformed stream, and returns err.
func (r *ResponsesReader) fail(err error) error {
	return adapter.FailMalformed(r.resp, err, ErrMalformed)
}

// event handles one event. Its kind is its data's type, which the SDKs go
// by: an "event" field, if there is one, must name the same.
func (r *ResponsesReader) event(ev sse.Event) error {
	if r.done {
		return r.malformed(errors.New("an event after data [DONE]"))
	}
	if bytes.HasPrefix(ev.Data, []byte(sse.Done)) {
		if !ev.IsDone() {
			return r.malformed(fmt.Errorf("data %q, which begins as [DONE] does", ev.Data))
		}
		r.done = true // some proxies send it; the SDKs stop reading there
		return nil
	}
	if err := r.parse(ev.Data); err != nil {
		if string(ev.Type) == "error" || string(ev.Type) == "response.failed" {
			pe := &wire.ProviderError{Wire: wire.OpenAIResponses, Message: string(ev.Data)}
			if string(ev.Type) == "response.failed" {
				pe.Type = "response.failed"
			}
			return pe
		}
		return err
	}
	if len(ev.Type) > 0 && !bytes.Equal(ev.Type, r.typ) {
		return r.malformed(fmt.Errorf("an event named %q holds data of type %q", ev.Type, r.typ))
	}
	if (r.kind == responsesItemAdded || r.kind == responsesItemDone) && len(r.item.typ) == 0 {
		return r.malformed(errors.New("no item type"))
	}
	if r.ended && r.kind != responsesIgnored {
		return r.malformed(fmt.Errorf("a %s event after the response's end", r.typ))
	}
	switch r.kind {
	case responsesError, responsesFailed:
		return r.providerError()
	case responsesEnd:
		return r.end()
	case responsesItemAdded:
		return r.itemAdded()
	case responsesItemDone:
		return r.itemDone()
	case responsesArgsDelta:
		index, err := r.callIndex()
		if err != nil {
			return err
		}
		if !r.hasStr {
			return r.malformed(errors.New("no delta"))
		}
		r.touched = append(r.touched, index)
		if r.calls[index].custom() {
			if r.calls[index].closed {
				return r.resp.Chunk(index, r.str) // after its end: the call's error
			}
			r.quoted = customChunk(r.quoted[:0], r.str)
			return r.resp.Chunk(index, r.quoted)
		}
		return r.resp.Chunk(index, r.str)
	case responsesArgsDone:
		index, err := r.callIndex()
		if err != nil {
			return err
		}
		if !r.hasStr {
			if eventItemType(r.typ) == "custom_tool_call" {
				return r.malformed(errors.New("no input"))
			}
			return r.malformed(errors.New("no arguments"))
		}
		c := r.calls[index]
		r.touched = append(r.touched, index)
		args := r.str
		if c.custom() {
			if err := r.closeCustom(index); err != nil {
				return err
			}
			r.quoted = customArguments(r.quoted[:0], r.str)
			args = r.quoted
		}
		return r.resp.Restate(fragment.Call{Index: index, Name: string(r.name), Server: c.server()}, args)
	case responsesText, responsesThinking:
		if !r.hasIndex {
			return r.malformed(errors.New("no output_index"))
		}
		if !r.hasStr {
			return r.malformed(errors.New("no delta"))
		}
		fn := r.cfg.OnText
		if r.kind == responsesThinking {
			fn = r.cfg.OnThinking
		}
		if fn != nil {
			fn(r.index, r.str)
		}
	}
	return nil
}

// checkItem checks the call item it of an output_item event, or of
// response.completed's output at index.
func (r *ResponsesReader) checkItem(it *responsesItem) error {
	if it.bad != "" {
		return r.malformed(fmt.Errorf("/item/%s is not a string", it.bad))
	}
	switch {
	case len(it.id) == 0:
		return r.malformed(errors.New("a call item without an id"))
	case len(it.name) == 0:
		return r.malformed(errors.New("a call item without a name"))
	case string(it.typ) != "mcp_call" && len(it.callID) == 0:
		// Its call_id is its identity to the client, in every statement.
		return r.malformed(fmt.Errorf("a %s item without a call_id", it.typ))
	}
	return nil
}

// itemAdded starts a call: output_item.added of a function_call or
// mcp_call item. Every other item (message, reasoning, web_search_call,
// ...) is not a call.
func (r *ResponsesReader) itemAdded() error {
	it := &r.item
	if !it.isCall() {
		r.otherCalls = r.otherCalls || clientRunItems[string(it.typ)]
		return nil
	}
	if !r.hasIndex {
		return r.malformed(errors.New("no output_index"))
	}
	if err := r.checkItem(it); err != nil {
		return err
	}
	if _, ok := r.calls[r.index]; ok {
		return r.malformed(fmt.Errorf("a second output_item.added at output_index %d", r.index))
	}
	if _, ok := r.items[string(it.id)]; ok {
		return r.malformed(fmt.Errorf("a second output_item.added of item %q", it.id))
	}
	if r.calls == nil {
		r.calls, r.items = make(map[int64]responsesCall), make(map[string]int64)
	}
	c := responsesCall{itemID: string(it.id), typ: string(it.typ)}
	r.calls[r.index], r.items[c.itemID] = c, r.index
	r.touched = append(r.touched, r.index)
	if err := r.resp.Start(it.call(r.index), nil); err != nil {
		return err
	}
	// Arguments in the added item are the first bytes of the arguments,
	// which the deltas extend, as the SDKs append them (never Start's
	// placeholder); a custom call's input, the first bytes of its input.
	if c.custom() {
		r.quoted = customChunk(append(r.quoted[:0], customOpen...), it.input)
		return r.resp.Chunk(r.index, r.quoted)
	}
	if len(it.args) > 0 {
		return r.resp.Chunk(r.index, it.args)
	}
	return nil
}

// itemDone restates a call: output_item.done of a call item.
func (r *ResponsesReader) itemDone() error {
	it := &r.item
	if !r.hasIndex {
		return r.malformed(errors.New("no output_index"))
	}
	c, started := r.calls[r.index]
	if !it.isCall() {
		if started {
			return r.malformed(fmt.Errorf("output_index %d, a call, done as a %s item", r.index, it.typ))
		}
		return nil
	}
	if err := r.restateItem(r.index, it, c, started); err != nil {
		return err
	}
	return nil
}

// restateItem restates the call at index with the call item it; c is the
// call as started, if started.
func (r *ResponsesReader) restateItem(index int64, it *responsesItem, c responsesCall, started bool) error {
	if err := r.checkItem(it); err != nil {
		return err
	}
	if started && string(it.id) != c.itemID {
		return r.malformed(fmt.Errorf("output_index %d, item %q, restated as item %q", index, c.itemID, it.id))
	}
	if started && string(it.typ) != c.typ {
		return r.malformed(fmt.Errorf("output_index %d, a %s item, restated as a %s item", index, c.typ, it.typ))
	}
	if !started {
		// A call stated only whole: its item is its arguments.
		if _, ok := r.items[string(it.id)]; ok {
			return r.malformed(fmt.Errorf("item %q at a second output_index", it.id))
		}
		if r.calls == nil {
			r.calls, r.items = make(map[int64]responsesCall), make(map[string]int64)
		}
		c = responsesCall{itemID: string(it.id), typ: string(it.typ), closed: true}
		r.calls[index], r.items[c.itemID] = c, index
	}
	args, ok := it.arguments(&r.quoted)
	if !ok {
		// A reader of the final item would run it with no arguments, or
		// with "" (openai-go reads null so).
		return r.malformed(fmt.Errorf("the call item %q restated without its %s", it.id, map[bool]string{true: "input", false: "arguments"}[c.custom()]))
	}
	r.touched = append(r.touched, index)
	if err := r.closeCustom(index); err != nil {
		return err
	}
	return r.resp.Restate(it.call(index), args)
}

// end handles response.completed and response.incomplete, whose output
// restates every call: each must be there, at its output_index, equal to
// what streamed, as a reader of the final response would run it.
func (r *ResponsesReader) end() error {
	for i := range r.nOutput {
		it := &r.output[i]
		index := int64(i)
		c, started := r.calls[index]
		if !it.isCall() {
			if started {
				return r.malformed(fmt.Errorf("response.output[%d], a call, is a %s item", i, it.typ))
			}
			continue
		}
		if err := r.restateItem(index, it, c, started); err != nil {
			return err
		}
	}
	for index := range r.calls {
		if index >= int64(r.nOutput) {
			return r.malformed(fmt.Errorf("the call at output_index %d is not in the response's output", index))
		}
	}
	r.ended = true
	if string(r.typ) == "response.incomplete" {
		r.resp.Incomplete()
	}
	return nil
}

// callIndex is the output_index of an arguments event, which must be a
// call's, and whose item_id must be that call's item; or, without
// output_index, the index of its item_id. The item_id is required: a reader
// that files deltas by item_id, as some SDKs' accumulators do, would lose or
// misplace one without it.
func (r *ResponsesReader) callIndex() (int64, error) {
	if !r.hasItemID {
		return 0, r.malformed(errors.New("arguments without an item_id"))
	}
	index := r.index
	if !r.hasIndex {
		i, ok := r.items[string(r.itemID)]
		if !ok {
			return 0, r.malformed(errors.New("no output_index, and no item_id of a call"))
		}
		index = i
	}
	c, ok := r.calls[index]
	switch {
	case !ok:
		return 0, r.malformed(fmt.Errorf("arguments for output_index %d, which is no call's", index))
	case string(r.itemID) != c.itemID:
		return 0, r.malformed(fmt.Errorf("arguments of item %q for output_index %d, the call of item %q", r.itemID, index, c.itemID))
	case eventItemType(r.typ) != c.typ:
		// The SDKs apply it to no item, or to another one.
		return 0, r.malformed(fmt.Errorf("a %s event for output_index %d, a %s item", r.typ, index, c.typ))
	}
	return index, nil
}

// malformed wraps err, found in the data of the current event.
func (r *ResponsesReader) malformed(err error) error {
	return fmt.Errorf("openai: %w: event %d: %w", ErrMalformed, r.n, err)
}

// providerError is the error of an error or response.failed event.
func (r *ResponsesReader) providerError() error {
	if r.kind == responsesFailed {
		return &wire.ProviderError{Wire: wire.OpenAIResponses, Type: "response.failed", Code: string(r.nested.code), Message: string(r.nested.msg)}
	}
	pick := func(a, b []byte) string {
		if len(a) > 0 {
			return string(a)
		}
		return string(b)
	}
	return &wire.ProviderError{
		Wire:    wire.OpenAIResponses,
		Type:    string(r.nested.typ),
		Code:    pick(r.flat.code, r.nested.code),
		Message: pick(r.flat.msg, r.nested.msg),
		Param:   pick(r.flat.param, r.nested.param),
	}
}
