package guard_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"

	"github.com/argstream/argstream/guard"
	"github.com/argstream/argstream/policy"
	"github.com/argstream/argstream/wire"
)

// The policy of the examples: write_file runs unattended under src/, and
// is skipped anywhere else.
func writeFilePolicy(name string) *policy.Policy {
	if name != "write_file" {
		return nil // forwarded unjudged
	}
	p, _, err := policy.Parse([]byte(`{"run": [{"arg": "/path", "prefix": "src/", "mode": "unattended"}, {"mode": "skip"}], "paths": ["/path"]}`))
	if err != nil {
		panic(err)
	}
	return p
}

// An Anthropic response whose call the policy skips, filtered: the client
// reads a text block with the notice in the call's place, and the
// response's closing events; the upstream is cancelled at the decision,
// byte 22 of the arguments.
func ExampleGuard_Filter() {
	upstream := "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[]}}\n\n" +
		"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"write_file\",\"input\":{}}}\n\n" +
		"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"path\\\": \\\"/etc/passwd\\\", \"}}\n\n" +
		"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"\\\"content\\\": \\\"root::0:0\\\"}\"}}\n\n"
	g := guard.New(guard.Config{
		Policy: writeFilePolicy,
		OnCall: func(r guard.Record) {
			fmt.Printf("%s %s: %s, decided at byte %d, upstream cancelled: %v\n", r.Call.Name, r.Call.ID, r.Action, r.DecidedAt, r.UpstreamCancelled)
		},
	})
	body := g.Filter(wire.Anthropic, io.NopCloser(strings.NewReader(upstream)), func() { fmt.Println("(the upstream request is cancelled)") })
	out, _ := io.ReadAll(body)
	fmt.Printf("%s", out)
	// Output:
	// (the upstream request is cancelled)
	// write_file toolu_1: blocked, decided at byte 22, upstream cancelled: true
	// event: message_start
	// data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[]}}
	//
	// event: content_block_start
	// data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}
	//
	// event: content_block_delta
	// data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"[argstream gateway] The call to the tool \"write_file\" (id \"toolu_1\") was blocked and did not run: policy rule 1 decided skip."}}
	//
	// event: content_block_stop
	// data: {"type":"content_block_stop","index":0}
	//
	// event: message_delta
	// data: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":0}}
	//
	// event: message_stop
	// data: {"type":"message_stop"}
}

// A Go program's SDK client behind the gateway: its http.Client's
// Transport. Pass the client to the SDK (anthropic-sdk-go and openai-go:
// option.WithHTTPClient(client)).
func ExampleTransport() {
	g := guard.New(guard.Config{Policy: writeFilePolicy})
	client := &http.Client{Transport: &guard.Transport{Guard: g}}
	_ = client
}

// The gateway as an http.Handler in a server of your own, in front of the
// provider's API (here a test server answering one message, not a
// stream): a request keeps its path and query, and a response that is not
// a stream is judged whole.
func ExampleNewProxy() {
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Println("the API gets", r.Method, r.URL)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"write_file","input":{"path":"/etc/passwd","content":"x"}}],"stop_reason":"tool_use"}`)
	}))
	defer api.Close()
	upstream, _ := url.Parse(api.URL)

	g := guard.New(guard.Config{Policy: writeFilePolicy})
	gateway := httptest.NewServer(guard.NewProxy(upstream, g)) // or http.ListenAndServe("127.0.0.1:8787", ...)
	defer gateway.Close()

	resp, err := http.Post(gateway.URL+"/v1/messages?beta=true", "application/json", strings.NewReader(`{"model":"claude","max_tokens":100,"messages":[]}`))
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Printf("%s\n", body)
	// Output:
	// the API gets POST /v1/messages?beta=true
	// {"id":"msg_1","type":"message","role":"assistant","content":[{"type":"text","text":"[argstream gateway] The call to the tool \"write_file\" (id \"toolu_1\") was blocked and did not run: policy rule 1 decided skip."}],"stop_reason":"end_turn"}
}
