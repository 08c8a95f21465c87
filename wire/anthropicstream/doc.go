// Package anthropicstream reads the streamed response of the Anthropic Messages
// API (stream: true) and drives a toolcall.Response with its tool calls
// while they stream.
//
// # Calls
//
//	resp := toolcall.New(opts...)
//	httpResp, err := http.DefaultClient.Do(req) // req made with ctx
//	...
//	err = anthropicstream.Read(ctx, httpResp.Body, resp, anthropicstream.OnText(show))
//	httpResp.Body.Close()
//	for _, r := range resp.End() { // Read does not call End: the caller does
//		if r.Executable {
//			run(r.Call, r.Arguments)
//		}
//	}
//
// Read returns at message_stop without reading further; End then gives each
// call's Result. With an error from Read, End still reports every call: it
// closes the ones still open, and a call whose arguments had not ended ends
// truncated and not executable (one whose JSON was whole, all but its
// content_block_stop, is complete: nothing could follow its last brace).
// A Response reused with Reset serves one stream after another.
//
// # Events read
//
// Read reads the server-sent events (package sse) of the body and, by the
// event's "event" field (or, if it has none, the "type" of its data):
//
//   - content_block_start whose content_block type is tool_use,
//     server_tool_use or mcp_tool_use: Response.Start(index, id, name,
//     input), with input the block's "input" JSON as it came. An input {}
//     is the placeholder "deltas follow, or no input"; an input given whole
//     (the programmatic tool calls of code execution) is the call's
//     arguments.
//   - content_block_delta with an input_json_delta: Response.Chunk(index,
//     partial_json), the JSON string decoded; text_delta and thinking_delta:
//     the OnText and OnThinking callbacks, if set; other deltas (signatures,
//     citations) are ignored.
//   - content_block_stop: Response.Stop(index), which ignores blocks that are
//     not tool calls.
//   - message_stop: Read returns nil.
//   - error: Read returns a *ProviderError with the provider's error type
//     and message (overloaded_error, ...).
//   - message_start: its message's content is empty, but when a response
//     continues a container's programmatic tool calls: the tool calls the
//     code made then come whole there, with no content_block events, and
//     each tool block is Response.Start(position, id, name, input) and
//     Stop at once.
//   - message_delta, ping and any other event type: ignored,
//     so that event types to come do not break Read.
//
// # Errors
//
// Read returns nil at message_stop, and otherwise:
//
//   - a *ProviderError for an error event;
//   - an error wrapping io.ErrUnexpectedEOF if the stream ends before
//     message_stop: at a clean end between events, or cut in the middle of
//     an event, when it also wraps the sse Reader's *sse.Error for
//     sse.ErrTruncated. This includes a stream whose message_stop data line
//     came but not the blank line after it, which is what dispatches an
//     event (some recordings end so): the stream is not known to be whole,
//     and Read says so; the calls whose content_block_stop came are complete
//     all the same, and End reports them executable. Whether to run them
//     from a response cut short is the caller's decision.
//   - an error wrapping ErrMalformed for a tool or delta event whose data is
//     not the documented JSON object;
//   - ctx.Err() if ctx ends: Read checks it between events. A Read blocked
//     in the body's Read is not woken by ctx: close the body, as net/http
//     does when the request was made with the same ctx.
//   - another error of the sse Reader (an event larger than its limit, an
//     error of body's Read), wrapped;
//   - toolcall.ErrIndex or toolcall.ErrEnded from the Response (an index
//     out of range, or a Response already ended: call Reset).
//
// A call's own errors (invalid or truncated arguments) are not Read's
// errors: they are in its Result.
//
// # Memory
//
// The data of each event is decoded with jsontext tokens into buffers that
// Read keeps for the stream: once they have grown to the largest event, Read
// does not allocate per delta (a reused Response not allocating either). It
// allocates per stream (its Reader and buffers) and per tool call (the
// strings of its id and name). The text given to OnText and OnThinking is
// borrowed until the callback returns.
//
// # Concurrency
//
// Read drives resp, and calls the callbacks, from the calling goroutine; a
// Response is for one goroutine, so do not use resp elsewhere until Read
// returns. Sinks and callbacks of the Response may call its Decline, and
// cancel ctx (and close the body) when Decline says no call is pending.
package anthropicstream
