package anthropicstream

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/argstream/argstream/internal/testutil/wiretest"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire/sse"
	"github.com/google/go-cmp/cmp"
)

// ev frames one event as the API does: its name is its data's type (the
// first "type" member, where a hostile event has two).
func ev(data string) string {
	m := typeRE.FindStringSubmatch(data)
	return wiretest.SSE(wiretest.SSEEvent{Type: m[1], Data: data})
}

func delta(index, partial string) string {
	return ev(`{"type":"content_block_delta","index":` + index + `,"delta":{"type":"input_json_delta","partial_json":` + partial + `}}`)
}

var (
	toolStart = ev(`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"write_file","input":{}}}`)
	blockStop = ev(`{"type":"content_block_stop","index":0}`)
	msgStop   = ev(`{"type":"message_stop"}`)
)

// hostileCase is a stream that two readers (the official SDKs among them)
// could read differently, which must be refused, or one that reads as the
// SDKs read it.
type hostileCase struct {
	name   string
	stream string
	err    error                  // nil, ErrMalformed or sse.ErrAmbiguous
	want   []wiretest.CallOutcome // when err is nil
}

// hostileCases are the classes of hostile envelopes, for TestHostile and
// as seeds of FuzzRead.
func hostileCases() []hostileCase {
	okCall := wiretest.CallOutcome{ID: "toolu_1", Name: "write_file", Arguments: `{"path":"src/x"}`, Executable: true}
	return []hostileCase{
		{"the documented stream", msgStart + toolStart + delta("0", `"{\"path\":\"src/"`) + delta("0", `"x\"}"`) + blockStop + msgStop,
			nil, []wiretest.CallOutcome{okCall}},
		{"a repeated partial_json (the Go SDK reads the first, Python and JS the last)",
			msgStart + toolStart + delta("0", `"{\"path\":\"src/"`) +
				ev(`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"../../../etc/cron.d/","partial_json":""}}`) +
				delta("0", `"x\"}"`) + blockStop + msgStop, ErrMalformed, nil},
		{"a repeated type", msgStart + toolStart + ev(`{"type":"content_block_delta","type":"content_block_stop","index":0,"delta":{"type":"input_json_delta","partial_json":"{}"}}`) + blockStop + msgStop, ErrMalformed, nil},
		{"a repeated index", msgStart + toolStart + ev(`{"type":"content_block_delta","index":0,"index":1,"delta":{"type":"input_json_delta","partial_json":"{}"}}`), ErrMalformed, nil},
		{"a repeated delta", msgStart + toolStart + ev(`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{}"},"delta":{"type":"input_json_delta","partial_json":""}}`), ErrMalformed, nil},
		{"a repeated member in a skipped object", msgStart + ev(`{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":1,"output_tokens":2}}`) + msgStop, ErrMalformed, nil},
		{"partial_json in another case", msgStart + toolStart + ev(`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","Partial_json":"{}"}}`), ErrMalformed, nil},
		{"index in another case", msgStart + toolStart + ev(`{"type":"content_block_stop","INDEX":0}`), ErrMalformed, nil},
		{"a long s for an s (encoding/json folds it)", msgStart + toolStart + ev(`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{}","partial_j`+"\u017f"+`on":"x"}}`), ErrMalformed, nil},
		{"a member name written with an escape", msgStart + toolStart + ev(`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial\u005fjson":"{}"}}`), ErrMalformed, nil},
		{"an event named other than its type", msgStart + toolStart + wiretest.SSE(wiretest.SSEEvent{Type: "content_block_delta", Data: `{"type":"content_block_stop","index":0}`}), ErrMalformed, nil},
		{"an unknown event name over a call's delta", msgStart + toolStart + wiretest.SSE(wiretest.SSEEvent{Type: "future", Data: `{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{}"}}`}), ErrMalformed, nil},
		{"no event line (the SDKs skip the event)", msgStart + toolStart + wiretest.DataSSE(`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{}"}}`) + blockStop + msgStop, ErrMalformed, nil},
		{"a BOM before an event line mid-stream hides the name", msgStart + toolStart + "\ufeffevent: content_block_delta\ndata: " + `{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{}"}}` + "\n\n", ErrMalformed, nil},
		{"a BOM at the start", "\ufeff" + msgStart + toolStart + blockStop + msgStop, sse.ErrAmbiguous, nil},
		{"a lone CR line end", msgStart + toolStart + "event: content_block_stop\rdata: {\"type\":\"content_block_stop\",\"index\":0}\r\r" + msgStop, sse.ErrAmbiguous, nil},
		{"a block started again under another name", msgStart + toolStart + delta("0", `"{}"`) +
			ev(`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"rm","input":{}}}`), ErrMalformed, nil},
		{"a block started out of order", msgStart + ev(`{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_1","name":"f","input":{}}}`), ErrMalformed, nil},
		{"a delta for a block never started", msgStart + toolStart + delta("1", `"{}"`), ErrMalformed, nil},
		{"a stop for a block never started", msgStart + ev(`{"type":"content_block_stop","index":0}`), ErrMalformed, nil},
		{"an arguments delta for a text block", msgStart + ev(`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`) + delta("0", `"{}"`), ErrMalformed, nil},
		{"a text delta for a tool block", msgStart + toolStart + ev(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"hi"}}`), ErrMalformed, nil},
		{"two strings in one delta", msgStart + toolStart + ev(`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{}","text":"x"}}`), ErrMalformed, nil},
		{"a second message_start (the SDKs start the message again)", msgStart + toolStart + delta("0", `"{}"`) + blockStop + msgStart + msgStop, ErrMalformed, nil},
		{"an event before message_start", toolStart + msgStart, ErrMalformed, nil},
		{"a call after message_stop (the SDKs read on)", msgStart + msgStop + toolStart + delta("0", `"{}"`) + blockStop, ErrMalformed, nil},
		{"an index as a string", msgStart + toolStart + ev(`{"type":"content_block_stop","index":"0"}`), ErrMalformed, nil},
		{"an index with an exponent", msgStart + toolStart + ev(`{"type":"content_block_stop","index":0e0}`), ErrMalformed, nil},
		{"an index no float64 holds", msgStart + toolStart + ev(`{"type":"content_block_stop","index":9007199254740993}`), ErrMalformed, nil},
		{"a partial_json that is null", msgStart + toolStart + delta("0", `null`), ErrMalformed, nil},
		{"an input that is null", msgStart + ev(`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"f","input":null}}`), ErrMalformed, nil},
		{"an input that is a string", msgStart + ev(`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"f","input":"{}"}}`), ErrMalformed, nil},
		{"invalid UTF-8 in a delta (encoding/json would make it U+FFFD)", msgStart + toolStart + delta("0", "\"{\\\"a\\\":\\\"\xff\\\"}\"") + blockStop + msgStop, ErrMalformed, nil},
		{"a lone surrogate in a delta", msgStart + toolStart + delta("0", `"{\"a\":\"\ud800\"}"`) + blockStop + msgStop, ErrMalformed, nil},
		{"an input { } with white space, then deltas: the SDKs append to it or drop it, the call fails",
			msgStart + ev(`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"write_file","input":{ }}}`) +
				delta("0", `"{\"path\":\"src/x\"}"`) + blockStop + msgStop,
			nil, []wiretest.CallOutcome{{ID: "toolu_1", Name: "write_file", Syntax: true}}},
		{"a call the provider runs is never executable", msgStart +
			ev(`{"type":"content_block_start","index":0,"content_block":{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{}}}`) +
			delta("0", `"{\"query\":\"x\"}"`) + blockStop + msgStop,
			nil, []wiretest.CallOutcome{{ID: "srvtoolu_1", Name: "web_search", Arguments: `{"query":"x"}`, Server: true}}},
		{"a bare number stopped, then max_tokens: it may have been longer",
			msgStart + toolStart + delta("0", `"12"`) + blockStop +
				ev(`{"type":"message_delta","delta":{"stop_reason":"max_tokens","stop_sequence":null},"usage":{"output_tokens":1}}`) + msgStop,
			nil, []wiretest.CallOutcome{{ID: "toolu_1", Name: "write_file", Truncated: true}}},
		{"a bare number stopped, then tool_use: complete",
			msgStart + toolStart + delta("0", `"12"`) + blockStop +
				ev(`{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":1}}`) + msgStop,
			nil, []wiretest.CallOutcome{{ID: "toolu_1", Name: "write_file", Arguments: "12", Executable: true}}},
	}
}

