// Package geministream reads the streamed response of the Gemini API's
// models/MODEL:streamGenerateContent?alt=sse (and Vertex AI's, which is the
// same wire) and drives a [toolcall.Response] with its function calls.
//
// # Calls
//
//	resp := toolcall.New(opts...)
//	httpResp, err := http.DefaultClient.Do(req) // req made with ctx, ...:streamGenerateContent?alt=sse
//	...
//	err = geministream.Read(ctx, httpResp.Body, resp, wire.OnText(show))
//	httpResp.Body.Close()
//	for _, r := range resp.End() { // Read does not call End: the caller does
//		if r.Executable {
//			run(r.Call, r.Arguments)
//		}
//	}
//
// [Read] reads the body to its end: Gemini sends no [DONE], and the SDKs
// read every event until the body ends. End then gives each call's Result.
// A Response reused with Reset serves one stream after another. [Reader] is
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
// Every event is data only, as Gemini sends them: an event with an "event:"
// name is malformed (google.golang.org/genai fails on the line, other
// readers skip it). Its data is one GenerateContentResponse JSON object, of
// which Read reads "candidates", "promptFeedback" and "error", and checks
// the other members (usageMetadata, modelVersion, responseId...).
//
// Of "candidates", Read reads candidate 0: the element whose "index" is 0,
// or which has no index (Vertex AI leaves out an index of 0). It must be
// the first element (the SDKs' helpers, FunctionCalls and Text, read the
// first element of each event, whichever candidate it is), and come once.
// The other candidates (candidateCount above 1) are ignored, but a
// function call in one is malformed: it is a call no policy judged, which
// a client that reads that candidate would run.
//
// Of candidate 0's content, each element of "parts", in order:
//
//   - a "functionCall" is one whole call. Its index is its position among
//     the function calls of the whole response, across events: 0, 1, 2...
//     in the order they come (Gemini numbers its calls by nothing else).
//     Response.Start(index, id, name), then Response.Chunk(index, args) with
//     the bytes of its "args" object as they came (white space and all), or
//     {} if it has none (or null: the SDKs give such a call an empty map, as
//     for a function of no parameters), then Response.Stop(index). Its
//     "name" must not be empty; its "id" (Vertex AI and the newer models
//     send one, the Gemini API often none) is the call's, "" if absent, and
//     an id that an earlier call of the response had is malformed (a
//     functionResponse could not tell the two apart). "args" of any other
//     kind than an object is malformed. A functionCall that streams its
//     arguments (Vertex AI's streamFunctionCallArguments: "partialArgs",
//     or "willContinue" true) is read as "Streamed arguments" says.
//   - a "text" is the model's text, given to [wire.OnText] with the
//     candidate's index (0), or, in a part whose "thought" is true, its
//     thinking, given to [wire.OnThinking]; empty text is not given.
//   - a part that holds both text and a functionCall is malformed (the
//     readers would take it for either); any other part (inline data,
//     executable code, a thoughtSignature alone) is checked and ignored.
//
// # Streamed arguments
//
// With streamFunctionCallArguments, Vertex AI streams a call over several
// functionCall parts, in one event or many: the first has the "name" (and
// "id"), and "willContinue" true; each next one has no name, maybe
// "partialArgs", and "willContinue" true while more parts come; the last
// has "willContinue" false or absent (often an empty functionCall, {}).
// The call's index is given at its first part, Response.Start then; its
// arguments go to Response.Chunk as they come, as one JSON text; its last
// part Stops it. A first part without willContinue is a call of one part.
//
// Each element of "partialArgs" is one value: "jsonPath", and one of
// "stringValue", "numberValue" (its JSON text kept), "boolValue",
// "nullValue" ("NULL_VALUE"), and "willContinue" true for a string whose
// text goes on: the next partialArg must then be the same jsonPath (byte
// for byte) with a stringValue, appended to the string, until one whose
// willContinue is false closes it. The jsonPath grammar read is $ then
// segments: .name (a letter, _ or non-ASCII character, then those or
// digits), ['name'] or ["name"] (with RFC 9535's escapes), and [N] (plain
// digits, no leading zero, at most 2^53-1). The arguments are the object
// at $; the values come in document order, and the JSON text is written
// from them as they come: the containers of a path not open yet are opened
// (an object for a .name or quoted segment below, an array for an [N]),
// those that a path leaves are closed, members get their name as a JSON
// string, and the last part closes every container still open ({} for a
// call without values). For example, the partialArgs
//
//	{"jsonPath":"$.recipe.steps[0]","stringValue":"Preheat","willContinue":true}
//	{"jsonPath":"$.recipe.steps[0]","stringValue":" the oven."}
//	{"jsonPath":"$.recipe.steps[1]","stringValue":"Bake."}
//	{"jsonPath":"$.recipe.serves","numberValue":4}
//
// each in a part of its own, then an empty functionCall, give the chunks
//
//	{"recipe":{"steps":["Preheat
//	 the oven."
//	,"Bake."
//	],"serves":4
//	}}
//
// (one a part, each line here), which make the text
// {"recipe":{"steps":["Preheat the oven.","Bake."],"serves":4}}.
//
// What could not be written as one JSON text, or would be read otherwise
// by another reader, is malformed, at its event, with the pointer of the
// partialArg: a path that goes back to a member already written (a key
// repeated, or an object already closed), an index that skips or goes
// back (an array's elements come 0, 1, 2...), a name in an array or an
// index in an object, a jsonPath outside the grammar or "$" itself, no
// value or two in one partialArg, a value null ("stringValue": null, which
// the SDKs read as no value), willContinue on a value that is not a
// string, a string that does not go on as it said it would (another path
// or kind, or the call's end), partialArgs or an empty functionCall when
// no call streams, a call begun (a part with a name) while one streams,
// "args" in a part that streams, an "id" other than the call's in a
// part that continues it, and a finishReason other than MAX_TOKENS (or a
// blockReason) while a call streams. An empty array or object cannot be
// streamed as a value: no partialArg holds one.
//
// A call whose parts stop coming is truncated: at MAX_TOKENS (the response
// cut short; Read returns nil), or when the body ends (an error wrapping
// io.ErrUnexpectedEOF, as for any stream cut short); End reports it
// truncated, and not executable.
//
// Candidate 0's "finishReason", when not empty, ends the response
// ([Reader.Ended], [Reader.FinishReason]): MAX_TOKENS marks it cut short
// (Response.Incomplete), so that a call whose arguments are a bare number,
// or still stream, ends truncated; every other value (STOP; SAFETY, RECITATION,
// MALFORMED_FUNCTION_CALL and the other refusals, which come with no call;
// values to come) ends it as it is, the calls that came whole being
// complete. A "promptFeedback" with a "blockReason" (a prompt refused
// before any candidate) ends it too. After the end, an event may still come
// (usage metadata), but one with a function call or text in candidate 0 is
// malformed.
//
// Every event's data must be one JSON object, valid UTF-8, with no member
// name repeated in any of its objects (google.golang.org/genai reads it
// with encoding/json v1, which keeps the last of two, where others keep
// the first), no name written with an escape, none equal under case
// folding to another or to a member Read reads without being it
// (encoding/json v1 matches "FunctionCall" to functionCall), none that is a
// member Read reads in snake case ("function_call", which the Python SDK
// reads as functionCall), and an index of at most 2^53-1. An event that two
// readers could read differently is never guessed at: it is malformed, and
// fails the whole response.
//
// # Errors
//
// Read returns nil at the end of a body whose response has ended (above),
// and otherwise:
//
//   - a *wire.ProviderError for data with an "error" member, the error
//     object Gemini sends when a stream fails after it began: its "status"
//     is the Type (RESOURCE_EXHAUSTED, INTERNAL...), its "code" the Code,
//     as its JSON text ("429"), its "message" the Message, its Wire
//     [wire.Gemini]. "error": null is malformed.
//   - an error wrapping [io.ErrUnexpectedEOF] if the body ends before the
//     response has: at a clean end between events, or cut in the middle of
//     an event, when it also wraps the sse Reader's [*sse.Error] for
//     [sse.ErrTruncated]. The calls that came whole are complete all the
//     same, and End reports them executable; a call whose arguments were
//     still streaming is truncated. Whether to run
//     them from a response cut short is the caller's decision.
//   - an error wrapping ErrMalformed, "gemini: malformed event: event N:
//     ...", with the event's number (from 1) and a JSON pointer into its
//     data, for an event that is not what the API documents, or that two
//     readers could read differently (above); Read has failed the Response
//     ([toolcall.Response.Fail]), and no call runs. A malformed event
//     drives the Response with nothing of it: its data is decoded and
//     checked whole first.
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
// The data of each event is read by a byte scanner (in any layout; the
// events it does not take, with jsontext tokens) into buffers that Read
// keeps for the stream, a whole function call's args object checked once and
// handed to the Response from the event's data, not copied: once the buffers
// have grown to the largest event, Read does not allocate per event (a
// reused Response not allocating either). It allocates per stream (its
// Reader and buffers; a Reader kept with its SSE reader and readied by Reset
// for each stream, read with [Reader.ReadEvents], does not) and per function
// call (the strings of its name and id, and the set of the ids, with the
// first id). Streamed arguments are written into buffers kept for the stream
// too, with a map of the member names of the open objects (to refuse one
// repeated), whose names are dropped as their object closes. A program that
// reads many responses keeps a [Reader], an [sse.Reader] and a Response, and
// resets each between responses (Reader.Reset, sse.Reader.Reset,
// Response.Reset): once warm, a response then allocates next to nothing,
// whatever its size (TestReusedMemory). The text given to wire.OnText and
// wire.OnThinking is borrowed until the callback returns.
//
// # Concurrency
//
// Read drives resp, and calls the callbacks, from the calling goroutine; a
// Response is for one goroutine, so do not use resp elsewhere until Read
// returns. Sinks and callbacks of the Response may call its Decline and
// Approve, and cancel ctx (and close the body) when Decline says no call is
// pending. A Reader is for one goroutine.
package geministream
