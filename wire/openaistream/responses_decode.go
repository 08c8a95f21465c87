package openaistream

// The decoding of an event's data into the ResponsesReader's reused
// fields: a fast path for every event but an error's (the deltas of a
// layout learned read by comparing bytes), then the token decoder, which
// reads the members the event's kind has.

import (
	"errors"
	"slices"

	"github.com/argstream/argstream/wire/internal/adapter"
)

// parse decodes the fields of one event's data into r.
func (r *ResponsesReader) parse(data []byte) error {
	r.resetFields()
	if r.fastEvent(data) {
		return nil
	}
	r.resetFields() // of what fastEvent read before it declined
	return r.parseSlow(data)
}

// resetFields empties the fields of the event read, keeping their buffers.
func (r *ResponsesReader) resetFields() {
	r.typ = r.typ[:0]
	r.index, r.hasIndex = 0, false
	r.itemID, r.hasItemID = r.itemID[:0], false
	r.str, r.hasStr, r.name = r.str[:0], false, r.name[:0]
	r.item.reset()
	r.nOutput = 0
	r.flat.reset()
	r.nested.reset()
}

// parseSlow decodes data token by token with r.dec; parse has reset r.
// It finds the type first, so that the members are read as the event's
// kind has them, and those of the event types to come only checked.
func (r *ResponsesReader) parseSlow(data []byte) error {
	if err := r.dataType(data); err != nil {
		return err
	}
	r.kind = responsesKindOf(r.typ)
	field := r.field
	if r.kind == responsesIgnored {
		field = func(key []byte) error {
			if string(key) == "error" {
				return errNotErrorEvent
			}
			return r.dec.Skip()
		}
	}
	r.dec.Reset(data)
	if err := r.dec.Root(eventNames, field); err != nil {
		return r.malformed(err)
	}
	return nil
}

// errNotErrorEvent: openai-go ends the stream at any event with an "error"
// member, null included, whatever its type; the Python SDK reads the event.
var errNotErrorEvent = errors.New("an error member in an event that is no error")

// responsesTypeFound stops dataType's reading once it has the type.
type responsesTypeFound struct{}

func (responsesTypeFound) Error() string { return "type found" }

// dataType reads the "type" of data, a JSON object, into r.typ.
func (r *ResponsesReader) dataType(data []byte) error {
	r.dec.Reset(data)
	err := r.dec.Root(eventNames, func(key []byte) (err error) {
		if string(key) != "type" {
			return r.dec.Skip()
		}
		if r.typ, err = r.dec.String(r.typ); err != nil {
			return err
		}
		return responsesTypeFound{}
	})
	switch err.(type) {
	case responsesTypeFound:
		return nil
	case nil:
		return r.malformed(errors.New("no type"))
	}
	return r.malformed(err)
}

// The member names of the objects of an event.
var (
	eventNames    = adapter.Names{"type", "output_index", "item_id", "delta", "arguments", "input", "name", "item", "response", "code", "message", "param", "error"}
	itemNames     = adapter.Names{"type", "id", "call_id", "name", "arguments", "input"}
	responseNames = adapter.Names{"output", "error"}
	errorNames    = adapter.Names{"type", "code", "message", "param"}
)

// fastEvent reads the data of an event, for parse, if the fast path reads
// it: a delta of arguments, text or reasoning, of the layout learned from
// the event before (adapter.Layout), or else any event but an error's
// (and response.failed), read by fastRead, whose layout it then learns if
// it is a delta's. It reports false on any difference (a member such
// events do not have, "error" among them, a value the fast path does not
// take): then the token decoder reads data, and its answer is the answer.
// When it reports true, r holds what the decoder would have read.
func (r *ResponsesReader) fastEvent(data []byte) bool {
	whole := false // an event that is not a delta, read by fastMembers
	r.restore()
	if !r.layout.Match(data, func(id uint8, i int) int { return r.fastSlot(id, data, i) }) {
		r.resetFields() // of what Match read before it stopped
		r.layout.Begin()
		w, ok := r.fastRead(data)
		if ok {
			whole, ok = r.fastMembers(w)
		}
		switch {
		case !ok:
			r.layout.Forget()
			return false
		case whole || w.any():
			// An event that carries an item, a response or whole
			// arguments comes once: its layout is not learned, and the
			// deltas' stays.
			r.layout.Forget()
		case r.layout.Learn(data):
			r.kept = responsesKept{append(r.kept.typ[:0], r.typ...), append(r.kept.itemID[:0], r.itemID...),
				r.index, r.hasIndex, r.hasItemID}
		}
	}
	switch r.kind = responsesKindOf(r.typ); r.kind {
	case responsesArgsDelta, responsesText, responsesThinking:
	case responsesIgnored:
		// What the decoder reads of an event of a type to come: its type.
		r.index, r.hasIndex, r.itemID, r.hasItemID, r.str, r.hasStr = 0, false, r.itemID[:0], false, r.str[:0], false
	default:
		return whole
	}
	return true
}

