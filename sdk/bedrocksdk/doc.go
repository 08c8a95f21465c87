// Package bedrocksdk glues the streaming loop of the AWS SDK for Go v2's
// Bedrock Runtime client (github.com/aws/aws-sdk-go-v2/service/bedrockruntime)
// to a toolcall.Response: Feed takes each event of client.ConverseStream.
//
//	resp := toolcall.New(opts...)
//	out, err := client.ConverseStream(ctx, input)
//	if err != nil {
//		return err
//	}
//	stream := out.GetStream()
//	defer stream.Close()
//	for ev := range stream.Events() {
//		if err := bedrocksdk.Feed(resp, ev); err != nil {
//			return err // only toolcall.ErrIndex, ErrTooManyCalls or ErrEnded
//		}
//	}
//	if err := stream.Err(); err != nil {
//		// an exception, or the body cut: the calls still open come out of
//		// End truncated, never executable
//	}
//	for _, res := range resp.End() { ... }
//	resp.Reset() // for the next response
//
// # Install
//
// This package is its own module, github.com/argstream/argstream/sdk/bedrocksdk,
// so that argstream itself never depends on an SDK:
//
//	go get github.com/argstream/argstream/sdk/bedrocksdk@latest
//
// It requires github.com/aws/aws-sdk-go-v2/service/bedrockruntime v1.63.13
// (the version its tests run against; your go.mod may select a newer one)
// and github.com/argstream/argstream. Its releases are tagged
// sdk/bedrocksdk/vX.Y.Z, apart from the library's vX.Y.Z tags; the replace
// directives of its go.mod serve development in the argstream repository
// only (sdk/README.md says how a release sets the required versions).
//
// # What Feed does
//
// It does with the SDK's decoded events what wire/bedrockstream's Read does
// with the raw body (see its documentation), and the tests check that both
// give the same Results on the same bytes: the fixture of
// wire/bedrockstream/testdata and generated streams of one to three calls,
// served to a real bedrockruntime client by an httptest server. Where the
// two differ:
//
//   - Read refuses a stream that two readers could read differently
//     (wire.ErrMalformed: no call runs); the SDK reads it its own way, and
//     Feed follows the SDK.
//   - An exception in the stream ends the SDK's Events channel and is
//     stream.Err(); the calls not stopped by then end truncated, as with
//     Read, which returns the exception as a *wire.ProviderError.
//   - A toolUse start of type server_tool_use is a call the provider runs:
//     Feed marks it fragment.Call.Server, never executable.
//   - Against a server that answers at once (a local fake, a test
//     server), the SDK's client now and then closes the connection under
//     the event stream (stream.Err() is "use of closed network
//     connection"): the SDK closes the request's body while net/http still
//     checks it. HTTPClient wraps the SDK's HTTP client so that it cannot;
//     the tests run through it, and the calls of a stream cut that way
//     are safe without it (not stopped: truncated, never executable).
//   - Text and reasoning are not passed to callbacks (Read's wire.OnText
//     and wire.OnThinking): the loop reads them from the same events, as
//     *types.ContentBlockDeltaMemberText and
//     *types.ContentBlockDeltaMemberReasoningContent.
package bedrocksdk
