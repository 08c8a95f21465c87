package openaistream

// This file is structured in the following way:
//
//   - ReadResponses and its documentation: the events it reads;
//   - responsesReader: the loop over the events, each event's kind (from
//     its "event" field or its data's "type") and what it does;
//   - the decoding of an event's data, field by field, into buffers that
//     are reused from event to event.

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/internal/jsonwire"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire/internal/adapter"
	"github.com/argstream/argstream/wire/sse"
)

// ReadResponses reads the server-sent events of an OpenAI Responses API
// streaming response (POST /v1/responses with "stream": true) from body and
// drives resp with its function calls, until response.completed or
// response.incomplete. It does not call resp.End: the caller does, to get
// the Results. Each call's index in resp is its item's output_index, its id
// the item's call_id (what the caller sends back in its
// function_call_output item), its name the item's name.
//
// # Events read
//
// The kind of an event is its "event" field or, if it has none, the "type"
// of its data (both forms occur); the data is JSON. ReadResponses reads:
//
//   - response.output_item.added whose item type is function_call:
//     Response.Start(output_index, call_id, name, arguments). The item's
//     arguments, empty in OpenAI's streams, are Start's input, so that a
//     proxy that sends them there is read too (an arguments "{}" being
//     Start's placeholder). An item of type mcp_call (a tool of a remote
//     MCP server, which OpenAI calls itself: the caller does not run it) is
//     a call too, with the item's id as its id, since it has no call_id;
//     its arguments stream as a function call's do. Every other item
//     (message, reasoning, web_search_call, file_search_call,
//     tool_search_call, code_interpreter_call, custom_tool_call, whose
//     input is free text and not JSON, and the item types to come) is not a
//     call, and is ignored with its events.
//   - response.function_call_arguments.delta and
//     response.mcp_call_arguments.delta: Response.Chunk(output_index,
//     delta). An event without output_index is for the call whose item id
//     is its item_id, as an output_item event of the call made it known.
//   - response.function_call_arguments.done and
//     response.mcp_call_arguments.done: Response.Stop of the call, found as
//     for a delta. If the call has received no argument bytes at all, the
//     event's arguments are given to Response.Chunk first (a proxy may send
//     only the done event). If it has, the arguments are not compared with
//     the deltas: the deltas are what streamed to the call's sinks and
//     policy, a copy to compare with would cost memory per call, and they
//     are equal in every recording.
//   - response.output_item.done with a function_call or mcp_call item:
//     Response.Stop, as function_call_arguments.done (a second Stop does
//     nothing). If the call was not started (no output_item.added came), it
//     is started from the item first; if it has received no argument bytes
//     and was not stopped, the item's arguments are its input, as for
//     output_item.added.
//   - response.output_text.delta, and response.refusal.delta (the text a
//     model writes instead of an answer when it refuses, which the user
//     should see as well): the OnText callback, if set, with the
//     output_index and the delta; response.reasoning_summary_text.delta and
//     response.reasoning_text.delta: the OnThinking callback.
//   - response.completed, and response.incomplete (the response was cut
//     short, by max_output_tokens or a content filter): ReadResponses
//     returns nil at once, without reading further. At Response.End, a call
//     of an incomplete response whose arguments were cut off ends
//     truncated, and is not executable.
//   - response.failed: ReadResponses returns a *ProviderError whose Type is
//     "response.failed", and whose Code and Message are the response's
//     error.code and error.message.
//   - error: ReadResponses returns a *ProviderError with the event's code,
//     message and param, at the top level of the data as OpenAI documents
//     them, or in an "error" object with its type, as OpenAI also sends
//     them; a field at the top level takes precedence. An error event whose
//     data is not JSON gives a *ProviderError with the data as its Message.
//   - every other event (response.created, response.in_progress,
//     response.queued, response.content_part.added, the .done events of
//     text, the events of the built-in tools, "data: [DONE]", which some
//     proxies send, and the event types to come): ignored, so that they do
//     not break ReadResponses.
//
// An event read whose data is not the JSON the API documents is malformed:
// ReadResponses returns an error wrapping ErrMalformed, with the event's
// number in the stream (from 1, every event counted). Malformed are: data
// that is not a JSON object; a field of the wrong kind (an output_index
// that is not an integer from 0, a delta that is not a string, a call
// item's id, call_id, name or arguments neither a string nor null); an
// output_item event whose item has no type or, for a call, that has no
// output_index; a delta event without its delta; a text or reasoning delta
// without output_index; an arguments event without output_index whose
// item_id is not a known call's. A call's own errors (arguments invalid,
// truncated, or with bytes after the call's done events) are not
// ReadResponses' errors: they are in its Result.
//
// The package documentation lists the other errors. A stream that ends
// before response.completed or response.incomplete gives an error wrapping
// io.ErrUnexpectedEOF; End then reports each call whose arguments all came
// as complete, and the others truncated.
//
// # Memory
//
// ReadResponses allocates per stream (its reader and buffers) and per call
// (the strings of its id and name, and what maps the call's item id to its
// output_index), never per delta once its buffers have grown to the
// largest event.
func ReadResponses(ctx context.Context, body io.Reader, resp *toolcall.Response, opts ...Option) error {
	r := &responsesReader{cfg: newConfig(opts), resp: resp, sse: sse.NewReader(body)}
	return adapter.Loop(ctx, r.sse, responsesStream, func(ev sse.Event) (bool, error) {
		r.n++
		return r.event(ev)
	})
}

