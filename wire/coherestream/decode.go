package coherestream

// The decoding of an event's data into the Reader's reused fields, by the
// token decoder of package adapter: the whole data is decoded, and
// checked, before anything is done with it. The members are read before
// the event's "type" is known (it may come last), so each is kept with
// its kind, and event checks that the type has the ones it needs.

import (
	"fmt"

	"github.com/argstream/argstream/wire/internal/adapter"
)

// The member names of the objects of an event that the Reader reads.
var (
	rootNames     = adapter.Names{"type", "index", "delta"}
	deltaNames    = adapter.Names{"message", "finish_reason", "error"}
	messageNames  = adapter.Names{"content", "tool_plan", "tool_calls"}
	contentNames  = adapter.Names{"type", "text", "thinking"}
	toolCallNames = adapter.Names{"id", "type", "function"}
	functionNames = adapter.Names{"name", "arguments"}
)

// field is a string member of an event: its decoded text, and whether it
// was there (not null).
type field struct {
	text []byte
	ok   bool
}

// read reads a string or null into f.
func (f *field) read(d *adapter.Decoder) (err error) {
	f.text, f.ok, err = d.NullableString(f.text)
	return err
}

// fields are the members of one event's data that the Reader reads.
type fields struct {
	typ      field
	index    int64
	hasIndex bool

	// delta.message.content: an object (content-start, content-delta) or
	// an array (message-start), whose elements are counted.
	contentKind  byte
	contentItems int
	contentType  field
	text         field
	thinking     field

	toolPlan field // delta.message.tool_plan

	// delta.message.tool_calls: an object (tool-call-start, -delta) or an
	// array (message-start), whose elements are counted.
	callsKind  byte
	callsItems int
	callID     field
	callType   field
	hasFunc    bool // tool_calls.function is an object
	name       field
	args       field

	finish field // delta.finish_reason
	errMsg field // delta.error
}

// reset readies f for the next event, keeping its buffers.
func (f *fields) reset() {
	for _, s := range []*field{&f.typ, &f.contentType, &f.text, &f.thinking, &f.toolPlan, &f.callID, &f.callType, &f.name, &f.args, &f.finish, &f.errMsg} {
		s.text, s.ok = s.text[:0], false
	}
	f.index, f.hasIndex = 0, false
	f.contentKind, f.contentItems = 0, 0
	f.callsKind, f.callsItems, f.hasFunc = 0, 0, false
}

// parse decodes the fields of one event's data into r.f: by the fast path
// (fast.go) if it takes the data, else by the token decoder.
func (r *Reader) parse(data []byte) error {
	r.f.reset()
	if r.fastParse(data) {
		return nil
	}
	r.f.reset()
	return r.parseSlow(data)
}

// parseSlow decodes the fields of one event's data into r.f with the token
// decoder, whose answer is the answer.
func (r *Reader) parseSlow(data []byte) error {
	r.dec.Reset(data)
	if err := r.dec.Root(rootNames, r.rootField); err != nil {
		return r.malformed(err)
	}
	return nil
}

func (r *Reader) rootField(key []byte) (err error) {
	f := &r.f
	switch string(key) {
	case "type":
		return f.typ.read(&r.dec)
	case "index":
		if r.dec.Kind() == 'n' {
			return r.dec.Skip()
		}
		f.index, err = r.dec.Index()
		f.hasIndex = err == nil
		return err
	case "delta":
		return r.dec.Object(deltaNames, r.deltaField)
	}
	return r.dec.Skip()
}

func (r *Reader) deltaField(key []byte) error {
	f := &r.f
	switch string(key) {
	case "message":
		return r.dec.Object(messageNames, r.messageField)
	case "finish_reason":
		return f.finish.read(&r.dec)
	case "error":
		return f.errMsg.read(&r.dec)
	}
	return r.dec.Skip()
}

func (r *Reader) messageField(key []byte) error {
	f := &r.f
	switch string(key) {
	case "content":
		switch f.contentKind = byte(r.dec.Kind()); f.contentKind {
		case '[':
			return r.dec.Array(func(int) error { f.contentItems++; return r.dec.Skip() })
		case 'n':
			f.contentKind = 0
			return r.dec.Skip()
		}
		return r.dec.Object(contentNames, r.contentField)
	case "tool_plan":
		return f.toolPlan.read(&r.dec)
	case "tool_calls":
		switch f.callsKind = byte(r.dec.Kind()); f.callsKind {
		case '[':
			return r.dec.Array(func(int) error { f.callsItems++; return r.dec.Skip() })
		case 'n':
			f.callsKind = 0
			return r.dec.Skip()
		}
		return r.dec.Object(toolCallNames, r.toolCallField)
	}
	return r.dec.Skip()
}

func (r *Reader) contentField(key []byte) error {
	f := &r.f
	switch string(key) {
	case "type":
		return f.contentType.read(&r.dec)
	case "text":
		return f.text.read(&r.dec)
	case "thinking":
		return f.thinking.read(&r.dec)
	}
	return r.dec.Skip()
}

func (r *Reader) toolCallField(key []byte) error {
	f := &r.f
	switch string(key) {
	case "id":
		return f.callID.read(&r.dec)
	case "type":
		return f.callType.read(&r.dec)
	case "function":
		if r.dec.Kind() == 'n' {
			return r.dec.Skip()
		}
		if r.dec.Kind() != '{' {
			// Object reports the kind; the pointer says where.
			return r.dec.Object(functionNames, nil)
		}
		f.hasFunc = true
		return r.dec.Object(functionNames, r.functionField)
	}
	return r.dec.Skip()
}

func (r *Reader) functionField(key []byte) error {
	f := &r.f
	switch string(key) {
	case "name":
		return f.name.read(&r.dec)
	case "arguments":
		return f.args.read(&r.dec)
	}
	return r.dec.Skip()
}

// where is the JSON pointer of a member of delta.message.tool_calls.
func where(member string) string {
	return fmt.Sprintf("/delta/message/tool_calls/%s", member)
}
