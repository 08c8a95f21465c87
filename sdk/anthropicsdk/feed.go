package anthropicsdk

import (
	"github.com/anthropics/anthropic-sdk-go"
	"github.com/argstream/argstream/fragment"
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
// blocks that are not calls. A message_start whose content holds tool
// blocks (a response that continues a container's programmatic tool calls
// sends them whole there, with no block events) starts and stops each as a
// call at its position. A server_tool_use or mcp_tool_use block is a call
// the provider runs (fragment.Call.Server): never executable. A
// message_delta whose stop_reason is max_tokens marks the response cut
// short (toolcall.Response.Incomplete). Other events are ignored. Feed
// returns only the Response's own errors (toolcall.ErrIndex,
// toolcall.ErrTooManyCalls, toolcall.ErrEnded): a call's errors are in its
// Result.
//
// The SDK has decoded the events: what it reads differently from other
// readers (a repeated member, an event without a name) it reads its own
// way, and Feed follows it. To refuse such streams, read the raw body with
// package anthropicstream instead.
func Feed(r *toolcall.Response, ev anthropic.MessageStreamEventUnion) error {
	switch ev.Type {
	case "message_start":
		for i, b := range ev.Message.Content {
			if err := whole(r, int64(i), b.Type, b.ID, b.Name, b.JSON.Input.Valid(), b.JSON.Input.Raw()); err != nil {
				return err
			}
		}
	case "content_block_start":
		b := ev.ContentBlock
		return start(r, ev.Index, b.Type, b.ID, b.Name, b.JSON.Input.Valid(), b.JSON.Input.Raw())
	case "content_block_delta":
		if ev.Delta.Type == "input_json_delta" {
			return r.ChunkString(ev.Index, ev.Delta.PartialJSON)
		}
	case "content_block_stop":
		return r.Stop(ev.Index)
	case "message_delta":
		incomplete(r, string(ev.Delta.StopReason))
	}
	return nil
}

// FeedBeta is Feed for the events of client.Beta.Messages.NewStreaming,
// the API of MCP connectors and the other beta features.
func FeedBeta(r *toolcall.Response, ev anthropic.BetaRawMessageStreamEventUnion) error {
	switch ev.Type {
	case "message_start":
		for i, b := range ev.Message.Content {
			if err := whole(r, int64(i), b.Type, b.ID, b.Name, b.JSON.Input.Valid(), b.JSON.Input.Raw()); err != nil {
				return err
			}
		}
	case "content_block_start":
		b := ev.ContentBlock
		return start(r, ev.Index, b.Type, b.ID, b.Name, b.JSON.Input.Valid(), b.JSON.Input.Raw())
	case "content_block_delta":
		if ev.Delta.Type == "input_json_delta" {
			return r.ChunkString(ev.Index, ev.Delta.PartialJSON)
		}
	case "content_block_stop":
		return r.Stop(ev.Index)
	case "message_delta":
		incomplete(r, string(ev.Delta.StopReason))
	}
	return nil
}

// start starts the call of a tool block, with its input JSON as it came
// (nil if absent); other blocks are not calls.
func start(r *toolcall.Response, index int64, typ, id, name string, hasInput bool, input string) error {
	switch typ {
	case "tool_use", "server_tool_use", "mcp_tool_use":
		var in []byte
		if hasInput {
			in = []byte(input)
		}
		return r.Start(fragment.Call{Index: index, ID: id, Name: name, Server: typ != "tool_use"}, in)
	}
	return nil
}

// whole starts and stops the call of a tool block given whole.
func whole(r *toolcall.Response, index int64, typ, id, name string, hasInput bool, input string) error {
	if err := start(r, index, typ, id, name, hasInput, input); err != nil {
		return err
	}
	return r.Stop(index) // ignored for a block that is not a call
}

// incomplete marks r cut short for a stop reason that says so.
func incomplete(r *toolcall.Response, stopReason string) {
	switch stopReason {
	case "max_tokens", "model_context_window_exceeded":
		r.Incomplete()
	}
}