// responsesWhole says which members fastRead read that only the events
// that come once for a call or a response have (not deltas), and which
// only some kinds of event read: read as the decoder reads them for those
// kinds, each into a field of its own, and then kept or emptied by
// fastMembers, once the event's type is known.
type responsesWhole struct {
	arguments, input, name, item, response bool
}

// any reports whether the event has one of them.
func (w responsesWhole) any() bool {
	return w.arguments || w.input || w.name || w.item || w.response
}

// fastRead reads data with the adapters' shared byte scanner
// ([adapter.Members]: members in any order, white space between tokens,
// escapes in strings, members it does not read skipped), if it is an
// object with a type, and no "error" member: type, output_index, item_id
// and delta are read by fastSlot; arguments and input, name, item and
// response as the events that have them read them (into r.spareArgs,
// r.spareInput, r.name, r.item, r.output and r.nested), whatever the
// type, which fastMembers then reads.
func (r *ResponsesReader) fastRead(data []byte) (responsesWhole, bool) {
	var w responsesWhole
	ok := adapter.FastRoot(data, eventNames, func(name []byte, i int) (j int) {
		switch string(name) {
		case "type":
			return r.fastSlot(respSlotType, data, i)
		case "output_index":
			return r.fastSlot(respSlotOutputIndex, data, i)
		case "item_id":
			return r.fastSlot(respSlotItemID, data, i)
		case "delta":
			return r.fastSlot(respSlotDelta, data, i)
		case "arguments":
			// A call's whole arguments: its buffer grows once, to at
			// most the rest of the event.
			w.arguments = true
			r.spareArgs, j = adapter.Unquote(slices.Grow(r.spareArgs[:0], len(data)-i), data, i)
		case "input":
			w.input = true
			r.spareInput, j = adapter.Unquote(slices.Grow(r.spareInput[:0], len(data)-i), data, i)
		case "name":
			w.name = true
			r.name, _, j = adapter.NullableString(r.name, data, i)
		case "item":
			w.item = true
			j = r.fastItem(data, i, &r.item)
		case "response":
			w.response = true
			if j := adapter.Null(data, i); j >= 0 {
				return j
			}
			j = adapter.Members(data, i, responseNames, func(name []byte, i int) int {
				switch string(name) {
				case "output":
					return r.fastOutput(data, i)
				case "error":
					return r.nested.fastRead(data, i)
				}
				return adapter.Skip(data, i)
			})
		case "error", "":
			return -1
		default:
			return r.fastSlot(respSlotSkip, data, i)
		}
		return j
	})
	return w, ok && len(r.typ) > 0
}

// fastMembers keeps, of the members fastRead read for the events that are
// not deltas (w), those the event's kind reads, and empties the others as
// the decoder leaves them: the arguments (or input) and name of an
// arguments done event, the item of an output item event, the response of
// response.completed or .incomplete. It reports whether the event is one
// of those (whole), and ok false for an error's event and response.failed,
// which the decoder reads.
func (r *ResponsesReader) fastMembers(w responsesWhole) (whole, ok bool) {
	kind := responsesKindOf(r.typ)
	if w.name && kind != responsesArgsDone {
		r.name = r.name[:0]
	}
	if w.item && kind != responsesItemAdded && kind != responsesItemDone {
		r.item.reset()
	}
	if w.response && kind != responsesEnd {
		r.nOutput = 0
		r.nested.reset()
	}
	switch kind {
	case responsesArgsDelta, responsesText, responsesThinking, responsesIgnored:
		return false, true
	case responsesArgsDone:
		// A custom_tool_call_input.done event has its input, the others
		// their arguments; a "delta" is not read.
		r.str, r.hasStr = r.str[:0], false
		switch {
		case eventItemType(r.typ) == "custom_tool_call":
			if w.input {
				r.str, r.spareInput, r.hasStr = r.spareInput, r.str, true
			}
		case w.arguments:
			r.str, r.spareArgs, r.hasStr = r.spareArgs, r.str, true
		}
	case responsesItemAdded, responsesItemDone, responsesEnd:
		r.str, r.hasStr = r.str[:0], false
	default: // an error's event, response.failed
		return false, false
	}
	return true, true
}

