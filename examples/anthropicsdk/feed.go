package anthropicsdk

import (
	"github.com/anthropics/anthropic-sdk-go"
	"github.com/argstream/argstream/toolcall"
)

// Feed drives r with one event of client.Messages.NewStreaming: call it
// for each stream.Current(), then r.End() after the loop.
//
// A tool block's start (tool_use, server_tool_use, mcp_tool_use) starts
// the call with the block's input as it came, so that an input given whole
// at the start (programmatic tool calling) is the call's arguments and an
// input {} is the placeholder that deltas follow; each input_json_delta is
// a chunk of its arguments; each block's stop is Stop, which ignores the
// blocks that are not calls. Other events are ignored. Feed returns only
// the Response's own errors (toolcall.ErrIndex, toolcall.ErrEnded): a
// call's errors are in its Result.
func Feed(r *toolcall.Response, ev anthropic.MessageStreamEventUnion) error {
	switch ev.Type {
	case "content_block_start":
		switch b := ev.ContentBlock; b.Type {
		case "tool_use", "server_tool_use", "mcp_tool_use":
			var input []byte // the block's input JSON as it came; nil if absent
			if b.JSON.Input.Valid() {
				input = []byte(b.JSON.Input.Raw())
			}
			return r.Start(ev.Index, b.ID, b.Name, input)
		}
	case "content_block_delta":
		if ev.Delta.Type == "input_json_delta" {
			return r.ChunkString(ev.Index, ev.Delta.PartialJSON)
		}
	case "content_block_stop":
		return r.Stop(ev.Index)
	}
	return nil
}

// FeedBeta is Feed for the events of client.Beta.Messages.NewStreaming,
// the API of MCP connectors and the other beta features.
func FeedBeta(r *toolcall.Response, ev anthropic.BetaRawMessageStreamEventUnion) error {
	switch ev.Type {
	case "content_block_start":
		switch b := ev.ContentBlock; b.Type {
		case "tool_use", "server_tool_use", "mcp_tool_use":
			var input []byte // the block's input JSON as it came; nil if absent
			if b.JSON.Input.Valid() {
				input = []byte(b.JSON.Input.Raw())
			}
			return r.Start(ev.Index, b.ID, b.Name, input)
		}
	case "content_block_delta":
		if ev.Delta.Type == "input_json_delta" {
			return r.ChunkString(ev.Index, ev.Delta.PartialJSON)
		}
	case "content_block_stop":
		return r.Stop(ev.Index)
	}
	return nil
}