var responsesStream = adapter.Stream{Name: "openai", Last: "response.completed"}

// responsesKind is what ReadResponses does with an event.
type responsesKind int

const (
	responsesIgnored   responsesKind = iota
	responsesItemAdded               // response.output_item.added
	responsesItemDone                // response.output_item.done
	responsesArgsDelta               // response.function_call_arguments.delta, mcp_call
	responsesArgsDone                // response.function_call_arguments.done, mcp_call
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
	case "response.function_call_arguments.delta", "response.mcp_call_arguments.delta":
		return responsesArgsDelta
	case "response.function_call_arguments.done", "response.mcp_call_arguments.done":
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
	gotBytes bool // argument bytes were given to the Response
	stopped  bool // the Response's Stop was called
}

type responsesReader struct {
	cfg  config
	resp *toolcall.Response
	sse  *sse.Reader
	dec  adapter.Decoder
	n    int64 // events read

	calls map[int64]responsesCall
	items map[string]int64 // a call's item id -> its output_index

	// The event being read; byte slices are reused.
	kind      responsesKind
	typ       []byte // the data's "type", for an event without "event" field
	index     int64
	hasIndex  bool
	itemID    []byte
	hasItemID bool
	str       []byte // delta, or arguments, decoded
	hasStr    bool
	item      responsesItem
	flat      responsesErr // an error event's code, message and param
	nested    responsesErr // the same in its "error" object, or response.failed's
	// fastScratch receives the strings fastDelta checks.
	fastScratch []byte
}

// responsesItem is the item of an output_item event. id, callID, name and
// args are read whatever the item's type, but they are checked only for a
// call: bad names a field that is not a string (nor null).
type responsesItem struct {
	typ, id, callID, name, args []byte
	bad                         string
}

// responsesErr is the error object of an error or response.failed event.
type responsesErr struct {
	typ, code, msg, param []byte
}

