package anthropicsdk_test

import (
	"strings"
	"testing"

	"github.com/argstream/argstream/sdk/internal/differ"
)

// ev writes one event: an event line, unless name is "-", and a data line.
func ev(name, data string) string {
	if name == "-" {
		return "data: " + data + "\n\n"
	}
	return "event: " + name + "\ndata: " + data + "\n\n"
}

// The events of a minimal Messages stream: one tool_use block, index 0,
// id t1, name f, arguments {"a":1} in one delta.
var (
	msgStart = ev("message_start", `{"type":"message_start","message":{"id":"m","type":"message","role":"assistant","content":[]}}`)
	start0   = ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t1","name":"f","input":{}}}`)
	delta0   = ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"a\":1}"}}`)
	stop0    = ev("content_block_stop", `{"type":"content_block_stop","index":0}`)
	msgStop  = ev("message_stop", `{"type":"message_stop"}`)
)

// call0 is the stream with delta0's event replaced by deltas.
func call0(deltas ...string) string {
	return msgStart + start0 + strings.Join(deltas, "") + stop0 + msgStop
}

// anthropicDivergences are minimal streams of each divergence class that
// the differential test found on wire/anthropicstream (class names as in
// its report); each must pass the property once the adapter refuses it.
var anthropicDivergences = []struct{ class, body string }{
	{"dup-member: partial_json twice (SDK: first)", call0(ev("content_block_delta",
		`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"a\":1}","partial_json":"{\"a\":2}"}}`))},
	{"dup-member: delta object twice (SDK: first)", call0(ev("content_block_delta",
		`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"a\":1}"},"delta":{"type":"input_json_delta","partial_json":"{\"a\":2}"}}`))},
	{"dup-member: delta type twice (SDK: first)", call0(ev("content_block_delta",
		`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","type":"text_delta","partial_json":"{\"a\":1}"}}`))},
	{"dup-member: block name twice (SDK: first)", msgStart +
		ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t1","name":"f","name":"g","input":{}}}`) +
		delta0 + stop0 + msgStop},
	{"dup-member: index twice (SDK: first)", msgStart + start0 +
		ev("content_block_delta", `{"type":"content_block_delta","index":0,"index":1,"delta":{"type":"input_json_delta","partial_json":"{\"a\":1}"}}`) +
		stop0 + msgStop},
	{"fold-name: Partial_json (encoding/json v1 reads it as partial_json)", call0(ev("content_block_delta",
		`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","Partial_json":"{\"a\":1}"}}`))},
	{"fold-name: content_bloc\u212a with the Kelvin sign (encoding/json v1 reads it)", msgStart +
		ev("content_block_start", `{"type":"content_block_start","index":0,"content_bloc`+"\u212a"+`":{"type":"tool_use","id":"t1","name":"f","input":{}}}`) +
		delta0 + stop0 + msgStop},
	{"event-name: unknown event name, data content_block_delta", call0(ev("foo",
		`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"a\":1}"}}`))},
	{"event-name: content_block_delta named, data message_delta", call0(ev("content_block_delta",
		`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"a\""}}`), ev("content_block_delta",
		`{"type":"message_delta","index":0,"delta":{"type":"input_json_delta","partial_json":":1}"}}`))},
	{"no-event-line: a delta without its event line", call0(ev("-",
		`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"a\":1}"}}`))},
	{"empty-event-name: a delta with an empty event line", call0(ev("",
		`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"a\":1}"}}`))},
	{"event-only-block: event: error with no data", msgStart + start0 + "event: error\n\n" + delta0 + stop0 + msgStop},
	{"bom-start: a BOM before message_start, which holds a call", differ.BOM +
		ev("message_start", `{"type":"message_start","message":{"content":[{"type":"tool_use","id":"t1","name":"f","input":{"a":1}}]}}`) + msgStop},
	{"bom-mid: a BOM before a delta's event line", call0(differ.BOM + delta0)},
	{"bare-cr: every line ends with a bare CR", strings.ReplaceAll(call0(delta0), "\n", "\r")},
	{"bare-cr-one: one event's lines end with a bare CR", call0(strings.ReplaceAll(delta0, "\n", "\r"))},
	{"malformed-executable: index \"1\" on a delta of block 1 (SDK: 1; encoding/json v1: an error), block 0 complete before", call0(delta0)[:len(call0(delta0))-len(msgStop)] +
		ev("content_block_start", `{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"t2","name":"g","input":{}}}`) +
		ev("content_block_delta", `{"type":"content_block_delta","index":"1","delta":{"type":"input_json_delta","partial_json":"{\"b\":2}"}}`) +
		ev("content_block_stop", `{"type":"content_block_stop","index":1}`) + msgStop},
	{"restart-block: block 0 started twice (the SDK stops there), then block 1", msgStart + start0 + start0 +
		ev("content_block_start", `{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"t2","name":"g","input":{}}}`) +
		ev("content_block_delta", `{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"b\":2}"}}`) +
		ev("content_block_stop", `{"type":"content_block_stop","index":1}`) + stop0 + msgStop},
	{"block-index: the first block at index 1", msgStart +
		ev("content_block_start", `{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"t1","name":"f","input":{}}}`) +
		ev("content_block_delta", `{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"a\":1}"}}`) +
		ev("content_block_stop", `{"type":"content_block_stop","index":1}`) + msgStop},
	{"block-index: a delta for a block not yet started", msgStart +
		ev("content_block_delta", `{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{}"}}`) +
		start0 + delta0 + stop0 + msgStop},
	{"second-message-start: message_start again mid-block", msgStart + start0 + msgStart + delta0 + stop0 + msgStop},
	{"input-space: the placeholder input written { }", msgStart +
		ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t1","name":"f","input":{ }}}`) +
		delta0 + stop0 + msgStop},
	{"event-after-end: a delta after message_stop", call0(delta0) +
		ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":",\"b\":2}"}}`)},
}

// TestDivergencesAnthropic: the minimal stream of each divergence class
// passes the property.
func TestDivergencesAnthropic(t *testing.T) {
	w := anthropicWire(t)
	if err := w.Check(differ.Case{Class: "none", Body: []byte(call0(delta0))}); err != nil {
		t.Fatalf("the stream the cases vary: %v", err)
	}
	for _, d := range anthropicDivergences {
		t.Run(d.class, func(t *testing.T) {
			if err := w.Check(differ.Case{Class: d.class, Body: []byte(d.body)}); err != nil {
				t.Error(err)
			}
		})
	}
}