// fastItem reads the item object (or null) at data[i:] into it as
// itemField does, and returns the index of the byte after it, or -1.
func (r *ResponsesReader) fastItem(data []byte, i int, it *responsesItem) int {
	if j := adapter.Null(data, i); j >= 0 {
		return j
	}
	return adapter.Members(data, i, itemNames, func(name []byte, i int) (j int) {
		var dst *[]byte
		switch string(name) {
		case "type":
			it.typ, j = adapter.Unquote(it.typ, data, i)
			return j
		case "id":
			dst = &it.id
		case "call_id":
			dst = &it.callID
		case "name":
			dst = &it.name
		case "arguments":
			dst = &it.args
		case "input":
			dst = &it.input
		default:
			return adapter.Skip(data, i)
		}
		// Read leniently, as itemField reads: a value of another kind is
		// an error for a call only.
		if i >= len(data) {
			return -1
		}
		if c := data[i]; c != '"' && c != 'n' {
			if it.bad == "" {
				it.bad = string(name)
			}
			return adapter.Skip(data, i)
		}
		switch string(name) {
		case "arguments":
			it.args, j = fastLong(it.args, data, i, &it.hasArgs)
		case "input":
			it.input, j = fastLong(it.input, data, i, &it.hasInput)
		default:
			*dst, _, j = adapter.NullableString(*dst, data, i)
		}
		return j
	})
}

// fastLong reads the string or null at data[i:], which may be long (a
// call's arguments or input), into dst[:0] as NullableString does, setting
// *has for a string.
func fastLong(dst, data []byte, i int, has *bool) ([]byte, int) {
	if *has = !adapter.HasAt(data, i, "null"); !*has {
		return dst[:0], i + 4
	}
	return adapter.UnquoteWhole(dst, data, i)
}

// fastOutput reads the output array at data[i:] into r.output as
// responseField does, and returns the index of the byte after it, or -1:
// also for an element that is not an object, which the decoder reads.
func (r *ResponsesReader) fastOutput(data []byte, i int) int {
	if i >= len(data) || data[i] != '[' {
		return -1
	}
	r.nOutput = 0
	if i = adapter.SkipSpace(data, i+1); i < len(data) && data[i] == ']' {
		return i + 1
	}
	for {
		if r.nOutput == len(r.output) {
			r.output = append(r.output, responsesItem{})
		}
		it := &r.output[r.nOutput]
		it.reset()
		r.nOutput++
		if i >= len(data) || data[i] != '{' {
			return -1
		}
		var more bool
		if i, more = adapter.Next(data, r.fastItem(data, i, it), ']'); !more {
			return i
		}
	}
}

// fastRead reads the error object (or null) at data[i:] into e as field
// does, and returns the index of the byte after it, or -1.
func (e *responsesErr) fastRead(data []byte, i int) int {
	if j := adapter.Null(data, i); j >= 0 {
		return j
	}
	return adapter.Members(data, i, errorNames, func(name []byte, i int) (j int) {
		switch string(name) {
		case "type":
			e.typ, _, j = adapter.NullableString(e.typ, data, i)
		case "message":
			e.msg, _, j = adapter.NullableString(e.msg, data, i)
		case "param":
			e.param, _, j = adapter.NullableString(e.param, data, i)
		case "code":
			if i >= len(data) {
				j = -1
			} else if c := data[i]; c == '"' || c == 'n' {
				e.code, _, j = adapter.NullableString(e.code, data, i)
			} else if j = adapter.Skip(data, i); j >= 0 {
				e.code = append(e.code[:0], data[i:j]...)
			}
		default:
			j = adapter.Skip(data, i)
		}
		return j
	})
}

// The values of an event that fastSlot reads.
const (
	respSlotSkip        uint8 = iota // a member's value that is not read
	respSlotType                     // the event's type
	respSlotOutputIndex              // its output_index
	respSlotItemID                   // its item_id
	respSlotDelta                    // its delta
)

// restore sets the fields that fastSlot reads as adapter.Restored values
// as the event whose layout r.layout learned had them, for Match, which
// reads those that are slots over them (or, before any layout is learned,
// as resetFields leaves them).
func (r *ResponsesReader) restore() {
	r.typ = append(r.typ[:0], r.kept.typ...)
	r.index, r.hasIndex = r.kept.index, r.kept.hasIndex
	r.itemID, r.hasItemID = append(r.itemID[:0], r.kept.itemID...), r.kept.hasItemID
}

