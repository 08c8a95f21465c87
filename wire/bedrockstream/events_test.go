package bedrockstream

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/argstream/argstream/internal/testutil/wiretest"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire"
	"github.com/google/go-cmp/cmp"
)

func run(s []byte) wiretest.Got {
	return bedrockAdapter.Run(toolcall.New(), bytes.NewReader(s))
}

// TestEvents: a response as Bedrock streams it, text, reasoning and two
// tool calls, gives their calls, text and reasoning; the unknown event
// types and members are skipped.
func TestEvents(t *testing.T) {
	s := stream(msgStart(),
		reasonDelta(0, "The user wants "), reasonDelta(0, "the weather."),
		ev("contentBlockDelta", `{"contentBlockIndex":0,"delta":{"reasoningContent":{"signature":"c2ln"}}}`),
		blockStop(0),
		textDelta(1, "Let me "), textDelta(1, "check \"both\"."),
		ev("contentBlockDelta", `{"contentBlockIndex":1,"delta":{"citation":{"title":"x"}}}`),
		blockStop(1),
		toolStart(2, "tooluse_1", "get_weather"), toolDelta(2, ""), toolDelta(2, `{"city":`), toolDelta(2, `"Paris"}`), blockStop(2),
		ev("futureEvent", `{"anything":[1,2,{"x":null}]}`),
		toolStart(3, "tooluse_2", "get_time"), toolDelta(3, `{}`), blockStop(3),
		msgStop("tool_use"), metadata())
	got := run(s)
	want := wiretest.Got{
		Calls: []wiretest.CallOutcome{
			{Index: 2, ID: "tooluse_1", Name: "get_weather", Arguments: `{"city":"Paris"}`, Executable: true},
			{Index: 3, ID: "tooluse_2", Name: "get_time", Arguments: `{}`, Executable: true},
		},
		Text:     map[int64]string{1: `Let me check "both".`},
		Thinking: map[int64]string{0: "The user wants the weather."},
	}
	if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b error) bool { return a == b })); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}

	// The Reader says which calls each message concerned, and the stop reason.
	r := NewReader(toolcall.New())
	var touched [][]int64
	f := frames{body: bytes.NewReader(s)}
	for {
		b, err := f.next()
		if err == io.EOF {
			break
		}
		if err := r.Message(b); err != nil {
			t.Fatal(err)
		}
		if len(r.EventCalls()) > 0 {
			touched = append(touched, append([]int64(nil), r.EventCalls()...))
		}
	}
	if !r.Done() || r.StopReason() != "tool_use" {
		t.Errorf("Done %v, StopReason %q", r.Done(), r.StopReason())
	}
	wantTouched := [][]int64{{2}, {2}, {2}, {2}, {2}, {3}, {3}, {3}}
	if diff := cmp.Diff(wantTouched, touched); diff != "" {
		t.Errorf("EventCalls (-want +got):\n%s", diff)
	}
}

// TestMaxTokens: a messageStop of max_tokens marks the response cut short:
// a call whose arguments are a bare number is truncated.
func TestMaxTokens(t *testing.T) {
	s := stream(msgStart(), toolStart(0, "t", "f"), toolDelta(0, `12`), msgStop("max_tokens"))
	got := run(s)
	if got.Err != nil || len(got.Calls) != 1 || got.Calls[0].Executable || !got.Calls[0].Truncated {
		t.Errorf("%+v", got)
	}
	s = stream(msgStart(), toolStart(0, "t", "f"), toolDelta(0, `12`), blockStop(0), msgStop("end_turn"))
	if got := run(s); got.Err != nil || len(got.Calls) != 1 || !got.Calls[0].Executable {
		t.Errorf("end_turn: %+v", got)
	}
}

