package openaistream

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/argstream/argstream/internal/testutil/wiretest"
	"github.com/argstream/argstream/token"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire"
	"github.com/argstream/argstream/wire/internal/adapter"
	"github.com/argstream/argstream/wire/sse"
	gocmp "github.com/google/go-cmp/cmp"
)

// chatDelta is a chunk whose choice 0 has delta.
func chatDelta(delta string) string {
	return `{"id":"chatcmpl-1","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":` + delta + `,"logprobs":null,"finish_reason":null}]}`
}

// chatArgs is a chunk with one tool_calls element of index i: its
// arguments only.
func chatArgs(i, args string) string {
	return chatDelta(`{"tool_calls":[{"index":` + i + `,"function":{"arguments":` + args + `}}]}`)
}

// chatStart is a chunk that starts call i.
func chatStart(i, id, name string) string {
	return chatDelta(`{"tool_calls":[{"index":` + i + `,"id":"` + id + `","type":"function","function":{"name":"` + name + `","arguments":""}}]}`)
}

const (
	chatRole     = `{"id":"chatcmpl-1","choices":[{"index":0,"delta":{"role":"assistant","content":null,"refusal":null},"finish_reason":null}]}`
	chatFinish   = `{"id":"chatcmpl-1","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`
	chatUsage    = `{"id":"chatcmpl-1","choices":[],"usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}}`
	chatDoneData = `[DONE]`
)

// chatWhole wraps the chunks of a stream between the role chunk and the
// finish_reason, usage and [DONE].
func chatWhole(chunks ...string) string {
	return wiretest.DataSSE(append(append([]string{chatRole}, chunks...), chatFinish, chatUsage, chatDoneData)...)
}

func chatOK(index int64, id, name, args string) wiretest.CallOutcome {
	return wiretest.CallOutcome{Index: index, ID: id, Name: name, Arguments: args, Executable: true}
}