// event handles one event and reports whether it ended the response.
func (r *responsesReader) event(ev sse.Event) (done bool, err error) {
	kind := ev.Type
	if len(kind) == 0 {
		if ev.IsDone() {
			return false, nil
		}
		if err := r.dataType(ev.Data); err != nil {
			return false, err
		}
		kind = r.typ
	}
	r.kind = responsesKindOf(kind)
	switch r.kind {
	case responsesIgnored:
		return false, nil
	case responsesEnd:
		return true, nil
	case responsesError, responsesFailed:
		return false, r.providerError(ev.Data)
	}
	if err := r.parse(ev.Data); err != nil {
		return false, err
	}
	switch r.kind {
	case responsesItemAdded, responsesItemDone:
		return false, r.outputItem()
	case responsesArgsDelta:
		index, err := r.callIndex()
		if err != nil {
			return false, err
		}
		if !r.hasStr {
			return false, r.malformed(errors.New("no delta"))
		}
		return false, r.chunk(index, r.str)
	case responsesArgsDone:
		index, err := r.callIndex()
		if err != nil {
			return false, err
		}
		if c := r.calls[index]; !c.gotBytes && !c.stopped {
			if err := r.chunk(index, r.str); err != nil {
				return false, err
			}
		}
		return false, r.stop(index)
	case responsesText, responsesThinking:
		if !r.hasIndex {
			return false, r.malformed(errors.New("no output_index"))
		}
		if !r.hasStr {
			return false, r.malformed(errors.New("no delta"))
		}
		fn := r.cfg.onText
		if r.kind == responsesThinking {
			fn = r.cfg.onThinking
		}
		if fn != nil {
			fn(r.index, r.str)
		}
	}
	return false, nil
}

// outputItem handles output_item.added and output_item.done.
func (r *responsesReader) outputItem() error {
	it := &r.item
	var id []byte
	switch string(it.typ) {
	case "function_call":
		id = it.callID
	case "mcp_call":
		id = it.id
	default:
		return nil
	}
	if !r.hasIndex {
		return r.malformed(errors.New("no output_index"))
	}
	if it.bad != "" {
		return r.malformed(fmt.Errorf("/item/%s is not a string", it.bad))
	}
	if len(it.id) > 0 {
		if r.items == nil {
			r.items = make(map[string]int64)
		}
		if _, ok := r.items[string(it.id)]; !ok {
			r.items[string(it.id)] = r.index
		}
	}
	c := r.calls[r.index]
	var input []byte
	if !c.gotBytes && !c.stopped {
		input = it.args
	}
	if err := r.resp.Start(fragment.Call{Index: r.index, ID: string(id), Name: string(it.name), Server: string(it.typ) == "mcp_call"}, input); err != nil {
		return err
	}
	if len(input) > 0 && !jsonwire.IsEmptyObject(input) {
		r.setCall(r.index, responsesCall{gotBytes: true, stopped: c.stopped})
	}
	if r.kind == responsesItemDone {
		return r.stop(r.index)
	}
	return nil
}

// callIndex is the output_index of an arguments event, or the one of its
// item_id.
func (r *responsesReader) callIndex() (int64, error) {
	if r.hasIndex {
		return r.index, nil
	}
	if r.hasItemID {
		if index, ok := r.items[string(r.itemID)]; ok {
			return index, nil
		}
		return 0, r.malformed(errors.New("no output_index, and an item_id of no call"))
	}
	return 0, r.malformed(errors.New("no output_index"))
}

func (r *responsesReader) chunk(index int64, b []byte) error {
	if len(b) > 0 {
		if c := r.calls[index]; !c.gotBytes {
			c.gotBytes = true
			r.setCall(index, c)
		}
	}
	return r.resp.Chunk(index, b)
}

func (r *responsesReader) stop(index int64) error {
	if c := r.calls[index]; !c.stopped {
		c.stopped = true
		r.setCall(index, c)
	}
	return r.resp.Stop(index)
}

func (r *responsesReader) setCall(index int64, c responsesCall) {
	if r.calls == nil {
		r.calls = make(map[int64]responsesCall)
	}
	r.calls[index] = c
}

// responsesTypeFound stops dataType's reading once it has the type.
type responsesTypeFound struct{}

func (responsesTypeFound) Error() string { return "type found" }

// malformed wraps err, found in the data of the current event.
func (r *responsesReader) malformed(err error) error {
	return fmt.Errorf("%w: event %d: %w", ErrMalformed, r.n, err)
}

