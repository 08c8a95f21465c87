// Package ollamasdk glues the streaming loop of Ollama's Go client
// (github.com/ollama/ollama/api) to a toolcall.Response: a Feeder takes
// each response client.Chat gives its callback.
//
//	resp := toolcall.New(opts...)
//	f := ollamasdk.NewFeeder(resp)
//	err := client.Chat(ctx, req, func(cr api.ChatResponse) error {
//		show(cr.Message.Content)
//		return f.Feed(cr) // or pass f.Feed itself as the callback
//	})
//	if err != nil || !f.Done() {
//		// an error line, the body cut: the calls read so far are whole
//	}
//	for _, res := range resp.End() { ... }
//	resp.Reset(); f.Reset(resp) // for the next response
//
// # Install
//
// This package is its own module, github.com/argstream/argstream/sdk/ollamasdk,
// so that argstream itself never depends on an SDK:
//
//	go get github.com/argstream/argstream/sdk/ollamasdk@latest
//
// It requires github.com/ollama/ollama v0.17.4 (the version its tests run
// against; your go.mod may select a newer one) and
// github.com/argstream/argstream. Its releases are tagged
// sdk/ollamasdk/vX.Y.Z, apart from the library's vX.Y.Z tags; the replace
// directives of its go.mod serve development in the argstream repository
// only (sdk/README.md says how a release sets the required versions).
//
// # What Feed does
//
// It does what wire/ollamastream's Read does with the raw body (see its
// documentation), from the SDK's decoded responses, and the tests check
// that both give the same Results, arguments compared as JSON values, on
// the streams of wire/ollamastream/testdata and on generated streams (one
// to five calls, several to a line or one a line, text and thinking
// between, members in any order, white space, unknown members), served to
// a real api.Client by an httptest server in pieces of random sizes:
//
//   - Indexes. Ollama sends each call whole, once, and numbers its calls
//     by nothing but their order: each element of message.tool_calls is
//     the call at the next index, 0, 1, 2..., counted across the lines of
//     one stream. The count is the Feeder's: hence a type, not a function.
//     function.index, which Ollama leaves 0 for most models, is not used.
//   - Arguments. The SDK decodes them into an ordered map and Feed writes
//     that again (Arguments.MarshalJSON): the object's members come in the
//     model's order, but nested objects' members sorted, numbers as
//     float64 writes them (an integer beyond 2^53 loses digits, as the
//     tool reading the SDK's map sees it), a member repeated once, with
//     the last value, and a lone surrogate escape as U+FFFD, where Read
//     refuses the stream. A call without
//     arguments is {} to the SDK, where Read refuses it.
//   - A call without a function name is the SDK's Name "", which Feed
//     passes on, as Read passes on a name "": the Response never makes
//     such a call executable. Read refuses a missing name (the stream is
//     malformed); the SDK cannot tell the two apart.
//   - done ends the response; with it, a done_reason "length" marks the
//     response cut short (Response.Incomplete). A response after the done
//     one is malformed, as a line after the done line is to Read.
//
// What the SDK has decoded it decoded its own way (encoding/json v1: the
// last of two repeated members, names matched case-insensitively), and
// Feed follows it. To refuse such streams, read the raw body with package
// wire/ollamastream instead.
//
// # What Chat does not tell
//
//   - Chat returns nil when the body ends before the done line: the calls
//     read are whole and End reports them executable, as Read's do (Read
//     returns io.ErrUnexpectedEOF). Feeder.Done tells the two apart.
//   - An error line is Chat's error, before the callback sees the line:
//     the calls of the lines before it are whole, as with Read, which
//     returns a *wire.ProviderError.
package ollamasdk
