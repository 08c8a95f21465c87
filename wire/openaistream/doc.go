// Package openaistream reads the streamed responses of the two OpenAI APIs that
// call tools, and drives a [toolcall.Response] with their tool calls while
// they stream: [ReadChat] for Chat Completions (and the many servers that
// speak it: Azure, DeepSeek, Mistral, vLLM, OpenRouter...), [ReadResponses]
// for the Responses API.
//
//	resp := toolcall.New(opts...)
//	httpResp, err := http.DefaultClient.Do(req) // req made with ctx, "stream": true
//	...
//	err = openaistream.ReadChat(ctx, httpResp.Body, resp, wire.OnText(show))
//	httpResp.Body.Close()
//	for _, r := range resp.End() { // the caller calls End
//		if r.Executable {
//			run(r.Call, r.Arguments)
//		}
//	}
//
// Each function's documentation lists the events it reads and when the
// stream is complete. With an error from either, End still reports every
// call: End closes the ones still open, and a call whose arguments had not
// ended ends truncated and not executable (whole JSON arguments are
// complete: nothing could follow their last brace). A call's own errors
// (invalid or truncated arguments, a restatement that differs from what
// streamed) are not these functions' errors: they are in its Result.
//
// The same steps, one event at a time, are [ChatReader.Event] and
// [ResponsesReader.Event], for a caller that reads the events itself (a
// gateway that forwards them as it reads them).
//
// The options, the errors the provider sends in the stream and the
// sentinel of malformed streams are package [wire]'s, shared with package
// anthropicstream: [wire.OnText], [wire.OnThinking] and [wire.WithChoice]
// (Chat Completions only); [wire.ProviderError]; [wire.ErrMalformed], which
// [ErrMalformed] is.
//
// # What runs is what was judged
//
// The bytes a stream's calls are read from are read by other readers too:
// the official SDKs of a client behind a gateway, a log, a replay. Where two
// conforming readers could read an event differently, both functions refuse
// the stream (ErrMalformed) and fail the Response ([toolcall.Response.Fail]:
// no call of it runs), rather than pick one reading. Refused, in both APIs:
//
//   - an event whose data is not one JSON object, valid UTF-8, with no
//     member name repeated in any of its objects (openai-go's gjson reads
//     the first of two, Go's encoding/json and the Python and JavaScript
//     SDKs the last), no name written with an escape, and none equal under
//     case folding to another or to a member these functions read without
//     being it (encoding/json v1 matches "Arguments" to arguments);
//   - an index past 2^53-1 (JavaScript's numbers round it);
//   - data that begins as [DONE] and is not exactly [DONE] (the SDKs stop
//     at such data);
//   - a stream the SSE reader finds ambiguous: a leading byte order mark, a
//     line ended by a lone CR (see package [sse]).
//
// The specifics are in ReadChat's and ReadResponses' documentation. A call
// the Responses API runs itself (an mcp_call) has Call.Server set and is
// never executable.
//
// # Memory
//
// The data of each event is decoded with jsontext tokens into buffers kept
// for the stream: once they have grown to the largest event, neither
// function allocates per delta (a reused Response not allocating either).
// They allocate per stream and per tool call (the strings of its id and
// name): a stream's buffers grow to its largest event (the Responses API's
// response.completed restates every call's arguments). A program that
// reads many responses keeps a [ChatReader] or [ResponsesReader], an
// [sse.Reader] and a Response, and resets each between responses
// (ChatReader.Reset, sse.Reader.Reset, Response.Reset): once warm, a
// response then allocates a few hundred bytes, whatever its size (180 bytes
// for a Responses stream of 4.6 MB, in TestReusedMemory). The text given
// to wire.OnText and wire.OnThinking is borrowed until the callback
// returns.
//
// The Responses API restates each call's arguments up to three times. A
// Response made with [toolcall.WithRestatements] compares a restatement of
// the bytes that streamed by hash, from its first call on, instead of
// parsing it again: the gateway reads Responses streams so, a third faster
// (BenchmarkFilterResponses in guard). A reused Response learns it at its
// first restatement.
//
// # Concurrency
//
// ReadChat and ReadResponses drive resp, and call the callbacks, from the
// calling goroutine; a Response is for one goroutine, so do not use resp
// elsewhere until they return. Sinks and callbacks of the Response may call
// its Decline and Approve, and cancel ctx (and close the body) when Decline
// says no call is pending. A [ChatReader] or [ResponsesReader] is for one
// goroutine.
package openaistream
