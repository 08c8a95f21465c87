package bedrockstream

import (
	"math"

	"github.com/argstream/argstream/wire/internal/adapter"
)

// The fast path. Most messages of a stream are contentBlockDelta events
// of a few bytes of toolUse input or text, so fastBlock reads the payloads
// of the content block events with the adapters' shared byte scanner, in
// any layout (members in any order, white space, escapes, members it does
// not read, of any kind, skipped after one validation), where the token
// decoder costs several times more. It takes only what it can read exactly
// as the token decoder does, and declines anything else (a union with two
// members, a reasoningContent delta, a toolUse delta without input, a
// contentBlockIndex past 2^31-1, a value of the wrong kind, what
// adapter.Members declines), which the token decoder then reads: its
// answer is the answer. The contentBlockDelta payloads of the layout it
// read last it reads by comparing their bytes with that one's
// (adapter.Layout), reading only the values that change: the input or text,
// and the index once it has changed.

// fastOther reads the payload of a messageStart, messageStop or metadata
// event (known) into r as parse does, and reports whether it did: their
// members are checked and skipped, but for messageStop's stopReason.
func (r *Reader) fastOther(known string, payload []byte) bool {
	var names adapter.Names
	switch known {
	case "messageStart":
		names = startNames
	case "messageStop":
		names = stopNames
		r.stop = r.stop[:0]
	}
	return adapter.FastRoot(payload, names, func(name []byte, i int) int {
		if known == "messageStop" && string(name) == "stopReason" {
			var j int
			r.stop, _, j = adapter.NullableString(r.stop, payload, i)
			return j
		}
		return fastSkip(payload, i, name, names)
	})
}

// fastDelta reads the payload of a contentBlockDelta event into r as
// parse does: of the layout learned from the payload before, or else read
// by fastBlock, whose layout it then learns. It reports false on any
// difference.
func (r *Reader) fastDelta(payload []byte) bool {
	if r.deltas++; r.deltas <= learnAfter {
		// A short stream is read without learning: a Layout's buffers
		// cost more than it saves over a few payloads.
		return r.fastBlock("contentBlockDelta", payload)
	}
	r.delta = r.kept.delta
	if r.layout.Match(payload, func(id uint8, i int) int { return r.fastSlot(id, payload, i) }) {
		return true
	}
	r.resetPayload()
	r.layout.Begin()
	if !r.fastBlock("contentBlockDelta", payload) {
		r.layout.Forget()
		return false
	}
	if r.layout.Learn(payload) {
		r.kept.delta, r.kept.index = r.delta, r.index
	}
	return true
}

// learnAfter is the number of contentBlockDelta payloads of a stream
// read before fastDelta learns their layout.
const learnAfter = 4

// deltaKept are the fields of the contentBlockDelta payload whose layout
// r.layout learned that are not read again from the payloads of that
// layout: the delta's kind, and its index while it does not change
// (adapter.Kept).
type deltaKept struct {
	delta blockKind
	index int64
}

// The values of a payload that fastSlot reads.
const (
	slotSkip  uint8 = iota // a member's value that is not read
	slotIndex              // contentBlockIndex, not null
	slotText               // delta.text, not null
	slotInput              // delta.toolUse.input
)

// fastSlot reads the value id at data[i:] into r as parseSlow reads it,
// records it for the layout, and returns the index of the byte after it,
// or -1 where parseSlow would fail or the fast path does not read it. With
// i -1, it sets the field of value id as the payload learned had it.
func (r *Reader) fastSlot(id uint8, data []byte, i int) int {
	if i < 0 { // a Kept value, as the payload learned had it
		if id == slotIndex {
			r.index, r.hasIndex = r.kept.index, true
		}
		return 0
	}
	var j int
	kind := adapter.Read
	switch id {
	case slotSkip:
		return r.layout.Record(id, adapter.Skipped, i, adapter.Skip(data, i))
	case slotIndex:
		n, k, ok := adapter.Index(data, i)
		if !ok || n > math.MaxInt32 {
			return -1
		}
		r.index, r.hasIndex, j, kind = n, true, k, adapter.Kept
	case slotText:
		r.delta = blockText
		r.str, j = adapter.Unquote(r.str, data, i)
		r.hasStr = j >= 0
	case slotInput:
		r.str, j = adapter.Unquote(r.str, data, i)
		r.hasStr = j >= 0
	}
	return r.layout.Record(id, kind, i, j)
}