// fastSlot reads the value id at data[i:] into r as the decoder reads it
// for a delta event (type a string, output_index an index, item_id a string
// or null, delta a string), records it for the layout, and returns the
// index of the byte after it, or -1. The values it reads but the delta are
// adapter.Restored: read over what restore set.
func (r *ResponsesReader) fastSlot(id uint8, data []byte, i int) (j int) {
	kind := adapter.Restored
	switch id {
	case respSlotType:
		r.typ, j = adapter.Unquote(r.typ, data, i)
	case respSlotOutputIndex:
		j = adapter.ReadIndex(data, i, &r.index, &r.hasIndex)
	case respSlotItemID:
		r.itemID, r.hasItemID, j = adapter.NullableString(r.itemID, data, i)
	case respSlotDelta:
		r.str, j = adapter.Unquote(r.str, data, i)
		r.hasStr, kind = true, adapter.Read
	default:
		j, kind = adapter.Skip(data, i), adapter.Skipped
	}
	return r.layout.Record(id, kind, i, j)
}

// responsesKept are the fields of the event whose layout r.layout learned
// that restore sets again (adapter.Restored).
type responsesKept struct {
	typ, itemID         []byte
	index               int64
	hasIndex, hasItemID bool
}

// field reads a member of an event's data, as its kind has it: the
// members its kind does not read are only checked.
func (r *ResponsesReader) field(key []byte) (err error) {
	k := r.kind
	switch string(key) {
	case "type":
		return r.dec.Skip() // read by dataType
	case "output_index":
		r.index, err = r.dec.Index()
		r.hasIndex = err == nil
		return err
	case "item_id":
		r.itemID, r.hasItemID, err = r.dec.NullableString(r.itemID)
		return err
	case "delta":
		if k == responsesArgsDelta || k == responsesText || k == responsesThinking {
			r.str, err = r.dec.String(r.str)
			r.hasStr = err == nil
			return err
		}
	case "arguments", "input":
		// A custom_tool_call_input.done event has its input, the others
		// their arguments.
		if k == responsesArgsDone && (string(key) == "input") == (eventItemType(r.typ) == "custom_tool_call") {
			r.str, err = r.dec.String(r.str)
			r.hasStr = err == nil
			return err
		}
	case "name":
		if k == responsesArgsDone {
			r.name, _, err = r.dec.NullableString(r.name)
			return err
		}
	case "item":
		if k == responsesItemAdded || k == responsesItemDone {
			return r.dec.Object(itemNames, func(key []byte) error { return r.itemField(&r.item, key) })
		}
	case "response":
		if k == responsesEnd || k == responsesFailed {
			return r.dec.Object(responseNames, r.responseField)
		}
	case "error":
		if k == responsesError {
			return r.dec.Object(errorNames, r.nested.fieldOf(&r.dec))
		}
		return errNotErrorEvent
	case "code", "message", "param":
		if k == responsesError {
			return r.flat.field(&r.dec, key)
		}
	}
	return r.dec.Skip()
}

// responseField reads the response of response.completed and the other
// events that carry it: its output items and its error.
func (r *ResponsesReader) responseField(key []byte) error {
	switch string(key) {
	case "output":
		r.nOutput = 0
		return r.dec.Array(func(int) error {
			if r.nOutput == len(r.output) {
				r.output = append(r.output, responsesItem{})
			}
			it := &r.output[r.nOutput]
			it.reset()
			r.nOutput++
			return r.dec.Object(itemNames, func(key []byte) error { return r.itemField(it, key) })
		})
	case "error":
		return r.dec.Object(errorNames, r.nested.fieldOf(&r.dec))
	}
	return r.dec.Skip()
}

func (r *ResponsesReader) itemField(it *responsesItem, key []byte) (err error) {
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
	case "input":
		dst, name = &it.input, "input"
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
	var ok bool
	*dst, ok, err = r.dec.NullableString(*dst)
	switch name {
	case "arguments":
		it.hasArgs = ok
	case "input":
		it.hasInput = ok
	}
	return err
}

func (e *responsesErr) reset() {
	e.typ, e.code, e.msg, e.param = e.typ[:0], e.code[:0], e.msg[:0], e.param[:0]
}

// fieldOf returns e.field for the members of an error object.
func (e *responsesErr) fieldOf(d *adapter.Decoder) func(key []byte) error {
	return func(key []byte) error { return e.field(d, key) }
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
