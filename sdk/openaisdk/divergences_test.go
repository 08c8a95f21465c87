package openaisdk_test

import (
	"strings"
	"testing"

	"github.com/argstream/argstream/sdk/internal/differ"
)

// # Chat Completions

// chunk writes a chunk whose choice 0 has delta, and finish_reason null.
func chunk(delta string) string {
	return `data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":` + delta + `,"finish_reason":null}]}` + "\n\n"
}

// The chunks of a minimal Chat stream: one call, index 0, id call_1, name
// f, arguments {"a":1} in one delta.
var (
	chatFirst  = chunk(`{"role":"assistant","tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"f","arguments":""}}]}`)
	chatArgs   = chunk(`{"tool_calls":[{"index":0,"function":{"arguments":"{\"a\":1}"}}]}`)
	chatFinish = `data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}` + "\n\n" + "data: [DONE]\n\n"
)

// chatCall is the stream with chatArgs replaced by chunks.
func chatCall(chunks ...string) string { return chatFirst + strings.Join(chunks, "") + chatFinish }

// chatDivergences are minimal streams of each divergence class that the
// differential test found on wire/openaistream's ReadChat; each must pass
// the property once the adapter refuses it.
var chatDivergences = []struct{ class, body string }{
	{"dup-member: arguments twice (SDK: first)", chatCall(chunk(`{"tool_calls":[{"index":0,"function":{"arguments":"{\"a\":1}","arguments":"{\"a\":2}"}}]}`))},
	{"dup-member: function twice (SDK: first)", chatCall(chunk(`{"tool_calls":[{"index":0,"function":{"arguments":"{\"a\":1}"},"function":{"arguments":"{\"a\":2}"}}]}`))},
	{"dup-member: tool_calls twice, the same (SDK: once)", chatFirst + chunk(`{"tool_calls":[{"index":0,"function":{"arguments":"{\"a\":\"x"}}]}`) +
		chunk(`{"tool_calls":[{"index":0,"function":{"arguments":"y"}}],"tool_calls":[{"index":0,"function":{"arguments":"y"}}]}`) +
		chunk(`{"tool_calls":[{"index":0,"function":{"arguments":"\"}"}}]}`) + chatFinish},
	{"dup-member: index twice (SDK: first)", chatCall(chunk(`{"tool_calls":[{"index":0,"index":1,"function":{"arguments":"{\"a\":1}"}}]}`))},
	{"dup-member: delta twice (SDK: first)", chatFirst + `data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"a\":1}"}}]},"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"a\":2}"}}]},"finish_reason":null}]}` + "\n\n" + chatFinish},
	{"fold-name: Arguments (encoding/json v1 reads it as arguments)", chatCall(chunk(`{"tool_calls":[{"index":0,"function":{"Arguments":"{\"a\":1}"}}]}`))},
	{"restate-call: the name repeated in a later delta (SDK: appended, ff)", chatCall(chunk(`{"tool_calls":[{"index":0,"function":{"name":"f","arguments":"{\"a\":1}"}}]}`))},
	{"restate-call: another name in a later delta (SDK: appended, fg)", chatCall(chunk(`{"tool_calls":[{"index":0,"function":{"name":"g","arguments":"{\"a\":1}"}}]}`))},
	{"restate-call: another id in a later delta (SDK: the last)", chatCall(chunk(`{"tool_calls":[{"index":0,"id":"call_2","function":{"arguments":"{\"a\":1}"}}]}`))},
	{"custom-type: a call of type custom with a function name and arguments", chatCall(chatArgs,
		chunk(`{"tool_calls":[{"index":1,"id":"call_2","type":"custom","function":{"name":"g","arguments":"{\"b\":2}"}}]}`))},
	{"event-name: a chunk under an unknown event name", chatFirst + chunk(`{"tool_calls":[{"index":0,"function":{"arguments":"{\"a\":\""}}]}`) +
		"event: foo\n" + chunk(`{"tool_calls":[{"index":0,"function":{"arguments":"x"}}]}`) +
		chunk(`{"tool_calls":[{"index":0,"function":{"arguments":"\"}"}}]}`) + chatFinish},
	{"error-null: \"error\": null in a chunk (SDK: a stream error)", chatFirst +
		`data: {"id":"c","object":"chat.completion.chunk","error":null,"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"a\":1}"}}]},"finish_reason":null}]}` + "\n\n" + chatFinish},
	{"bare-cr: every line ends with a bare CR", strings.ReplaceAll(chatCall(chatArgs), "\n", "\r")},
	{"bare-cr-one: one chunk's lines end with a bare CR", chatCall(strings.ReplaceAll(chatArgs, "\n", "\r"))},
	{"bom-start: a BOM before the first chunk, which names the call", differ.BOM + chatCall(chatArgs)},
	{"chunk-id: a chunk of another id (the accumulator rejects it)", chatCall(strings.Replace(chatArgs, `"id":"c"`, `"id":"d"`, 1))},
	{"chunk-id: a chunk of id null (the accumulator rejects it)", chatCall(strings.Replace(chatArgs, `"id":"c"`, `"id":null`, 1))},
	{"call-index: a call at index 200, past the accumulator's sparse limit", chatCall(chatArgs,
		chunk(`{"tool_calls":[{"index":200,"id":"call_2","type":"function","function":{"name":"g","arguments":"{\"b\":2}"}}]}`))},
	{"call-index: index 1.0 (SDK: 1; encoding/json v1: an error)", chatCall(chatArgs,
		chunk(`{"tool_calls":[{"index":1.0,"id":"call_2","type":"function","function":{"name":"g","arguments":"{\"b\":2}"}}]}`))},
}