// fastBlock reads the payload of a contentBlockStart, contentBlockDelta or
// contentBlockStop event into r as parse does, and reports whether it did;
// false on any difference.
func (r *Reader) fastBlock(event string, payload []byte) bool {
	return adapter.FastRoot(payload, blockNames, func(name []byte, i int) int {
		switch {
		case string(name) == "contentBlockIndex":
			if j := adapter.Null(payload, i); j >= 0 {
				return j
			}
			return r.fastSlot(slotIndex, payload, i)
		case string(name) == "start" && event == "contentBlockStart":
			return r.fastUnion(payload, i, startUnion, r.fastStartMember)
		case string(name) == "delta" && event == "contentBlockDelta":
			return r.fastUnion(payload, i, deltaUnion, r.fastDeltaMember)
		}
		if adapter.OtherCase(name, blockNames) {
			return -1
		}
		return r.fastSlot(slotSkip, payload, i)
	})
}

// fastSkip skips the value at data[i:] of the member name of an object
// whose names are known, name not one of them, or returns -1 if name is
// one of them in another case, which the token decoder refuses.
func fastSkip(data []byte, i int, name []byte, known adapter.Names) int {
	if adapter.OtherCase(name, known) {
		return -1
	}
	return adapter.Skip(data, i)
}

// fastUnion reads the union object (or null) at data[i:] with known as its
// names, as union does (a name of known in another case refused), each
// member not null read by member, and returns
// the index of the byte after it, or -1.
func (r *Reader) fastUnion(data []byte, i int, known adapter.Names, member func(data, name []byte, i int) int) int {
	if j := adapter.Null(data, i); j >= 0 {
		return j
	}
	members := 0
	return adapter.Members(data, i, known, func(name []byte, i int) int {
		if adapter.OtherCase(name, known) {
			return -1
		}
		if j := adapter.Null(data, i); j >= 0 {
			return j
		}
		if members++; members > 1 {
			return -1
		}
		return member(data, name, i)
	})
}

// fastStartMember reads the member of contentBlockStart's start at
// data[i:], not null, as startMember does.
func (r *Reader) fastStartMember(data, name []byte, i int) int {
	if string(name) != "toolUse" {
		r.start = blockOther
		return adapter.Skip(data, i)
	}
	r.start = blockCall
	return adapter.Members(data, i, toolStartNames, func(name []byte, i int) int {
		var j int
		switch string(name) {
		case "toolUseId":
			r.id, j = adapter.Unquote(r.id, data, i)
		case "name":
			r.name, j = adapter.Unquote(r.name, data, i)
		case "type":
			r.toolType, _, j = adapter.NullableString(r.toolType, data, i)
		default:
			j = fastSkip(data, i, name, toolStartNames)
		}
		return j
	})
}

// fastDeltaMember reads the member of contentBlockDelta's delta at
// data[i:], not null, as deltaMember does, but for reasoningContent, which
// it declines.
func (r *Reader) fastDeltaMember(data, name []byte, i int) int {
	var j int
	switch string(name) {
	case "text":
		j = r.fastSlot(slotText, data, i)
	case "toolUse":
		r.delta = blockCall
		j = adapter.Members(data, i, toolDeltaNames, func(name []byte, i int) int {
			if string(name) != "input" {
				return r.fastSlot(slotSkip, data, i)
			}
			return r.fastSlot(slotInput, data, i)
		})
		if !r.hasStr {
			return -1 // no input: an error of parse's
		}
	case "reasoningContent":
		return -1
	default:
		r.delta = blockOther
		j = r.fastSlot(slotSkip, data, i)
	}
	return j
}
