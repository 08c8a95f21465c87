package bedrockstream

// The decoding of a message's JSON payload into the Reader's reused fields,
// by the token decoder of package adapter: the whole payload is decoded,
// and checked, before anything is done with it.

import (
	"errors"
	"fmt"
	"math"

	"github.com/argstream/argstream/wire/internal/adapter"
)

// The member names of the objects of each payload: the ones Read reads,
// which a name in another case may not mimic. aws-sdk-go-v2 matches member
// names exactly, and decodes a payload with encoding/json into maps, where
// the last of repeated names wins: the Decoder refuses repeated names, and
// names equal under case folding, anywhere.
var (
	startNames     = adapter.Names{"role"}
	blockNames     = adapter.Names{"contentBlockIndex", "start", "delta"}
	stopNames      = adapter.Names{"stopReason", "additionalModelResponseFields"}
	startUnion     = adapter.Names{"toolUse"}
	toolStartNames = adapter.Names{"toolUseId", "name", "type"}
	deltaUnion     = adapter.Names{"text", "toolUse", "reasoningContent"}
	toolDeltaNames = adapter.Names{"input"}
	reasonUnion    = adapter.Names{"text", "signature", "redactedContent"}
	// The SDKs read an exception's "message"; a generic error's message may
	// be "Message". Both are taken, but not together.
	exceptionNames = adapter.Names{"message", "Message"}
)

// parse decodes payload, of the event type known ("" for one to come, or
// "exception"), into r: a content block event's by the fast path (fast.go)
// if it reads it, or else by the token decoder.
func (r *Reader) parse(known string, payload []byte) error {
	switch known {
	case "contentBlockDelta":
		r.resetPayload()
		if r.fastDelta(payload) {
			return nil
		}
	case "contentBlockStart", "contentBlockStop":
		r.resetPayload()
		if r.fastBlock(known, payload) {
			return nil
		}
	case "messageStart", "messageStop", "metadata":
		r.resetPayload()
		if r.fastOther(known, payload) {
			return nil
		}
	}
	return r.parseSlow(known, payload)
}

// resetPayload empties the fields of the payload read.
func (r *Reader) resetPayload() {
	r.index, r.hasIndex = 0, false
	r.start, r.id, r.name, r.toolType = blockNone, r.id[:0], r.name[:0], r.toolType[:0]
	r.delta, r.str, r.hasStr = blockNone, r.str[:0], false
	r.errMsg = r.errMsg[:0]
}

// parseSlow decodes payload, of the event type known, into r with the
// token decoder.
func (r *Reader) parseSlow(known string, payload []byte) error {
	r.resetPayload()
	r.dec.Reset(payload)
	var err error
	switch known {
	case "messageStart":
		err = r.dec.Root(startNames, r.skip)
	case "contentBlockStart", "contentBlockDelta", "contentBlockStop":
		err = r.dec.Root(blockNames, func(key []byte) error { return r.blockField(known, key) })
	case "messageStop":
		r.stop = r.stop[:0]
		err = r.dec.Root(stopNames, r.stopField)
	case "exception":
		err = r.dec.Root(exceptionNames, r.exceptionField)
	default: // metadata, event types to come: checked, not read
		err = r.dec.Root(nil, r.skip)
	}
	if err != nil {
		return fmt.Errorf("payload: %w", err)
	}
	return nil
}

func (r *Reader) skip([]byte) error { return r.dec.Skip() }

func (r *Reader) blockField(event string, key []byte) (err error) {
	switch {
	case string(key) == "contentBlockIndex":
		return r.blockIndex()
	case string(key) == "start" && event == "contentBlockStart":
		r.members = 0
		return r.dec.Object(startUnion, r.startMember)
	case string(key) == "delta" && event == "contentBlockDelta":
		r.members = 0
		return r.dec.Object(deltaUnion, r.deltaMember)
	}
	return r.dec.Skip()
}

// blockIndex reads contentBlockIndex: aws-sdk-go-v2 keeps it in an int32,
// so that a larger index would be another block to it.
func (r *Reader) blockIndex() (err error) {
	if r.dec.Kind() == 'n' {
		return r.dec.Skip() // the SDKs read no index
	}
	r.index, err = r.dec.Index()
	if err == nil && r.index > math.MaxInt32 {
		return fmt.Errorf("/contentBlockIndex is %d, past 2^31-1", r.index)
	}
	r.hasIndex = err == nil
	return err
}

// union counts a member of a union object whose value is not null (the SDKs
// skip null members, and take the first other member they come to in a
// map's random order: two would be read at random). It reports whether the
// member is null, and then skips it.
func (r *Reader) union(key []byte, members *int) (null bool, err error) {
	if r.dec.Kind() == 'n' {
		return true, r.dec.Skip()
	}
	if *members++; *members > 1 {
		return false, fmt.Errorf("a union with a second member, %q", key)
	}
	return false, nil
}

func (r *Reader) startMember(key []byte) error {
	if null, err := r.union(key, &r.members); null || err != nil {
		return err
	}
	if string(key) != "toolUse" {
		r.start = blockOther
		return r.dec.Skip()
	}
	r.start = blockCall
	return r.dec.Object(toolStartNames, func(key []byte) (err error) {
		switch string(key) {
		case "toolUseId":
			r.id, err = r.dec.String(r.id)
		case "name":
			r.name, err = r.dec.String(r.name)
		case "type":
			r.toolType, _, err = r.dec.NullableString(r.toolType)
		default:
			err = r.dec.Skip()
		}
		return err
	})
}

func (r *Reader) deltaMember(key []byte) (err error) {
	if null, err := r.union(key, &r.members); null || err != nil {
		return err
	}
	switch string(key) {
	case "text":
		r.delta = blockText
		r.str, err = r.dec.String(r.str)
		r.hasStr = err == nil
	case "toolUse":
		r.delta = blockCall
		err = r.dec.Object(toolDeltaNames, func(key []byte) (err error) {
			if string(key) != "input" {
				return r.dec.Skip()
			}
			r.str, err = r.dec.String(r.str)
			r.hasStr = err == nil
			return err
		})
		if err == nil && !r.hasStr {
			err = errors.New("/delta/toolUse has no input")
		}
	case "reasoningContent":
		r.delta = blockReasoning
		inner := 0
		err = r.dec.Object(reasonUnion, func(key []byte) error {
			if null, err := r.union(key, &inner); null || err != nil {
				return err
			}
			if string(key) != "text" {
				return r.dec.Skip() // signature, redactedContent
			}
			var err error
			r.str, err = r.dec.String(r.str)
			r.hasStr = err == nil
			return err
		})
	default:
		r.delta = blockOther // citations, members to come
		err = r.dec.Skip()
	}
	return err
}

func (r *Reader) stopField(key []byte) (err error) {
	if string(key) == "stopReason" {
		r.stop, _, err = r.dec.NullableString(r.stop)
		return err
	}
	return r.dec.Skip()
}

func (r *Reader) exceptionField(key []byte) (err error) {
	switch string(key) {
	case "message", "Message":
		r.errMsg, _, err = r.dec.NullableString(r.errMsg)
		return err
	}
	return r.dec.Skip()
}
