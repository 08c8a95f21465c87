package openaistream_test

import (
	"context"
	"fmt"
	"os"

	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire"
	"github.com/argstream/argstream/wire/openaistream"
)

// ReadChat reads a recorded stream: Claude behind an OpenAI-compatible Chat
// Completions endpoint, which writes a sentence and then calls read_file as
// its tool call of index 1.
func ExampleReadChat() {
	body, err := os.Open("../../testdata/llm_streams/vercel-ai__openai-compatible__anthropic-fallback-tool-call.sse")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer body.Close()

	resp := toolcall.New()
	err = openaistream.ReadChat(context.Background(), body, resp,
		wire.OnText(func(choice int64, text []byte) { fmt.Printf("text: %q\n", text) }))
	if err != nil {
		fmt.Println("error:", err)
	}
	// The recording ends without the blank line after "data: [DONE]": that
	// event is cut off, and dropped, as the SDKs drop it; the response had
	// its finish_reason, and is complete.
	for _, r := range resp.End() {
		fmt.Println(r.Call.Index, r.Call.Name, string(r.Arguments), r.Executable)
	}
	// Output:
	// text: "Reading"
	// text: " it."
	// 1 read_file {"path":"a.txt"} true
}