// TestHostile: events that two readers (the official SDKs among them)
// could read differently fail the response, never a guess; the rest read
// as the SDKs read them.
func TestHostile(t *testing.T) {
	for _, tc := range hostileCases() {
		t.Run(tc.name, func(t *testing.T) {
			resp := toolcall.New()
			err := Read(context.Background(), strings.NewReader(tc.stream), resp)
			res := resp.End()
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("Read = %v, want %v", err, tc.err)
				}
				for _, r := range res {
					if r.Executable || r.Arguments != nil {
						t.Errorf("call %+v executable or with arguments in a refused response", r)
					}
				}
				return
			}
			if err != nil {
				t.Fatalf("Read = %v", err)
			}
			if diff := cmp.Diff(tc.want, wiretest.Outcomes(res)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestTooManyCalls: a response of more calls than the Response takes ends
// with toolcall.ErrTooManyCalls, not with memory without bound.
func TestTooManyCalls(t *testing.T) {
	var b strings.Builder
	b.WriteString(msgStart)
	for i := range toolcall.DefaultMaxCalls + 1 {
		b.WriteString(ev(fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"tool_use","id":"t","name":"f","input":{}}}`, i)))
	}
	resp := toolcall.New()
	if err := Read(context.Background(), strings.NewReader(b.String()), resp); !errors.Is(err, toolcall.ErrTooManyCalls) {
		t.Errorf("Read = %v, want ErrTooManyCalls", err)
	}
	if n := len(resp.End()); n != toolcall.DefaultMaxCalls {
		t.Errorf("%d results, want %d", n, toolcall.DefaultMaxCalls)
	}
}

// TestEventCalls: each event says which calls it concerned.
func TestEventCalls(t *testing.T) {
	stream := msgStart + ev(`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`) +
		ev(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"hi"}}`) +
		ev(`{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"t","name":"f","input":{}}}`) +
		delta("1", `"{}"`) + ev(`{"type":"content_block_stop","index":0}`) + ev(`{"type":"content_block_stop","index":1}`) + msgStop
	r := NewReader(toolcall.New())
	rd := sse.NewReader(strings.NewReader(stream))
	var got []string
	for rd.Next() {
		if err := r.Event(rd.Event()); err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprint(r.EventCalls()))
	}
	want := []string{"[]", "[]", "[]", "[1]", "[1]", "[]", "[1]", "[]"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestReadEventsReused: a Reader and its SSE reader kept from stream to
// stream with Reset read each stream as Read does, through recordings and
// hostile streams one after the other.
func TestReadEventsReused(t *testing.T) {
	var streams [][]byte
	for _, rec := range recordings {
		streams = append(streams, readRecording(t, rec.file))
	}
	for _, tc := range hostileCases() {
		streams = append(streams, []byte(tc.stream))
	}
	anthropicAdapter.CheckReadEvents(t, NewReader(toolcall.New()), streams)
}