// TestChatShapes: the shapes of tool_calls that servers send.
func TestChatShapes(t *testing.T) {
	for _, tc := range []struct {
		name   string
		stream string
		want   []wiretest.CallOutcome
	}{
		{"empty deltas", chatWhole(chatStart("0", "call_1", "f"), chatArgs("0", `""`), chatArgs("0", `"{\"a\":"`), chatArgs("0", `""`), chatArgs("0", `"1}"`)),
			[]wiretest.CallOutcome{chatOK(0, "call_1", "f", `{"a":1}`)}},
		{"keys and escapes split", chatWhole(chatStart("0", "call_1", "f"), chatArgs("0", `"{\"lo"`), chatArgs("0", `"cation\": \"Pa\\"`), chatArgs("0", `"u00e9\\n\"}"`)),
			[]wiretest.CallOutcome{chatOK(0, "call_1", "f", `{"location":"Paé\n"}`)}},
		{"whole in one element", chatWhole(chatDelta(`{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"f","arguments":"{\"a\": [1, 2]}"}}]}`)),
			[]wiretest.CallOutcome{chatOK(0, "call_1", "f", `{"a":[1,2]}`)}},
		{"index last, nulls", chatWhole(chatDelta(`{"tool_calls":[{"id":"call_1","type":null,"function":{"name":"f","arguments":null},"index":0}]}`), chatDelta(`{"tool_calls":[{"id":null,"function":{"name":null,"arguments":"{}"},"index":0}]}`)),
			[]wiretest.CallOutcome{chatOK(0, "call_1", "f", `{}`)}},
		{"the id in every delta", chatWhole(
			chatDelta(`{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"f","arguments":"{\"a\""}}]}`),
			chatDelta(`{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"arguments":":1}"}}]}`)),
			[]wiretest.CallOutcome{chatOK(0, "call_1", "f", `{"a":1}`)}},
		// openai-go and the Python SDK append a name that comes again to
		// the first ("ff"), the JavaScript SDK takes it: refused.
		{"the name again", chatWhole(
			chatDelta(`{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"f","arguments":"{\"a\""}}]}`),
			chatDelta(`{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"f","arguments":":1}"}}]}`)),
			[]wiretest.CallOutcome{{Index: 0, ID: "call_1", Name: "f"}}},
		{"another id", chatWhole(
			chatDelta(`{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"f","arguments":"{\"a\":1}"}}]}`),
			chatDelta(`{"tool_calls":[{"index":0,"id":"call_2","type":"function","function":{"arguments":""}}]}`)),
			[]wiretest.CallOutcome{{Index: 0, ID: "call_1", Name: "f"}}},
		{"name and id later, empty ones ignored", chatWhole(chatArgs("0", `"{\"a\""`), chatDelta(`{"tool_calls":[{"index":0,"id":"","function":{"name":"f","arguments":":"}}]}`), chatDelta(`{"tool_calls":[{"index":0,"id":"call_1","function":{"name":"","arguments":"2}"}}]}`)),
			// The name came after the arguments began: with no policy, the
			// call is executable.
			[]wiretest.CallOutcome{chatOK(0, "call_1", "f", `{"a":2}`)}},
		{"parallel calls in one chunk, from 1", chatWhole(
			chatDelta(`{"tool_calls":[{"index":1,"id":"call_1","type":"function","function":{"name":"f","arguments":""}},{"index":2,"id":"call_2","type":"function","function":{"name":"g","arguments":"{\"b\":"}}]}`),
			chatDelta(`{"tool_calls":[{"index":2,"function":{"arguments":"true}"}},{"index":1,"function":{"arguments":"{\"a\":null}"}}]}`)),
			[]wiretest.CallOutcome{chatOK(1, "call_1", "f", `{"a":null}`), chatOK(2, "call_2", "g", `{"b":true}`)}},
		{"no arguments", chatWhole(chatStart("0", "call_1", "f")),
			[]wiretest.CallOutcome{{Index: 0, ID: "call_1", Name: "f", Truncated: true}}},
		{"no name", chatWhole(chatArgs("0", `"{}"`)),
			[]wiretest.CallOutcome{{Index: 0, Arguments: "{}"}}},
		{"bad JSON of one call only", chatWhole(chatStart("0", "call_0", "f"), chatStart("1", "call_1", "g"), chatArgs("0", `"{\"a\":}"`), chatArgs("1", `"{\"b\":1}"`)),
			[]wiretest.CallOutcome{{Index: 0, ID: "call_0", Name: "f", Syntax: true}, chatOK(1, "call_1", "g", `{"b":1}`)}},
		{"text only", chatWhole(chatDelta(`{"content":"hi"}`)), nil},
		// Mistral's API: each call whole in one element, without an index;
		// a new id is a new call, at the next index.
		{"whole calls without an index", chatWhole(
			chatDelta(`{"tool_calls":[{"id":"D681PevKs","function":{"name":"f","arguments":"{\"a\": 1}"}}]}`),
			chatDelta(`{"tool_calls":[{"id":"z6BAwXKaG","type":"function","function":{"name":"g","arguments":"{\"b\": [true]}"}},{"id":"x0","function":{"name":"h","arguments":""}}]}`)),
			[]wiretest.CallOutcome{chatOK(0, "D681PevKs", "f", `{"a":1}`), chatOK(1, "z6BAwXKaG", "g", `{"b":[true]}`), {Index: 2, ID: "x0", Name: "h", Truncated: true}}},
		// Gemini's OpenAI-compatible endpoint (by users' reports): later pieces of
		// a call's arguments without an index either, with its id or none;
		// a new id and name start the next call.
		{"calls without an index, continued", chatWhole(
			chatDelta(`{"tool_calls":[{"id":"function-call-1","type":"function","function":{"name":"get_weather","arguments":"{\"location\":"}}]}`),
			chatDelta(`{"tool_calls":[{"function":{"arguments":"\"Sydney\"}"}}]}`),
			chatDelta(`{"tool_calls":[{"id":"function-call-2","function":{"name":"get_time","arguments":""}},{"id":"function-call-2","type":"function","function":{"arguments":"{\"tz\""}}]}`),
			chatDelta(`{"tool_calls":[{"id":"","function":{"name":"","arguments":": \"CET\"}"}}]}`)),
			[]wiretest.CallOutcome{chatOK(0, "function-call-1", "get_weather", `{"location":"Sydney"}`), chatOK(1, "function-call-2", "get_time", `{"tz":"CET"}`)}},
		{"a call without an index after one with", chatWhole(
			chatStart("0", "call_0", "f"), chatArgs("0", `"{}"`),
			chatDelta(`{"tool_calls":[{"id":"call_1","function":{"name":"g","arguments":"{\"b\":"}}]}`)),
			// Whole when it comes: its arguments cut are truncated.
			[]wiretest.CallOutcome{chatOK(0, "call_0", "f", `{}`), {Index: 1, ID: "call_1", Name: "g", Truncated: true}}},
		// A custom tool's free text streams as {"input":TEXT}, closed by
		// the finish_reason.
		{"a custom tool's call", chatWhole(
			chatDelta(`{"tool_calls":[{"index":0,"id":"call_0","type":"custom","custom":{"name":"apply_patch","input":""}}]}`),
			chatDelta(`{"tool_calls":[{"index":0,"custom":{"input":"*** Begin Patch\n\"a\"\t"}}]}`),
			chatDelta(`{"tool_calls":[{"index":0,"type":"custom","custom":{"input":"\u00e9 <\/x>"}}]}`)),
			[]wiretest.CallOutcome{chatOK(0, "call_0", "apply_patch", `{"input":"*** Begin Patch\n\"a\"\té </x>"}`)}},
		{"a custom call by its object alone, beside a function's", chatWhole(
			chatStart("0", "call_0", "f"),
			chatDelta(`{"tool_calls":[{"index":1,"id":"call_1","custom":{"name":"shell","input":"ls"}},{"index":0,"function":{"arguments":"{}"}}]}`),
			chatDelta(`{"tool_calls":[{"index":1,"custom":{"name":null,"input":null},"function":null}]}`)),
			[]wiretest.CallOutcome{chatOK(0, "call_0", "f", `{}`), chatOK(1, "call_1", "shell", `{"input":"ls"}`)}},
		{"a custom call whole without an index", chatWhole(
			chatDelta(`{"tool_calls":[{"id":"c9","type":"custom","custom":{"name":"shell","input":"a\u0000b"}}]}`)),
			[]wiretest.CallOutcome{chatOK(0, "c9", "shell", `{"input":"a\u0000b"}`)}},
		{"a custom call with no input", chatWhole(
			chatDelta(`{"tool_calls":[{"index":0,"id":"c","type":"custom","custom":{"name":"now"}}]}`)),
			[]wiretest.CallOutcome{chatOK(0, "c", "now", `{"input":""}`)}},
	} {
		got := chatRead(t, strings.NewReader(tc.stream), toolcall.New())
		if got.Err != nil {
			t.Errorf("%s: ReadChat = %v", tc.name, got.Err)
		}
		if diff := gocmp.Diff(tc.want, got.Calls); diff != "" {
			t.Errorf("%s: (-want +got):\n%s", tc.name, diff)
		}
	}
}

