package bench

import (
	"strings"
	"testing"
)

// BenchmarkSDKWire measures issue 23's new wires as BenchmarkWire measures
// the others, in their documented layout only:
// BenchmarkSDKWire/wire=W/stream=S/impl=C for the wires gemini, ollama,
// bedrock and cohere; the synthetic streams of the workloads at the sizes of
// -wiresizes (SDKWireStream) and, as stream=recordings, the wire's
// recordings of SDKWireRecordings one after the other; the contenders of
// SDKWireContenders: argstream (the wire package's reader, or its Read,
// driving a toolcall.Response, kept from response to response) and sdk (the
// official Go SDK: genai's GenerateContentStream, ollama/api's Client.Chat,
// bedrockruntime's ConverseStream, each reading the same bytes from a fake
// transport, and cohere-go's V2ChatStreamResponse decoding each event: see
// cohereSDK).
// It reports BenchmarkWire's metrics, vs-argstream among them: the SDK's
// CPU time over argstream's on the same stream, measured in the same
// process. A Gemini or Ollama call comes whole in one event, so their
// per-delta figures are per call.
func BenchmarkSDKWire(b *testing.B) {
	sizes := strings.Split(*wireSizes, ",")
	for _, wire := range SDKWires {
		b.Run("wire="+wire, func(b *testing.B) {
			ss, err := LoadSDKWireStreams(wire, "testdata", sizes)
			if err != nil {
				b.Fatal(err)
			}
			cs := SDKWireContenders(wire)
			for _, s := range ss {
				b.Run("stream="+s.Name, func(b *testing.B) {
					for _, c := range cs {
						b.Run("impl="+c.Name, func(b *testing.B) { benchWire(b, c, s, cs[0]) })
					}
				})
			}
		})
	}
}
