package anthropicstream

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/argstream/argstream/internal/testutil/wiretest"
	"github.com/argstream/argstream/token"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire"
	"github.com/argstream/argstream/wire/sse"
	"github.com/google/go-cmp/cmp"
)

func sseFromChunks(t testing.TB, chunks []byte, eventField bool) []byte {
	t.Helper()
	b, err := wiretest.SSEFromChunks(chunks, eventField)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestProgrammaticToolCalling(t *testing.T) {
	chunks, err := os.ReadFile("../../toolcall/testdata/anthropic-programmatic-tool-calling.chunks.txt")
	if err != nil {
		t.Fatal(err)
	}
	var rollDie *wiretest.CallOutcome
	for m, msg := range messagesAtStart(t, chunks) {
		stream := sseFromChunks(t, msg, true)
		resp := toolcall.New()
		err := Read(context.Background(), bytes.NewReader(stream), resp)
		// The first message of the recording ends at message_delta, with no
		// message_stop.
		if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Fatalf("message %d: Read = %v", m, err)
		}
		got := wiretest.Outcomes(resp.End())
		if diff := cmp.Diff(want(expect(t, stream)), got); diff != "" {
			t.Errorf("message %d (-want +got):\n%s", m, diff)
		}
		for i := range got {
			if got[i].Name == "rollDie" && rollDie == nil {
				rollDie = &got[i]
			}
		}
	}
	if rollDie == nil || rollDie.Arguments != `{"player":"player1"}` || !rollDie.Executable {
		t.Errorf("rollDie = %+v, want its input from content_block_start", rollDie)
	}
}

// messagesAtStart splits a recording of one event per line into its
// messages, each from its message_start.
func messagesAtStart(t testing.TB, chunks []byte) [][]byte {
	var out [][]byte
	for line := range bytes.Lines(chunks) {
		if wiretest.JSONType(t, bytes.TrimSpace(line)) == "message_start" || len(out) == 0 {
			out = append(out, nil)
		}
		out[len(out)-1] = append(out[len(out)-1], line...)
	}
	return out
}

// Anthropic's stream for a tool called with no arguments, as in vercel-ai's
// anthropic-tool-no-args recording: input {} at the start, one empty
// partial_json.
var noArgs = msgStart +
	ev(`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"get_time","input":{}}}`) +
	ev(`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":""}}`) +
	ev(`{"type":"content_block_stop","index":0}`) +
	ev(`{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":20}}`) +
	msgStop