// TestChatCustom: a custom tool's call reads the same whatever the reads,
// a call of the other kind after it fails the stream, and the reader
// says one came (a gateway must not forward it: the SDKs do not read its
// input as the reader does).
func TestChatCustom(t *testing.T) {
	custom := chatDelta(`{"tool_calls":[{"index":1,"id":"call_1","type":"custom","custom":{"name":"shell","input":"rm \"-rf\"\n/"}}]}`)
	stream := chatWhole(chatStart("0", "call_0", "f"), chatArgs("0", `"{}"`), custom,
		chatDelta(`{"tool_calls":[{"index":1,"custom":{"input":" é"}}]}`))
	chatAdapter.CheckSplits(t, "custom", []byte(stream), func(rd io.Reader) wiretest.Got {
		return chatAdapter.Run(toolcall.New(), rd)
	})
	r := NewChatReader(toolcall.New())
	rd := sse.NewReader(strings.NewReader(stream))
	var before []bool
	for rd.Next() {
		if err := r.Event(rd.Event()); err != nil {
			t.Fatal(err)
		}
		before = append(before, r.Custom())
	}
	if want := []bool{false, false, false, true, true, true, true, true}; !slices.Equal(before, want) {
		t.Errorf("Custom after each event = %v, want %v", before, want)
	}
	r.Reset(toolcall.New())
	if r.Custom() {
		t.Error("Custom after Reset")
	}

	// The call is the custom tool's: a function's arguments for it fail
	// the stream, and leave what came unchanged.
	resp := toolcall.New()
	err := ReadChat(context.Background(), strings.NewReader(chatWhole(custom, chatArgs("1", `"{}"`))), resp)
	if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "a function's tool_calls element for call 1, a custom tool's") {
		t.Errorf("a function's arguments for a custom call: %v", err)
	}
}

