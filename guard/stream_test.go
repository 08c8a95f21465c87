package guard

import (
	"bytes"
	"context"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/argstream/argstream/internal/testutil/wiretest"
	"github.com/argstream/argstream/policy"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire"
	"github.com/argstream/argstream/wire/anthropicstream"
)

func mustPolicy(t testing.TB, rules string) *policy.Policy {
	t.Helper()
	p, _, err := policy.Parse([]byte(rules))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// The Anthropic events that the gateway's tests write by hand, framed with
// wiretest.TypedSSE: the message's start, the start of a tool_use block
// "write" at index 0, and the input_json_delta events of its arguments.
const (
	messageStartData = `{"type":"message_start","message":{"id":"m","type":"message","role":"assistant","content":[]}}`
	toolStartData    = `{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"write","input":{}}}`
)

// inputDelta is the data of an input_json_delta event of block 0, its
// partial_json the JSON string partial.
func inputDelta(partial string) string {
	return `{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":` + partial + `}}`
}

// filterAll runs body through a Guard and returns what the client reads,
// and whether the upstream was cancelled.
func filterAll(t testing.TB, g *Guard, k wire.Kind, body []byte) ([]byte, bool) {
	t.Helper()
	cancelled := false
	rc := g.Filter(k, io.NopCloser(bytes.NewReader(body)), func() { cancelled = true })
	out, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	rc.Close()
	return out, cancelled
}

func TestAnthropicBlock(t *testing.T) {
	in, err := os.ReadFile("../testdata/llm_streams/anthropic-sdk-python__tests-lib-streaming-fixtures__tool_use_response.sse")
	if err != nil {
		t.Fatal(err)
	}
	skip := mustPolicy(t, `{"run": "skip"}`)
	var recs []Record
	g := New(Config{Policy: func(string) *policy.Policy { return skip }, OnCall: func(r Record) { recs = append(recs, r) }})
	out, cancelled := filterAll(t, g, wire.Anthropic, in)
	t.Logf("%s", out)
	resp := toolcall.New()
	if err := anthropicstream.Read(context.Background(), bytes.NewReader(out), resp); err != nil {
		t.Fatalf("the client's stream: %v", err)
	}
	if got := wiretest.Outcomes(resp.End()); len(got) != 0 {
		t.Errorf("the client read calls %+v", got)
	}
	t.Log(cancelled, recs)
	if !strings.Contains(string(out), "was blocked") {
		t.Error("no notice")
	}
}

// TestEventCutAfterTheEnd: a stream whose response is complete, then an
// event no blank line ends (data: [DONE] at the very end, as some servers
// write it), reaches the client as it came: the client drops the event
// cut off, as the spec says and the SDKs do. Before the response's end,
// the same is a stream cut short: an error.
func TestEventCutAfterTheEnd(t *testing.T) {
	chat := "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_1\",\"type\":\"function\",\"function\":{\"name\":\"f\",\"arguments\":\"{}\"}}]}}]}\n\n"
	finish := "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n"
	g := New(Config{})
	for _, tc := range []struct {
		name, stream string
		same         bool
	}{
		{"after finish_reason", chat + finish + "data: [DONE]\n", true},
		{"after message_stop", "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[]}}\n\n" +
			"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\nevent: ping\ndata: {\"type\":\"ping\"}", true},
		{"before finish_reason", chat + "data: {\"id\":\"c\",\"choices\":[]}", false},
	} {
		k := wire.OpenAIChat
		if strings.HasPrefix(tc.stream, "event:") {
			k = wire.Anthropic
		}
		out, _ := filterAll(t, g, k, []byte(tc.stream))
		if got := string(out) == tc.stream; got != tc.same {
			t.Errorf("%s: the client reads the upstream's bytes: %v, want %v\n%s", tc.name, got, tc.same, out)
		}
		if _, _, err := readClient(k, out); (err == nil) != tc.same {
			t.Errorf("%s: the client's reader: %v", tc.name, err)
		}
	}
}
