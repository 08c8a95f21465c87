package openaistream

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/argstream/argstream/internal/testutil/wiretest"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire/sse"
	gocmp "github.com/google/go-cmp/cmp"
)

// hostileCase is a stream that two readers (the official SDKs among them)
// could read differently, which must be refused, or one that reads as the
// SDKs read it.
type hostileCase struct {
	name   string
	stream string
	err    error                  // ErrMalformed or sse.ErrAmbiguous to refuse
	want   []wiretest.CallOutcome // when err is nil
}

func checkHostile(t *testing.T, tc hostileCase, calls []wiretest.CallOutcome, err error) {
	t.Helper()
	if tc.err != nil {
		if !errors.Is(err, tc.err) {
			t.Fatalf("read = %v, want %v", err, tc.err)
		}
		for _, c := range calls {
			if c.Executable || c.Arguments != "" {
				t.Errorf("call %+v executable or with arguments in a refused response", c)
			}
		}
		return
	}
	if err != nil {
		t.Fatalf("read = %v", err)
	}
	if diff := gocmp.Diff(tc.want, calls); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// chatHostile are the hostile envelopes of Chat Completions, for
// TestChatHostile and as seeds of FuzzReadChat.
func chatHostile() []hostileCase {
	args := func(i, a string) string { return chatArgs(i, a) }
	ok := []wiretest.CallOutcome{chatOK(0, "call_1", "write", `{"path":"src/x"}`)}
	return []hostileCase{
		{"the documented stream", chatWhole(chatStart("0", "call_1", "write"), args("0", `"{\"path\":\"src/"`), args("0", `"x\"}"`)), nil, ok},
		{"a repeated arguments member", chatWhole(chatStart("0", "call_1", "write"), args("0", `"{\"path\":\"src/"`),
			chatDelta(`{"tool_calls":[{"index":0,"function":{"arguments":"../../etc/","arguments":""}}]}`), args("0", `"x\"}"`)), ErrMalformed, nil},
		{"a repeated tool_calls member", chatWhole(chatStart("0", "call_1", "write"),
			chatDelta(`{"tool_calls":[{"index":0,"function":{"arguments":"{}"}}],"tool_calls":[]}`)), ErrMalformed, nil},
		{"a repeated unknown member (the fast path sees it too)", chatWhole(chatStart("0", "call_1", "write"),
			`{"id":"chatcmpl-1","model":"a","model":"b","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{}"}}]}}]}`), ErrMalformed, nil},
		{"arguments in another case (encoding/json v1 reads it)", chatWhole(chatStart("0", "call_1", "write"),
			chatDelta(`{"tool_calls":[{"index":0,"function":{"Arguments":"{}"}}]}`)), ErrMalformed, nil},
		{"an id in another case", chatWhole(chatDelta(`{"tool_calls":[{"index":0,"ID":"call_9","type":"function","function":{"name":"write","arguments":"{}"}}]}`)), ErrMalformed, nil},
		{"a member name with an escape", chatWhole(chatStart("0", "call_1", "write"),
			chatDelta(`{"tool_calls":[{"index":0,"function":{"argument\u0073":"{}"}}]}`)), ErrMalformed, nil},
		{"an event name (the SDKs read the chunk, others skip it)", wiretest.DataSSE(chatRole, chatStart("0", "call_1", "write")) +
			wiretest.SSE(wiretest.SSEEvent{Type: "future", Data: args("0", `"{}"`)}) + wiretest.DataSSE(chatFinish, chatDoneData), ErrMalformed, nil},
		{"event: message", wiretest.DataSSE(chatRole) + wiretest.SSE(wiretest.SSEEvent{Type: "message", Data: chatStart("0", "call_1", "write")}), ErrMalformed, nil},
		{"a BOM at the start", "\ufeff" + chatWhole(chatStart("0", "call_1", "write"), args("0", `"{}"`)), sse.ErrAmbiguous, nil},
		{"a lone CR", strings.Replace(chatWhole(chatStart("0", "call_1", "write"), args("0", `"{}"`)), "\n\n", "\r\r", 2), sse.ErrAmbiguous, nil},
		{"error: null (openai-go stops, Python reads on)", chatWhole(chatStart("0", "call_1", "write"), `{"id":"chatcmpl-1","error":null,"choices":[]}`), ErrMalformed, nil},
		{"data that begins as [DONE]", wiretest.DataSSE(chatRole, chatStart("0", "call_1", "write"), "[DONE] and more", args("0", `"{}"`)), ErrMalformed, nil},
		{"a chunk of another stream's id (openai-go drops it)", chatWhole(chatStart("0", "call_1", "write"), args("0", `"{\"path\":\"src/x\"}"`),
			`{"id":"chatcmpl-2","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":" "}}]}}]}`), ErrMalformed, nil},
		{"a chunk without the stream's id", chatWhole(chatStart("0", "call_1", "write"),
			`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{}"}}]}}]}`), ErrMalformed, nil},
		{"a custom type with a function's arguments (openai-go appends them as a function's)", chatWhole(
			chatDelta(`{"tool_calls":[{"index":0,"id":"call_0","type":"custom","function":{"name":"shell","arguments":"{}"}}]}`)), ErrMalformed, nil},
		{"a custom call's input restated as a function's arguments", chatWhole(
			chatDelta(`{"tool_calls":[{"index":0,"id":"call_0","type":"custom","custom":{"name":"shell","input":"ls"}}]}`),
			chatDelta(`{"tool_calls":[{"index":0,"function":{"arguments":"{\"input\":\"rm\"}"}}]}`)), ErrMalformed, nil},
		{"an index far past the calls (openai-go drops the chunk, and the other calls' deltas in it)", chatWhole(chatStart("0", "call_1", "write"),
			chatDelta(`{"tool_calls":[{"index":0,"function":{"arguments":"{\"path\":\"../\"}"}},{"index":500,"function":{"arguments":"{}"}}]}`)), ErrMalformed, nil},
		{"a choice index past 127 (openai-go drops the chunk)", chatWhole(chatStart("0", "call_1", "write"),
			`{"id":"chatcmpl-1","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{}"}}]}},{"index":200,"delta":{}}]}`), ErrMalformed, nil},
		{"an index as a string", chatWhole(chatDelta(`{"tool_calls":[{"index":"0","id":"call_1","type":"function","function":{"name":"write","arguments":"{}"}}]}`)), ErrMalformed, nil},
		{"a negative index (openai-go makes -1 index 0)", chatWhole(chatDelta(`{"tool_calls":[{"index":-1,"id":"call_1","type":"function","function":{"name":"write","arguments":"{}"}}]}`)), ErrMalformed, nil},
		{"invalid UTF-8 (encoding/json makes U+FFFD)", chatWhole(chatStart("0", "call_1", "write"), args("0", "\"{\\\"a\\\":\\\"\xff\\\"}\"")), ErrMalformed, nil},
		{"an event after [DONE] is never read", chatWhole(chatStart("0", "call_1", "write"), args("0", `"{\"path\":\"src/x\"}"`)) + wiretest.DataSSE(args("1", `"{}"`)), nil, ok},
		// Restatements: the SDKs append a second name to the first, and
		// keep the last id (openai-go) or append it (Python).
		{"a delta naming another tool", chatWhole(chatStart("0", "call_1", "write"), args("0", `"{\"path\":\"src/x\"}"`),
			chatDelta(`{"tool_calls":[{"index":0,"function":{"name":"rm"}}]}`)), nil,
			[]wiretest.CallOutcome{{Index: 0, ID: "call_1", Name: "write"}}},
		{"a delta with another id", chatWhole(chatStart("0", "call_1", "write"), args("0", `"{\"path\":\"src/x\"}"`),
			chatDelta(`{"tool_calls":[{"index":0,"id":"call_2"}]}`)), nil,
			[]wiretest.CallOutcome{{Index: 0, ID: "call_1", Name: "write"}}},
		{"a delta after finish_reason (the SDKs append it)", wiretest.DataSSE(chatRole, chatStart("0", "call_1", "write"), args("0", `"{\"path\":\"src/x\"}"`), chatFinish, args("0", `" "`), chatDoneData), nil,
			[]wiretest.CallOutcome{{Index: 0, ID: "call_1", Name: "write"}}},
		// Nothing invented: a bare number the provider cut is truncated.
		{"a bare number cut by finish_reason length", wiretest.DataSSE(chatRole, chatStart("0", "call_1", "write"), args("0", `"12"`),
			`{"id":"chatcmpl-1","choices":[{"index":0,"delta":{},"finish_reason":"length"}]}`, chatDoneData), nil,
			[]wiretest.CallOutcome{{Index: 0, ID: "call_1", Name: "write", Truncated: true}}},
		{"a bare number in a cut stream", wiretest.DataSSE(chatRole, chatStart("0", "call_1", "write"), args("0", `"12"`)), errCut, nil},
		{"a bare number ended by finish_reason tool_calls", chatWhole(chatStart("0", "call_1", "write"), args("0", `"12"`)), nil,
			[]wiretest.CallOutcome{chatOK(0, "call_1", "write", "12")}},
	}
}

// TestChatHostile: the hostile envelopes of Chat Completions.
func TestChatHostile(t *testing.T) {
	for _, tc := range chatHostile() {
		t.Run(tc.name, func(t *testing.T) {
			got := chatRead(t, strings.NewReader(tc.stream), toolcall.New())
			if tc.err == errCut {
				if got.Err == nil || len(got.Calls) != 1 || got.Calls[0].Executable || !got.Calls[0].Truncated {
					t.Errorf("read = %v, %+v, want an error and the call truncated", got.Err, got.Calls)
				}
				return
			}
			checkHostile(t, tc, got.Calls, got.Err)
		})
	}
}

// errCut marks a case whose stream is cut: an error, and calls
// truncated.
var errCut = errors.New("cut")

// responsesHostile are the hostile envelopes of the Responses API, for
// TestResponsesHostile and as seeds of FuzzReadResponses.
func responsesHostile() []hostileCase {
	args := `{"path":"src/x"}`
	call := func(extra ...string) []string {
		return append([]string{responsesAdded(0, "fc_0", "call_0", "write", ""), responsesDelta(0, "fc_0", args)}, extra...)
	}
	whole := func(events ...string) string { return responsesSSE(true, append(events, responsesCompleted)...) }
	ok := []wiretest.CallOutcome{responsesWant(0, "call_0", "write", args)}
	refused := []wiretest.CallOutcome{{Index: 0, ID: "call_0", Name: "write"}}
	return []hostileCase{
		{"the documented stream", whole(call(responsesArgsDoneEvent(0, "fc_0", args), responsesItemDoneEvent(0, "fc_0", "call_0", "write", args))...), nil, ok},
		{"a repeated type (openai-go reads one, others the other)", whole(responsesAdded(0, "fc_0", "call_0", "write", ""),
			`{"type":"response.function_call_arguments.delta","type":"response.output_text.delta","item_id":"fc_0","output_index":0,"delta":"{}"}`), ErrMalformed, nil},
		{"a repeated delta", whole(responsesAdded(0, "fc_0", "call_0", "write", ""),
			`{"type":"response.function_call_arguments.delta","item_id":"fc_0","output_index":0,"delta":"../","delta":"{}"}`), ErrMalformed, nil},
		{"an event named other than its type", responsesSSE(true, responsesAdded(0, "fc_0", "call_0", "write", "")) +
			wiretest.SSE(wiretest.SSEEvent{Type: "response.output_text.delta", Data: responsesDelta(0, "fc_0", args)}), ErrMalformed, nil},
		{"no event name: the type decides", responsesSSE(false, append(call(responsesItemDoneEvent(0, "fc_0", "call_0", "write", args)), responsesCompleted)...), nil, ok},
		{"a delta whose item_id is another call's", whole(responsesAdded(0, "fc_0", "call_0", "write", ""), responsesAdded(1, "fc_1", "call_1", "read", ""),
			responsesDelta(0, "fc_1", args)), ErrMalformed, nil},
		{"output_item.done with null arguments", whole(call(`{"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","id":"fc_0","call_id":"call_0","name":"write","arguments":null}}`)...), ErrMalformed, nil},
		{"output_item.done without arguments", whole(call(`{"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","id":"fc_0","call_id":"call_0","name":"write"}}`)...), ErrMalformed, nil},
		// openai-go ends the stream at any event with an "error" member.
		{"error: null in a delta", whole(responsesAdded(0, "fc_0", "call_0", "write", ""),
			`{"type":"response.function_call_arguments.delta","item_id":"fc_0","output_index":0,"delta":"{}","error":null}`), ErrMalformed, nil},
		{"error: null in an event the reader ignores", whole(`{"type":"response.in_progress","error":null}`, responsesAdded(0, "fc_0", "call_0", "write", "")), ErrMalformed, nil},
		// A reader that files deltas by item_id would lose or misplace these.
		{"a delta with a null item_id", whole(responsesAdded(0, "fc_0", "call_0", "write", ""),
			`{"type":"response.function_call_arguments.delta","item_id":null,"output_index":0,"delta":"{}"}`), ErrMalformed, nil},
		{"a delta without item_id", whole(responsesAdded(0, "fc_0", "call_0", "write", ""),
			`{"type":"response.function_call_arguments.delta","output_index":0,"delta":"{}"}`), ErrMalformed, nil},
		{"arguments for an output_index that is no call", whole(responsesMessageAdded(0), responsesDelta(0, "msg_0", args)), ErrMalformed, nil},
		{"a second output_item.added at an index", whole(call(responsesAdded(0, "fc_1", "call_1", "rm", ""))...), ErrMalformed, nil},
		{"function_call_arguments.done with other arguments", whole(call(responsesArgsDoneEvent(0, "fc_0", `{"path":"/etc/passwd"}`))...), nil, refused},
		{"output_item.done with other arguments", whole(call(responsesItemDoneEvent(0, "fc_0", "call_0", "write", `{"path":"/etc/passwd"}`))...), nil, refused},
		{"output_item.done under another name", whole(call(responsesItemDoneEvent(0, "fc_0", "call_0", "rm", args))...), nil, refused},
		{"output_item.done with another call_id", whole(call(responsesItemDoneEvent(0, "fc_0", "call_9", "write", args))...), nil, refused},
		{"response.completed with other arguments", responsesSSE(true, append(call(responsesItemDoneEvent(0, "fc_0", "call_0", "write", args)),
			withOutput(responsesCompleted, call(responsesItemDoneEvent(0, "fc_0", "call_0", "write", `{"path":"/etc/passwd"}`))))...), nil, refused},
		{"response.completed without the call", responsesSSE(true, append(call(responsesItemDoneEvent(0, "fc_0", "call_0", "write", args)),
			`{"type":"response.completed","response":{"id":"resp_1","status":"completed","output":[]}}`)...), ErrMalformed, nil},
		{"a call after response.completed (the SDKs read on)", whole(call(responsesItemDoneEvent(0, "fc_0", "call_0", "write", args))...) +
			responsesSSE(true, responsesAdded(1, "fc_1", "call_1", "rm", `{}`)), ErrMalformed, nil},
		{"data that begins as [DONE]", responsesSSE(true, call()...) + wiretest.DataSSE("[DONE]x"), ErrMalformed, nil},
		{"a custom item type is not a call (to come: custom tools)", whole(`{"type":"response.output_item.added","output_index":0,"item":{"type":"reasoning","id":"rs_0","summary":[]}}`), nil, nil},
		{"an mcp_call: OpenAI runs it", whole(`{"type":"response.output_item.added","output_index":0,"item":{"type":"mcp_call","id":"mcp_0","name":"ask","arguments":"","server_label":"x"}}`,
			`{"type":"response.mcp_call_arguments.delta","item_id":"mcp_0","output_index":0,"delta":"{}"}`,
			`{"type":"response.output_item.done","output_index":0,"item":{"type":"mcp_call","id":"mcp_0","name":"ask","arguments":"{}","server_label":"x"}}`), nil,
			[]wiretest.CallOutcome{{Index: 0, ID: "mcp_0", Name: "ask", Arguments: "{}", Server: true}}},
		// Nothing invented: a bare number of an incomplete response.
		{"a bare number in response.incomplete", responsesSSE(true, responsesAdded(0, "fc_0", "call_0", "write", ""), responsesDelta(0, "fc_0", "12"),
			withOutput(`{"type":"response.incomplete","response":{"id":"resp_1","status":"incomplete"}}`, []string{responsesAdded(0, "fc_0", "call_0", "write", ""), responsesDelta(0, "fc_0", "12")})), nil,
			[]wiretest.CallOutcome{{Index: 0, ID: "call_0", Name: "write", Truncated: true}}},
	}
}

// TestResponsesHostile: the hostile envelopes of the Responses API.
func TestResponsesHostile(t *testing.T) {
	for _, tc := range responsesHostile() {
		t.Run(tc.name, func(t *testing.T) {
			got, err := responsesRead(tc.stream)
			checkHostile(t, tc, got, err)
		})
	}
}

// TestChatTooManyCalls: a response of more calls than the Response takes
// ends with toolcall.ErrTooManyCalls, not with memory without bound.
func TestChatTooManyCalls(t *testing.T) {
	var chunks []string
	for i := range toolcall.DefaultMaxCalls + 1 {
		chunks = append(chunks, chatDelta(fmt.Sprintf(`{"tool_calls":[{"index":%d,"id":"c","function":{"name":"f","arguments":"{}"}}]}`, i)))
	}
	got := chatRead(t, strings.NewReader(chatWhole(chunks...)), toolcall.New())
	if !errors.Is(got.Err, toolcall.ErrTooManyCalls) || len(got.Calls) != toolcall.DefaultMaxCalls {
		t.Errorf("ReadChat = %v, %d calls, want ErrTooManyCalls and %d", got.Err, len(got.Calls), toolcall.DefaultMaxCalls)
	}
}

// TestEventCalls: each event says which calls it concerned.
func TestEventCalls(t *testing.T) {
	collect := func(stream string, event func(sse.Event) error, calls func() []int64) []string {
		rd := sse.NewReader(strings.NewReader(stream))
		var got []string
		for rd.Next() {
			if err := event(rd.Event()); err != nil {
				t.Fatal(err)
			}
			got = append(got, fmt.Sprint(calls()))
		}
		return got
	}
	chat := NewChatReader(toolcall.New())
	got := collect(wiretest.DataSSE(chatRole, chatStart("0", "call_0", "f"), chatDelta(`{"content":"x"}`),
		chatDelta(`{"tool_calls":[{"index":1,"id":"call_1","function":{"name":"g","arguments":"{}"}},{"index":0,"function":{"arguments":"{}"}}]}`), chatFinish), chat.Event, chat.EventCalls)
	if diff := gocmp.Diff([]string{"[]", "[0]", "[]", "[1 0]", "[0 1]"}, got); diff != "" {
		t.Errorf("chat (-want +got):\n%s", diff)
	}
	resp := NewResponsesReader(toolcall.New())
	got = collect(responsesSSE(true, append([]string{responsesMessageAdded(0)}, append(responsesCall1(`{"a":1}`), responsesCompleted)...)...), resp.Event, resp.EventCalls)
	if diff := gocmp.Diff([]string{"[]", "[1]", "[1]", "[1]", "[1]", "[1]"}, got); diff != "" {
		t.Errorf("responses (-want +got):\n%s", diff)
	}
}

// TestReadEventsReused: a ChatReader or ResponsesReader and its SSE reader
// kept from stream to stream with Reset read each stream as ReadChat or
// ReadResponses does, through recordings and hostile streams one after
// the other.
func TestReadEventsReused(t *testing.T) {
	var chat, responses [][]byte
	for _, rec := range chatRecordings {
		chat = append(chat, chatRecording(t, rec.file, rec.chunks))
	}
	for _, tc := range chatHostile() {
		chat = append(chat, []byte(tc.stream))
	}
	chatAdapter.CheckReadEvents(t, NewChatReader(toolcall.New()), chat)
	for _, rec := range responsesRecordings {
		responses = append(responses, responsesParts(t, readRecording(t, rec.file), rec.chunks)...)
	}
	for _, tc := range responsesHostile() {
		responses = append(responses, []byte(tc.stream))
	}
	responsesAdapter.CheckReadEvents(t, NewResponsesReader(toolcall.New()), responses)
}
