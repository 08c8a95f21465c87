package openaisdk

import (
	"github.com/argstream/argstream/toolcall"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
)

// FeedChat drives r with the tool-call deltas of one choice (0 unless the
// request asked for n > 1) of one chunk of client.Chat.Completions.
// NewStreaming: call it for each stream.Current(), then r.End() after the
// loop.
//
// Each delta's index is its call's index; its id and function name, sent
// in the call's first delta, name the call (the first non-empty ones win),
// and its arguments are the next chunk of the call's arguments. A delta
// whose type is there and is not "function" (a custom tool's, whose input
// is free text) is ignored, as wire/openaistream's ReadChat ignores it. Chat
// Completions has no per-call end: End closes the calls, and a call whose
// arguments were cut off ends truncated. FeedChat returns only the
// Response's own errors (toolcall.ErrIndex, toolcall.ErrEnded): a call's
// errors are in its Result.
func FeedChat(r *toolcall.Response, chunk openai.ChatCompletionChunk, choice int64) error {
	for _, ch := range chunk.Choices {
		if ch.Index != choice {
			continue
		}
		for _, tc := range ch.Delta.ToolCalls {
			if tc.Type != "" && tc.Type != "function" {
				continue // a custom tool's input is free text, not JSON arguments
			}
			if err := r.Start(tc.Index, tc.ID, tc.Function.Name, nil); err != nil {
				return err
			}
			if err := r.ChunkString(tc.Index, tc.Function.Arguments); err != nil {
				return err
			}
		}
	}
	return nil
}

// FeedResponses drives r with one event of client.Responses.NewStreaming:
// call it for each stream.Current(), then r.End() after the loop.
//
// A function_call output item's addition starts the call at its
// output_index, named by its call_id and name; each
// response.function_call_arguments.delta is a chunk of its arguments, and
// response.function_call_arguments.done is its Stop. Other events are
// ignored. FeedResponses returns only the Response's own errors
// (toolcall.ErrIndex, toolcall.ErrEnded): a call's errors are in its
// Result.
func FeedResponses(r *toolcall.Response, ev responses.ResponseStreamEventUnion) error {
	switch ev.Type {
	case "response.output_item.added":
		if ev.Item.Type == "function_call" {
			return r.Start(ev.OutputIndex, ev.Item.CallID, ev.Item.Name, nil)
		}
	case "response.function_call_arguments.delta":
		return r.ChunkString(ev.OutputIndex, ev.Delta)
	case "response.function_call_arguments.done":
		return r.Stop(ev.OutputIndex)
	}
	return nil
}
