package anthropicsdk_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
	"github.com/argstream/argstream/sdk/anthropicsdk"
	"github.com/argstream/argstream/sdk/internal/check"
	"github.com/argstream/argstream/sdk/internal/replay"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire/anthropicstream"
	"github.com/google/go-cmp/cmp"
)

// anthropicRecordings is the number of Anthropic Messages recordings in
// testdata/llm_streams (INDEX.md: format A).
const anthropicRecordings = 10

// viaSDK streams body n of file through the SDK's client.Messages (or,
// with beta, client.Beta.Messages) and Feed (FeedBeta) into resp, and
// returns the outcomes of resp.End().
func viaSDK(t *testing.T, resp *toolcall.Response, file string, n int, beta bool) []check.Outcome {
	t.Helper()
	client := anthropic.NewClient(option.WithAPIKey("test"), option.WithHTTPClient(replay.Client(file, n)))
	ctx := context.Background()
	if beta {
		stream := client.Beta.Messages.NewStreaming(ctx, anthropic.BetaMessageNewParams{
			Model:     anthropic.ModelClaudeSonnet4_6,
			MaxTokens: 1024,
			Messages:  []anthropic.BetaMessageParam{anthropic.NewBetaUserMessage(anthropic.NewBetaTextBlock("Go."))},
		})
		defer stream.Close()
		for stream.Next() {
			if err := anthropicsdk.FeedBeta(resp, stream.Current()); err != nil {
				t.Fatalf("FeedBeta: %v", err)
			}
		}
		if err := stream.Err(); err != nil {
			t.Fatalf("beta stream: %v", err)
		}
	} else {
		stream := client.Messages.NewStreaming(ctx, anthropic.MessageNewParams{
			Model:     anthropic.ModelClaudeSonnet4_6,
			MaxTokens: 1024,
			Messages:  []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("Go."))},
		})
		defer stream.Close()
		for stream.Next() {
			if err := anthropicsdk.Feed(resp, stream.Current()); err != nil {
				t.Fatalf("Feed: %v", err)
			}
		}
		if err := stream.Err(); err != nil {
			t.Fatalf("stream: %v", err)
		}
	}
	return check.Outcomes(resp.End())
}

// TestRecordings: for every response of every Anthropic recording, the
// SDK's event loop with Feed, and with FeedBeta, gives the same results as
// the library's raw adapter (wire/anthropic Read) and as the recording
// read with encoding/json.
func TestRecordings(t *testing.T) {
	files, err := replay.Files(replay.Anthropic)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != anthropicRecordings {
		t.Fatalf("%d Anthropic recordings, want %d: %v", len(files), anthropicRecordings, files)
	}
	sdk, beta, raw := toolcall.New(), toolcall.New(), toolcall.New() // reused, as a client would
	for _, file := range files {
		bodies, err := replay.Bodies(file)
		if err != nil {
			t.Fatal(err)
		}
		calls := 0
		for n, body := range bodies {
			t.Run(fmt.Sprintf("%s/%d", file, n), func(t *testing.T) {
				want, err := check.Anthropic(body)
				if err != nil {
					t.Fatal(err)
				}
				calls += len(want)

				raw.Reset()
				// Read's error is not compared: the SDK does not report a
				// stream that ends before message_stop (the
				// anthropic-sdk-python recordings lack its final blank line).
				rawErr := anthropicstream.Read(context.Background(), bytes.NewReader(body), raw)
				fromRaw := check.Outcomes(raw.End())
				sdk.Reset()
				fromSDK := viaSDK(t, sdk, file, n, false)
				beta.Reset()
				fromBeta := viaSDK(t, beta, file, n, true)

				if diff := cmp.Diff(fromRaw, fromSDK); diff != "" {
					t.Errorf("Feed (-wire/anthropic +SDK):\n%s", diff)
				}
				if diff := cmp.Diff(fromRaw, fromBeta); diff != "" {
					t.Errorf("FeedBeta (-wire/anthropic +SDK beta):\n%s", diff)
				}
				if diff := cmp.Diff(want, check.Failed(fromSDK)); diff != "" {
					t.Errorf("Feed (-encoding/json +SDK):\n%s", diff)
				}
				t.Logf("Read: %v; %+v", rawErr, fromSDK)
			})
		}
		if calls == 0 {
			t.Errorf("%s: no tool call in the recording", file)
		}
	}
}
