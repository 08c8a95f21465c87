package bedrockstream

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"time"

	"github.com/argstream/argstream/internal/testutil/wiretest"
)

// The tests' encoder of the event stream encoding, written from its
// specification: independent of the decoder under test.

// hdr is a header to encode: value is a bool, int8, int16, int32, int64,
// []byte, string, time.Time (a timestamp) or [16]byte (a UUID); or, with
// raw set, typ and the value's bytes as they are.
type hdr struct {
	name  string
	value any
	raw   bool
	typ   uint8
	bytes []byte
}

func appendHeader(b []byte, h hdr) []byte {
	b = append(b, byte(len(h.name)))
	b = append(b, h.name...)
	if h.raw {
		return append(append(b, h.typ), h.bytes...)
	}
	switch v := h.value.(type) {
	case bool:
		if v {
			return append(b, 0)
		}
		return append(b, 1)
	case int8:
		return append(b, 2, byte(v))
	case int16:
		return binary.BigEndian.AppendUint16(append(b, 3), uint16(v))
	case int32:
		return binary.BigEndian.AppendUint32(append(b, 4), uint32(v))
	case int64:
		return binary.BigEndian.AppendUint64(append(b, 5), uint64(v))
	case []byte:
		return append(binary.BigEndian.AppendUint16(append(b, 6), uint16(len(v))), v...)
	case string:
		return append(binary.BigEndian.AppendUint16(append(b, 7), uint16(len(v))), v...)
	case time.Time:
		return binary.BigEndian.AppendUint64(append(b, 8), uint64(v.UnixMilli()))
	case [16]byte:
		return append(append(b, 9), v[:]...)
	}
	panic(fmt.Sprintf("header value %T", h.value))
}

// encode encodes one message: the prelude and its CRC, the headers, the
// payload and the message CRC.
func encode(headers []hdr, payload []byte) []byte {
	var hs []byte
	for _, h := range headers {
		hs = appendHeader(hs, h)
	}
	total := 12 + len(hs) + len(payload) + 4
	b := binary.BigEndian.AppendUint32(nil, uint32(total))
	b = binary.BigEndian.AppendUint32(b, uint32(len(hs)))
	b = binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
	b = append(append(b, hs...), payload...)
	return binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
}

// ev is an event message as Bedrock writes one: :event-type,
// :content-type, :message-type, and the JSON payload.
func ev(typ, payload string) []byte {
	return encode([]hdr{{name: ":event-type", value: typ}, {name: ":content-type", value: "application/json"},
		{name: ":message-type", value: "event"}}, []byte(payload))
}

// exc is an exception message.
func exc(typ, payload string) []byte {
	return encode([]hdr{{name: ":exception-type", value: typ}, {name: ":content-type", value: "application/json"},
		{name: ":message-type", value: "exception"}}, []byte(payload))
}

func stream(msgs ...[]byte) []byte {
	var b []byte
	for _, m := range msgs {
		b = append(b, m...)
	}
	return b
}

func quote(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// The events of a ConverseStream response, as Bedrock writes them (with the
// "p" padding member it adds).
func msgStart() []byte { return ev("messageStart", `{"p":"abcdefghijkl","role":"assistant"}`) }
func textDelta(i int, s string) []byte {
	return ev("contentBlockDelta", fmt.Sprintf(`{"contentBlockIndex":%d,"delta":{"text":%s},"p":"abcd"}`, i, quote(s)))
}
func reasonDelta(i int, s string) []byte {
	return ev("contentBlockDelta", fmt.Sprintf(`{"contentBlockIndex":%d,"delta":{"reasoningContent":{"text":%s}},"p":"abcd"}`, i, quote(s)))
}
func toolStart(i int, id, name string) []byte {
	return ev("contentBlockStart", fmt.Sprintf(`{"contentBlockIndex":%d,"p":"abc","start":{"toolUse":{"name":%s,"toolUseId":%s}}}`, i, quote(name), quote(id)))
}
func toolDelta(i int, input string) []byte {
	return ev("contentBlockDelta", fmt.Sprintf(`{"contentBlockIndex":%d,"delta":{"toolUse":{"input":%s}},"p":"abcdef"}`, i, quote(input)))
}
func blockStop(i int) []byte {
	return ev("contentBlockStop", fmt.Sprintf(`{"contentBlockIndex":%d,"p":"abcdefghij"}`, i))
}
func msgStop(reason string) []byte {
	return ev("messageStop", fmt.Sprintf(`{"p":"abcdefgh","stopReason":%s}`, quote(reason)))
}
func metadata() []byte {
	return ev("metadata", `{"metrics":{"latencyMs":1219},"p":"abcdefghijklmnopqrstu","usage":{"inputTokens":410,"outputTokens":77,"totalTokens":487}}`)
}

var bedrockAdapter = wiretest.Adapter{Name: "Read", Read: Read}