// TestChatIndexless: calls without an index are read the same whatever
// the reads, and the reader says they came (a gateway must not forward
// them: the SDKs file them otherwise). A new call ends the one before: its
// arguments cut short fail there, not at the finish_reason.
func TestChatIndexless(t *testing.T) {
	stream := chatWhole(chatDelta(`{"tool_calls":[{"id":"D681PevKs","function":{"name":"f","arguments":"{\"a\": \"\\u00e9\"}"}}]}`),
		chatDelta(`{"tool_calls":[{"id":"x1","function":{"name":"g","arguments":"[1,"}}]}`), chatDelta(`{"tool_calls":[{"function":{"arguments":"2]"}}]}`))
	chatAdapter.CheckSplits(t, "indexless", []byte(stream), func(rd io.Reader) wiretest.Got {
		return chatAdapter.Run(toolcall.New(), rd)
	})
	r := NewChatReader(toolcall.New())
	rd := sse.NewReader(strings.NewReader(stream))
	var before bool
	for n := 0; rd.Next(); n++ {
		if err := r.Event(rd.Event()); err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			before = r.Indexless()
		}
	}
	if before || !r.Indexless() {
		t.Errorf("Indexless: %v after the first chunk, %v at the end; want false, true", before, r.Indexless())
	}

	resp := toolcall.New()
	r = NewChatReader(resp)
	for k, data := range []string{
		chatDelta(`{"tool_calls":[{"id":"a","function":{"name":"f","arguments":"{\"x\":"}}]}`),
		chatDelta(`{"tool_calls":[{"function":{"arguments":"[1"}}]}`),
		chatDelta(`{"tool_calls":[{"id":"b","function":{"name":"g","arguments":"{"}}]}`),
	} {
		if err := r.Event(sse.Event{Data: []byte(data)}); err != nil {
			t.Fatal(err)
		}
		if cut := resp.Err(0) != nil; cut != (k == 2) {
			t.Errorf("after chunk %d: Err(0) = %v", k, resp.Err(0))
		}
	}
	if err := resp.Err(1); err != nil {
		t.Errorf("Err(1) = %v, want nil: the call goes on", err)
	}
}

func TestChatText(t *testing.T) {
	stream := chatWhole(
		chatDelta(`{"content":"","reasoning_content":"Let me "}`),
		chatDelta(`{"content":null,"reasoning_content":null,"reasoning":"think."}`),
		// vLLM: both names, the same text.
		chatDelta(`{"reasoning":" Twice","reasoning_content":" Twice"}`),
		// A gateway's reasoning object.
		chatDelta(`{"reasoning_content":{"text":"!","signature":"x"}}`),
		chatDelta(`{"content":"caf\u00e9 \"1\"\n","reasoning":""}`),
		chatDelta(`{"refusal":"I can't.","content":"Sorry: "}`),
	)
	var got []string
	err := ReadChat(context.Background(), strings.NewReader(stream), toolcall.New(),
		wire.OnThinking(func(i int64, b []byte) { got = append(got, "thinking "+string(b)) }),
		wire.OnText(func(i int64, b []byte) { got = append(got, "text "+string(b)) }))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"thinking Let me ", "thinking think.", "thinking  Twice", "thinking !", "text café \"1\"\n", "text Sorry: ", "text I can't."}
	if diff := gocmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}

	// Without callbacks, the text is read and dropped.
	if err := ReadChat(context.Background(), strings.NewReader(stream), toolcall.New()); err != nil {
		t.Errorf("ReadChat without callbacks = %v", err)
	}
}

