package ollamastream

// The decoding of a line into the Reader's reused fields, by the token
// decoder of package adapter: the whole line is decoded, and checked,
// before anything is done.

import (
	"errors"
	"fmt"

	"github.com/argstream/argstream/wire/internal/adapter"
)

// The member names of the objects of a line that Read reads. Ollama's Go
// client (encoding/json v1) matches names to them in any case: a name
// equal to one of them under case folding, and not it, is refused.
var (
	lineNames     = adapter.Names{"message", "done", "done_reason", "error"}
	messageNames  = adapter.Names{"content", "thinking", "tool_calls"}
	callNames     = adapter.Names{"id", "function"}
	functionNames = adapter.Names{"index", "name", "arguments"}
)

// parse decodes one line into r's fields, and checks its tool calls: by the
// fast path (fast.go) if it reads them, or else by the token decoder.
func (r *Reader) parse(b []byte) error {
	if r.fastParse(b) {
		return nil
	}
	return r.parseSlow(b)
}

// resetLine empties the fields of the line read.
func (r *Reader) resetLine() {
	r.text, r.thinking, r.reason, r.errMsg = r.text[:0], r.thinking[:0], r.reason[:0], r.errMsg[:0]
	r.isDone, r.hasError, r.nCalls = false, false, 0
}

// parseSlow decodes one line into r's fields with the token decoder, and
// checks its tool calls.
func (r *Reader) parseSlow(b []byte) error {
	r.resetLine()
	r.dec.Reset(b)
	if err := r.dec.Root(lineNames, r.field); err != nil {
		return err
	}
	for i := range r.nCalls {
		c := &r.calls[i]
		switch {
		case !c.hasFunction:
			return fmt.Errorf("/message/tool_calls/%d has no function", i)
		case !c.hasName:
			return fmt.Errorf("/message/tool_calls/%d/function has no name", i)
		case !c.hasArgs:
			return fmt.Errorf("/message/tool_calls/%d/function has no arguments", i)
		}
	}
	return nil
}

func (r *Reader) field(key []byte) (err error) {
	switch string(key) {
	case "message":
		return r.dec.Object(messageNames, r.messageField)
	case "done":
		switch r.dec.Kind() {
		case 't', 'f', 'n':
			v, err := r.dec.Value()
			r.isDone = err == nil && v[0] == 't'
			return err
		}
		return r.notA("/done", "boolean")
	case "done_reason":
		r.reason, _, err = r.dec.NullableString(r.reason)
		return err
	case "error":
		// Ollama's Go and Python clients take a non-empty string for an
		// error, its JavaScript client any "error" member: the two must
		// agree.
		if r.dec.Kind() != '"' {
			return r.notA("/error", "string")
		}
		if r.errMsg, err = r.dec.String(r.errMsg); err == nil && len(r.errMsg) == 0 {
			return errors.New("/error is an empty string")
		}
		r.hasError = true
		return err
	}
	return r.dec.Skip()
}

// notA skips the current value and reports that it is not of kind want.
func (r *Reader) notA(ptr, want string) error {
	v, err := r.dec.Value()
	if err != nil {
		return err
	}
	return fmt.Errorf("%s is %s, not a %s", ptr, v, want)
}

func (r *Reader) messageField(key []byte) (err error) {
	switch string(key) {
	case "content":
		r.text, _, err = r.dec.NullableString(r.text)
	case "thinking":
		r.thinking, _, err = r.dec.NullableString(r.thinking)
	case "tool_calls":
		err = r.dec.Array(r.call)
	default:
		err = r.dec.Skip()
	}
	return err
}

// call reads the element i of message.tool_calls into the next call of
// r.calls, reusing its buffers.
func (r *Reader) call(i int) error {
	r.nextCall()
	if r.dec.Kind() != '{' {
		return r.notA(fmt.Sprintf("/message/tool_calls/%d", i), "object")
	}
	return r.dec.Object(callNames, r.callField)
}

// nextCall returns the next call of r.calls, emptied, its buffers reused.
func (r *Reader) nextCall() *call {
	if r.nCalls == len(r.calls) {
		r.calls = append(r.calls, call{})
	}
	c := &r.calls[r.nCalls]
	r.nCalls++
	c.id, c.name, c.args, c.whole = c.id[:0], c.name[:0], c.args[:0], nil
	c.hasFunction, c.hasName, c.hasArgs = false, false, false
	return c
}

func (r *Reader) callField(key []byte) (err error) {
	c := &r.calls[r.nCalls-1]
	switch string(key) {
	case "id":
		c.id, _, err = r.dec.NullableString(c.id)
	case "function":
		if r.dec.Kind() != '{' {
			return r.notA(fmt.Sprintf("/message/tool_calls/%d/function", r.nCalls-1), "object")
		}
		c.hasFunction = true
		err = r.dec.Object(functionNames, r.functionField)
	default:
		err = r.dec.Skip()
	}
	return err
}

func (r *Reader) functionField(key []byte) (err error) {
	c := &r.calls[r.nCalls-1]
	switch string(key) {
	case "index":
		// Read and checked, never used: see the package documentation.
		_, err = r.dec.Index()
	case "name":
		c.name, err = r.dec.String(c.name)
		c.hasName = true
	case "arguments":
		if r.dec.Kind() != '{' {
			return r.notA(fmt.Sprintf("/message/tool_calls/%d/function/arguments", r.nCalls-1), "object")
		}
		var v []byte
		v, err = r.dec.Value()
		c.args = append(c.args[:0], v...)
		c.hasArgs = true
	default:
		err = r.dec.Skip()
	}
	return err
}