// TestNoInput: a call with no input delta, or only empty ones, was made
// with no input: its arguments are {}, as Converse writes them; a call cut
// before its stop is no such call.
func TestNoInput(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    []byte
		want wiretest.CallOutcome
	}{
		{"no delta", stream(msgStart(), toolStart(0, "t", "list"), blockStop(0), msgStop("tool_use")),
			wiretest.CallOutcome{Index: 0, ID: "t", Name: "list", Arguments: `{}`, Executable: true}},
		{"an empty delta", stream(msgStart(), toolStart(0, "t", "list"), toolDelta(0, ""), blockStop(0), msgStop("tool_use")),
			wiretest.CallOutcome{Index: 0, ID: "t", Name: "list", Arguments: `{}`, Executable: true}},
		{"deltas after it", stream(msgStart(), toolStart(0, "t", "f"), toolDelta(0, `{"a"`), toolDelta(0, `:1}`), blockStop(0), msgStop("tool_use")),
			wiretest.CallOutcome{Index: 0, ID: "t", Name: "f", Arguments: `{"a":1}`, Executable: true}},
		{"cut before its stop", stream(msgStart(), toolStart(0, "t", "list"), msgStop("max_tokens")),
			wiretest.CallOutcome{Index: 0, ID: "t", Name: "list", Truncated: true}},
	} {
		got := run(tc.s)
		if got.Err != nil || len(got.Calls) != 1 {
			t.Errorf("%s: %+v", tc.name, got)
			continue
		}
		if diff := cmp.Diff(tc.want, got.Calls[0]); diff != "" {
			t.Errorf("%s: (-want +got):\n%s", tc.name, diff)
		}
	}
}

// TestServerTool: a toolUse of type server_tool_use (Nova's code
// interpreter) is a call the provider runs: never the caller's to run.
func TestServerTool(t *testing.T) {
	start := ev("contentBlockStart", `{"contentBlockIndex":0,"start":{"toolUse":{"toolUseId":"t1","name":"nova_code_interpreter","type":"server_tool_use"}}}`)
	resp := toolcall.New()
	err := Read(context.Background(), bytes.NewReader(stream(msgStart(), start, toolDelta(0, `{"snippet":"1+1"}`), blockStop(0), msgStop("end_turn"))), resp)
	res := resp.End()
	if err != nil || len(res) != 1 || !res[0].Call.Server || res[0].Executable {
		t.Fatalf("Read = %v, results %+v; want one call the provider runs", err, res)
	}
	// A client tool's type, or none, is the caller's.
	for _, typ := range []string{`"tool_use"`, `null`} {
		start := ev("contentBlockStart", `{"contentBlockIndex":0,"start":{"toolUse":{"toolUseId":"t1","name":"f","type":`+typ+`}}}`)
		resp := toolcall.New()
		err := Read(context.Background(), bytes.NewReader(stream(msgStart(), start, toolDelta(0, `{}`), blockStop(0), msgStop("end_turn"))), resp)
		if res := resp.End(); err != nil || len(res) != 1 || res[0].Call.Server || !res[0].Executable {
			t.Errorf("type %s: Read = %v, results %+v", typ, err, res)
		}
	}
}

