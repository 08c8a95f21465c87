package openaistream_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"

	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire"
	"github.com/argstream/argstream/wire/openaistream"
)

// ExampleReadResponses reads a recorded Responses API stream (gpt-4o
// calling get_capital, from pydantic-ai's test cassettes), as it would read
// the body of the HTTP response. The recording holds two responses, the
// second the model's answer once it has the tool's result: ReadResponses
// returns at the end of the first.
func ExampleReadResponses() {
	// The first of the two responses the recording holds: the events of a
	// second response after response.completed would be malformed.
	body, err := firstResponse("../../testdata/llm_streams/pydantic-ai__cassettes__test_openai_responses__test_openai_responses_stream.sse")
	if err != nil {
		fmt.Println(err)
		return
	}

	resp := toolcall.New()
	err = openaistream.ReadResponses(context.Background(), body, resp,
		// The first response has no text: this prints nothing.
		wire.OnText(func(index int64, text []byte) { fmt.Printf("text %d: %s\n", index, text) }))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range resp.End() {
		fmt.Println(r.Call.Index, r.Call.ID, r.Call.Name, string(r.Arguments), r.Executable)
	}
	// Output:
	// 0 call_kL0PCQV7M2WMoVX8V8OtYSAL get_capital {"country":"France"} true
}

// firstResponse returns the recording's bytes up to its second
// interaction, as pydantic-ai's cassettes mark them.
func firstResponse(name string) (io.Reader, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	if i := bytes.Index(b, []byte("\n: interaction 1")); i >= 0 {
		b = b[:i+1]
	}
	return bytes.NewReader(b), nil
}
