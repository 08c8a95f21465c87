// Package ollamastream reads the streamed response of Ollama's chat API
// (POST /api/chat with "stream": true) and drives a [toolcall.Response]
// with its tool calls.
//
//	resp := toolcall.New(opts...)
//	httpResp, err := http.DefaultClient.Do(req) // req made with ctx
//	...
//	err = ollamastream.Read(ctx, httpResp.Body, resp, wire.OnText(show))
//	httpResp.Body.Close()
//	for _, r := range resp.End() { // Read does not call End: the caller does
//		if r.Executable {
//			run(r.Call, r.Arguments)
//		}
//	}
//
// The body is newline-delimited JSON: one JSON object a line, each a piece
// of the assistant's message, the last with "done": true. [Read] reads the
// body to its end: Ollama's clients read on after the done line, and so
// must Read, which refuses any line there. [Reader] is the same step, one
// line at a time, for a caller that reads the lines itself (a gateway that
// forwards them).
//
// The options, the errors the provider sends in the stream and the
// sentinel of malformed streams are package [wire]'s, shared with the
// other adapters: [wire.OnText] and [wire.OnThinking]; [wire.ProviderError];
// [wire.ErrMalformed], which [ErrMalformed] is.
//
// # Lines read
//
// Each line is read whole, and checked, before anything is done with it.
// Read reads of it:
//
//   - message.thinking and message.content, strings (or null): each
//     non-empty one is given to the [wire.OnThinking] and [wire.OnText]
//     callbacks, if set, at index 0 (a message has one text), thinking
//     first.
//   - message.tool_calls, an array (or null) of objects, each one whole
//     call: Ollama parses the model's calls before it sends them, and
//     sends each once, its arguments a JSON object, not a string. Each is
//     Response.Start(fragment.Call{Index, ID, Name}), Response.Chunk(Index,
//     arguments) and Response.Stop(Index) at once, in the order they come.
//     Index is the call's position among the calls of the stream: 0, 1, 2...
//     ID is the element's "id" (Ollama sends "call_" and 8 random
//     characters since 2025; older versions, none: ID ""). The arguments
//     are the bytes of function.arguments as they came (the Response
//     parses them as any other wire's): an object, which must be there
//     (Ollama's Python client requires it, its Go client reads a missing
//     one as {}), as must function.name, a string. function.index, which
//     newer versions send, must be an integer from 0 to 2^53-1 (Ollama's
//     Go client fails on any other), and is not used: Ollama's own
//     parsers of most models leave it 0 for every call, so that it does
//     not tell calls apart. A "type" member is ignored.
//   - done, a boolean (or null, false): true ends the response, and any
//     line after it is malformed. With it, a done_reason of "length" marks
//     the response cut short (Response.Incomplete): a call whose arguments
//     are a bare number would end truncated; other reasons ("stop", "load",
//     "unload", none) change nothing.
//   - error, a non-empty string: the line is an error, and nothing else of
//     it is read (Ollama's clients check it first): Read returns a
//     *[wire.ProviderError] with the message. An "error" that is not a
//     non-empty string is malformed: the Go and Python clients go on past
//     it, the JavaScript client throws.
//
// Any other member (model, created_at, role, images, logprobs, the
// metrics) is checked as JSON and ignored, so that members to come do not
// break Read.
//
// # What runs is what was judged
//
// A stream's lines are read by other readers too: Ollama's Go client
// (encoding/json v1), its Python (httpx, pydantic) and JavaScript clients,
// a gateway's client behind it, a log. Where two conforming readers could
// read a line differently, Read refuses the stream (ErrMalformed) and fails
// the Response ([toolcall.Response.Fail]: no call of it runs), rather than
// pick one reading. Refused:
//
//   - a line that is not one JSON object, valid UTF-8 (an empty line
//     included: the Go and Python clients fail on it, the JavaScript one
//     skips it, as it skips any line that is not JSON);
//   - a member name repeated in any object, the arguments' included
//     (encoding/json and the Python and JavaScript clients read the last,
//     readers such as gjson the first);
//   - in the objects Read reads (the line, message, each call and its
//     function), a member name written with an escape, two names equal
//     under case folding, or a name equal under case folding to one Read
//     reads without being it (encoding/json v1 matches "Arguments" to
//     arguments, the other clients do not);
//   - a member Read reads of another kind than the above (encoding/json
//     fails on it where pydantic may convert it);
//   - a CR in a line but before its "\n", and the characters U+0085,
//     U+2028 and U+2029 written raw: the Python client's reader splits
//     lines there, the others do not;
//   - any line after the done line.
//
// # Errors
//
// Read returns nil at the end of a body whose done line has come (the
// last line may lack its "\n", as Ollama's clients read it), and otherwise:
//
//   - a *wire.ProviderError for an error line, its Wire [wire.Ollama];
//   - an error wrapping [io.ErrUnexpectedEOF] if the body ends before the
//     done line: between lines, or in a line cut short (a last line, with
//     no "\n", whose JSON ends before its object does). The calls of the
//     lines read are whole, and End reports them executable: whether to
//     run calls from a response cut short is the caller's decision.
//   - an error wrapping ErrMalformed for a line refused (above), with its
//     number, from 1, and a JSON pointer to what is wrong in it; Read has
//     failed the Response, and no call runs;
//   - an error wrapping [bufio.ErrTooLong] for a line longer than
//     [MaxLineSize] (16 MiB; Ollama's Go client stops at 8 MB), with its
//     number: Read holds no more of a line than that;
//   - ctx.Err() if ctx ends: Read checks it between lines. A Read blocked
//     in the body's Read is not woken by ctx: close the body, as net/http
//     does when the request was made with the same ctx.
//   - an error of body's Read, wrapped;
//   - [toolcall.ErrTooManyCalls] or [toolcall.ErrEnded] from the Response
//     (more calls than it takes, or a Response already ended: call Reset).
//
// A call's own errors (invalid arguments) are not Read's errors: they are
// in its Result.
//
// # Memory
//
// Each line is read by a byte scanner (in any layout; the lines it does
// not take, with jsontext tokens) into buffers kept for the stream, a tool
// call's arguments object checked once and handed to the Response from the
// line, not copied; and the lines are read into one buffer, which grows to the
// longest line: once they have grown, Read does not allocate per line (a
// reused Response not allocating either). It allocates per stream (its
// Reader and buffers) and per tool call (the strings of its id and name).
// A program that reads many responses keeps a [Reader] and a Response,
// resets both between responses, and reads each body with
// [Reader.ReadBody], which keeps the line buffer too: once warm, a
// response then allocates next to nothing, whatever its size
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
package ollamastream