// TestDivergencesChat: the minimal stream of each divergence class passes
// the property.
func TestDivergencesChat(t *testing.T) {
	testDivergences(t, chatWire(t), chatCall(chatArgs), chatDivergences)
}

// # Responses

// rev writes one Responses event, its event line its data's type.
func rev(typ, members string) string {
	return "event: " + typ + "\ndata: {\"type\":\"" + typ + "\"," + members + "}\n\n"
}

const fcItem = `{"type":"function_call","id":"fc_1","call_id":"call_1","name":"f","arguments":`

// The events of a minimal Responses stream: one call, output_index 0,
// item fc_1, call_id call_1, name f, arguments {"a":1} in one delta.
var (
	respCreated = rev("response.created", `"response":{"id":"r","output":[]}`)
	respAdded   = rev("response.output_item.added", `"output_index":0,"item":`+fcItem+`""}`)
	respDelta   = rev("response.function_call_arguments.delta", `"item_id":"fc_1","output_index":0,"delta":"{\"a\":1}"`)
	respArgs    = rev("response.function_call_arguments.done", `"item_id":"fc_1","output_index":0,"arguments":"{\"a\":1}"`)
	respItem    = rev("response.output_item.done", `"output_index":0,"item":`+fcItem+`"{\"a\":1}"}`)
	respDone    = rev("response.completed", `"response":{"id":"r","output":[`+fcItem+`"{\"a\":1}"}]}`)
)

// respCall is the stream with respDelta replaced by events.
func respCall(events ...string) string {
	return respCreated + respAdded + strings.Join(events, "") + respArgs + respItem + respDone
}

// A second call, output_index 1, item fc_2, call_id call_2, name g,
// arguments {"b":2}.
const fcItem2 = `{"type":"function_call","id":"fc_2","call_id":"call_2","name":"g","arguments":`

var twoCalls = respCreated + respAdded + rev("response.output_item.added", `"output_index":1,"item":`+fcItem2+`""}`) +
	"%s" +
	respArgs + respItem +
	rev("response.function_call_arguments.done", `"item_id":"fc_2","output_index":1,"arguments":"{\"b\":2}"`) +
	rev("response.output_item.done", `"output_index":1,"item":`+fcItem2+`"{\"b\":2}"}`) +
	rev("response.completed", `"response":{"id":"r","output":[`+fcItem+`"{\"a\":1}"},`+fcItem2+`"{\"b\":2}"}]}`)

