// Package anthropicstream reads the streamed response of the Anthropic Messages
// API (stream: true) and drives a [toolcall.Response] with its tool calls
// while they stream.
//
// # Calls
//
//	resp := toolcall.New(opts...)
//	httpResp, err := http.DefaultClient.Do(req) // req made with ctx
//	...
//	err = anthropicstream.Read(ctx, httpResp.Body, resp, wire.OnText(show))
//	httpResp.Body.Close()
//	for _, r := range resp.End() { // Read does not call End: the caller does
//		if r.Executable {
//			run(r.Call, r.Arguments)
//		}
//	}
//
// [Read] reads the body to its end: the SDKs read on after message_stop, and
// so must Read, which refuses any event there but a ping. End then gives
// each call's Result. With an error from Read, End still reports every
// call: it closes the ones still open, and a call whose arguments had not
// ended ends truncated and not executable (one whose JSON was whole, all
// but its content_block_stop, is complete: nothing could follow its last
// brace). A Response reused with Reset serves one stream after another.
// [Reader] is the same step, one event at a time, for a caller that reads
// the events itself (a gateway that forwards them, a file that holds
// several responses).
//
// The options, the errors the provider sends in the stream and the
// sentinel of malformed streams are package [wire]'s, shared with package
// openaistream: [wire.OnText] and [wire.OnThinking]; [wire.ProviderError];
// [wire.ErrMalformed], which [ErrMalformed] is.
//
// # Events read
//
// An event's kind is its data's "type", and its "event" field must name
// the same: both official SDKs skip an event without a name (and one whose
// name a byte order mark hides), and decode the data of the others by its
// type, where readers of other formats go by the type alone. Read reads:
//
//   - message_start, first (an event before it is malformed) and once (the
//     SDKs start the message again at a second one, forgetting the calls
//     before it). Its message's content is empty but when a response
//     continues a container's programmatic tool calls: the tool calls the
//     code made then come whole there, with no content_block events, and
//     each tool block is Response.Start(position, id, name, input) and Stop
//     at once.
//   - content_block_start, at the next block's index (a block started out
//     of order, or twice, is malformed: anthropic-sdk-go fails on it, others
//     append it). A block whose content_block type is tool_use,
//     server_tool_use or mcp_tool_use is a call: Response.Start(index, id,
//     name, input), with input the block's "input" JSON as it came, which
//     must be an object (a null or other kind would be appended to by some
//     SDKs and replaced by others). An input of exactly {} is the
//     placeholder "deltas follow, or no input"; any other (the programmatic
//     tool calls of code execution) is the call's arguments. A
//     server_tool_use or mcp_tool_use block is a call the provider runs
//     itself: its Call.Server is set, and it is never executable.
//   - content_block_delta, for a block that has started, whose delta fits
//     the block: an input_json_delta for a call, Response.Chunk(index,
//     partial_json), the JSON string decoded; a text_delta for a text block,
//     a thinking_delta for a thinking block, the [wire.OnText] and
//     [wire.OnThinking] callbacks, if set. A delta that does not fit its
//     block is malformed; other deltas (signatures, citations) are ignored.
//   - content_block_stop, for a block that has started:
//     Response.Stop(index), which ignores blocks that are not tool calls.
//   - message_delta: a stop_reason of max_tokens (or
//     model_context_window_exceeded) marks the response cut short
//     (Response.Incomplete): a call whose arguments are a bare number ends
//     truncated, since its last digits may be missing.
//   - message_stop: the end of the message.
//   - error: Read returns a *[wire.ProviderError] with the provider's error
//     type and message (overloaded_error, ...).
//   - ping: skipped, as both SDKs skip it, anywhere in the stream; its data
//     must be a ping's (a reader that goes by the data's type would apply
//     anything else).
//   - any other event type: its data checked, and ignored, so that event
//     types to come do not break Read.
//
// Every event's data must be one JSON object, valid UTF-8, with no member
// name repeated in any of its objects (the Go SDKs read the first of two
// "partial_json" members, the Python and JavaScript ones the last), no
// name written with an escape, none equal under case folding to another or
// to a member Read reads without being it (encoding/json v1 matches
// "Partial_json" to partial_json), and indexes of at most 2^53-1. An event
// that two readers could read differently is never guessed at: it is
// malformed, and fails the whole response.
//
// # Errors
//
// Read returns nil at the end of a body whose message has ended
// ([Reader.Ended]: message_stop came, or a message_delta with a
// stop_reason, after which only message_stop may come; what follows may
// end in an event that no blank line ended: dropped, as the spec and the
// SDKs' readers drop it, which is how some recordings end, message_stop's
// data line without the blank line after it), and otherwise:
//
//   - a *wire.ProviderError for an error event;
//   - an error wrapping [io.ErrUnexpectedEOF] if the stream ends before
//     that: at a clean end between events, or cut in the middle of an
//     event, when it also wraps the sse Reader's [*sse.Error] for
//     [sse.ErrTruncated]. The calls whose content_block_stop came are
//     complete all the same, and End reports them executable. Whether to
//     run them from a response cut short is the caller's decision.
//   - an error wrapping ErrMalformed for an event that is not what the API
//     documents, or that two readers could read differently (above); Read
//     has failed the Response ([toolcall.Response.Fail]), and no call runs;
//   - ctx.Err() if ctx ends: Read checks it between events. A Read blocked
//     in the body's Read is not woken by ctx: close the body, as net/http
//     does when the request was made with the same ctx.
//   - another error of the sse Reader (an event larger than its limit, an
//     error of body's Read), wrapped;
//   - [toolcall.ErrTooManyCalls] or [toolcall.ErrEnded] from the Response (more
//     calls than it takes, or a Response already ended: call Reset).
//
// A call's own errors (invalid or truncated arguments) are not Read's
// errors: they are in its Result.
//
// # Memory
//
// The data of each event is decoded with jsontext tokens into buffers that
// Read keeps for the stream: once they have grown to the largest event, Read
// does not allocate per delta (a reused Response not allocating either). It
// allocates per stream (its Reader and buffers; a Reader kept with its SSE
// reader and readied by Reset for each stream, read with
// [Reader.ReadEvents], does not) and per tool call (the strings of its id
// and name). A program that reads many responses keeps a [Reader], an
// [sse.Reader] and a Response, and resets each between responses: once warm,
// a response then allocates a few hundred bytes, whatever its size
// (TestReusedMemory). The text given to wire.OnText and wire.OnThinking is
// borrowed until the callback returns.
//
// # Concurrency
//
// Read drives resp, and calls the callbacks, from the calling goroutine; a
// Response is for one goroutine, so do not use resp elsewhere until Read
// returns. Sinks and callbacks of the Response may call its Decline and
// Approve, and cancel ctx (and close the body) when Decline says no call is
// pending. A Reader is for one goroutine.
package anthropicstream
