package openaistream

// The decoding of a chunk's data into the ChatReader's reused fields, by
// the token decoder: the whole data is decoded, and checked, before
// anything is done. The fast path, for the chunks of one choice in any
// layout, is in chat_fast.go.

import (
	"errors"
	"fmt"

	"github.com/argstream/argstream/wire/internal/adapter"
)

// parse decodes the fields of one event's data into r. With errorEvent, the
// data's own message, type, code and param are the error's, unless it has
// an "error" member.
func (r *ChatReader) parse(data []byte, errorEvent bool) error {
	r.errorEvent, r.hasError = errorEvent, false
	r.errType, r.errCode, r.errMessage, r.errParam = r.errType[:0], r.errCode[:0], r.errMessage[:0], r.errParam[:0]
	r.hasChosen = false
	r.id, r.hasID = r.id[:0], false

	if !errorEvent && r.fastChunk(data) {
		return nil
	}
	r.id, r.hasID = r.id[:0], false // as fastChunk may have read them
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
	callNames      = adapter.Names{"index", "id", "type", "function", "custom"}
	functionNames  = adapter.Names{"name", "arguments"}
	customNames    = adapter.Names{"name", "input"}
)

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
	if c.index != r.cfg.Choice {
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
	r.cur.nextCall()
	// An element without an index gets its call's index in checkCalls.
	return r.dec.Object(callNames, r.callField)
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
		t.function = t.function || r.dec.Kind() == '{'
		err = r.dec.Object(functionNames, r.functionField)
	case "custom":
		t.custom = t.custom || r.dec.Kind() == '{'
		err = r.dec.Object(customNames, r.customField)
	default:
		err = r.dec.Skip()
	}
	return err
}

// customField reads a member of a custom tool's call: its "name" and
// "input" into the call's name and arguments (kind tells them apart).
func (r *ChatReader) customField(key []byte) (err error) {
	c := &r.cur
	t := &c.calls[c.nCalls-1]
	switch string(key) {
	case "name":
		t.name, _, err = r.dec.NullableString(t.name)
	case "input":
		t.args, _, err = r.dec.NullableString(t.args)
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
