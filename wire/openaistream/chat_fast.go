package openaistream

import "github.com/argstream/argstream/wire/internal/adapter"

// The fast path. Most chunks of a stream carry one choice with a small
// delta (text, reasoning, a role, a finish_reason, or a tool call's
// arguments), so fastChunk reads them with the adapters' shared byte
// scanner, which costs a fraction of the token decoder, in any layout:
// members in any order, white space between tokens, escapes in strings,
// members it does not read, of any kind, skipped; and the chunks of a
// layout it has read before by comparing their bytes with the last one's
// (adapter.Layout). It takes only what it can read exactly as parseSlow
// does, and declines anything else (an error member, several choices, a
// reasoning object, a value of another kind, a call without an index, and
// what adapter.Members declines), which parseSlow then reads.

// fastChunk reads data, for parse, if it is a chunk of exactly one choice,
// the chosen one, and no "error" member (nor the members of an error
// event: "message", "type", "code", "param"): of the layout learned from
// the chunk before, or else read by fastRead, whose layout it then learns.
// It reports false on any difference: then parseSlow reads data, and its
// answer is the answer. When it reports true, r holds what parseSlow would
// have read. It reads into the byte slices of r.chosen, so that it
// allocates nothing once they have grown.
func (r *ChatReader) fastChunk(data []byte) bool {
	c := &r.chosen
	c.reset()
	for range r.layoutCalls {
		c.nextCall()
	}
	if !r.layout.Match(data, func(id uint8, i int) int { return r.fastSlot(id, data, i) }) {
		r.id, r.hasID = r.id[:0], false
		r.layout.Begin()
		if !r.fastRead(data) {
			r.layout.Forget()
			return false
		}
		if r.layout.Learn(data) {
			r.layoutCalls = c.nCalls
			r.kept.id, r.kept.hasID = append(r.kept.id[:0], r.id...), r.hasID
			r.kept.finish, r.kept.index = append(r.kept.finish[:0], c.finish...), c.index
			for e, t := range c.calls[:c.nCalls] {
				r.kept.callIndex[e] = t.index
			}
		}
	}
	r.hasChosen = true
	return true
}

// fastRead reads data with the adapters' shared byte scanner
// ([adapter.Members]), each value by fastSlot, if it is a chunk of one
// choice read by fastChoices.
func (r *ChatReader) fastRead(data []byte) bool {
	hasChoices := false
	ok := adapter.FastRoot(data, chunkNames, func(name []byte, i int) int {
		switch string(name) {
		case "choices":
			hasChoices = true
			return r.fastChoices(data, i)
		case "id":
			return r.fastSlot(slotID, data, i)
		case "error", "message", "type", "code", "param", "":
			return -1
		}
		return r.fastSlot(slotSkip, data, i)
	})
	return ok && hasChoices
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
			return r.fastSlot(slotChoiceIndex, data, i)
		case "delta":
			return r.fastDelta(data, i)
		case "finish_reason":
			return r.fastSlot(slotFinish, data, i)
		}
		return r.fastSlot(slotSkip, data, i)
	})
	// One choice only; a choice without an index is choice 0.
	if i, more := adapter.Next(data, i, ']'); i >= 0 && !more && c.index == r.cfg.Choice && c.index < maxIndexGrowth {
		return i
	}
	return -1
}

// fastDelta reads the "delta" object at data[i:] into r.chosen as
// deltaField does: "content", "refusal", "reasoning_content" and
// "reasoning" strings or nulls, "tool_calls" read by fastCalls, and other
// members skipped (role...). It returns the index of the byte after the
// object, or -1.
func (r *ChatReader) fastDelta(data []byte, i int) int {
	return adapter.Members(data, i, deltaNames, func(name []byte, i int) int {
		switch string(name) {
		case "content":
			return r.fastSlot(slotContent, data, i)
		case "refusal":
			return r.fastSlot(slotRefusal, data, i)
		case "reasoning_content", "reasoning":
			return r.fastSlot(slotReasoning, data, i)
		case "tool_calls":
			return r.fastCalls(data, i)
		}
		return r.fastSlot(slotSkip, data, i)
	})
}

// fastCalls reads the value of "tool_calls" at data[i:], an array of one
// to fastMaxCalls elements read by fastCallElem, into r.chosen's calls, and
// returns the index of the byte after it, or -1.
func (r *ChatReader) fastCalls(data []byte, i int) int {
	if i >= len(data) || data[i] != '[' {
		return -1
	}
	for i = adapter.SkipSpace(data, i+1); ; {
		if r.chosen.nCalls == fastMaxCalls {
			return -1
		}
		r.chosen.nextCall()
		var more bool
		if i, more = adapter.Next(data, r.fastCallElem(data, i), ']'); !more {
			return i
		}
	}
}

// fastMaxCalls is the most elements of "tool_calls" that the fast path
// reads in one chunk.
const fastMaxCalls = 16