// TestExceptions: an exception or error message is a *wire.ProviderError
// with its type and message; the calls stopped before it stay complete.
func TestExceptions(t *testing.T) {
	pre := stream(msgStart(), toolStart(0, "t", "f"), toolDelta(0, `{}`), blockStop(0))
	for _, tc := range []struct {
		msg          []byte
		typ, message string
		text         string
	}{
		{exc("throttlingException", `{"message":"Too many requests, please wait before trying again."}`), "throttlingException", "Too many requests, please wait before trying again.", ""},
		{exc("modelStreamErrorException", `{"message":"boom","originalStatusCode":500}`), "modelStreamErrorException", "boom", ""},
		{exc("SomethingNew", `{"Message":"unmodeled"}`), "SomethingNew", "unmodeled", ""},
		{exc("internalServerException", `not json`), "internalServerException", "not json", ""},
		{exc("validationException", `{"message":"a","Message":"b"}`), "validationException", `{"message":"a","Message":"b"}`, ""},
		{encode([]hdr{{name: ":message-type", value: "error"}, {name: ":error-code", value: "InternalFailure"}, {name: ":error-message", value: "An internal error occurred"}}, nil), "InternalFailure", "An internal error occurred", ""},
	} {
		got := run(stream(pre, tc.msg))
		var pe *wire.ProviderError
		if !errors.As(got.Err, &pe) || pe.Type != tc.typ || pe.Message != tc.message || pe.Wire != wire.Bedrock {
			t.Errorf("%s: %v (%#v)", tc.typ, got.Err, pe)
		}
		if errors.Is(got.Err, ErrMalformed) || len(got.Calls) != 1 || !got.Calls[0].Executable {
			t.Errorf("%s: %+v", tc.typ, got)
		}
	}
	// An exception before anything else.
	if got := run(exc("serviceUnavailableException", `{"message":"unavailable"}`)); !strings.Contains(errString(got.Err), "serviceUnavailableException: unavailable") {
		t.Errorf("first: %v", got.Err)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestMalformed: each message that is not what ConverseStream sends, or
// that readers could read differently, fails the response with its
// message's number.
func TestMalformed(t *testing.T) {
	start := msgStart()
	call := stream(start, toolStart(0, "t", "f"), toolDelta(0, `{"a":1}`))
	for _, tc := range []struct {
		name string
		s    []byte
		want string // in the error, after "message N (byte B): "
	}{
		{"not JSON", stream(start, ev("contentBlockStop", `{"contentBlockIndex":0`)), "message 2 "},
		{"not an object", stream(start, ev("metadata", `[]`)), "not a JSON object"},
		{"empty payload", stream(start, ev("contentBlockStop", ``)), "payload: "},
		{"bytes after", stream(start, ev("metadata", `{} {}`)), "bytes after the JSON object"},
		{"bad UTF-8", stream(start, ev("contentBlockDelta", "{\"contentBlockIndex\":0,\"delta\":{\"text\":\"\xff\"}}")), "invalid UTF-8"},
		{"bad UTF-8 in unknown event", stream(start, ev("future", "{\"x\":\"\xff\"}")), "invalid UTF-8"},
		{"repeated member", stream(start, ev("contentBlockDelta", `{"contentBlockIndex":0,"contentBlockIndex":1,"delta":{"text":"a"}}`)), "duplicate"},
		{"repeated deep", stream(start, ev("metadata", `{"usage":{"x":{"y":1,"y":2}}}`)), "duplicate"},
		{"escaped name", stream(start, ev("contentBlockDelta", `{"contentBlock\u0049ndex":0,"delta":{"text":"a"}}`)), "written with an escape"},
		{"case", stream(start, ev("contentBlockDelta", `{"contentblockindex":0,"delta":{"text":"a"}}`)), `"contentblockindex" is "contentBlockIndex" in another case`},
		{"case deep", stream(start, toolStart(0, "t", "f"), ev("contentBlockDelta", `{"contentBlockIndex":0,"delta":{"toolUse":{"Input":"{}"}}}`)), `"Input" is "input" in another case`},
		{"fold", stream(start, toolStart(0, "t", "f"), ev("contentBlockDelta", `{"contentBlockIndex":0,"delta":{"toolUse":{"input":"{}","ab":1,"AB":2}}}`)), "equal under case folding"},
		{"two delta members", stream(start, toolStart(0, "t", "f"), ev("contentBlockDelta", `{"contentBlockIndex":0,"delta":{"toolUse":{"input":"{}"},"text":"x"}}`)), `a union with a second member, "text"`},
		{"two unknown members", stream(start, ev("contentBlockDelta", `{"contentBlockIndex":0,"delta":{"citation":{},"image":{}}}`)), "a union with a second member"},
		{"two reasoning members", stream(start, ev("contentBlockDelta", `{"contentBlockIndex":0,"delta":{"reasoningContent":{"text":"a","signature":"s"}}}`)), "a union with a second member"},
		{"two start members", stream(start, ev("contentBlockStart", `{"contentBlockIndex":0,"start":{"toolUse":{"toolUseId":"t","name":"f"},"image":{}}}`)), "a union with a second member"},
		{"index too large", stream(start, ev("contentBlockStop", `{"contentBlockIndex":2147483648}`)), "past 2^31-1"},
		{"index not an integer", stream(start, ev("contentBlockStop", `{"contentBlockIndex":1.0}`)), "not an integer"},
		{"no index", stream(start, ev("contentBlockStop", `{}`)), "no contentBlockIndex"},
		{"null index", stream(start, ev("contentBlockDelta", `{"contentBlockIndex":null,"delta":{"text":"a"}}`)), "no contentBlockIndex"},
		{"tool input not a string", stream(start, toolStart(0, "t", "f"), ev("contentBlockDelta", `{"contentBlockIndex":0,"delta":{"toolUse":{"input":{}}}}`)), "not a string"},
		{"tool delta without input", stream(start, toolStart(0, "t", "f"), ev("contentBlockDelta", `{"contentBlockIndex":0,"delta":{"toolUse":{}}}`)), "/delta/toolUse has no input"},
		{"no name", stream(start, ev("contentBlockStart", `{"contentBlockIndex":0,"start":{"toolUse":{"toolUseId":"t"}}}`)), "no toolUseId or no name"},
		{"started twice", stream(call, toolStart(0, "u", "g")), "message 4 (byte"},
		{"started twice message", stream(call, toolStart(0, "u", "g")), "contentBlockStart for block 0, which has begun"},
		{"start after text", stream(start, textDelta(0, "a"), toolStart(0, "u", "g")), "which has begun"},
		{"tool delta not started", stream(start, toolDelta(0, "{}")), "a toolUse delta for block 0, which has not started"},
		{"text into call", stream(call, textDelta(0, "x")), "a text delta for block 0, a block of kind toolUse"},
		{"reasoning into text", stream(start, textDelta(1, "x"), reasonDelta(1, "y")), "a reasoningContent delta for block 1, a block of kind text"},
		{"tool into text", stream(start, textDelta(1, "x"), toolDelta(1, "{}")), "a toolUse delta for block 1, a block of kind text"},
		{"delta after stop", stream(call, blockStop(0), toolDelta(0, " ")), "which has stopped"},
		{"stop not started", stream(start, blockStop(3)), "contentBlockStop for block 3, which has not begun"},
		{"stop twice", stream(call, blockStop(0), blockStop(0)), "a second contentBlockStop for block 0"},
		{"before messageStart", stream(textDelta(0, "a")), "a contentBlockDelta event before messageStart"},
		{"second messageStart", stream(start, start), "a second messageStart"},
		{"after messageStop", stream(start, msgStop("end_turn"), textDelta(0, "a")), "a contentBlockDelta event after messageStop"},
		{"unknown after messageStop", stream(start, msgStop("end_turn"), ev("future", `{}`)), `a future event after messageStop`},
		{"two metadata", stream(start, msgStop("end_turn"), metadata(), metadata()), "a second metadata event"},
		{"stopReason not a string", stream(start, ev("messageStop", `{"stopReason":1}`)), "not a string"},
	} {
		resp := toolcall.New()
		err := Read(context.Background(), bytes.NewReader(tc.s), resp)
		if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "bedrock: malformed event: message ") {
			t.Errorf("%s: %v, want malformed ...%s...", tc.name, err, tc.want)
			continue
		}
		for _, r := range resp.End() {
			if r.Executable || r.Arguments != nil {
				t.Errorf("%s: call %+v after a refusal", tc.name, r)
			}
		}
	}
}

// TestAccepted: what the SDKs read alike is read: null members of a union
// (skipped by the SDKs), a delta with no member, a start of another kind,
// metadata before messageStop, unknown headers of every type.
func TestAccepted(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    []byte
		text string
	}{
		{"null union member", stream(msgStart(), ev("contentBlockDelta", `{"contentBlockIndex":0,"delta":{"toolUse":null,"text":"a"}}`), msgStop("end_turn")), "a"},
		{"empty delta", stream(msgStart(), ev("contentBlockDelta", `{"contentBlockIndex":0,"delta":{}}`), textDelta(0, "b"), msgStop("end_turn")), "b"},
		{"image block", stream(msgStart(), ev("contentBlockStart", `{"contentBlockIndex":0,"start":{"image":{"format":"png"}}}`), blockStop(0), textDelta(1, "c"), msgStop("end_turn")), "c"},
		{"metadata first", stream(msgStart(), metadata(), textDelta(0, "d"), msgStop("end_turn")), "d"},
		{"headers", stream(msgStart(), encode([]hdr{{name: ":date", value: int64(1)}, {name: ":event-type", value: "contentBlockDelta"}, {name: "x-uuid", value: [16]byte{}}, {name: ":message-type", value: "event"}, {name: "flag", value: true}}, []byte(`{"contentBlockIndex":0,"delta":{"text":"e"}}`)), msgStop("end_turn")), "e"},
		{"no content type", stream(msgStart(), encode([]hdr{{name: ":event-type", value: "contentBlockDelta"}, {name: ":message-type", value: "event"}}, []byte(`{"contentBlockIndex":0,"delta":{"text":"f"}}`)), msgStop("end_turn")), "f"},
		{"unknown before messageStart", stream(ev("future", `{}`), msgStart(), textDelta(0, "g"), msgStop("end_turn")), "g"},
	} {
		got := run(tc.s)
		if got.Err != nil || got.Text[0]+got.Text[1] != tc.text {
			t.Errorf("%s: %v, text %v", tc.name, got.Err, got.Text)
		}
	}
}

