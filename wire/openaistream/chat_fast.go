package openaistream

import "github.com/argstream/argstream/wire/internal/adapter"

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
	if i < 0 || i >= len(data) || data[i] != ']' || c.index != r.cfg.Choice || c.index >= maxIndexGrowth {
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