func TestChatProviderError(t *testing.T) {
	start := wiretest.DataSSE(chatRole, chatStart("0", "call_1", "f"), chatArgs("0", `"{\"a\":"`))
	// An event named error whose data has no "error" member the SDKs read
	// as a chunk, and read on: refused.
	if err := ReadChat(context.Background(), strings.NewReader(start+wiretest.SSE(wiretest.SSEEvent{Type: "error", Data: `{"message":"m","type":"t","code":500,"param":null}`})), toolcall.New()); !errors.Is(err, ErrMalformed) {
		t.Errorf("an error event with no error member: %v, want ErrMalformed", err)
	}
	for _, tc := range []struct {
		name, stream string
		want         wire.ProviderError
		text         string // its Error()
	}{
		{"OpenAI", start + wiretest.DataSSE(`{"error":{"message":"The server had an error","type":"server_error","param":null,"code":null}}`),
			wire.ProviderError{Wire: wire.OpenAIChat, Type: "server_error", Message: "The server had an error"}, "openai: error event: server_error: The server had an error"},
		{"numeric code", start + wiretest.DataSSE(`{"error":{"object":"error","message":"Rate limited","type":"BadRequestError","param":"model","code":429,"metadata":{"raw":"x"}}}`),
			wire.ProviderError{Wire: wire.OpenAIChat, Type: "BadRequestError", Code: "429", Message: "Rate limited", Param: "model"}, "openai: error event: BadRequestError: 429: Rate limited"},
		{"string code, no type", start + wiretest.DataSSE(`{"error":{"message":"m","code":"context_length_exceeded"}}`),
			wire.ProviderError{Wire: wire.OpenAIChat, Code: "context_length_exceeded", Message: "m"}, "openai: error event: context_length_exceeded: m"},
		{"string error", start + wiretest.DataSSE(`{"error":"boom"}`), wire.ProviderError{Wire: wire.OpenAIChat, Message: "boom"}, "openai: error event: boom"},
		{"error with a chunk's choices", start + wiretest.DataSSE(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"1}"}}]}}],"error":{"message":"m"}}`),
			wire.ProviderError{Wire: wire.OpenAIChat, Message: "m"}, "openai: error event: m"},
		{"error event, error object", start + wiretest.SSE(wiretest.SSEEvent{Type: "error", Data: `{"message":"outer","error":{"message":"inner","type":"t"},"type":"outer"}`}),
			wire.ProviderError{Wire: wire.OpenAIChat, Type: "t", Message: "inner"}, "openai: error event: t: inner"},
		{"error event, not JSON", start + wiretest.SSE(wiretest.SSEEvent{Type: "error", Data: "upstream failed"}), wire.ProviderError{Wire: wire.OpenAIChat, Message: "upstream failed"}, "openai: error event: upstream failed"},
	} {
		resp := toolcall.New()
		err := ReadChat(context.Background(), strings.NewReader(tc.stream), resp)
		var pe *wire.ProviderError
		if !errors.As(err, &pe) {
			t.Errorf("%s: ReadChat = %v, want a *wire.ProviderError", tc.name, err)
			continue
		}
		if *pe != tc.want || pe.Error() != tc.text {
			t.Errorf("%s: %#v %q, want %#v %q", tc.name, *pe, pe.Error(), tc.want, tc.text)
		}
		res := resp.End()
		if len(res) != 1 || res[0].Executable || !errors.Is(res[0].Err, token.ErrTruncated) {
			t.Errorf("%s: results %+v, want the call truncated", tc.name, res)
		}
	}

	// "error": null is an error to openai-go (any "error" member is),
	// and none to the Python SDK: refused.
	stream := chatWhole(`{"id":"chatcmpl-1","choices":[],"error":null}`)
	if err := ReadChat(context.Background(), strings.NewReader(stream), toolcall.New()); !errors.Is(err, ErrMalformed) {
		t.Errorf("error null: ReadChat = %v, want ErrMalformed", err)
	}
}

func TestChatMalformed(t *testing.T) {
	for _, tc := range []struct {
		data string
		msg  string // in the error's message
	}{
		{``, ``},
		{`not json`, ``},
		{`[1]`, `not a JSON object`},
		{`{"choices":[]} {}`, `bytes after`},
		{`{"choices":[{"index":0,"delta":{}}]`, ``},
		{`{"choices":{}}`, `/choices is not an array`},
		{`{"choices":[{"index":-1,"delta":{}}]}`, `/choices/0/index is -1`},
		{`{"choices":[{"index":"0","delta":{}}]}`, `/choices/0/index`},
		{`{"choices":[{"index":0,"delta":[]}]}`, `/choices/0/delta is not an object`},
		{`{"choices":[{"index":0,"delta":{"content":5}}]}`, `/choices/0/delta/content is not a string`},
		{`{"choices":[{"index":0,"delta":{"reasoning_content":[]}}]}`, `reasoning_content is not a string`},
		{`{"choices":[{"index":0,"delta":{},"finish_reason":1}]}`, `finish_reason is not a string`},
		{`{"choices":[{"index":0,"delta":{"tool_calls":{}}}]}`, `tool_calls is not an array`},
		{`{"id":"chatcmpl-1","choices":[{"index":0,"delta":{"tool_calls":[{"function":{"name":"f","arguments":""}}]}}]}`, `without an index, and without the id and name of a new call`},
		{`{"id":"chatcmpl-1","choices":[{"index":0,"delta":{"tool_calls":[{"id":"call_1","function":{"arguments":"{}"}}]}}]}`, `without an index, and without the id and name of a new call`},
		{`{"id":"chatcmpl-1","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{}"}},{"function":{"arguments":"{}"}}]}}]}`, `without an index, and without the id and name of a new call`},
		{`{"id":"chatcmpl-1","choices":[{"index":0,"delta":{"tool_calls":[{"id":"call_1","function":{"name":"f","arguments":"{}"}},{"index":0,"function":{"arguments":"{}"}}]}}]}`, `at index 0, the call stated without an index`},
		// An element with an index ends the call without one: a piece
		// without either after it is no call's.
		{`{"id":"chatcmpl-1","choices":[{"index":0,"delta":{"tool_calls":[{"id":"call_1","function":{"name":"f","arguments":"{"}},{"index":1,"id":"call_2","function":{"name":"g","arguments":"{}"}},{"function":{"arguments":"}"}}]}}]}`, `without an index, and without the id and name of a new call`},
		// A piece with another call's id, or with a name, is no piece of
		// the open call's.
		{`{"id":"chatcmpl-1","choices":[{"index":0,"delta":{"tool_calls":[{"id":"call_1","function":{"name":"f","arguments":"{"}},{"id":"call_9","function":{"arguments":"}"}}]}}]}`, `without an index, and without the id and name of a new call`},
		{`{"id":"chatcmpl-1","choices":[{"index":0,"delta":{"tool_calls":[{"id":"call_1","function":{"name":"f","arguments":"{}"}},{"id":"call_1","function":{"name":"g","arguments":"{}"}}]}}]}`, `of call "call_1", which has come`},
		{`{"id":"chatcmpl-1","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","function":{"name":"f","arguments":"{}"}},{"id":"call_1","function":{"name":"g","arguments":"{}"}}]}}]}`, `of call "call_1", which has come`},
		{`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":-1,"function":{"arguments":"{}"}}]}}]}`, `tool_calls/0/index is -1, not an integer from 0`},
		{`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":1.0,"function":{"arguments":"{}"}}]}}]}`, `tool_calls/0/index is 1.0`},
		{`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":null,"function":{"arguments":"{}"}}]}}]}`, `tool_calls/0/index is null`},
		{`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":5}}]}}]}`, `arguments is not a string`},
		{`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":{"a":1}}}]}}]}`, `arguments is not a string`},
		{`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":7,"function":{"arguments":"{}"}}]}}]}`, `id is not a string`},
		{`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":"f"}]}}]}`, `function is not an object`},
		{`{"id":"chatcmpl-1","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"custom":"f"}]}}]}`, `custom is not an object`},
		{`{"id":"chatcmpl-1","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"custom":{"input":1}}]}}]}`, `input is not a string`},
		{`{"id":"chatcmpl-1","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"type":"shell","function":{"arguments":"{}"}}]}}]}`, `a tool call of type "shell"`},
		{`{"id":"chatcmpl-1","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"type":"custom","function":{"name":"f","arguments":""}}]}}]}`, `of type "custom" with a function's name or arguments`},
		{`{"id":"chatcmpl-1","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"type":"function","custom":{"name":"f"}}]}}]}`, `of type "function" with a function's name or arguments, or a custom object`},
		{`{"id":"chatcmpl-1","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{},"custom":{}}]}}]}`, `both a function and a custom object`},
		{`{"id":"chatcmpl-1","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"custom":{"name":"f"}},{"index":0,"function":{"arguments":"{}"}}]}}]}`, `a function's tool_calls element for call 0, a custom tool's`},
		{`{"id":"chatcmpl-1","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"type":"function"},{"index":0,"custom":{"input":"x"}}]}}]}`, `a custom tool's tool_calls element for call 0, a function's`},
		{`{"choices":[{"index":0,"delta":{}},{"delta":{"content":"x"}}]}`, `/choices/1 is choice 0 again`},
		{`{"error":5}`, `/error is not an object`},
		{`{"choices":[{"index":0,"delta":{"content":"\ud800"}}]}`, ``},
	} {
		// A valid event first, for the malformed one's number: 2. The calls
		// of a malformed chunk are not started.
		stream := wiretest.DataSSE(chatRole, tc.data)
		resp := toolcall.New()
		err := ReadChat(context.Background(), strings.NewReader(stream), resp)
		if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "event 2: ") || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: ReadChat = %v, want ErrMalformed at event 2: ...%s", tc.data, err, tc.msg)
		}
		if res := resp.End(); len(res) != 0 {
			t.Errorf("%s: results %+v, want none", tc.data, res)
		}
	}
}

