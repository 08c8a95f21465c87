// Package fuzz holds argstream's fuzz targets (internal: it has no API, only
// tests):
//
//   - FuzzChunking: any input in any chunks gives the outcome of the whole
//     input and of jsontext, and a valid input cut short invents nothing;
//   - FuzzHandrolled: the hand-rolled baseline agrees with the jsontext
//     tokenizer;
//   - FuzzPolicy: the streaming policy decision equals the decision on the
//     complete arguments, for fuzzed rules, arguments and chunkings;
//   - FuzzSSE: the server-sent-events reader gives the same events and end
//     for any read sizes.
//
// The targets of the other packages live with them: the wire adapters'
// (FuzzRead in wire/anthropicstream, FuzzReadChat and FuzzReadResponses in
// wire/openaistream), and the text syntaxes' (FuzzCaret in token/caret,
// FuzzXMLTag in token/xmltag, FuzzQwen in token/qwen, FuzzReader in
// dialect).
//
// Run one with
//
//	go test ./internal/fuzz -run '^$' -fuzz FuzzChunking -fuzztime 5m
//
// Plain go test runs every target on its seed corpus: the files under
// ../../testdata and the interesting inputs found so far, in testdata/fuzz.
package fuzz
