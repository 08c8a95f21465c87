package openaisdk_test

import (
	"context"
	"fmt"

	"github.com/argstream/argstream/sdk/internal/replay"
	"github.com/argstream/argstream/sdk/openaisdk"
	"github.com/argstream/argstream/toolcall"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
)

// The SDK's own Chat Completions streaming loop, each chunk fed to a
// toolcall.Response. The client is answered with a recorded response
// (replay.Client stands in for the API) in which the model calls two tools
// in parallel, each call's arguments streaming under its own index.
func ExampleFeedChat() {
	client := openai.NewClient(
		option.WithAPIKey("test"),
		option.WithHTTPClient(replay.Client("openai-python__test_parse_multiple_pydantic_tools__f82268f2.sse", 0)),
	)
	stream := client.Chat.Completions.NewStreaming(context.Background(), openai.ChatCompletionNewParams{
		Model: openai.ChatModelGPT5_4,
		Messages: []openai.ChatCompletionMessageParamUnion{
			openai.UserMessage("What's the weather in Edinburgh, and the price of AAPL?"),
		},
	})
	defer stream.Close()

	resp := toolcall.New()
	for stream.Next() {
		if err := openaisdk.FeedChat(resp, stream.Current(), 0); err != nil {
			panic(err) // only an index out of range
		}
	}
	if err := stream.Err(); err != nil {
		fmt.Println("stream:", err)
	}
	for _, res := range resp.End() { // in index order; End closes the calls
		show(res)
	}
	resp.Reset() // for the next response

	// Output:
	// 0 call_JMW1whyEaYG438VE1OIflxA2 GetWeatherArgs {"city":"Edinburgh","country":"GB","units":"c"} run: true
	// 1 call_DNYTawLBoN8fj3KN6qU9N1Ou get_stock_price {"ticker":"AAPL","exchange":"NASDAQ"} run: true
}

// The SDK's own Responses streaming loop, each event fed to a
// toolcall.Response: here one function call, at output index 0.
func ExampleFeedResponses() {
	client := openai.NewClient(
		option.WithAPIKey("test"),
		option.WithHTTPClient(replay.Client("pydantic-ai__cassettes__test_openai_responses__test_openai_responses_stream.sse", 0)),
	)
	stream := client.Responses.NewStreaming(context.Background(), responses.ResponseNewParams{
		Model: openai.ChatModelGPT5_4,
		Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("What is the capital of France?")},
	})
	defer stream.Close()

	resp := toolcall.New()
	for stream.Next() {
		if err := openaisdk.FeedResponses(resp, stream.Current()); err != nil {
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
	// 0 call_kL0PCQV7M2WMoVX8V8OtYSAL get_capital {"country":"France"} run: true
}

// show prints a call's result: its index, id and name, its arguments or
// what became of it, and whether it may run.
func show(res toolcall.Result) {
	what := string(res.Arguments)
	switch {
	case res.Declined:
		what = "declined"
	case res.Err != nil:
		what = "error: " + res.Err.Error()
	}
	fmt.Printf("%d %s %s %s run: %v\n", res.Call.Index, res.Call.ID, res.Call.Name, what, res.Executable)
}
