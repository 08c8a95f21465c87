// Package coherestream reads the streamed response of Cohere's v2 Chat API
// (POST /v2/chat with "stream": true) and drives a [toolcall.Response] with
// its tool calls.
//
// # Calls
//
//	resp := toolcall.New(opts...)
//	httpResp, err := http.DefaultClient.Do(req) // req made with ctx, POST .../v2/chat
//	...
//	err = coherestream.Read(ctx, httpResp.Body, resp, wire.OnText(show))
//	httpResp.Body.Close()
//	for _, r := range resp.End() { // Read does not call End: the caller does
//		if r.Executable {
//			run(r.Call, r.Arguments)
//		}
//	}
//
// [Read] reads the body to its end: message-end is the last event, and
// a data [DONE] may follow it. End then gives each call's Result. A
// Response reused with Reset serves one stream after another. [Reader] is
// the same step, one event at a time, for a caller that reads the events
// itself (a gateway that forwards them, a file that holds several
// responses).
//
// The options, the errors the provider sends in the stream and the
// sentinel of malformed streams are package [wire]'s, shared with the other
// adapters: [wire.OnText] and [wire.OnThinking] ([wire.WithChoice] is for
// Chat Completions, and ignored); [wire.ProviderError]; [wire.ErrMalformed],
// which [ErrMalformed] is.
//
// # Events read
//
// Cohere names each event twice: in the SSE "event:" field and in its
// data's "type" member. cohere-go (v2) and the Vercel AI SDK go by the
// data's "type", which every event must have; an event field, when there
// is one, must be the same, since a relay or a reader that goes by the
// field would read another event (an event without the field is read by
// its type, as the recordings of the Vercel AI SDK are). The data of each
// is one JSON object; the events, by type:
//
//   - message-start: the first event, once (one after any other event is
//     malformed). Its delta.message must hold no content, tool_calls or
//     tool_plan (empty arrays, "" or null): a call or text there would come
//     in no other event.
//   - content-start, content-delta: delta.message.content, an object, has
//     the model's "text", given to [wire.OnText], or, from reasoning models,
//     its "thinking", given to [wire.OnThinking], both with the event's
//     "index" (the content's, 0 if absent); empty text is not given. A
//     content with both text and thinking, one of them not empty, is
//     malformed.
//   - tool-plan-delta: delta.message.tool_plan is the model's plan before
//     its tool calls ("I will use the weather tool..."). It is reasoning
//     shown to the user, not an answer, so it goes to [wire.OnThinking], at
//     index 0.
//   - tool-call-start: a call begins at the event's "index" (its position
//     among the response's tool calls, which every tool-call event must
//     have). delta.message.tool_calls is one object: "id" (the call's; ""
//     if absent), "type" ("function" if present: any other type is
//     malformed), "function" with a non-empty "name" and "arguments", the
//     first argument bytes, usually "". Response.Start(index, id, name),
//     then Response.Chunk with the arguments if not empty. An index
//     started before, an id that an earlier call had, or an index more
//     than [MaxSkip] ahead of the calls so far (the Reader keeps a state
//     for each index up to the highest) is malformed.
//   - tool-call-delta: delta.message.tool_calls.function.arguments, the
//     next piece of the arguments of the call at "index", goes to
//     Response.Chunk as it came. A delta of a call never started or
//     already ended is malformed, and so is one that has an "id" or a
//     function "name" (the SDKs read neither there; a reader that merges
//     them would see another call).
//   - tool-call-end: Response.Stop(index). A call that had no argument
//     bytes at all is given {} first (a function of no parameters). An
//     end of a call never started, or a second end, is malformed.
//   - message-end: the response's end ([Reader.Ended],
//     [Reader.FinishReason]), with delta.finish_reason: COMPLETE,
//     STOP_SEQUENCE, TOOL_CALL, MAX_TOKENS, ERROR (below) and values to
//     come. MAX_TOKENS marks the response cut short
//     (Response.Incomplete): a call that had no tool-call-end then ends
//     truncated, and one whose arguments are a bare number too. With any
//     other finish reason, a call that had no tool-call-end is malformed.
//     Any event after message-end is malformed, but data [DONE], which
//     Cohere sends last, and which is ignored.
//   - content-end, citation-start, citation-end, debug, and types to come:
//     checked (one JSON object, as below) and ignored, as the SDKs ignore
//     the types they do not know.
//
// Calls may interleave (a delta of call 0 after the start of call 1), as
// the Response allows; Cohere sends them one after the other.
//
// Every event's data must be one JSON object, valid UTF-8, with no member
// name repeated in any of its objects (cohere-go reads it with
// encoding/json v1, which keeps the last of two, where others keep the
// first), no name written with an escape, none equal under case folding to
// another or to a member Read reads without being it (encoding/json v1
// matches "Tool_Calls" to tool_calls), and an index of at most 2^53-1. An
// event that two readers could read differently is never guessed at: it is
// malformed, and fails the whole response.
//
// # Errors
//
// Read returns nil at the end of a body whose response has ended
// (message-end came), and otherwise:
//
//   - a *wire.ProviderError for a message-end whose finish_reason is ERROR
//     or that has a non-empty delta.error: its Type is the finish reason,
//     its Message delta.error, its Wire [wire.Cohere]. (An error before the
//     stream begins is an HTTP status, for the caller to read.)
//   - an error wrapping [io.ErrUnexpectedEOF] if the body ends before
//     message-end: at a clean end between events, or cut in the middle of
//     an event, when it also wraps the sse Reader's [*sse.Error] for
//     [sse.ErrTruncated]. The calls that had their tool-call-end are
//     complete all the same, and End reports them executable; a call still
//     open is truncated. Whether to run them from a response cut short is
//     the caller's decision.
//   - an error wrapping ErrMalformed, "cohere: malformed event: event N:
//     ...", with the event's number (from 1) and a JSON pointer into its
//     data where there is one, for an event that is not what the API
//     documents, or that two readers could read differently (above); Read
//     has failed the Response ([toolcall.Response.Fail]), and no call runs.
//     A malformed event drives the Response with nothing of it: its data is
//     decoded and checked whole first.
//   - ctx.Err() if ctx ends: Read checks it between events. A Read blocked
//     in the body's Read is not woken by ctx: close the body, as net/http
//     does when the request was made with the same ctx.
//   - another error of the sse Reader (an event larger than its limit, an
//     error of body's Read), wrapped;
//   - [toolcall.ErrTooManyCalls] or [toolcall.ErrEnded] from the Response
//     (more calls than it takes, or a Response already ended: call Reset).
//
// A call's own errors (invalid arguments) are not Read's errors: they are
// in its Result.
//
// # Memory
//
// The data of each event is decoded into buffers that Read keeps for the
// stream, by a byte scanner shared by the adapters (the fast path, which
// reads the common events in any layout and takes only what the token
// decoder would read the same way) or else with jsontext tokens: once they
// have grown to the largest event, Read does not allocate per event (a
// reused Response not allocating either). It allocates per stream (its
// Reader and buffers; a Reader kept with its SSE reader and readied by Reset
// for each stream, read with [Reader.ReadEvents], does not) and per call
// (the strings of its name and id, the set of the ids, and a byte of state
// per index). A program that reads many responses keeps a [Reader], an
// [sse.Reader] and a Response, and resets each between responses
// (Reader.Reset, sse.Reader.Reset, Response.Reset): once warm, a response
// then allocates next to nothing, whatever its size (TestReusedMemory). The
// text given to wire.OnText and wire.OnThinking is borrowed until the
// callback returns.
//
// # Concurrency
//
// Read drives resp, and calls the callbacks, from the calling goroutine; a
// Response is for one goroutine, so do not use resp elsewhere until Read
// returns. Sinks and callbacks of the Response may call its Decline and
// Approve, and cancel ctx (and close the body) when Decline says no call is
// pending. A Reader is for one goroutine.
package coherestream