// TestReset: a Reader reset reads a second stream, with an error of the
// first forgotten; two responses one after the other in a body are read by
// a Reader, each on its own Response.
func TestReset(t *testing.T) {
	bad := stream(msgStart(), blockStop(0))
	good := stream(msgStart(), toolStart(0, "t", "f"), toolDelta(0, `{"x":1}`), blockStop(0), msgStop("tool_use"), metadata())
	resp := toolcall.New()
	r := NewReader(resp)
	if err := r.ReadBody(context.Background(), bytes.NewReader(bad)); !errors.Is(err, ErrMalformed) {
		t.Fatal(err)
	}
	for range 2 {
		resp.Reset()
		r.Reset(resp)
		if err := r.ReadBody(context.Background(), bytes.NewReader(good)); err != nil {
			t.Fatal(err)
		}
		if res := resp.End(); len(res) != 1 || !res[0].Executable || string(res[0].Arguments) != `{"x":1}` {
			t.Fatalf("%+v", res)
		}
	}
	// After an error, Message returns it again.
	r.Reset(toolcall.New())
	e1 := r.Message(blockStop(0))
	if e2 := r.Message(msgStart()); e1 == nil || e2 != e1 {
		t.Errorf("%v then %v", e1, e2)
	}
}

// TestContext: a cancelled context stops Read between messages.
func TestContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Read(ctx, bytes.NewReader(msgStart()), toolcall.New()); !errors.Is(err, context.Canceled) {
		t.Errorf("%v", err)
	}
}

