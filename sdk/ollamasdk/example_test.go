package ollamasdk_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"

	"github.com/argstream/argstream/sdk/ollamasdk"
	"github.com/argstream/argstream/toolcall"
	"github.com/ollama/ollama/api"
)

// The SDK's own streaming loop, each response fed to a toolcall.Response
// through a Feeder. An httptest server stands in for Ollama's /api/chat: a
// line of text, then a line of two calls, each whole (Ollama leaves
// function.index 0 for both: the Feeder numbers them by their order), then
// the done line.
func Example() {
	lines := []string{
		`{"model":"qwen3","created_at":"2025-07-07T20:22:19.184789Z","message":{"role":"assistant","content":"Let me look."},"done":false}`,
		`{"model":"qwen3","created_at":"2025-07-07T20:22:19.19314Z","message":{"role":"assistant","content":"","tool_calls":[` +
			`{"id":"call_k3bz8w1q","function":{"index":0,"name":"read_file","arguments":{"path":"go.mod"}}},` +
			`{"id":"call_p0x7a2mc","function":{"index":0,"name":"search","arguments":{"query":"func main","limit":5}}}]},"done":false}`,
		`{"model":"qwen3","created_at":"2025-07-07T20:22:19.2Z","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop"}`,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/x-ndjson")
		for _, l := range lines {
			fmt.Fprintln(w, l)
			w.(http.Flusher).Flush()
		}
	}))
	defer srv.Close()
	base, err := url.Parse(srv.URL)
	if err != nil {
		panic(err)
	}
	client := api.NewClient(base, http.DefaultClient)

	resp := toolcall.New() // sinks, policies, OnDecision: see package toolcall
	f := ollamasdk.NewFeeder(resp)
	err = client.Chat(context.Background(), &api.ChatRequest{
		Model:    "qwen3",
		Messages: []api.Message{{Role: "user", Content: "What does main do?"}},
	}, func(cr api.ChatResponse) error {
		if cr.Message.Content != "" {
			fmt.Println("text:", cr.Message.Content)
		}
		return f.Feed(cr)
	})
	if err != nil || !f.Done() {
		fmt.Println("cut short:", err) // the calls read so far are whole
	}
	for _, res := range resp.End() { // in index order
		fmt.Printf("%d %s %s %s run: %v\n", res.Call.Index, res.Call.ID, res.Call.Name, res.Arguments, res.Executable)
	}
	resp.Reset()
	f.Reset(resp) // for the next response

	// Output:
	// text: Let me look.
	// 0 call_k3bz8w1q read_file {"path":"go.mod"} run: true
	// 1 call_p0x7a2mc search {"query":"func main","limit":5} run: true
}
