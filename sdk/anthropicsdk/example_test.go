package anthropicsdk_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/policy"
	"github.com/argstream/argstream/sdk/anthropicsdk"
	"github.com/argstream/argstream/sdk/internal/replay"
	"github.com/argstream/argstream/toolcall"
)

// The SDK's own streaming loop, each event fed to a toolcall.Response. The
// client is answered with a recorded response of programmatic tool calling
// (replay.Client stands in for the API): a code_execution call whose code
// streams, then a rollDie call that the code makes, whose input comes whole
// in its block's start, with no delta.
func Example() {
	client := anthropic.NewClient(
		option.WithAPIKey("test"),
		option.WithHTTPClient(replay.Client("vercel-ai__anthropic__anthropic-programmatic-tool-calling.1.chunks.txt", 0)),
	)
	stream := client.Messages.NewStreaming(context.Background(), anthropic.MessageNewParams{
		Model:     anthropic.ModelClaudeSonnet4_6,
		MaxTokens: 4096,
		Messages: []anthropic.MessageParam{
			anthropic.NewUserMessage(anthropic.NewTextBlock("Play a dice game: who wins three rounds first?")),
		},
	})
	defer stream.Close()

	resp := toolcall.New()
	for stream.Next() {
		if err := anthropicsdk.Feed(resp, stream.Current()); err != nil {
			panic(err) // only an index out of range
		}
	}
	if err := stream.Err(); err != nil {
		fmt.Println("stream:", err)
	}
	for _, res := range resp.End() { // in index order
		show(res)
	}
	resp.Reset() // for the next response

	// Output:
	// 1 srvtoolu_01MzSrFWsmzBdcoQkGWLyRjK code_execution {"code":"\nimport asyncio... (2025 bytes) run: by the provider
	// 2 toolu_019jKkXz4jAdwHweHBw92CVY rollDie {"player":"player1"} run: true
}

// A policy decides while the arguments stream: an editor operation that
// inserts or deletes asks the user first. The user answers no at the
// prompt, before the rest of the arguments has come; no other call is
// pending, so the response is cancelled, and its stream ends with the
// context's error.
func Example_decline() {
	editor, _, err := policy.Parse([]byte(`{"run": [
		{"arg": "/operations/op", "enum": ["insert", "delete"], "mode": "ask"},
		{"mode": "unattended"}]}`))
	if err != nil {
		panic(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	resp := toolcall.New(
		toolcall.WithPolicy(func(name string) *policy.Policy {
			if name == "executeEditorOperation" {
				return editor
			}
			return nil
		}),
		toolcall.OnDecision(func(r *toolcall.Response, c fragment.Call, d policy.Decision, at int64) {
			fmt.Printf("%s: %v after %d bytes\n", c.Name, d, at)
			if d.Mode == policy.Ask { // prompt now; say the user answers no
				if r.Decline(c.Index) {
					fmt.Println("no other call pending: cancel the response")
					cancel()
				}
			}
		}))

	client := anthropic.NewClient(
		option.WithAPIKey("test"),
		option.WithHTTPClient(replay.Client("vercel-ai__anthropic__anthropic-tool-search-deferred-regex.chunks.txt", 1)),
	)
	stream := client.Messages.NewStreaming(ctx, anthropic.MessageNewParams{
		Model:     anthropic.ModelClaudeSonnet4_6,
		MaxTokens: 4096,
		Messages: []anthropic.MessageParam{
			anthropic.NewUserMessage(anthropic.NewTextBlock(`Add a bullet "bye" to my note.`)),
		},
	})
	defer stream.Close()

	for stream.Next() {
		if err := anthropicsdk.Feed(resp, stream.Current()); err != nil {
			panic(err)
		}
	}
	if err := stream.Err(); errors.Is(err, context.Canceled) {
		fmt.Println("stream: cancelled")
	}
	for _, res := range resp.End() {
		show(res)
	}

	// Output:
	// executeEditorOperation: ask (rule 0) after 89 bytes
	// no other call pending: cancel the response
	// stream: cancelled
	// 2 toolu_01UFHf8D27JBYu9FmrcjJk1p executeEditorOperation declined run: false
}

// FeedBeta reads the events of client.Beta.Messages, the API of the beta
// features: here an MCP connector's tool call (an mcp_tool_use block).
func ExampleFeedBeta() {
	client := anthropic.NewClient(
		option.WithAPIKey("test"),
		option.WithHTTPClient(replay.Client("pydantic-ai__cassettes__test_anthropic__test_anthropic_mcp_servers_stream.sse", 0)),
	)
	stream := client.Beta.Messages.NewStreaming(context.Background(), anthropic.BetaMessageNewParams{
		Model:     anthropic.ModelClaudeSonnet4_6,
		MaxTokens: 4096,
		Messages: []anthropic.BetaMessageParam{
			anthropic.NewBetaUserMessage(anthropic.NewBetaTextBlock("What is the pydantic/pydantic-ai repository about?")),
		},
	})
	defer stream.Close()

	resp := toolcall.New()
	for stream.Next() {
		if err := anthropicsdk.FeedBeta(resp, stream.Current()); err != nil {
			panic(err)
		}
	}
	if err := stream.Err(); err != nil {
		fmt.Println("stream:", err)
	}
	for _, res := range resp.End() {
		show(res)
	}

	// Output:
	// 1 mcptoolu_01FZmJ5UspaX5BB9uU339UT1 ask_question {"repoName":"pydantic/pydantic-ai","question":"What is this repository about? What are its main features and purpose?"} run: by the provider
}

// show prints a call's result: its index, id and name, its arguments (the
// beginning of long ones) or what became of it, and whether it may run.
func show(res toolcall.Result) {
	what := string(res.Arguments)
	switch {
	case res.Declined:
		what = "declined"
	case res.Err != nil:
		what = "error: " + res.Err.Error()
	case len(what) > 120:
		what = fmt.Sprintf("%s... (%d bytes)", what[:25], len(what))
	}
	run := fmt.Sprint(res.Executable)
	if res.Call.Server {
		run = "by the provider"
	}
	fmt.Printf("%d %s %s %s run: %s\n", res.Call.Index, res.Call.ID, res.Call.Name, what, run)
}
