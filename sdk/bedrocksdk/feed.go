package bedrocksdk

import (
	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/toolcall"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime/types"
)

// Feed drives r with one event of client.ConverseStream: call it for each
// event of output.GetStream().Events(), then r.End() after the loop.
//
// A contentBlockStart whose start is a toolUse starts the call at its
// contentBlockIndex with its toolUseId and name (a toolUse of type
// server_tool_use is a call the provider runs, fragment.Call.Server: never
// executable), its arguments {} until a delta brings some (a call with no
// input delta was made with no input, as wire/bedrockstream reads it);
// each toolUse delta's input is a chunk of its arguments; each
// contentBlockStop is Stop, which ignores the blocks that are not calls. A
// messageStop whose stopReason is max_tokens marks the response cut short
// (toolcall.Response.Incomplete). Text and reasoning deltas, the other
// starts and deltas, messageStart and metadata are not calls: Feed ignores
// them, and the caller reads them from the same events. Feed returns only
// the Response's own errors (toolcall.ErrIndex, toolcall.ErrTooManyCalls,
// toolcall.ErrEnded): a call's errors are in its Result.
//
// The SDK has decoded the events: what it reads differently from other
// readers (a member repeated, a union with two members, an event type in
// another case) it reads its own way, and Feed follows it. To refuse such
// streams, read the raw body with package wire/bedrockstream instead.
func Feed(r *toolcall.Response, ev types.ConverseStreamOutput) error {
	switch ev := ev.(type) {
	case *types.ConverseStreamOutputMemberContentBlockStart:
		tu, ok := ev.Value.Start.(*types.ContentBlockStartMemberToolUse)
		if !ok || ev.Value.ContentBlockIndex == nil {
			return nil
		}
		return r.Start(fragment.Call{
			Index:  int64(*ev.Value.ContentBlockIndex),
			ID:     deref(tu.Value.ToolUseId),
			Name:   deref(tu.Value.Name),
			Server: tu.Value.Type == types.ToolUseTypeServerToolUse,
		}, noInput)
	case *types.ConverseStreamOutputMemberContentBlockDelta:
		tu, ok := ev.Value.Delta.(*types.ContentBlockDeltaMemberToolUse)
		if !ok || ev.Value.ContentBlockIndex == nil {
			return nil
		}
		return r.ChunkString(int64(*ev.Value.ContentBlockIndex), deref(tu.Value.Input))
	case *types.ConverseStreamOutputMemberContentBlockStop:
		if ev.Value.ContentBlockIndex == nil {
			return nil
		}
		return r.Stop(int64(*ev.Value.ContentBlockIndex))
	case *types.ConverseStreamOutputMemberMessageStop:
		if ev.Value.StopReason == types.StopReasonMaxTokens {
			r.Incomplete()
		}
	}
	return nil
}

// noInput is a call's input when it starts: toolcall.Response.Start's
// placeholder, which the first delta replaces.
var noInput = []byte("{}")

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
