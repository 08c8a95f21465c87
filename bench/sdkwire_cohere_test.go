package bench

import (
	"context"
	"errors"
	"io"
	"os"
	"testing"

	cohere "github.com/cohere-ai/cohere-go/v2"
)

// TestCohereSDKRecv checks what cohereSDK's comment says of cohere-go's
// Stream.Recv: on a recording framed as Cohere sends it, Recv fails with a
// JSON error before it has read every event (where its buffer ends inside
// an event, or at the last blank line), so the benchmark decodes the
// events with the SDK's types but splits the lines itself.
func TestCohereSDKRecv(t *testing.T) {
	chunks, err := os.ReadFile(SDKWireRecordings[WireCohere][0])
	if err != nil {
		t.Fatal(err)
	}
	body, err := frameTyped(chunks)
	if err != nil {
		t.Fatal(err)
	}
	p := newCohereSDK().(*cohereSDK)
	p.hc.body = body
	stream, err := p.client.V2.ChatStream(context.Background(), &cohere.V2ChatStreamRequest{Model: "command-a-03-2025"})
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Close()
	events, ended := 0, false
	for {
		ev, err := stream.Recv()
		if err != nil {
			if errors.Is(err, io.EOF) {
				t.Fatalf("Recv read the %d events and ended cleanly: the benchmark could use it", events)
			}
			t.Logf("Recv failed after %d events (message-end read: %v): %v", events, ended, err)
			return
		}
		events++
		ended = ended || ev.MessageEnd != nil
	}
}
