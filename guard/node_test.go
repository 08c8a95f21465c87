package guard

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/argstream/argstream/dialect"
	"github.com/argstream/argstream/internal/testutil/wiretest"
	"github.com/argstream/argstream/policy"
	"github.com/argstream/argstream/wire"
)

// nodeClient returns the command that runs testdata/node/client.mjs, or
// skips the test where Node.js or the SDKs are missing, saying how to get
// them; under CI=true (the CI installs them) it fails instead.
func nodeClient(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err == nil {
		_, err = os.Stat("testdata/node/node_modules/openai")
	}
	if err != nil {
		msg := "the official Node SDKs are not installed (Node.js and `cd guard/testdata/node && npm ci`): " + err.Error()
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return node
}

// nodeRun streams a response of the wire k, made of events, through g's
// proxy to the Node SDK, and returns what the SDK made of it; args go to
// client.mjs after the wire and the URL.
func nodeRun(t *testing.T, node string, k wire.Kind, g *Guard, events [][]byte, args ...string) map[string]any {
	t.Helper()
	u := newUpstream(t, events, 0)
	base := u.srv.URL
	if g != nil {
		target, _ := url.Parse(u.srv.URL)
		proxy := httptest.NewServer(NewProxy(target, g))
		t.Cleanup(proxy.Close)
		base = proxy.URL
	}
	if k != wire.Anthropic {
		base += "/v1"
	}
	cmd := exec.Command(node, append([]string{"client.mjs", k.String(), base}, args...)...)
	cmd.Dir = "testdata/node"
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.Bytes())
	}
	var v map[string]any
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("node's output %q: %v", out, err)
	}
	if e, ok := v["error"]; ok {
		t.Fatalf("the Node SDK failed: %v", e)
	}
	return v
}

// TestNodeClients: the official Node SDKs (@anthropic-ai/sdk, openai) read
// a response of each wire through the proxy: with nothing blocked, their
// final messages are those of a direct connection; with a call blocked, it
// is in no event they saw nor in their final message, the notice is, and
// the other call is intact.
func TestNodeClients(t *testing.T) {
	node := nodeClient(t)
	docs := []string{`{"path": "src/main.go"}`, `{"path": "/", "recursive": true}`}
	for _, k := range kinds {
		t.Run(k.String(), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, 7))
			plan := wiretest.WirePlan{Calls: []wiretest.WireCall{
				{Index: 1, ID: "call_read", Name: "read", Deltas: []string{docs[0][:9], docs[0][9:]}},
				{Index: 2, ID: "call_rm", Name: "rm", Deltas: []string{docs[1][:5], docs[1][5:20], docs[1][20:]}},
			}}
			for c := range 2 {
				for d := -1; d <= len(plan.Calls[c].Deltas); d++ {
					plan.Steps = append(plan.Steps, wiretest.WireStep{Call: c, Delta: d})
				}
			}
			var evs []wiretest.SSEEvent
			switch k {
			case wire.Anthropic:
				_, evs = wiretest.EncodeAnthropic(plan, rng)
			case wire.OpenAIChat:
				evs = wiretest.EncodeChat(plan.NumberedByStart(0), rng)
			default:
				evs = wiretest.EncodeResponses(plan, rng)
			}
			events := frame(evs)
			direct := nodeRun(t, node, k, nil, events)
			yes := mustPolicy(t, `{"run": "unattended"}`)
			forwarded := nodeRun(t, node, k, New(Config{Policy: func(string) *policy.Policy { return yes }}), events)
			if a, b := mustJSON(t, direct["final"]), mustJSON(t, forwarded["final"]); a != b {
				t.Errorf("nothing blocked: through the proxy\n%s\ndirect\n%s", b, a)
			}
			skipRm := mustPolicy(t, `{"run": "skip"}`)
			blocked := nodeRun(t, node, k, New(Config{Policy: func(name string) *policy.Policy {
				if name == "rm" {
					return skipRm
				}
				return yes
			}}), events)
			all := mustJSON(t, blocked)
			// The notice names the call; no event holds it as a call.
			if strings.Contains(all, `"id":"call_rm"`) || strings.Contains(all, `"call_id":"call_rm"`) || strings.Contains(all, `recursive`) {
				t.Errorf("the blocked call reached the SDK:\n%s", all)
			}
			final := mustJSON(t, blocked["final"])
			if !strings.Contains(final, "was blocked") || !strings.Contains(final, "call_read") || !strings.Contains(final, `src/main.go`) {
				t.Errorf("the final message:\n%s", final)
			}
		})
	}
}

