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
// Like wire/anthropicstream, Feed reads the streamed content blocks only: a tool
// call that a message_start event already holds in its message's content,
// not streamed as a block, is not fed. vercel/ai's recording of
// programmatic tool calling has such messages: after the first response,
// each rollDie call the code makes comes whole in message_start, with no
// content_block_start.
//
// To cancel a response, cancel the context given to NewStreaming: the
// stream then ends with the context's error (see Example_decline).
package anthropicsdk