// chatTwoChoices is a response of n = 2: choice 0 calls f, choice 1 calls g
// and says more; the choices finish at different chunks.
var chatTwoChoices = wiretest.DataSSE(
	`{"choices":[{"index":0,"delta":{"role":"assistant","content":"A"}},{"index":1,"delta":{"role":"assistant","content":"B"}}]}`,
	`{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"f","arguments":"{\"x\":0}"}}]},"index":0}]}`,
	`{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"call_b","type":"function","function":{"name":"g","arguments":"{\"y\":"}}]},"index":1}]}`,
	`{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"},{"index":1,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"1}"}}],"content":"b"}}]}`,
	`{"choices":[{"index":1,"delta":{},"finish_reason":"tool_calls"}]}`,
)

func TestChatChoice(t *testing.T) {
	for _, tc := range []struct {
		opts []wire.Option
		want []wiretest.CallOutcome
		text string
	}{
		{nil, []wiretest.CallOutcome{chatOK(0, "call_a", "f", `{"x":0}`)}, "A"},
		{[]wire.Option{wire.WithChoice(1)}, []wiretest.CallOutcome{chatOK(0, "call_b", "g", `{"y":1}`)}, "Bb"},
		{[]wire.Option{wire.WithChoice(2)}, nil, ""},
	} {
		choice := adapter.NewConfig(tc.opts).Choice
		got := chatRead(t, strings.NewReader(chatTwoChoices+wiretest.DataSSE(chatDoneData)), toolcall.New(), tc.opts...)
		if got.Err != nil || got.Text[choice] != tc.text {
			t.Errorf("choice %d: ReadChat = %v, text %q; want nil, %q", choice, got.Err, got.Text[choice], tc.text)
		}
		if diff := gocmp.Diff(tc.want, got.Calls); diff != "" {
			t.Errorf("choice %d: (-want +got):\n%s", choice, diff)
		}
	}

	// Without [DONE], the chosen choice's finish_reason completes the
	// stream: cut before the last chunk, choice 0 has finished, choice 1
	// has not.
	cut := chatTwoChoices[:strings.LastIndex(chatTwoChoices, "data:")]
	for _, tc := range []struct {
		choice   int64
		complete bool
	}{{0, true}, {1, false}} {
		got := chatRead(t, strings.NewReader(cut), toolcall.New(), wire.WithChoice(tc.choice))
		if (got.Err == nil) != tc.complete || got.Err != nil && !errors.Is(got.Err, io.ErrUnexpectedEOF) {
			t.Errorf("choice %d, no [DONE]: ReadChat = %v, want complete %v", tc.choice, got.Err, tc.complete)
		}
	}
}

