package openaistream

// A custom tool's input is free text (a Responses custom_tool_call's, a
// Chat tool call's of type "custom"); the readers stream it as the
// arguments {"input":TEXT}, so that policies, sinks and renderers read it
// as any call. Here: how those arguments are written, streamed and
// restated.

import (
	"github.com/go-json-experiment/json/jsontext"
)

// arguments are the call item's arguments as a restatement gives them: a
// custom_tool_call's input as {"input":TEXT}, in quoted; ok is false if
// the item has none.
func (it *responsesItem) arguments(quoted *[]byte) (args []byte, ok bool) {
	if string(it.typ) != "custom_tool_call" {
		return it.args, it.hasArgs
	}
	if !it.hasInput {
		return nil, false
	}
	*quoted = customArguments((*quoted)[:0], it.input)
	return *quoted, true
}

// customArguments appends to b the arguments of a custom tool call whose
// input is text: {"input":TEXT}, TEXT a JSON string. A custom call streams
// as those arguments: customOpen, then each input delta quoted
// (customChunk), then customClose; the escapes of a string being those of
// its characters, the deltas quoted one by one make the same text as the
// input quoted whole.
func customArguments(b, text []byte) []byte {
	b = append(b, customOpen...)
	b = customChunk(b, text)
	return append(b, customClose...)
}

const (
	customOpen  = `{"input":"`
	customClose = `"}`
)

// customChunk appends text, valid UTF-8 (a decoded JSON string), escaped
// as in a JSON string, without the quotes.
func customChunk(b, text []byte) []byte {
	n := len(b)
	b, err := jsontext.AppendQuote(b, text)
	if err != nil {
		panic("openaistream: a decoded string that is not UTF-8: " + err.Error())
	}
	// Drop the quotes: the opening one at n, the closing one at the end.
	copy(b[n:], b[n+1:len(b)-1])
	return b[:len(b)-2]
}

// closeCustom ends the arguments of the custom call at index, its input
// having ended, once.
func (r *ResponsesReader) closeCustom(index int64) error {
	c := r.calls[index]
	if !c.custom() || c.closed {
		return nil
	}
	c.closed = true
	r.calls[index] = c
	return r.resp.Chunk(index, []byte(customClose))
}

// arguments gives the Response t's arguments: a function's as they came,
// a custom call's input quoted, after the {"input":" that opens them if
// they have not begun.
func (r *ChatReader) arguments(t *chatCall) error {
	if !r.custom || r.names[t.index].kind != kindCustom {
		if len(t.args) == 0 {
			return nil
		}
		return r.resp.Chunk(t.index, t.args)
	}
	r.quoted = r.quoted[:0]
	if known := r.names[t.index]; !known.opened {
		known.opened = true
		r.names[t.index] = known
		r.quoted = append(r.quoted, customOpen...)
	}
	if r.quoted = customChunk(r.quoted, t.args); len(r.quoted) == 0 {
		return nil
	}
	return r.resp.Chunk(t.index, r.quoted)
}

// closeCustom ends the arguments of the custom call at index, which has
// ended, once.
func (r *ChatReader) closeCustom(index int64) error {
	if !r.custom {
		return nil
	}
	known := r.names[index]
	if known.kind != kindCustom || !known.opened || known.closed {
		return nil
	}
	known.closed = true
	r.names[index] = known
	return r.resp.Chunk(index, []byte(customClose))
}