// dataType reads the "type" of data, the JSON object of an event without
// "event" field, into r.typ: empty if it has none.
func (r *responsesReader) dataType(data []byte) error {
	r.typ = r.typ[:0]
	r.dec.Reset(data)
	err := r.dec.Root(func(key []byte) (err error) {
		if string(key) != "type" {
			return r.dec.Skip()
		}
		if r.typ, err = r.dec.String(r.typ); err != nil {
			return err
		}
		return responsesTypeFound{}
	})
	if _, found := err.(responsesTypeFound); err != nil && !found {
		return r.malformed(err)
	}
	return nil
}

// providerError is the error of an error or response.failed event.
func (r *responsesReader) providerError(data []byte) error {
	if err := r.parse(data); err != nil {
		pe := &ProviderError{Message: string(data)}
		if r.kind == responsesFailed {
			pe.Type = "response.failed"
		}
		return pe
	}
	if r.kind == responsesFailed {
		return &ProviderError{Type: "response.failed", Code: string(r.nested.code), Message: string(r.nested.msg)}
	}
	pick := func(a, b []byte) string {
		if len(a) > 0 {
			return string(a)
		}
		return string(b)
	}
	return &ProviderError{
		Type:    string(r.nested.typ),
		Code:    pick(r.flat.code, r.nested.code),
		Message: pick(r.flat.msg, r.nested.msg),
		Param:   pick(r.flat.param, r.nested.param),
	}
}

// parse decodes the fields of one event's data that its kind needs into r.
func (r *responsesReader) parse(data []byte) error {
	r.index, r.hasIndex = 0, false
	r.itemID, r.hasItemID = r.itemID[:0], false
	r.str, r.hasStr = r.str[:0], false
	it := &r.item
	it.typ, it.id, it.callID, it.name, it.args, it.bad = it.typ[:0], it.id[:0], it.callID[:0], it.name[:0], it.args[:0], ""
	r.flat.reset()
	r.nested.reset()

	if r.kind == responsesArgsDelta {
		if r.fastDelta(data) {
			return nil
		}
		// fastDelta may have set some of them.
		r.index, r.hasIndex, r.itemID, r.hasItemID, r.str, r.hasStr = 0, false, r.itemID[:0], false, r.str[:0], false
	}
	return r.parseSlow(data)
}

// parseSlow decodes data token by token with r.dec; parse has reset r.
func (r *responsesReader) parseSlow(data []byte) error {
	it := &r.item
	r.dec.Reset(data)
	var err error
	switch r.kind {
	case responsesItemAdded, responsesItemDone:
		err = r.dec.Root(r.itemEventField)
		if err == nil && len(it.typ) == 0 {
			err = errors.New("no item type")
		}
	case responsesError:
		err = r.dec.Root(r.errorEventField)
	case responsesFailed:
		err = r.dec.Root(r.failedEventField)
	default:
		err = r.dec.Root(r.deltaEventField)
	}
	if err != nil {
		return r.malformed(err)
	}
	return nil
}

// fastDelta reads the data of a response.function_call_arguments.delta
// event, for parse, if it is an object of plain names (no escapes) with
// string, plain-integer, true, false or null values (strings checked by
// adapter.Unquote), each of output_index, item_id and delta at most
// once, output_index an integer, item_id a string or null, delta a string:
// by comparing bytes rather than decoding tokens. It reports false on any
// difference: then parseSlow reads data, and its answer is the answer. When
// it reports true, r holds what parseSlow would have read.
func (r *responsesReader) fastDelta(data []byte) bool {
	var seen fastSeen
	i := fastMembers(data, 0, func(name []byte, i int) int {
		switch string(name) {
		case "output_index":
			var ok bool
			if r.index, i, ok = adapter.Index(data, i); !ok {
				return -1
			}
			r.hasIndex = true
			return seen.once(0, i)
		case "item_id":
			r.hasItemID = !hasAt(data, i, "null")
			r.itemID, i = fastNullableString(r.itemID, data, i)
			return seen.once(1, i)
		case "delta":
			r.str, i = adapter.Unquote(r.str, data, i)
			r.hasStr = true
			return seen.once(2, i)
		case "":
			return -1
		}
		return fastScalar(data, i, &r.fastScratch)
	})
	return i >= 0 && adapter.SkipSpace(data, i) == len(data)
}

