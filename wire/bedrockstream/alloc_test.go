package bedrockstream

import (
	"github.com/argstream/argstream/internal/testutil/wiretest"
	"strconv"
	"testing"
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
