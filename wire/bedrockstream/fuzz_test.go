package bedrockstream

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"math/rand/v2"
	"testing"

	"github.com/argstream/argstream/internal/testutil/wiretest"
)

// FuzzRead: no stream makes Read panic, return an error it does not
// document, or give Results that contradict each other (ReadChecked); the
// seeds are the event tests' streams, exceptions and malformed messages.
//
//	go test -run '^$' -fuzz FuzzRead ./wire/bedrockstream
func FuzzRead(f *testing.F) {
	call := stream(msgStart(), toolStart(0, "t", "f"), toolDelta(0, `{"a":`), toolDelta(0, `[1,2]}`), blockStop(0))
	seeds := [][]byte{
		synthetic(2),
		stream(call, msgStop("tool_use"), metadata()),
		stream(call, textDelta(1, "x"), reasonDelta(2, "y"), msgStop("end_turn")),
		stream(msgStart(), toolStart(0, "t", "f"), toolDelta(0, `12`), msgStop("max_tokens")),
		stream(call, exc("throttlingException", `{"message":"slow down"}`)),
		stream(call, toolStart(0, "u", "g")),
		stream(msgStart(), ev("contentBlockDelta", `{"contentBlockIndex":0,"delta":{"toolUse":{"input":"{}"},"text":"x"}}`)),
		stream(msgStart(), encode([]hdr{{name: ":event-type", value: "metadata"}, {name: ":message-type", value: "event"}, {name: "t", value: true}, {name: "i", value: int32(7)}, {name: "u", value: [16]byte{9}}}, []byte(`{}`)), msgStop("end_turn")),
		msgStart()[:20],
	}
	bedrockAdapter.Fuzz(f, wiretest.Streams(seeds...))
}

// TestMutations: random changes of bytes that matter to JSON in the
// payload of one message, whose lengths and CRCs are then made right again,
// end in an error or with calls, never in a contradiction.
func TestMutations(t *testing.T) {
	streams := [][]byte{synthetic(2), stream(msgStart(), toolStart(0, "t", "f"), toolDelta(0, `{"a":[1,2]}`), blockStop(0), msgStop("tool_use"), metadata())}
	bedrockAdapter.CheckMutations(t, streams, mutatePayload, 20)
}

// mutatePayload changes the payload of one message of s at random
// (wiretest.MutateBytes) and encodes the message again, its headers as they
// were.
func mutatePayload(rng *rand.Rand, s []byte) []byte {
	var msgs [][]byte
	f := frames{body: bytes.NewReader(s)}
	for {
		b, err := f.next()
		if err != nil {
			break
		}
		msgs = append(msgs, bytes.Clone(b))
	}
	k := rng.IntN(len(msgs))
	m := msgs[k]
	hend := 12 + int(binary.BigEndian.Uint32(m[4:8]))
	payload := wiretest.MutateBytes(rng, bytes.Clone(m[hend:len(m)-4]))
	b := binary.BigEndian.AppendUint32(nil, uint32(hend+len(payload)+4))
	b = binary.BigEndian.AppendUint32(b, uint32(hend-12))
	b = binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
	b = append(append(b, m[12:hend]...), payload...)
	msgs[k] = binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
	return bytes.Join(msgs, nil)
}
