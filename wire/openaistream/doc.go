// Package openaistream reads the streamed responses of the two OpenAI APIs that
// call tools, and drives a toolcall.Response with their tool calls while
// they stream: ReadChat for Chat Completions (and the many servers that
// speak it: Azure, DeepSeek, Mistral, vLLM, OpenRouter...), ReadResponses
// for the Responses API.
//
//	resp := toolcall.New(opts...)
//	httpResp, err := http.DefaultClient.Do(req) // req made with ctx, "stream": true
//	...
//	err = openaistream.ReadChat(ctx, httpResp.Body, resp, openaistream.OnText(show))
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
// (invalid or truncated arguments) are not these functions' errors: they
// are in its Result.
//
// # Errors
//
// Both functions return nil when the stream is complete, and otherwise:
//
//   - a *ProviderError for an error the provider sent in the stream;
//   - an error wrapping io.ErrUnexpectedEOF if the stream ends before it is
//     complete, also wrapping the sse Reader's *sse.Error for
//     sse.ErrTruncated if it ends in the middle of an event;
//   - an error wrapping ErrMalformed for an event whose data is not the
//     documented JSON (its number in the stream is in the message);
//   - ctx.Err() if ctx ends: checked between events. A Read blocked in the
//     body's Read is not woken by ctx: close the body, as net/http does when
//     the request was made with the same ctx;
//   - another error of the sse Reader (an event larger than its limit, an
//     error of body's Read), wrapped;
//   - toolcall.ErrIndex or toolcall.ErrEnded from the Response.
//
// # Memory
//
// The data of each event is decoded with jsontext tokens into buffers kept
// for the stream: once they have grown to the largest event, neither
// function allocates per delta (a reused Response not allocating either).
// They allocate per stream and per tool call (the strings of its id and
// name). The text given to OnText and OnThinking is borrowed until the
// callback returns.
//
// # Concurrency
//
// ReadChat and ReadResponses drive resp, and call the callbacks, from the
// calling goroutine; a Response is for one goroutine, so do not use resp
// elsewhere until they return. Sinks and callbacks of the Response may call
// its Decline, and cancel ctx (and close the body) when Decline says no call
// is pending.
package openaistream