// TestEnded: a Response already ended refuses the call.
func TestEnded(t *testing.T) {
	bedrockAdapter.CheckEnded(t, "Read", stream(msgStart(), toolStart(0, "t", "f"), toolDelta(0, `{}`), blockStop(0), msgStop("tool_use")))
}

// TestBodyError: an error of the body's Read is returned, wrapped, with
// the message where it came.
func TestBodyError(t *testing.T) {
	boom := errors.New("boom")
	err := Read(context.Background(), io.MultiReader(bytes.NewReader(msgStart()), errReader{boom}), toolcall.New())
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "message 2 (byte") {
		t.Errorf("%v", err)
	}
}

// TestNoProgress: a body whose reads bring nothing, and no error, ends the
// stream with io.ErrNoProgress, where io.ReadFull would wait forever; one
// that brings the messages a byte at a time, or several in a read, is read
// whole.
func TestNoProgress(t *testing.T) {
	err := Read(context.Background(), io.MultiReader(bytes.NewReader(msgStart()), errReader{nil}), toolcall.New())
	if !errors.Is(err, io.ErrNoProgress) || !strings.Contains(err.Error(), "message 2 (byte") {
		t.Errorf("%v", err)
	}
	s := stream(msgStart(), toolStart(0, "t1", "get"), toolDelta(0, `{"a":`), toolDelta(0, `1}`), blockStop(0), msgStop("tool_use"), metadata())
	for _, body := range []io.Reader{iotest.OneByteReader(bytes.NewReader(s)), bytes.NewReader(s), iotest.HalfReader(bytes.NewReader(s))} {
		resp := toolcall.New()
		if err := Read(context.Background(), body, resp); err != nil {
			t.Fatal(err)
		}
		if res := resp.End(); len(res) != 1 || string(res[0].Arguments) != `{"a":1}` {
			t.Errorf("%+v", res)
		}
	}
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// TestBytesAfter: bytes after the response that make no whole message (a
// newline added to a recording) are an error that says they come after
// messageStop, not a stream cut before it; the calls stay complete.
func TestBytesAfter(t *testing.T) {
	s := stream(msgStart(), toolStart(0, "t", "f"), toolDelta(0, `{}`), blockStop(0), msgStop("tool_use"), metadata())
	got := run(append(s, '\n'))
	if got.Err == nil || !errors.Is(got.Err, io.ErrUnexpectedEOF) || !strings.Contains(got.Err.Error(), "after messageStop, bytes that are no whole message") ||
		len(got.Calls) != 1 || !got.Calls[0].Executable {
		t.Errorf("%+v", got)
	}
}