func (r *responsesReader) readIndex() (err error) {
	r.index, err = r.dec.Index()
	r.hasIndex = err == nil
	return err
}

// deltaEventField reads the fields of the delta and done events.
func (r *responsesReader) deltaEventField(key []byte) (err error) {
	switch string(key) {
	case "output_index":
		return r.readIndex()
	case "item_id":
		if r.kind == responsesArgsDelta || r.kind == responsesArgsDone {
			r.itemID, r.hasItemID, err = r.dec.NullableString(r.itemID)
			return err
		}
	case "delta":
		if r.kind != responsesArgsDone {
			r.str, err = r.dec.String(r.str)
			r.hasStr = err == nil
			return err
		}
	case "arguments":
		if r.kind == responsesArgsDone {
			r.str, r.hasStr, err = r.dec.NullableString(r.str)
			return err
		}
	}
	return r.dec.Skip()
}

// itemEventField reads the fields of the output_item events.
func (r *responsesReader) itemEventField(key []byte) error {
	switch string(key) {
	case "output_index":
		return r.readIndex()
	case "item":
		return r.dec.Object(r.itemField)
	}
	return r.dec.Skip()
}

func (r *responsesReader) itemField(key []byte) (err error) {
	it := &r.item
	var dst *[]byte
	var name string
	switch string(key) {
	case "type":
		it.typ, err = r.dec.String(it.typ)
		return err
	case "id":
		dst, name = &it.id, "id"
	case "call_id":
		dst, name = &it.callID, "call_id"
	case "name":
		dst, name = &it.name, "name"
	case "arguments":
		dst, name = &it.args, "arguments"
	default:
		return r.dec.Skip()
	}
	// Read leniently: a field of another kind is an error for a call
	// only (tool_search_call's arguments are an object).
	if k := r.dec.Kind(); k != '"' && k != 'n' {
		if it.bad == "" {
			it.bad = name
		}
		return r.dec.Skip()
	}
	*dst, _, err = r.dec.NullableString(*dst)
	return err
}

// errorEventField reads the fields of an error event: code, message and
// param, at the top level or in an "error" object.
func (r *responsesReader) errorEventField(key []byte) error {
	switch string(key) {
	case "error":
		return r.dec.Object(r.nestedErrorField)
	case "type":
		return r.dec.Skip() // "error"
	}
	return r.flat.field(&r.dec, key)
}

func (r *responsesReader) nestedErrorField(key []byte) error {
	return r.nested.field(&r.dec, key)
}

// failedEventField reads response.error of a response.failed event.
func (r *responsesReader) failedEventField(key []byte) error {
	if string(key) != "response" {
		return r.dec.Skip()
	}
	return r.dec.Object(func(key []byte) error {
		if string(key) != "error" {
			return r.dec.Skip()
		}
		return r.dec.Object(r.nestedErrorField)
	})
}

func (e *responsesErr) reset() {
	e.typ, e.code, e.msg, e.param = e.typ[:0], e.code[:0], e.msg[:0], e.param[:0]
}

// field reads one field of an error object. A code that is not a string is
// kept as its JSON text.
func (e *responsesErr) field(d *adapter.Decoder, key []byte) (err error) {
	switch string(key) {
	case "type":
		e.typ, _, err = d.NullableString(e.typ)
	case "message":
		e.msg, _, err = d.NullableString(e.msg)
	case "param":
		e.param, _, err = d.NullableString(e.param)
	case "code":
		switch d.Kind() {
		case '"', 'n':
			e.code, _, err = d.NullableString(e.code)
		default:
			var v []byte
			v, err = d.Value()
			e.code = append(e.code[:0], v...)
		}
	default:
		err = d.Skip()
	}
	return err
}
