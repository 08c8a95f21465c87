// Package genaisdk glues the streaming loop of Google's Gen AI Go SDK
// (google.golang.org/genai) to a toolcall.Response: a Feeder takes each
// response of client.Models.GenerateContentStream, for the Gemini API and
// for Vertex AI.
//
//	resp := toolcall.New(opts...)
//	f := genaisdk.NewFeeder(resp)
//	for chunk, err := range client.Models.GenerateContentStream(ctx, model, contents, config) {
//		if err != nil {
//			break // the calls still open come out of End truncated
//		}
//		if err := f.Feed(chunk); err != nil {
//			return err
//		}
//	}
//	for _, res := range resp.End() { ... }
//	resp.Reset(); f.Reset(resp) // for the next response
//
// # Install
//
// This package is its own module, github.com/argstream/argstream/sdk/genaisdk,
// so that argstream itself never depends on an SDK:
//
//	go get github.com/argstream/argstream/sdk/genaisdk@latest
//
// It requires google.golang.org/genai v1.77.0 (the version its tests run
// against; your go.mod may select a newer one) and
// github.com/argstream/argstream. Its releases are tagged
// sdk/genaisdk/vX.Y.Z, apart from the library's vX.Y.Z tags; the replace
// directives of its go.mod serve development in the argstream repository
// only (sdk/README.md says how a release sets the required versions).
//
// # What Feed does
//
// It does what wire/geministream's Read does with the raw body (see its
// documentation), from the SDK's decoded responses, and the tests check
// that both give the same Results on every recording of
// wire/geministream/testdata that Read accepts, arguments compared as JSON
// values:
//
//   - Indexes. Gemini numbers its calls by nothing but their order: each
//     functionCall part of candidate 0 that begins a call is the call at
//     the next index, 0, 1, 2..., counted across the responses of one
//     stream. The count is the Feeder's (with the call still streaming,
//     which the Response cannot hold): hence a type, not a function.
//   - Arguments. A whole call's Args, the map the SDK decoded, are
//     marshalled by encoding/json: keys sorted, not in the model's order,
//     numbers as float64 writes them, {} for a call without args. A policy
//     may then decide at another byte than Read on the raw body would, but
//     decides the same; the arguments are JSON-equal to Read's.
//   - Streamed arguments (Vertex AI's partialArgs and willContinue) are
//     written as one JSON text as their values arrive, as Read writes them:
//     the call starts at its first part, each part's values are one Chunk,
//     its last part (willContinue not true) closes the containers still
//     open and stops it. Numbers come as the SDK's float64, and an empty
//     stringValue is, to the SDK, no value: Feed takes a partialArg
//     without value as the empty string, where Read refuses it.
//   - FinishReason MAX_TOKENS marks the response cut short
//     (Response.Incomplete): a call still streaming ends truncated.
//
// What the SDK has decoded it decoded its own way (encoding/json v1: the
// last of two repeated members, names matched case-insensitively), and
// Feed follows it. To refuse such streams, read the raw body with package
// wire/geministream instead. The SDK ends its iteration without an error
// when the body ends early: calls whose arguments still streamed come out
// of End truncated, never executable; whole calls came whole.
package genaisdk
