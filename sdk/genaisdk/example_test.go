package genaisdk_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/argstream/argstream/sdk/genaisdk"
	"github.com/argstream/argstream/toolcall"
	"google.golang.org/genai"
)

// The SDK's own streaming loop, each response fed to a toolcall.Response
// through a Feeder. An httptest server stands in for Vertex AI with
// streamFunctionCallArguments: the first call comes whole, the second
// streams its arguments over several parts (partialArgs), which the
// Feeder writes as one JSON text as they come.
func Example() {
	events := []string{
		`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"id":"c1","name":"read_theme","args":{"dark":true}}}]},"index":0}]}`,
		`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"id":"c2","name":"cookRecipe","willContinue":true}}]},"index":0}]}`,
		`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"partialArgs":[{"jsonPath":"$.recipe.steps[0]","stringValue":"Preheat","willContinue":true}],"willContinue":true}}]},"index":0}]}`,
		`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"partialArgs":[{"jsonPath":"$.recipe.steps[0]","stringValue":" the oven."}],"willContinue":true}}]},"index":0}]}`,
		`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"partialArgs":[{"jsonPath":"$.recipe.serves","numberValue":4}],"willContinue":true}}]},"index":0}]}`,
		`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{}}]},"finishReason":"STOP","index":0}]}`,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for _, ev := range events {
			fmt.Fprintf(w, "data: %s\n\n", ev)
			w.(http.Flusher).Flush()
		}
	}))
	defer srv.Close()

	ctx := context.Background()
	client, err := genai.NewClient(ctx, &genai.ClientConfig{
		APIKey:      "test",
		Backend:     genai.BackendGeminiAPI,
		HTTPOptions: genai.HTTPOptions{BaseURL: srv.URL + "/"},
	})
	if err != nil {
		panic(err)
	}

	resp := toolcall.New() // sinks, policies, OnDecision: see package toolcall
	f := genaisdk.NewFeeder(resp)
	for chunk, err := range client.Models.GenerateContentStream(ctx, "gemini-2.5-flash", genai.Text("Dark mode, then lasagna."), nil) {
		if err != nil {
			fmt.Println("stream:", err) // the calls still open come out of End truncated
			break
		}
		if err := f.Feed(chunk); err != nil {
			panic(err)
		}
	}
	for _, res := range resp.End() { // in index order
		fmt.Printf("%d %s %s %s run: %v\n", res.Call.Index, res.Call.ID, res.Call.Name, res.Arguments, res.Executable)
	}
	resp.Reset()
	f.Reset(resp) // for the next response

	// Output:
	// 0 c1 read_theme {"dark":true} run: true
	// 1 c2 cookRecipe {"recipe":{"steps":["Preheat the oven."],"serves":4}} run: true
}