// fastCallElem reads the element of "tool_calls" at data[i:] into the last
// of r.chosen's calls, an empty one, as call and callField do: an object of
// "index" (an index, required), "id" and "type" (strings or nulls),
// "function" (an object of "name" and "arguments", strings or nulls, and
// other members skipped), and other members skipped. It returns the index
// of the byte after the element, or -1.
func (r *ChatReader) fastCallElem(data []byte, i int) int {
	call := slotCall + 8*uint8(r.chosen.nCalls-1)
	i = adapter.Members(data, i, callNames, func(name []byte, i int) int {
		switch string(name) {
		case "index":
			return r.fastSlot(call+slotCallIndex, data, i)
		case "id":
			return r.fastSlot(call+slotCallID, data, i)
		case "type":
			return r.fastSlot(call+slotCallType, data, i)
		case "custom":
			return -1 // a custom tool's call: parseSlow reads it
		case "function":
			return adapter.Members(data, i, functionNames, func(name []byte, i int) int {
				switch string(name) {
				case "name":
					return r.fastSlot(call+slotCallName, data, i)
				case "arguments":
					return r.fastSlot(call+slotCallArgs, data, i)
				}
				return r.fastSlot(slotSkip, data, i)
			})
		}
		return r.fastSlot(slotSkip, data, i)
	})
	if !r.chosen.calls[r.chosen.nCalls-1].hasIndex {
		return -1 // an element without an index (Mistral, Gemini's endpoint): parseSlow reads it
	}
	return i
}

// The values of a chunk that fastSlot reads. Those of the element k of
// "tool_calls" are slotCall + 8k + slotCallIndex... slotCallArgs.
const (
	slotSkip        uint8 = iota // a member's value that is not read
	slotID                       // the chunk's id
	slotChoiceIndex              // the choice's index
	slotFinish                   // its finish_reason
	slotContent                  // its delta's content
	slotRefusal                  // refusal
	slotReasoning                // reasoning_content or reasoning
	slotCall        = 8

	slotCallIndex = 0 // an element's index
	slotCallID    = 1 // id
	slotCallType  = 2 // type
	slotCallName  = 3 // function.name
	slotCallArgs  = 4 // function.arguments
)

// fastSlot reads the value id at data[i:] into r as parseSlow reads it,
// records it for the layout, and returns the index of the byte after it,
// or -1 where parseSlow would fail or the fast path does not read it. With
// i -1, it sets the field of value id as the chunk learned had it.
func (r *ChatReader) fastSlot(id uint8, data []byte, i int) (j int) {
	c := &r.chosen
	if i < 0 { // a Kept value, as the chunk learned had it
		switch {
		case id == slotID:
			r.id, r.hasID = append(r.id[:0], r.kept.id...), r.kept.hasID
		case id == slotChoiceIndex:
			c.index = r.kept.index
		case id == slotFinish:
			c.finish = append(c.finish[:0], r.kept.finish...)
		case id >= slotCall && (id-slotCall)%8 == slotCallIndex:
			t := &c.calls[(id-slotCall)/8]
			t.index, t.hasIndex = r.kept.callIndex[(id-slotCall)/8], true
		}
		return 0
	}
	kind := adapter.Read
	switch id {
	case slotSkip:
		return r.layout.Record(id, adapter.Skipped, i, adapter.Skip(data, i))
	case slotID:
		r.hasID, kind = true, adapter.Kept
		r.id, _, j = adapter.NullableString(r.id, data, i)
	case slotChoiceIndex:
		var ok bool
		if c.index, j, ok = adapter.Index(data, i); !ok || c.index != r.cfg.Choice {
			j = -1
		}
		kind = adapter.Kept
	case slotFinish:
		c.finish, _, j = adapter.NullableString(c.finish, data, i)
		kind = adapter.Kept
	case slotContent:
		c.text, _, j = adapter.NullableString(c.text, data, i)
	case slotRefusal:
		c.refusal, _, j = adapter.NullableString(c.refusal, data, i)
	case slotReasoning:
		// A string or null (an object is left to parseSlow), into
		// r.scratch, which becomes the thinking if that is empty.
		r.scratch, _, j = adapter.NullableString(r.scratch, data, i)
		r.keepReasoning(c)
	default:
		t := &c.calls[(id-slotCall)/8]
		switch (id - slotCall) % 8 {
		case slotCallIndex:
			j, kind = adapter.ReadIndex(data, i, &t.index, &t.hasIndex), adapter.Kept
		case slotCallID:
			t.id, _, j = adapter.NullableString(t.id, data, i)
		case slotCallType:
			t.typ, t.hasType, j = adapter.NullableString(t.typ, data, i)
		case slotCallName:
			t.name, _, j = adapter.NullableString(t.name, data, i)
		case slotCallArgs:
			t.args, _, j = adapter.NullableString(t.args, data, i)
		}
	}
	return r.layout.Record(id, kind, i, j)
}

// chatKept are the fields of the chunk whose layout r.layout learned that
// fastSlot sets again without reading them (adapter.Kept): its id, its
// choice's index and finish_reason, its calls' indexes.
type chatKept struct {
	id, finish []byte
	hasID      bool
	index      int64
	callIndex  [fastMaxCalls]int64
}