func TestNoArgs(t *testing.T) {
	resp := toolcall.New()
	if err := Read(context.Background(), strings.NewReader(noArgs), resp); err != nil {
		t.Fatal(err)
	}
	got := wiretest.Outcomes(resp.End())
	wantCalls := []wiretest.CallOutcome{{Index: 0, ID: "toolu_1", Name: "get_time", Arguments: "{}", Executable: true}}
	if diff := cmp.Diff(wantCalls, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

var errorMidStream = msgStart +
	ev(`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{}}}`) +
	ev(`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"city\":"}}`) +
	ev(`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`)

func TestErrorEvent(t *testing.T) {
	resp := toolcall.New()
	err := Read(context.Background(), strings.NewReader(errorMidStream), resp)
	var pe *wire.ProviderError
	if !errors.As(err, &pe) || pe.Wire != wire.Anthropic || pe.Type != "overloaded_error" || pe.Message != "Overloaded" {
		t.Fatalf("Read = %v, want a *wire.ProviderError overloaded_error: Overloaded", err)
	}
	if want := "anthropic: error event: overloaded_error: Overloaded"; err.Error() != want {
		t.Errorf("Read = %q, want %q", err, want)
	}
	res := resp.End()
	if len(res) != 1 || res[0].Executable || !errors.Is(res[0].Err, token.ErrTruncated) {
		t.Errorf("results %+v, want one truncated call", res)
	}

	// Without an "event:" line the SDKs skip it: malformed, as any event
	// whose name is not its data's type.
	resp.Reset()
	err = Read(context.Background(), strings.NewReader(wiretest.DataSSE(`{"type":"error","error":{"type":"api_error","message":"Internal"}}`)), resp)
	if !errors.Is(err, ErrMalformed) {
		t.Errorf("Read = %v, want ErrMalformed", err)
	}

	// An error event whose data is not JSON is still an error.
	resp.Reset()
	err = Read(context.Background(), strings.NewReader(wiretest.SSE(wiretest.SSEEvent{Type: "error", Data: "oops"})), resp)
	if !errors.As(err, &pe) || pe.Message != "oops" {
		t.Errorf("Read = %v, want a *wire.ProviderError with the raw data", err)
	}
}

// msgStart is the message_start every stream begins with.
var msgStart = ev(`{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[]}}`)

func TestEnds(t *testing.T) {
	start := msgStart +
		ev(`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"f","input":{}}}`) +
		ev(`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"a\":1}"}}`) +
		blockStop
	for _, tc := range []struct {
		name, stream string
		truncated    bool // wraps sse.ErrTruncated
	}{
		{"clean EOF", start, false},
		{"cut mid-event", start + "event: message_delta\ndata: {", true},
		{"no final blank line", start + "event: message_stop\ndata: {\"type\":\"message_stop\"}\n", true},
	} {
		resp := toolcall.New()
		err := Read(context.Background(), strings.NewReader(tc.stream), resp)
		if !errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, sse.ErrTruncated) != tc.truncated {
			t.Errorf("%s: Read = %v", tc.name, err)
		}
		res := resp.End()
		if len(res) != 1 || !res[0].Executable || string(res[0].Arguments) != `{"a":1}` {
			t.Errorf("%s: results %+v, want the stopped call complete", tc.name, res)
		}
	}

	// After message_stop, the body is read to its end (the SDKs read on),
	// and an event there is malformed; a ping or a comment is not.
	resp := toolcall.New()
	if err := Read(context.Background(), strings.NewReader(start+msgStop+": bye\n\n"+ev(`{"type":"ping"}`)), resp); err != nil {
		t.Errorf("Read = %v", err)
	}
	resp.Reset()
	late := ev(`{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_2","name":"f","input":{"a":2}}}`)
	if err := Read(context.Background(), strings.NewReader(start+msgStop+late), resp); !errors.Is(err, ErrMalformed) {
		t.Errorf("a call after message_stop: Read = %v, want ErrMalformed", err)
	}
	if res := resp.End(); len(res) != 1 || res[0].Executable {
		t.Errorf("a call after message_stop: %+v, want the response failed", res)
	}
}

// typeRE finds the first type of an event's data, for its event line.
var typeRE = regexp.MustCompile(`"type":"([a-z_]+)"`)

func TestMalformed(t *testing.T) {
	for _, data := range []string{
		`not json`,
		`[1]`,
		`{"type":"content_block_delta","delta":{"type":"input_json_delta","partial_json":"x"}}`,
		`{"type":"content_block_stop","index":-1}`,
		`{"type":"content_block_stop","index":1.5}`,
		`{"type":"content_block_stop","index":"1"}`,
		`{"type":"content_block_stop","index":99999999999999999999}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":5}}`,
		`{"type":"content_block_start","index":0,"content_block":7}`,
		`{"type":"content_block_stop","index":0} {}`,
		`{"type":"content_block_stop","index":0`,
	} {
		name := "content_block_stop"
		if m := typeRE.FindStringSubmatch(data); m != nil {
			name = m[1]
		}
		resp := toolcall.New()
		err := Read(context.Background(), strings.NewReader(msgStart+wiretest.SSE(wiretest.SSEEvent{Type: name, Data: data})), resp)
		if !errors.Is(err, ErrMalformed) {
			t.Errorf("%s: Read = %v, want ErrMalformed", data, err)
		}
	}
}

// TestPingHoldsAPing: both SDKs skip a ping unread, but a reader that goes
// by the data's type (as the SDKs of other formats do) would apply what it
// holds; a ping whose data is not a ping's is malformed.
func TestPingHoldsAPing(t *testing.T) {
	for _, data := range []string{
		`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"../"}}`,
		`anything`,
		`{"type":"ping","type":"content_block_delta"}`,
		`{}`,
	} {
		stream := msgStart +
			ev(`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"f","input":{}}}`) +
			ev(`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"path\":\"src/"}}`) +
			wiretest.SSE(wiretest.SSEEvent{Type: "ping", Data: data}) +
			ev(`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"x\"}"}}`) +
			ev(`{"type":"content_block_stop","index":0}`) + msgStop
		resp := toolcall.New()
		if err := Read(context.Background(), strings.NewReader(stream), resp); !errors.Is(err, ErrMalformed) {
			t.Errorf("a ping holding %s: Read = %v, want ErrMalformed", data, err)
		}
		if res := resp.End(); len(res) != 1 || res[0].Executable {
			t.Errorf("a ping holding %s: %+v, want the call not executable", data, res)
		}
	}
}

func TestIgnored(t *testing.T) {
	stream := wiretest.SSE(wiretest.SSEEvent{Type: "ping", Data: `{"type": "ping"}`}) + msgStart +
		wiretest.SSE(wiretest.SSEEvent{Type: "ping", Data: `{"type":"ping","future":[1]}`}) +
		": a comment\n\n" +
		ev(`{"type":"future_event","index":3}`) +
		ev(`{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}}`) +
		ev(`{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"abc"}}`) +
		msgStop
	resp := toolcall.New()
	if err := Read(context.Background(), strings.NewReader(stream), resp); err != nil {
		t.Fatal(err)
	}
	if res := resp.End(); len(res) != 0 {
		t.Errorf("results %+v, want none", res)
	}
}

func TestThinking(t *testing.T) {
	stream := msgStart +
		ev(`{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}}`) +
		ev(`{"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}`) +
		ev(`{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Let me \"think\"\n"}}`) +
		ev(`{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"caf\u00e9"}}`) +
		msgStop
	var got []string
	resp := toolcall.New()
	err := Read(context.Background(), strings.NewReader(stream), resp,
		wire.OnThinking(func(i int64, b []byte) { got = append(got, "thinking "+string(b)) }),
		wire.OnText(func(i int64, b []byte) { got = append(got, "text "+string(b)) }))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"thinking Let me \"think\"\n", "text café"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestContext(t *testing.T) {
	anthropicAdapter.CheckContext(t, []byte(noArgs))
}

func TestResponseEnded(t *testing.T) {
	anthropicAdapter.CheckEnded(t, "", []byte(noArgs))
}
