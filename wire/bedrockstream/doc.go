// Package bedrockstream reads the streamed response of Amazon Bedrock's
// ConverseStream API (POST /model/MODEL/converse-stream) and drives a
// [toolcall.Response] with its tool calls while they stream.
//
// # Calls
//
//	resp := toolcall.New(opts...)
//	httpResp, err := http.DefaultClient.Do(req) // req made with ctx, signed
//	...
//	err = bedrockstream.Read(ctx, httpResp.Body, resp, wire.OnText(show))
//	httpResp.Body.Close()
//	for _, r := range resp.End() { // Read does not call End: the caller does
//		if r.Executable {
//			run(r.Call, r.Arguments)
//		}
//	}
//
// [Read] reads the body to its end, and End then gives each call's Result.
// With an error from Read, End still reports every call: a call whose
// arguments had not ended ends truncated and not executable (one whose
// JSON was whole, all but its contentBlockStop, is complete). [Reader] is
// the same step, one message at a time, for a caller that cuts the
// messages itself (a gateway that forwards them, a file that holds several
// responses); a Response reused with Reset, and a Reader with
// [Reader.Reset], serve one stream after another.
//
// The options, the errors the provider sends in the stream and the
// sentinel of malformed streams are package [wire]'s: [wire.OnText] and
// [wire.OnThinking]; [wire.ProviderError]; [wire.ErrMalformed], which
// [ErrMalformed] is.
//
// # Frames
//
// The body is in the AWS event stream encoding
// (application/vnd.amazon.eventstream): messages one after the other, each
//
//   - a 12-byte prelude: the message's total length and its headers'
//     length (uint32, big-endian), and the CRC-32 (IEEE) of those 8 bytes;
//   - the headers: each a name (a length byte and its bytes), a value type
//     byte and the value: 0 true and 1 false (no bytes), 2 a byte, 3 an
//     int16, 4 an int32, 5 an int64, 6 bytes and 7 a string (a uint16 length
//     and its bytes), 8 a timestamp (int64 milliseconds), 9 a UUID (16
//     bytes);
//   - the payload, JSON for ConverseStream;
//   - the CRC-32 of everything before it.
//
// Both CRCs are checked, and the lengths: a total under 16 bytes, over
// [MaxMessageSize] (16 MiB) or with headers longer than it leaves is
// malformed, refused from the prelude, before the message is read or any
// memory of its size allocated. Every header is decoded, whatever its
// name: a value type past 9 (which aws-sdk-go-v2 panics on), a header that
// runs past the headers' end, more than 64 headers, a name repeated
// (aws-sdk-go-v2 keeps the last, its Get would read the first) are
// malformed. The headers Read reads, :message-type, :event-type,
// :content-type, :exception-type, :error-code and :error-message, must be
// strings, and may not come in another case (":Event-Type"). The others
// (:date, signatures...) are skipped.
//
// # Messages read
//
// A message's :message-type is "event", "exception" or "error"; anything
// else, or none, is malformed (the SDK fails on it too). An event's
// :content-type, if it has one, is application/json, and its :event-type
// one of these, matched exactly (aws-sdk-go-v2 matches them under case
// folding, so that a "ContentBlockDelta" is malformed, not unknown):
//
//   - messageStart, first (an event before it is malformed, but an
//     exception may come first) and once.
//   - contentBlockStart {contentBlockIndex, start}: a start whose member is
//     toolUse {toolUseId, name, type} is a call, Response.Start(index, id,
//     name), id and name required; of type server_tool_use (Nova's code
//     interpreter), a call the provider runs (fragment.Call.Server), never
//     the caller's. Its input is {} until a delta brings some: a call
//     whose input has no delta was made with no input, as Converse writes
//     it (Start's placeholder). A start of another member (an image, a
//     tool result) is a block whose deltas are not read. A block index
//     that has begun (started, or had a delta) is malformed.
//   - contentBlockDelta {contentBlockIndex, delta}: a toolUse delta's
//     input, a piece of the arguments' JSON text, is Response.Chunk(index,
//     input), for a block that a toolUse start began; a text delta goes to
//     [wire.OnText], a reasoningContent delta's text to [wire.OnThinking],
//     and their signatures and redacted content are skipped. Text and
//     reasoning blocks have no contentBlockStart: their first delta begins
//     them. A delta for a block of another kind, for a block that has
//     stopped, or a toolUse delta for a block not started is malformed; a
//     delta of another member (citations, members to come) or of none is
//     skipped.
//   - contentBlockStop {contentBlockIndex}: Response.Stop(index) for a
//     call; a stop for a block that has not begun, or a second one, is
//     malformed.
//   - messageStop {stopReason}: the end of the message, [Reader.Done]. A
//     stopReason of max_tokens marks the response cut short
//     (Response.Incomplete): a call whose arguments are a bare number ends
//     truncated, since its last digits may be missing. After it only
//     metadata may come; any other event is malformed.
//   - metadata (usage, metrics): checked, and skipped; at most once.
//   - any other event type: its payload checked, and skipped, as
//     aws-sdk-go-v2 gives it as an UnknownUnionMember, so that event types
//     to come do not break Read; after messageStop it is malformed.
//
// An exception (throttlingException, modelStreamErrorException,
// validationException, internalServerException,
// serviceUnavailableException...) ends Read with a *[wire.ProviderError]
// whose Type is the :exception-type and Message the payload's "message"
// (or "Message", as the SDK reads an unmodeled exception's; the payload as
// it came if it is not such an object). An error message gives one with
// its :error-code and :error-message. Its Wire is [wire.Bedrock], and its
// text begins "bedrock: error event: ".
//
// Every payload read must be one JSON object (an empty payload, or one
// value followed by another, which aws-sdk-go-v2 reads as nothing or as
// the first, are malformed), valid UTF-8 (encoding/json, which the SDK
// decodes with, would replace invalid bytes), with no member name repeated
// in any of its objects (the SDK keeps the last), no name written with an
// escape, none equal under case folding to another, or to a member Read
// reads without being it, in the objects Read reads. The delta and start
// objects are unions: the SDK takes the first member that is not null in
// its map's random order, so that two members that are not null are
// malformed (null members are skipped, as the SDK skips them).
// contentBlockIndex is an integer from 0 to 2^31-1: the SDK converts it to
// an int32, where a larger one would be another block. A message that two
// readers could read differently is never guessed at: it is malformed, and
// fails the whole response.
//
// # Errors
//
// Read returns nil at the end of a body whose message has ended
// (messageStop came whole), and otherwise:
//
//   - a *wire.ProviderError for an exception or error message;
//   - an error wrapping [io.ErrUnexpectedEOF] if the body ends before
//     that, between messages or inside one (it says which message, at which
//     byte, and how many of its bytes came). The calls whose
//     contentBlockStop came are complete all the same, and End reports them
//     executable: whether to run them from a response cut short is the
//     caller's decision.
//   - an error wrapping ErrMalformed for a message refused above, beginning
//     "bedrock: malformed event: message N (byte B): " with the message's
//     number, from 1, and its offset in the body; Read has failed the
//     Response ([toolcall.Response.Fail]), and no call runs;
//   - ctx.Err() if ctx ends: Read checks it between messages. A Read
//     blocked in the body's Read is not woken by ctx: close the body, as
//     net/http does when the request was made with the same ctx.
//   - an error of body's Read, wrapped;
//   - [toolcall.ErrTooManyCalls] or [toolcall.ErrEnded] from the Response
//     (more calls than it takes, or a Response already ended: call Reset).
//
// A call's own errors (invalid or truncated arguments) are not Read's
// errors: they are in its Result.
//
// # Memory
//
// Read reads each message into a buffer that grows to the largest message
// (at most [MaxMessageSize]) and is kept for the stream, and reads its
// payload with a byte scanner, in any layout (the payloads it does not
// take, and exceptions, with jsontext tokens), into buffers kept too; the
// contentBlockDelta payloads of the layout read last, after the first few
// of a stream, by comparing their bytes with it: once the buffers have
// grown, Read does not allocate per message (TestAllocs). It allocates per
// stream (its Reader, buffers and block map) and per tool call (the
// strings of its id and name). A program that reads many responses keeps a
// [Reader] and a Response, resets both between responses, and reads each
// body with [Reader.ReadBody], which keeps the message buffer too: once
// warm, a response then allocates less than 64 KiB but for its calls'
// arguments, whatever its size (TestReusedMemory). The text given to
// wire.OnText and wire.OnThinking is borrowed until the callback returns.
//
// # Concurrency
//
// Read drives resp, and calls the callbacks, from the calling goroutine; a
// Response is for one goroutine, so do not use resp elsewhere until Read
// returns. Sinks and callbacks of the Response may call its Decline and
// Approve, and cancel ctx (and close the body) when Decline says no call is
// pending. A Reader is for one goroutine.
package bedrockstream
