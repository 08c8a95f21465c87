// Package openaisdk glues the streaming event loops of the official OpenAI
// Go SDK (github.com/openai/openai-go/v3) to a toolcall.Response:
// FeedChat takes each chunk of client.Chat.Completions.NewStreaming (and
// so of the servers that speak Chat Completions: Azure, DeepSeek, Mistral,
// vLLM...), FeedResponses each event of client.Responses.NewStreaming.
//
//	stream := client.Chat.Completions.NewStreaming(ctx, params)
//	defer stream.Close()
//	for stream.Next() {
//		if err := openaisdk.FeedChat(resp, stream.Current(), 0); err != nil {
//			return err // toolcall.ErrIndex or toolcall.ErrEnded only
//		}
//	}
//	err := stream.Err()
//	for _, res := range resp.End() { ... }
//
// # Install
//
// This package is its own module, github.com/argstream/argstream/sdk/openaisdk,
// so that argstream itself never depends on an SDK:
//
//	go get github.com/argstream/argstream/sdk/openaisdk@latest
//
// It requires github.com/openai/openai-go/v3 v3.96.0 (the version its tests
// run against; your go.mod may select a newer one) and
// github.com/argstream/argstream. Its releases are tagged
// sdk/openaisdk/vX.Y.Z, apart from the library's vX.Y.Z tags; the replace
// directives of its go.mod serve development in the argstream repository
// only, since Go ignores a replace in a dependency's go.mod (sdk/README.md
// says how a release sets the required versions).
//
// # What the functions do
//
// Each function is a handful of lines: copy it rather than import this
// module, if you prefer. The tests check them on every recording of their
// API in testdata/llm_streams against what the recording holds, read with
// encoding/json, and against wire/openaistream's ReadChat and ReadResponses.
//
// Chat Completions: each tool-call delta of the choice read is Start with
// its index, id and function name (only the first non-empty id and name
// count), then ChunkString with its arguments; a delta typed other than
// "function" (a custom tool's) is ignored. The API has no per-call
// end: End closes the calls, and a call whose arguments were cut off (by
// max_tokens: finish_reason "length") ends truncated, never executable.
//
// Responses: a function_call output item's addition is Start at its
// output_index, with its call_id and name; each
// response.function_call_arguments.delta is ChunkString, and
// response.function_call_arguments.done is Stop. Other output items
// (messages, reasoning, tool search, MCP and custom tool calls) are not
// fed.
//
// What the SDK's stream does not say: it ends without an error when the
// body ends early (no data: [DONE] for Chat Completions, no
// response.completed for Responses). The calls not complete by then come
// out of End truncated, never executable; a Chat Completions call whose
// arguments happened to be complete JSON when the stream was cut is
// complete, as nothing tells otherwise, save the missing finish_reason.
//
// To cancel a response, cancel the context given to NewStreaming.
package openaisdk
