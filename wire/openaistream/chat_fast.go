package openaistream

import "github.com/argstream/argstream/wire/internal/adapter"

// The fast path. Most chunks of a stream carry one choice with a small
// delta (text, reasoning, a role, a finish_reason, or a tool call's
// arguments), so fastChunk reads them with the adapters' shared byte
// scanner ([adapter.Members]), which costs a fraction of the token decoder,
// in any layout: members in any order, white space between tokens, escapes
// in strings, members it does not read, of any kind, skipped. It takes only
// what it can read exactly as parseSlow does, and declines anything else
// (an error member, several choices, a reasoning object, a value of another
// kind, a call without an index, and what adapter.Members declines), which
// parseSlow then reads.

// fastChunk reads data, for parse, if it is a chunk of exactly one choice,
// the chosen one, read by fastChoices, and no "error" member (nor the
// members of an error event: "message", "type", "code", "param"). It
// reports false on any difference: then parseSlow reads data, and its
// answer is the answer. When it reports true, r holds what parseSlow would
// have read. It reads into the byte slices of r.chosen, so that it
// allocates nothing once they have grown.
func (r *ChatReader) fastChunk(data []byte) bool {
	hasChoices := false
	ok := adapter.FastRoot(data, chunkNames, func(name []byte, i int) int {
		switch string(name) {
		case "choices":
			hasChoices = true
			return r.fastChoices(data, i)
		case "id":
			r.hasID = true
			r.id, _, i = adapter.NullableString(r.id, data, i)
			return i
		case "error", "message", "type", "code", "param", "":
			return -1
		}
		return adapter.Skip(data, i)
	})
	if !ok || !hasChoices {
		return false
	}
	r.hasChosen = true
	return true
}

// fastChoices reads the value of "choices" at data[i:] into r.chosen if it
// is an array of exactly one choice, the chosen one: an object of "index"
// (an index), "delta" (read by fastDelta), "finish_reason" (a string or
// null), and other members skipped (logprobs...). It returns the index of
// the byte after the array, or -1.
func (r *ChatReader) fastChoices(data []byte, i int) int {
	if i >= len(data) || data[i] != '[' {
		return -1
	}
	c := &r.chosen
	c.reset()
	i = adapter.Members(data, adapter.SkipSpace(data, i+1), choiceNames, func(name []byte, i int) int {
		switch string(name) {
		case "index":
			var ok bool
			if c.index, i, ok = adapter.Index(data, i); !ok {
				return -1
			}
			return i
		case "delta":
			return r.fastDelta(data, i)
		case "finish_reason":
			c.finish, _, i = adapter.NullableString(c.finish, data, i)
			return i
		}
		return adapter.Skip(data, i)
	})
	if i < 0 {
		return -1
	}
	if i = adapter.SkipSpace(data, i); i >= len(data) || data[i] != ']' || c.index != r.cfg.Choice || c.index >= maxIndexGrowth {
		return -1
	}
	return i + 1
}

// fastDelta reads the "delta" object at data[i:] into r.chosen as
// deltaField does: "content", "refusal", "reasoning_content" and
// "reasoning" strings or nulls, "tool_calls" read by fastCalls, and other
// members skipped (role...). It returns the index of the byte after the
// object, or -1.
func (r *ChatReader) fastDelta(data []byte, i int) int {
	c := &r.chosen
	return adapter.Members(data, i, deltaNames, func(name []byte, i int) int {
		switch string(name) {
		case "content":
			c.text, _, i = adapter.NullableString(c.text, data, i)
			return i
		case "refusal":
			c.refusal, _, i = adapter.NullableString(c.refusal, data, i)
			return i
		case "reasoning_content", "reasoning":
			return r.fastReasoning(data, i)
		case "tool_calls":
			return r.fastCalls(data, i)
		}
		return adapter.Skip(data, i)
	})
}

// fastReasoning reads the value of "reasoning_content" or "reasoning" at
// data[i:], a string or null (an object is left to parseSlow), as
// deltaField does: into r.scratch, which becomes r.chosen's thinking if
// that is empty, so that a delta's second one counts only if the first
// was empty. It returns the index of the byte after the value, or -1.
func (r *ChatReader) fastReasoning(data []byte, i int) int {
	r.scratch, _, i = adapter.NullableString(r.scratch, data, i)
	r.keepReasoning(&r.chosen)
	return i
}

// fastCalls reads the value of "tool_calls" at data[i:], an array of one
// or more elements read by fastCallElem, into r.chosen's calls, and returns
// the index of the byte after it, or -1.
func (r *ChatReader) fastCalls(data []byte, i int) int {
	if i >= len(data) || data[i] != '[' {
		return -1
	}
	for i = adapter.SkipSpace(data, i+1); ; {
		var more bool
		if i, more = adapter.Next(data, r.fastCallElem(r.chosen.nextCall(), data, i), ']'); !more {
			return i
		}
	}
}

// fastCallElem reads the element of "tool_calls" at data[i:] into t, an
// empty call, as call and callField do: an object of "index" (an index,
// required), "id" and "type" (strings or nulls), "function" (an object of
// "name" and "arguments", strings or nulls, and other members skipped), and
// other members skipped. It returns the index of the byte after the
// element, or -1.
func (r *ChatReader) fastCallElem(t *chatCall, data []byte, i int) int {
	i = adapter.Members(data, i, callNames, func(name []byte, i int) int {
		switch string(name) {
		case "index":
			return adapter.ReadIndex(data, i, &t.index, &t.hasIndex)
		case "id":
			t.id, _, i = adapter.NullableString(t.id, data, i)
			return i
		case "type":
			t.typ, t.hasType, i = adapter.NullableString(t.typ, data, i)
			return i
		case "function":
			return adapter.Members(data, i, functionNames, func(name []byte, i int) int {
				switch string(name) {
				case "name":
					t.name, _, i = adapter.NullableString(t.name, data, i)
					return i
				case "arguments":
					t.args, _, i = adapter.NullableString(t.args, data, i)
					return i
				}
				return adapter.Skip(data, i)
			})
		}
		return adapter.Skip(data, i)
	})
	if !t.hasIndex {
		return -1 // a whole call, of a server that omits the index: parseSlow reads it
	}
	return i
}