// responsesDivergences are minimal streams of each divergence class that
// the differential test found on wire/openaistream's ReadResponses; each
// must pass the property once the adapter refuses it.
var responsesDivergences = []struct{ class, body string }{
	{"dup-member: delta twice (SDK: first)", respCall(rev("response.function_call_arguments.delta",
		`"item_id":"fc_1","output_index":0,"delta":"{\"a\":1}","delta":"{\"a\":2}"`))},
	{"dup-member: type twice, the first another event's (SDK: first)", respCreated + respAdded +
		rev("response.function_call_arguments.delta", `"item_id":"fc_1","output_index":0,"delta":"{\""`) +
		"event: response.function_call_arguments.delta\n" + `data: {"type":"response.output_text.delta","type":"response.function_call_arguments.delta","item_id":"fc_1","output_index":0,"delta":"p"}` + "\n\n" +
		rev("response.function_call_arguments.delta", `"item_id":"fc_1","output_index":0,"delta":"ath\":1}"`) +
		rev("response.function_call_arguments.done", `"item_id":"fc_1","output_index":0,"arguments":"{\"ath\":1}"`) +
		rev("response.output_item.done", `"output_index":0,"item":`+fcItem+`"{\"ath\":1}"}`) +
		rev("response.completed", `"response":{"id":"r","output":[`+fcItem+`"{\"ath\":1}"}]}`)},
	{"dup-member: type twice, no event line (SDK: the first)", respCreated + respAdded +
		rev("response.function_call_arguments.delta", `"item_id":"fc_1","output_index":0,"delta":"{\""`) +
		`data: {"type":"response.output_text.delta","type":"response.function_call_arguments.delta","item_id":"fc_1","output_index":0,"delta":"p"}` + "\n\n" +
		rev("response.function_call_arguments.delta", `"item_id":"fc_1","output_index":0,"delta":"ath\":1}"`) +
		rev("response.function_call_arguments.done", `"item_id":"fc_1","output_index":0,"arguments":"{\"ath\":1}"`) +
		rev("response.output_item.done", `"output_index":0,"item":`+fcItem+`"{\"ath\":1}"}`) +
		rev("response.completed", `"response":{"id":"r","output":[`+fcItem+`"{\"ath\":1}"}]}`)},
	{"dup-member: type twice, no event line, the second another event's (SDK: the first)", respCreated + respAdded +
		rev("response.function_call_arguments.delta", `"item_id":"fc_1","output_index":0,"delta":"{\""`) +
		`data: {"type":"response.function_call_arguments.delta","type":"response.output_text.delta","item_id":"fc_1","output_index":0,"delta":"p"}` + "\n\n" +
		rev("response.function_call_arguments.delta", `"item_id":"fc_1","output_index":0,"delta":"ath\":1}"`) +
		rev("response.function_call_arguments.done", `"item_id":"fc_1","output_index":0,"arguments":"{\"path\":1}"`) +
		rev("response.output_item.done", `"output_index":0,"item":`+fcItem+`"{\"path\":1}"}`) +
		rev("response.completed", `"response":{"id":"r","output":[`+fcItem+`"{\"path\":1}"}]}`)},
	{"fold-name: Delta (encoding/json v1 reads it as delta)", respCall(rev("response.function_call_arguments.delta",
		`"item_id":"fc_1","output_index":0,"delta":"{\"a\":1}","Delta":"{\"a\":2}"`))},
	{"event-name: a delta under another event name", respCreated + respAdded +
		rev("response.function_call_arguments.delta", `"item_id":"fc_1","output_index":0,"delta":"{\""`) +
		"event: response.output_text.delta\n" + `data: {"type":"response.function_call_arguments.delta","item_id":"fc_1","output_index":0,"delta":"p"}` + "\n\n" +
		rev("response.function_call_arguments.delta", `"item_id":"fc_1","output_index":0,"delta":"ath\":1}"`) +
		rev("response.function_call_arguments.done", `"item_id":"fc_1","output_index":0,"arguments":"{\"path\":1}"`) +
		rev("response.output_item.done", `"output_index":0,"item":`+fcItem+`"{\"path\":1}"}`) +
		rev("response.completed", `"response":{"id":"r","output":[`+fcItem+`"{\"path\":1}"}]}`)},
	{"restate-args-done: function_call_arguments.done with other arguments", respCreated + respAdded + respDelta +
		rev("response.function_call_arguments.done", `"item_id":"fc_1","output_index":0,"arguments":"{\"a\":2}"`) + respItem + respDone},
	{"restate-item-done: output_item.done with another name", respCreated + respAdded + respDelta + respArgs +
		rev("response.output_item.done", `"output_index":0,"item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"g","arguments":"{\"a\":1}"}`) + respDone},
	{"restate-completed: response.completed with another call_id", respCreated + respAdded + respDelta + respArgs + respItem +
		rev("response.completed", `"response":{"id":"r","output":[{"type":"function_call","id":"fc_1","call_id":"call_2","name":"f","arguments":"{\"a\":1}"}]}`)},
	{"restate-completed: response.completed without the call", respCreated + respAdded + respDelta + respArgs + respItem +
		rev("response.completed", `"response":{"id":"r","output":[]}`)},
	{"restate-completed: response.completed with a call that did not stream", respCall(respDelta)[:len(respCall(respDelta))-len(respDone)] +
		rev("response.completed", `"response":{"id":"r","output":[`+fcItem+`"{\"a\":1}"},`+fcItem2+`"{\"b\":2}"}]}`)},
	{"delta-item-id: a delta at output_index 1 with the item_id of call 0", strings.Replace(twoCalls, "%s",
		respDelta+rev("response.function_call_arguments.delta", `"item_id":"fc_1","output_index":1,"delta":"{\"b\":2}"`), 1)},
	{"no-added: a call with no output_item.added, only its done events", respCreated + respArgs + respItem + respDone},
	{"event-after-end: a delta after response.completed", respCall(respDelta) + respDelta},
	{"error-null: \"error\": null in an event (SDK: a stream error)", respCall(rev("response.function_call_arguments.delta",
		`"item_id":"fc_1","output_index":0,"error":null,"delta":"{\"a\":1}"`))},
	{"bare-cr: every line ends with a bare CR", strings.ReplaceAll(respCall(respDelta), "\n", "\r")},
	{"null-member: response.completed's response null", respCreated + respAdded + respDelta + respArgs + respItem +
		rev("response.completed", `"response":null`)},
}

// TestDivergencesResponses: the minimal stream of each divergence class
// passes the property.
func TestDivergencesResponses(t *testing.T) {
	testDivergences(t, responsesWire(t), respCall(respDelta), responsesDivergences)
}

func testDivergences(t *testing.T, w *differ.Wire, base string, cases []struct{ class, body string }) {
	if err := w.Check(differ.Case{Class: "none", Body: []byte(base)}); err != nil {
		t.Fatalf("the stream the cases vary: %v", err)
	}
	for _, d := range cases {
		t.Run(d.class, func(t *testing.T) {
			if err := w.Check(differ.Case{Class: d.class, Body: []byte(d.body)}); err != nil {
				t.Error(err)
			}
		})
	}
}
