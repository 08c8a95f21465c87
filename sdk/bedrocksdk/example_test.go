package bedrocksdk_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/argstream/argstream/sdk/bedrocksdk"
	"github.com/argstream/argstream/toolcall"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime/types"
)

// The SDK's own loop over ConverseStream's events, each fed to a
// toolcall.Response. An httptest server stands in for Bedrock: a text
// block, then a call whose input streams in three deltas.
func Example() {
	body := join(msgStart(),
		textDelta(0, "Let me look."), blockStop(0),
		toolStart(1, "tooluse_1", "read_file"),
		toolDelta(1, `{"path":`), toolDelta(1, ` "src/`), toolDelta(1, `main.go"}`), blockStop(1),
		msgStop("tool_use"), metadata())
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/vnd.amazon.eventstream")
		w.Write(body)
	}))
	defer srv.Close()

	client := bedrockruntime.New(bedrockruntime.Options{
		Region:       "us-east-1",
		BaseEndpoint: aws.String(srv.URL),
		Credentials:  fakeCredentials,
	}, func(o *bedrockruntime.Options) {
		// A server that answers at once (this one, a local fake) needs it:
		// see HTTPClient.
		o.HTTPClient = bedrocksdk.HTTPClient(o.HTTPClient)
	})
	out, err := client.ConverseStream(context.Background(), &bedrockruntime.ConverseStreamInput{
		ModelId:  aws.String("test-model"),
		Messages: []types.Message{{Role: types.ConversationRoleUser, Content: []types.ContentBlock{&types.ContentBlockMemberText{Value: "Show me main.go"}}}},
	})
	if err != nil {
		panic(err)
	}
	stream := out.GetStream()
	defer stream.Close()

	resp := toolcall.New() // sinks, policies, OnDecision: see package toolcall
	for ev := range stream.Events() {
		if d, ok := ev.(*types.ConverseStreamOutputMemberContentBlockDelta); ok {
			if text, ok := d.Value.Delta.(*types.ContentBlockDeltaMemberText); ok {
				fmt.Println("text:", text.Value)
			}
		}
		if err := bedrocksdk.Feed(resp, ev); err != nil {
			panic(err)
		}
	}
	if err := stream.Err(); err != nil {
		fmt.Println("stream:", err) // the calls still open come out of End truncated
	}
	for _, res := range resp.End() { // in index order
		fmt.Printf("%d %s %s %s run: %v\n", res.Call.Index, res.Call.ID, res.Call.Name, res.Arguments, res.Executable)
	}
	resp.Reset() // for the next response

	// Output:
	// text: Let me look.
	// 1 tooluse_1 read_file {"path":"src/main.go"} run: true
}
