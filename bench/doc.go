// Package bench measures argstream against the ways tool-call arguments are
// parsed today, on the same bytes cut into the same chunks.
//
// It is a module of its own (github.com/argstream/argstream/bench), so that
// the peers it measures never enter the library's go.mod.
//
// Every contender does one job: consume a document chunk by chunk and, after
// each chunk, make what that chunk determined available to a consumer. A
// Contender makes a fresh Streamer for each document; the benchmarks feed it
// the workloads in testdata (the shared tool-call workloads and three standard
// JSON documents) at chunk sizes 1, 4, 16, 64, 1024 and whole:
//
//   - argstream's tokenizer alone and its full pipeline (tokenizer,
//     fragments, aggregator), on the jsontext-backed tokenizer (argstream-*)
//     and on the hand-rolled baseline of internal/handrolled (handrolled-*,
//     the pipeline through argstream.WithTokenizer(handrolled.NewFunc));
//   - NaiveJSONText: a jsontext.Decoder that is retried after every chunk,
//     rescanning an unfinished token from its start (quadratic on long
//     strings);
//   - Reparse: the SDKs' partial JSON, which closes the open strings and
//     brackets of everything received and decodes it all again on every
//     chunk (quadratic);
//   - PipeJSON, PipeJSONText and JStream: decoders reading from an io.Pipe
//     that a goroutine writes the chunks to (incremental, but whole strings
//     only);
//   - references that are not contenders: whole-document jsontext
//     tokenization and encoding/json Unmarshal.
//
// Quadratic contenders state the work they would do (Contender.Cost); the
// benchmarks skip the sizes whose cost passes a cap (-maxwork), so that a
// run ends. BenchmarkStream reports, beside MB/s, ns/chunk, B/op and
// allocs/op, the ratio of each contender's throughput to whole-document
// jsontext tokenization measured in the same process; BenchmarkScaling shows
// linear and quadratic contenders from 1 KiB to 1 MB; BenchmarkLinearity,
// BenchmarkSteadyState and BenchmarkIdleStreams measure the other targets
// of DESIGN.md. See README.md for how to run everything and for the
// figures; cmd/benchtable turns results into its tables.
//
// End to end, BenchmarkWire measures a provider's streamed response from its
// SSE bytes to each tool call's complete arguments: argstream's wire
// adapters driving a reused toolcall.Response (with and without a policy)
// against the official Go SDKs (anthropic-sdk-go, openai-go), on synthetic
// streams of the workloads (SyntheticStream, cut by DeltaSizes) and on the
// recordings of testdata/llm_streams (WireContenders, LoadWireStreams).
package bench
