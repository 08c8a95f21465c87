package openaisdk

import (
	"github.com/argstream/argstream/fragment"
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
// is free text) is ignored. The choice's finish_reason ends the calls:
// tool_calls or stop stops them all (toolcall.Response.StopAll), length or
// content_filter marks the response cut short (Incomplete). FeedChat
// returns only the Response's own errors (toolcall.ErrIndex,
// toolcall.ErrTooManyCalls, toolcall.ErrEnded): a call's errors are in its
// Result.
//
// The SDK has decoded the chunks: what it reads differently from other
// readers (a repeated member, a chunk whose "error" is null) it reads its
// own way, and FeedChat follows it; a name the SDK's accumulator would
// append to an earlier one (a server that repeats it) is appended here
// too, and the call fails: its name changed after it was judged; a delta
// without an index (Mistral's API) is the SDK's index 0, as it is here. To refuse such streams, read the raw body with openaistream.ReadChat.
func FeedChat(r *toolcall.Response, chunk openai.ChatCompletionChunk, choice int64) error {
	for _, ch := range chunk.Choices {
		if ch.Index != choice {
			continue
		}
		for _, tc := range ch.Delta.ToolCalls {
			if tc.Type != "" && tc.Type != "function" {
				continue // a custom tool's input is free text, not JSON arguments
			}
			name := tc.Function.Name
			if c, ok := r.Call(tc.Index); ok && name != "" && c.Name != "" {
				// The SDK's accumulator appends a repeated name: the call
				// it runs has the two, and fails here as another name.
				name = c.Name + name
			}
			if err := r.Start(fragment.Call{Index: tc.Index, ID: tc.ID, Name: name}, nil); err != nil {
				return err
			}
			if err := r.ChunkString(tc.Index, tc.Function.Arguments); err != nil {
				return err
			}
		}
		switch ch.FinishReason {
		case "":
		case "length", "content_filter":
			r.Incomplete()
		default:
			return r.StopAll()
		}
	}
	return nil
}

// FeedResponses drives r with one event of client.Responses.NewStreaming:
// call it for each stream.Current(), then r.End() after the loop.
//
// A function_call output item's addition starts the call at its
// output_index, named by its call_id and name (an mcp_call item's, by its
// id: a call OpenAI runs itself, fragment.Call.Server, never executable);
// each response.function_call_arguments.delta (mcp_call's too) is a chunk
// of its arguments; the arguments' done event, the item's
// output_item.done and the final response's output restate the call
// (toolcall.Response.Restate): they must equal what streamed, or the call
// fails. response.incomplete marks the response cut short. Other events
// are ignored. FeedResponses returns only the Response's own errors
// (toolcall.ErrIndex, toolcall.ErrTooManyCalls, toolcall.ErrEnded): a
// call's errors are in its Result.
func FeedResponses(r *toolcall.Response, ev responses.ResponseStreamEventUnion) error {
	switch ev.Type {
	case "response.output_item.added":
		if c, ok := itemCall(ev.OutputIndex, ev.Item); ok {
			return r.Start(c, nil)
		}
	case "response.function_call_arguments.delta", "response.mcp_call_arguments.delta":
		return r.ChunkString(ev.OutputIndex, ev.Delta)
	case "response.function_call_arguments.done", "response.mcp_call_arguments.done":
		return r.Restate(fragment.Call{Index: ev.OutputIndex}, []byte(ev.Arguments))
	case "response.output_item.done":
		if c, ok := itemCall(ev.OutputIndex, ev.Item); ok {
			return r.Restate(c, []byte(ev.Item.Arguments.OfString))
		}
	case "response.completed", "response.incomplete":
		if ev.Type == "response.incomplete" {
			r.Incomplete()
		}
		for i, it := range ev.Response.Output {
			if c, ok := itemCall(int64(i), it); ok {
				if err := r.Restate(c, []byte(it.Arguments.OfString)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// itemCall is the call of an output item, if it is one.
func itemCall(index int64, it responses.ResponseOutputItemUnion) (fragment.Call, bool) {
	switch it.Type {
	case "function_call":
		return fragment.Call{Index: index, ID: it.CallID, Name: it.Name}, true
	case "mcp_call":
		return fragment.Call{Index: index, ID: it.ID, Name: it.Name, Server: true}, true
	}
	return fragment.Call{}, false
}