// TestChatOtherCalls: OtherCalls says, from the event that brings them
// on, that calls came in a choice the reader does not read.
func TestChatOtherCalls(t *testing.T) {
	for _, tc := range []struct {
		choice int64
		want   []bool // after each event
	}{
		{0, []bool{false, false, true, true, true}},
		{1, []bool{false, true, true, true, true}},
		{2, []bool{false, true, true, true, true}},
	} {
		r := NewChatReader(toolcall.New(), wire.WithChoice(tc.choice))
		rd := sse.NewReader(strings.NewReader(chatTwoChoices))
		var got []bool
		for rd.Next() {
			if err := r.Event(rd.Event()); err != nil {
				t.Fatal(err)
			}
			got = append(got, r.OtherCalls())
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("choice %d: OtherCalls after each event = %v, want %v", tc.choice, got, tc.want)
		}
		if r.Reset(toolcall.New()); r.OtherCalls() {
			t.Errorf("choice %d: OtherCalls after Reset", tc.choice)
		}
	}
}

func TestChatEnds(t *testing.T) {
	body := wiretest.DataSSE(chatRole, chatStart("0", "call_1", "f"), chatArgs("0", `"{\"a\":1}"`))
	for _, tc := range []struct {
		name, stream  string
		complete      bool
		truncated     bool // wraps sse.ErrTruncated
		callsComplete bool
	}{
		{"clean end, no finish_reason", body, false, false, true},
		{"finish_reason, usage, clean end", body + wiretest.DataSSE(chatFinish, chatUsage), true, false, true},
		// After the finish_reason, an event cut off is dropped, as the
		// SDKs' readers drop it.
		{"finish_reason, cut in an event", body + wiretest.DataSSE(chatFinish) + "data: {\"choices\":", true, false, true},
		{"no final blank line after [DONE]", body + wiretest.DataSSE(chatFinish) + "data: [DONE]\n", true, false, true},
		{"empty finish_reason", body + wiretest.DataSSE(`{"id":"chatcmpl-1","choices":[{"index":0,"delta":{},"finish_reason":""}]}`), false, false, true},
		{"cut in the arguments", wiretest.DataSSE(chatRole, chatStart("0", "call_1", "f"), chatArgs("0", `"{\"a\":"`)), false, false, false},
		{"[DONE] with the event field", body + wiretest.SSE(wiretest.SSEEvent{Type: "message", Data: "[DONE]"}), true, false, true},
		{"after [DONE], nothing is read", body + wiretest.DataSSE(chatDoneData, "not json") + "data: {", true, false, true},
		{"comments ignored", ": comment\n\n" + body + ": keep-alive\n\n" + wiretest.DataSSE(chatDoneData), true, false, true},
	} {
		resp := toolcall.New()
		err := ReadChat(context.Background(), strings.NewReader(tc.stream), resp)
		switch {
		case tc.complete && err != nil,
			!tc.complete && (!errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, sse.ErrTruncated) != tc.truncated):
			t.Errorf("%s: ReadChat = %v", tc.name, err)
		}
		want := []wiretest.CallOutcome{chatOK(0, "call_1", "f", `{"a":1}`)}
		if !tc.callsComplete {
			want = []wiretest.CallOutcome{{Index: 0, ID: "call_1", Name: "f", Truncated: true}}
		}
		if diff := gocmp.Diff(want, wiretest.Outcomes(resp.End())); diff != "" {
			t.Errorf("%s: (-want +got):\n%s", tc.name, diff)
		}
	}
}