func mustJSON(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestNodeCustomToolCall: the openai Node SDK reads a Responses custom
// tool call (Codex's apply_patch) through the proxy: allowed, its final
// response is a direct connection's; blocked on its input while it
// streams, the input is in no event the SDK saw, and the notice is in the
// final response.
func TestNodeCustomToolCall(t *testing.T) {
	node := nodeClient(t)
	patch := "*** Begin Patch\n*** Update File: /etc/passwd\n+root::0:0\n*** End Patch"
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	item := func(input, status string) string {
		return `{"id":"ctc_1","type":"custom_tool_call","status":"` + status + `","call_id":"call_1","name":"apply_patch","input":` + q(input) + `}`
	}
	response := func(status, output string) string {
		return `"response":{"id":"resp_1","object":"response","created_at":1700000000,"status":"` + status + `","model":"gpt","output":[` + output + `]}`
	}
	data := []string{
		`{"type":"response.created","sequence_number":0,` + response("in_progress", "") + `}`,
		`{"type":"response.output_item.added","sequence_number":1,"output_index":0,"item":` + item("", "in_progress") + `}`,
		`{"type":"response.custom_tool_call_input.delta","sequence_number":2,"item_id":"ctc_1","output_index":0,"delta":` + q(patch[:30]) + `}`,
		`{"type":"response.custom_tool_call_input.delta","sequence_number":3,"item_id":"ctc_1","output_index":0,"delta":` + q(patch[30:]) + `}`,
		`{"type":"response.custom_tool_call_input.done","sequence_number":4,"item_id":"ctc_1","output_index":0,"input":` + q(patch) + `}`,
		`{"type":"response.output_item.done","sequence_number":5,"output_index":0,"item":` + item(patch, "completed") + `}`,
		`{"type":"response.completed","sequence_number":6,` + response("completed", item(patch, "completed")) + `}`,
	}
	var events [][]byte
	for _, d := range data {
		events = append(events, []byte(wiretest.TypedSSE(d)))
	}
	direct := nodeRun(t, node, wire.OpenAIResponses, nil, events)
	yes := mustPolicy(t, `{"run": "unattended"}`)
	forwarded := nodeRun(t, node, wire.OpenAIResponses, New(Config{Policy: func(string) *policy.Policy { return yes }}), events)
	if a, b := mustJSON(t, direct["final"]), mustJSON(t, forwarded["final"]); a != b || !strings.Contains(a, "custom_tool_call") {
		t.Errorf("allowed: through the proxy\n%s\ndirect\n%s", b, a)
	}
	deny := mustPolicy(t, `{"run": [{"arg": "/input", "pattern": "Update File: /", "mode": "skip"}, {"mode": "unattended"}]}`)
	blocked := nodeRun(t, node, wire.OpenAIResponses, New(Config{Policy: func(string) *policy.Policy { return deny }}), events)
	if all := mustJSON(t, blocked); strings.Contains(all, "passwd") || strings.Contains(all, "custom_tool_call") {
		t.Errorf("blocked: the call reached the SDK:\n%s", all)
	}
	if final := mustJSON(t, blocked["final"]); !strings.Contains(final, `The call to the tool \"apply_patch\" (id \"call_1\") was blocked`) {
		t.Errorf("blocked: the final response:\n%s", final)
	}
}

// TestNodeDialect: the openai Node SDK reads, through the gateway with a
// dialect, the calls a Qwen3-Coder model wrote in its text as tool_calls,
// named, with ids and with arguments typed by the request's tools, and
// the prose as content; with a call blocked, the notice stands in its
// place and its arguments are in no event the SDK saw.
func TestNodeDialect(t *testing.T) {
	node := nodeClient(t)
	text := "Reading, then cleaning.\n" + qwenRead + "\n" + qwenRm
	var deltas []string
	for i := 0; i < len(text); i += 6 {
		deltas = append(deltas, text[i:min(i+6, len(text))])
	}
	events := frame(dataEvents(wiretest.RawChat(deltas, "stop")))
	yes, skipRoot := mustPolicy(t, `{"run": "unattended"}`), mustPolicy(t, `{"run": [{"arg": "/path", "prefix": "/", "mode": "skip"}, {"mode": "unattended"}]}`)
	type nodeCall struct {
		ID       string `json:"id"`
		Type     string `json:"type"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	}
	for _, pol := range []*policy.Policy{yes, skipRoot} {
		out := nodeRun(t, node, wire.OpenAIChat, New(Config{Dialect: dialect.Qwen, Policy: func(string) *policy.Policy { return pol }}), events, qwenTools)
		var final struct {
			Choices []struct {
				FinishReason string `json:"finish_reason"`
				Message      struct {
					Content   string     `json:"content"`
					ToolCalls []nodeCall `json:"tool_calls"`
				} `json:"message"`
			} `json:"choices"`
		}
		if err := json.Unmarshal([]byte(mustJSON(t, out["final"])), &final); err != nil || len(final.Choices) != 1 {
			t.Fatalf("%v: %v", out["final"], err)
		}
		ch := final.Choices[0]
		var calls []string
		for _, c := range ch.Message.ToolCalls {
			var args map[string]any
			if err := json.Unmarshal([]byte(c.Function.Arguments), &args); err != nil || c.Type != "function" || !strings.HasPrefix(c.ID, "call_") {
				t.Errorf("call %+v: %v", c, err)
			}
			calls = append(calls, fmt.Sprintf("%s %v", c.Function.Name, args))
		}
		want := []string{"read map[lines:20 path:src/main.go]", "rm map[path:/]"}
		blocked := pol == skipRoot
		if blocked {
			want = want[:1]
		}
		if !slices.Equal(calls, want) || ch.FinishReason != "tool_calls" || !strings.HasPrefix(ch.Message.Content, "Reading, then cleaning.\n") ||
			strings.Contains(ch.Message.Content, "<tool_call>") || strings.Contains(ch.Message.Content, `The call to the tool "rm"`) != blocked {
			t.Errorf("blocked %v: calls %q, want %q; finish %q; content %q", blocked, calls, want, ch.FinishReason, ch.Message.Content)
		}
		if blocked && strings.Contains(mustJSON(t, out["events"]), `"name":"rm"`) {
			t.Errorf("the blocked call in the events: %s", mustJSON(t, out["events"]))
		}
	}
}

// TestNodeDialectFamilies: the openai Node SDK reads the calls of every
// syntax of package dialect, as its Format writes them, through the
// gateway: the call to read with its typed arguments, the blocked rm's
// notice in its place.
func TestNodeDialectFamilies(t *testing.T) {
	node := nodeClient(t)
	skipRoot := mustPolicy(t, `{"run": [{"arg": "/path", "prefix": "/", "mode": "skip"}, {"mode": "unattended"}]}`)
	for _, name := range dialect.SyntaxNames() {
		syn, err := dialect.ParseSyntax(name)
		if err != nil {
			t.Fatal(err)
		}
		read, err1 := syn.Format("read", []byte(`{"path": "src/main.go", "lines": 20}`))
		rm, err2 := syn.Format("rm", []byte(`{"path": "/"}`))
		if err := errors.Join(err1, err2); err != nil {
			t.Fatal(err)
		}
		text := "Reading, then cleaning.\n" + string(read) + "\n" + string(rm)
		var deltas []string // whole characters, as a server sends them
		for len(text) > 0 {
			n := min(6, len(text))
			for n < len(text) && !utf8.RuneStart(text[n]) {
				n++
			}
			deltas, text = append(deltas, text[:n]), text[n:]
		}
		events := frame(dataEvents(wiretest.RawChat(deltas, "stop")))
		out := nodeRun(t, node, wire.OpenAIChat, New(Config{Dialect: syn, Policy: func(string) *policy.Policy { return skipRoot }}), events, qwenTools)
		var final struct {
			Choices []struct {
				FinishReason string `json:"finish_reason"`
				Message      struct {
					Content   string `json:"content"`
					ToolCalls []struct {
						Function struct{ Name, Arguments string } `json:"function"`
					} `json:"tool_calls"`
				} `json:"message"`
			} `json:"choices"`
		}
		if err := json.Unmarshal([]byte(mustJSON(t, out["final"])), &final); err != nil || len(final.Choices) != 1 {
			t.Fatalf("%s: %v: %v", name, out["final"], err)
		}
		ch := final.Choices[0]
		if len(ch.Message.ToolCalls) != 1 || ch.Message.ToolCalls[0].Function.Name != "read" ||
			ch.Message.ToolCalls[0].Function.Arguments != `{"path":"src/main.go","lines":20}` || ch.FinishReason != "tool_calls" ||
			!strings.HasPrefix(ch.Message.Content, "Reading, then cleaning.\n") || !strings.Contains(ch.Message.Content, `The call to the tool "rm"`) {
			t.Errorf("%s: %+v", name, ch)
		}
	}
}
