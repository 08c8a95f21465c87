// Package anthropicsdk glues the streaming event loop of the official
// Anthropic Go SDK (github.com/anthropics/anthropic-sdk-go) to a
// toolcall.Response: Feed takes each event of client.Messages.NewStreaming,
// FeedBeta each of client.Beta.Messages.NewStreaming (MCP connectors and
// the other beta features).
//
//	stream := client.Messages.NewStreaming(ctx, params)
//	defer stream.Close()
//	for stream.Next() {
//		if err := anthropicsdk.Feed(resp, stream.Current()); err != nil {
//			return err // toolcall.ErrIndex or toolcall.ErrEnded only
//		}
//	}
//	err := stream.Err()
//	for _, res := range resp.End() { ... }
//
// # Install
//
// This package is its own module, github.com/argstream/argstream/sdk/anthropicsdk,
// so that argstream itself never depends on an SDK:
//
//	go get github.com/argstream/argstream/sdk/anthropicsdk@latest
//
// It requires github.com/anthropics/anthropic-sdk-go v1.84.0 (the version
// its tests run against; your go.mod may select a newer one) and
// github.com/argstream/argstream. Its releases are tagged
// sdk/anthropicsdk/vX.Y.Z, apart from the library's vX.Y.Z tags; the
// replace directives of its go.mod serve development in the argstream
// repository only, since Go ignores a replace in a dependency's go.mod
// (sdk/README.md says how a release sets the required versions).
//
// # What Feed does
//
// Feed is a few lines: copy it rather than import this module, if you
// prefer. It does what wire/anthropicstream's Read does with the raw bytes, and
// the tests check that both give the same Results on every Anthropic
// recording of testdata/llm_streams: a tool block's start (tool_use,
// server_tool_use, mcp_tool_use) is Start with the block's input JSON as
// it came (the SDK keeps it: ContentBlock.JSON.Input.Raw()), so that an
// input given whole at the start, as the calls a program makes in
// programmatic tool calling, is the call's arguments, and an input {} is
// the placeholder that deltas follow; an input_json_delta is ChunkString;
// a block's stop is Stop, which ignores the blocks that are not calls.
// Text and thinking deltas are left to the loop: show them there.
//
// What the SDK's stream does not say:
//
//   - It ends without an error when the body ends before message_stop (a
//     connection cut between events). The calls whose block had stopped
//     are complete and executable; the others come out of End truncated,
//     never executable. To know whether the response was whole, note
//     whether a message_stop event came (wire/anthropicstream's Read returns an
//     error wrapping io.ErrUnexpectedEOF there).
//   - It skips events that have no "event:" line: the API always sends it.
//
// Like wire/anthropicstream, Feed also reads the tool calls that a
// message_start event holds whole in its message's content, with no
// content_block events: each is started and stopped at its position in the
// content. vercel/ai's recording of programmatic tool calling has such
// messages: after the first response, each rollDie call the code makes
// comes whole in message_start.
//
// To cancel a response, cancel the context given to NewStreaming: the
// stream then ends with the context's error (see Example_decline).
package anthropicsdk