func TestChatContext(t *testing.T) {
	chatAdapter.CheckContext(t, []byte(chatWhole(chatStart("0", "call_1", "f"), chatArgs("0", `"{\"a\":1}"`))))
}

func TestChatResponseEnded(t *testing.T) {
	chatAdapter.CheckEnded(t, "", []byte(chatWhole(chatStart("0", "call_1", "f"), chatArgs("0", `"{}"`))))
	chatAdapter.CheckEnded(t, "arguments only: ", []byte(chatWhole(chatArgs("0", `"{}"`))))
}

// TestChatTrackedCalls: a chunk of more calls than a reader tracks is
// malformed before the Response has any of them, whatever its calls'
// limit.
func TestChatTrackedCalls(t *testing.T) {
	var elems strings.Builder
	for k := range maxTrackedCalls + 1 {
		if k > 0 {
			elems.WriteByte(',')
		}
		fmt.Fprintf(&elems, `{"index":%d,"type":"function"}`, k)
	}
	resp := toolcall.New(toolcall.WithMaxCalls(1 << 20))
	err := ReadChat(context.Background(), strings.NewReader(wiretest.DataSSE(chatDelta(`{"tool_calls":[`+elems.String()+`]}`))), resp)
	if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "more than 65536 tool calls") {
		t.Errorf("ReadChat = %v, want malformed: more than 65536 tool calls", err)
	}
	if calls := resp.End(); len(calls) != 0 {
		t.Errorf("%d calls, want none", len(calls))
	}
}
