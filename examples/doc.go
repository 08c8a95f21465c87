// Package examples is the root of argstream's examples module, which glues
// the streaming event loops of the official Go SDKs to argstream's
// toolcall.Response. It has its own go.mod so that argstream itself never
// depends on an SDK: a user already on an SDK copies, or imports, a
// handful of lines.
//
//   - Package anthropicsdk: Feed, for client.Messages.NewStreaming of
//     github.com/anthropics/anthropic-sdk-go, and FeedBeta for
//     client.Beta.Messages.NewStreaming.
//   - Package openaisdk: FeedChat, for client.Chat.Completions.NewStreaming
//     of github.com/openai/openai-go/v3, and FeedResponses for
//     client.Responses.NewStreaming.
//
// The loop is the SDK's own; each event goes to the glue, and the calls'
// Results come from End after the loop:
//
//	resp := toolcall.New(options...) // sinks, policies, OnDecision
//	for stream.Next() {
//		if err := anthropicsdk.Feed(resp, stream.Current()); err != nil {
//			return err // only toolcall.ErrIndex or toolcall.ErrEnded
//		}
//	}
//	if err := stream.Err(); err != nil {
//		... // the calls still open come out of End truncated, never executable
//	}
//	for _, res := range resp.End() {
//		if res.Executable {
//			run(res.Call, res.Arguments)
//		}
//	}
//	resp.Reset() // for the next response
//
// Each package's examples run a real SDK client against a recorded
// response of testdata/llm_streams, which an http.RoundTripper of the
// module's internal/replay package answers in place of the API; its tests
// check the glue on every recording of its API against the raw wire
// adapters of argstream (wire/anthropic, wire/openai) and against what the
// recordings hold, read with encoding/json. Run them with
//
//	cd examples && go test ./...
package examples
