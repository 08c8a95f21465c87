package openaisdk_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/argstream/argstream/sdk/internal/check"
	"github.com/argstream/argstream/sdk/internal/replay"
	"github.com/argstream/argstream/sdk/openaisdk"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire/openaistream"
	"github.com/google/go-cmp/cmp"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
)

// The numbers of recordings of each wire in testdata/llm_streams (INDEX.md:
// formats C and R).
const (
	chatRecordings      = 7
	responsesRecordings = 4
)

// eachBody calls fn for each response body of each recording of wire.
func eachBody(t *testing.T, wire replay.Wire, want int, fn func(t *testing.T, file string, n int, body []byte) (calls int)) {
	files, err := replay.Files(wire)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != want {
		t.Fatalf("%d %v recordings, want %d: %v", len(files), wire, want, files)
	}
	for _, file := range files {
		bodies, err := replay.Bodies(file)
		if err != nil {
			t.Fatal(err)
		}
		calls := 0
		for n, body := range bodies {
			t.Run(fmt.Sprintf("%s/%d", file, n), func(t *testing.T) { calls += fn(t, file, n, body) })
		}
		if calls == 0 {
			t.Errorf("%s: no tool call in the recording", file)
		}
	}
}

func chatViaSDK(t *testing.T, resp *toolcall.Response, file string, n int) []check.Outcome {
	t.Helper()
	client := openai.NewClient(option.WithAPIKey("test"), option.WithHTTPClient(replay.Client(file, n)))
	stream := client.Chat.Completions.NewStreaming(context.Background(), openai.ChatCompletionNewParams{
		Model:    openai.ChatModelGPT5_4,
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Go.")},
	})
	defer stream.Close()
	for stream.Next() {
		if err := openaisdk.FeedChat(resp, stream.Current(), 0); err != nil {
			t.Fatalf("FeedChat: %v", err)
		}
	}
	if err := stream.Err(); err != nil {
		t.Fatalf("stream: %v", err)
	}
	return check.Outcomes(resp.End())
}

func responsesViaSDK(t *testing.T, resp *toolcall.Response, file string, n int) []check.Outcome {
	t.Helper()
	client := openai.NewClient(option.WithAPIKey("test"), option.WithHTTPClient(replay.Client(file, n)))
	stream := client.Responses.NewStreaming(context.Background(), responses.ResponseNewParams{
		Model: openai.ChatModelGPT5_4,
		Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("Go.")},
	})
	defer stream.Close()
	for stream.Next() {
		if err := openaisdk.FeedResponses(resp, stream.Current()); err != nil {
			t.Fatalf("FeedResponses: %v", err)
		}
	}
	if err := stream.Err(); err != nil {
		t.Fatalf("stream: %v", err)
	}
	return check.Outcomes(resp.End())
}

// TestChatRecordings: for every response of every Chat Completions
// recording, the SDK's event loop with FeedChat gives the calls that the
// recording read with encoding/json holds: ids, names, arguments, and
// whether they may run.
func TestChatRecordings(t *testing.T) {
	resp := toolcall.New() // reused, as a client would
	eachBody(t, replay.Chat, chatRecordings, func(t *testing.T, file string, n int, body []byte) int {
		want, err := check.Chat(body, 0)
		if err != nil {
			t.Fatal(err)
		}
		resp.Reset()
		got := chatViaSDK(t, resp, file, n)
		if diff := cmp.Diff(want, check.Failed(got)); diff != "" {
			t.Errorf("FeedChat (-encoding/json +SDK):\n%s", diff)
		}
		t.Logf("%+v", got)
		return len(want)
	})
}

// TestResponsesRecordings is TestChatRecordings for the Responses API and
// FeedResponses.
func TestResponsesRecordings(t *testing.T) {
	resp := toolcall.New()
	eachBody(t, replay.Responses, responsesRecordings, func(t *testing.T, file string, n int, body []byte) int {
		want, err := check.Responses(body)
		if err != nil {
			t.Fatal(err)
		}
		resp.Reset()
		got := responsesViaSDK(t, resp, file, n)
		if diff := cmp.Diff(want, check.Failed(got)); diff != "" {
			t.Errorf("FeedResponses (-encoding/json +SDK):\n%s", diff)
		}
		t.Logf("%+v", got)
		return len(want)
	})
}

// TestChatRaw: the SDK's loop with FeedChat gives the same results as the
// library's raw adapter, wire/openaistream ReadChat. Read's error is not compared: the
// SDK does not report a stream that ends without data: [DONE] (the vercel/ai
// chunk recordings have none).
func TestChatRaw(t *testing.T) {
	sdk, raw := toolcall.New(), toolcall.New()
	eachBody(t, replay.Chat, chatRecordings, func(t *testing.T, file string, n int, body []byte) int {
		raw.Reset()
		err := openaistream.ReadChat(context.Background(), bytes.NewReader(body), raw)
		fromRaw := check.Outcomes(raw.End())
		sdk.Reset()
		if diff := cmp.Diff(fromRaw, chatViaSDK(t, sdk, file, n)); diff != "" {
			t.Errorf("FeedChat (-wire/openaistream +SDK):\n%s", diff)
		}
		t.Logf("ReadChat: %v", err)
		return len(fromRaw)
	})
}

// TestResponsesRaw is TestChatRaw for wire/openaistream ReadResponses and
// FeedResponses.
func TestResponsesRaw(t *testing.T) {
	sdk, raw := toolcall.New(), toolcall.New()
	eachBody(t, replay.Responses, responsesRecordings, func(t *testing.T, file string, n int, body []byte) int {
		raw.Reset()
		err := openaistream.ReadResponses(context.Background(), bytes.NewReader(body), raw)
		fromRaw := check.Outcomes(raw.End())
		sdk.Reset()
		if diff := cmp.Diff(fromRaw, responsesViaSDK(t, sdk, file, n)); diff != "" {
			t.Errorf("FeedResponses (-wire/openaistream +SDK):\n%s", diff)
		}
		t.Logf("ReadResponses: %v", err)
		return len(fromRaw)
	})
}
