package bedrockstream

import (
	"bytes"
	"strconv"
	"testing"

	"github.com/argstream/argstream/internal/testutil/wiretest"
	"github.com/argstream/argstream/toolcall"
)

// synthetic is a stream of two calls whose arguments come in n rounds of
// small deltas, with text and reasoning deltas between them.
func synthetic(n int) []byte {
	b := stream(msgStart(), reasonDelta(0, "thinking"), toolStart(1, "tooluse_a", "write"), toolStart(2, "tooluse_b", "read"),
		toolDelta(1, `{"items":[`), toolDelta(2, `{"paths":[`))
	for k := range n {
		s := strconv.Itoa(k)
		sep := ","
		if k == 0 {
			sep = ""
		}
		b = append(b, toolDelta(1, sep+`"line \"`+s+`\"\n"`)...)
		b = append(b, textDelta(3, "word "+s+" é")...)
		b = append(b, toolDelta(2, sep+`"p`+s+`"`)...)
		b = append(b, reasonDelta(0, " more")...)
	}
	return append(b, stream(toolDelta(1, `]}`), toolDelta(2, `]}`), blockStop(0), blockStop(1), blockStop(2), blockStop(3),
		msgStop("tool_use"), metadata())...)
}

// TestAllocs: Read allocates per stream and per call, never per message.
func TestAllocs(t *testing.T) {
	bedrockAdapter.CheckAllocs(t, syntheticSteady)
}

var syntheticSteady = steady()

// BenchmarkRead: a stream of two calls and 4,000 deltas of arguments, text
// and reasoning.
//
//	go test -run '^$' -bench Read ./wire/bedrockstream
func BenchmarkRead(b *testing.B) {
	bedrockAdapter.Bench(b, synthetic(1000))
}

func steady() wiretest.SteadyStream {
	return wiretest.SteadyStream{Stream: synthetic, Deltas: 4, Large: 2000, Runs: 10}
}

// TestReadBodyReused: a Reader kept from body to body with Reset reads
// each stream as Read does, one after the other: the fixture, a long
// stream, a malformed one, one with an exception, a corrupt frame, and
// each cut short.
func TestReadBodyReused(t *testing.T) {
	corrupt := converseFixture()
	corrupt[len(corrupt)/2] ^= 0x40 // a CRC fails
	streams := [][]byte{
		converseFixture(), synthetic(500),
		stream(msgStart(), blockStop(0)),
		stream(msgStart(), toolStart(0, "t", "f"), toolDelta(0, `{"x":`), exc("throttlingException", `{"message":"Too many requests"}`)),
		corrupt,
	}
	for _, s := range streams[:len(streams):len(streams)] {
		streams = append(streams, s[:len(s)*2/3])
	}
	bedrockAdapter.CheckReadBody(t, NewReader(toolcall.New()), streams)
}

// TestReusedMemory: a Reader (with its message buffer, ReadBody) and a
// Response kept from response to response allocate per response, once
// warm, less than 64 KiB but for the Results' arguments, whatever the
// response's size.
func TestReusedMemory(t *testing.T) {
	body := synthetic(20000)
	args := 0
	for _, res := range bedrockAdapter.Run(toolcall.New(), bytes.NewReader(body)).Calls {
		args += len(res.Arguments)
	}
	per := wiretest.CheckReusedBody(t, "Bedrock", body, NewReader(toolcall.New()), 64<<10+uint64(args))
	t.Logf("a stream of %d bytes, %d of arguments, allocates %d bytes with a reused reader", len(body), args, per)
}
