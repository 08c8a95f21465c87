package bedrockstream

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"hash/crc32"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire"
	"github.com/google/go-cmp/cmp"
)

// TestGolden: the message of aws-sdk-go-v2's decoder tests is what the
// tests' encoder writes for its header and payload, and decodes to them.
func TestGolden(t *testing.T) {
	text, err := os.ReadFile("testdata/aws-sdk-go-v2__eventstream-testEncodedMsg.hex")
	if err != nil {
		t.Fatal(err)
	}
	golden, err := hex.DecodeString(strings.ReplaceAll(string(text), "\n", ""))
	if err != nil {
		t.Fatal(err)
	}
	mine := encode([]hdr{{name: "content-type", value: "application/json"}}, []byte(`{'foo':'bar'}`))
	if !bytes.Equal(mine, golden) {
		t.Fatalf("encoder writes\n%x\nthe SDK's message is\n%x", mine, golden)
	}
	var m message
	if err := decode(golden, &m); err != nil {
		t.Fatal(err)
	}
	if string(m.payload) != `{'foo':'bar'}` || m.names[0] != [2]uint32{13, 25} || string(golden[13:25]) != "content-type" {
		t.Errorf("decoded payload %q, first name at %v", m.payload, m.names[0])
	}
	for _, has := range m.has {
		if has {
			t.Error("content-type without its colon taken for a header Read reads")
		}
	}
}

// TestHeaderTypes: every value type decodes, its length taken right, so
// that the header after it is found; a type past 9 is refused.
func TestHeaderTypes(t *testing.T) {
	all := []hdr{
		{name: "t", value: true}, {name: "f", value: false}, {name: "b", value: int8(-1)},
		{name: "s", value: int16(-2)}, {name: "i", value: int32(-3)}, {name: "l", value: int64(-4)},
		{name: "y", value: []byte{0, 1, 2}}, {name: "str", value: "x"},
		{name: ":date", value: time.UnixMilli(1700000000000)}, {name: "u", value: [16]byte{1, 2, 3}},
		{name: "", value: ""}, // an empty name: allowed
	}
	for i := range all {
		hs := append(append([]hdr{}, all[i:]...), all[:i]...)
		hs = append(hs, hdr{name: ":event-type", value: "metadata"}, hdr{name: ":message-type", value: "event"})
		var m message
		if err := decode(encode(hs, []byte(`{}`)), &m); err != nil {
			t.Fatalf("rotation %d: %v", i, err)
		}
		if et, _ := m.header(1); string(et) != "metadata" || string(m.payload) != "{}" {
			t.Errorf("rotation %d: event type %q, payload %q", i, et, m.payload)
		}
	}
	for _, typ := range []uint8{10, 11, 255} {
		b := encode([]hdr{{name: "x", raw: true, typ: typ}}, []byte(`{}`))
		var m message
		if err := decode(b, &m); err == nil || !strings.Contains(err.Error(), "value type") {
			t.Errorf("type %d: %v", typ, err)
		}
	}
}

// readErr reads stream and returns Read's error.
func readErr(t *testing.T, s []byte) error {
	t.Helper()
	resp := toolcall.New()
	return Read(context.Background(), bytes.NewReader(s), resp)
}

// TestFrameErrors: each fault of a frame is refused as malformed, saying
// what and where.
func TestFrameErrors(t *testing.T) {
	good := msgStart()
	flip := func(b []byte, i int) []byte {
		b = bytes.Clone(b)
		b[i] ^= 0x20
		return b
	}
	// withPrelude rewrites the lengths of b, with a right prelude CRC.
	withPrelude := func(b []byte, total, headers uint32) []byte {
		b = bytes.Clone(b)
		binary.BigEndian.PutUint32(b[0:], total)
		binary.BigEndian.PutUint32(b[4:], headers)
		binary.BigEndian.PutUint32(b[8:], crc32.ChecksumIEEE(b[:8]))
		return b
	}
	recrc := func(b []byte) []byte {
		b = bytes.Clone(b)
		end := len(b) - 4
		binary.BigEndian.PutUint32(b[end:], crc32.ChecksumIEEE(b[:end]))
		return b
	}
	hl := binary.BigEndian.Uint32(good[4:8])
	for _, tc := range []struct {
		name string
		s    []byte
		want string
	}{
		{"prelude CRC", flip(good, 9), "message 1 (byte 0): prelude CRC is"},
		{"length bit", flip(good, 3), "message 1 (byte 0): prelude CRC is"},
		{"message CRC", flip(good, len(good)-1), "message 1 (byte 0): message CRC is"},
		{"payload byte", flip(good, len(good)-6), "message CRC is"},
		{"second message", stream(good, flip(textDelta(0, "hi"), 20)), "message 2 (byte " + itoa(len(good)) + "): message CRC"},
		{"too short", withPrelude(good, 15, 0), "total length 15 is less than the 16"},
		{"too large", withPrelude(good, MaxMessageSize+1, 0), "total length 16777217 is over the limit of 16777216"},
		{"headers past end", withPrelude(good, uint32(len(good)), uint32(len(good))), "headers length"},
		{"header cut", recrc(withPrelude(good, uint32(len(good)), hl-1)), "runs past the end of the headers"},
		{"repeated header", ev2([]hdr{{name: ":message-type", value: "event"}, {name: ":event-type", value: "messageStart"}, {name: ":event-type", value: "messageStart"}}), `header 3 at byte 61: ":event-type" repeats header 2`},
		{"repeated other header", ev2([]hdr{{name: ":message-type", value: "event"}, {name: ":event-type", value: "messageStart"}, {name: "x", value: int8(1)}, {name: "x", value: int8(2)}}), `"x" repeats header 3`},
		{"case", ev2([]hdr{{name: ":message-type", value: "event"}, {name: ":Event-Type", value: "messageStart"}}), `":Event-Type" is :event-type in another case`},
		{"not a string", ev2([]hdr{{name: ":message-type", value: "event"}, {name: ":event-type", value: []byte("messageStart")}}), ":event-type has value type 6, not a string"},
		{"no message type", ev2([]hdr{{name: ":event-type", value: "messageStart"}}), "no :message-type header"},
		{"no event type", ev2([]hdr{{name: ":message-type", value: "event"}}), "an event without an :event-type header"},
		{"message type", ev2([]hdr{{name: ":message-type", value: "Event"}, {name: ":event-type", value: "messageStart"}}), `:message-type is "Event"`},
		{"event type case", ev2([]hdr{{name: ":message-type", value: "event"}, {name: ":event-type", value: "MessageStart"}}), `:event-type "MessageStart" is messageStart in another case`},
		{"content type", encode([]hdr{{name: ":message-type", value: "event"}, {name: ":event-type", value: "messageStart"}, {name: ":content-type", value: "text/plain"}}, []byte(`{}`)), `:content-type is "text/plain"`},
		{"no exception type", encode([]hdr{{name: ":message-type", value: "exception"}}, []byte(`{"message":"x"}`)), "an exception without an :exception-type header"},
	} {
		err := readErr(t, tc.s)
		if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want malformed: ...%s...", tc.name, err, tc.want)
		}
	}
}

func ev2(hs []hdr) []byte { return encode(hs, []byte(`{"role":"assistant"}`)) }

func itoa(n int) string { return strconv.Itoa(n) }

// runtimeMem is the bytes allocated so far.
type runtimeMem struct{ total uint64 }

func (m *runtimeMem) read() {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	m.total = ms.TotalAlloc
}

// TestLimitNoAllocation: a prelude that claims a message of 4 GiB is refused
// without allocating it.
func TestLimitNoAllocation(t *testing.T) {
	b := binary.BigEndian.AppendUint32(nil, 0xffffffff)
	b = binary.BigEndian.AppendUint32(b, 0)
	b = binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
	b = append(b, make([]byte, 100)...)
	var err error
	n := testing.AllocsPerRun(10, func() {
		f := frames{body: bytes.NewReader(b)}
		_, err = f.next()
	})
	if err == nil || !strings.Contains(err.Error(), "over the limit") {
		t.Fatal(err)
	}
	if n > 8 {
		t.Errorf("%v allocations to refuse a 4 GiB message", n)
	}
	var ms1, ms2 runtimeMem
	ms1.read()
	readErr(t, b)
	ms2.read()
	if d := ms2.total - ms1.total; d > 1<<20 {
		t.Errorf("%d bytes allocated to refuse a 4 GiB message", d)
	}
}

// TestTruncation: a stream cut at every byte ends in an error wrapping
// io.ErrUnexpectedEOF (or nil, once messageStop and the metadata came
// whole), never a panic; a call is complete once its JSON is whole (its
// contentBlockStop could add nothing), and not before.
func TestTruncation(t *testing.T) {
	s := stream(msgStart(), toolStart(0, "t1", "get"), toolDelta(0, `{"a":`), toolDelta(0, `1}`), blockStop(0), msgStop("tool_use"), metadata())
	full := len(s) - len(metadata())
	whole := full - len(msgStop("tool_use")) - len(blockStop(0))
	for cut := range len(s) {
		resp := toolcall.New()
		err := Read(context.Background(), bytes.NewReader(s[:cut]), resp)
		switch {
		case cut == full:
			if err != nil {
				t.Errorf("cut %d (after messageStop): %v", cut, err)
			}
		case !errors.Is(err, io.ErrUnexpectedEOF):
			t.Errorf("cut %d: %v, want io.ErrUnexpectedEOF", cut, err)
		}
		res := resp.End()
		if cut >= whole && (len(res) != 1 || !res[0].Executable || string(res[0].Arguments) != `{"a":1}`) {
			t.Errorf("cut %d, after the last delta: %+v", cut, res)
		}
		if cut < whole && len(res) == 1 && res[0].Executable {
			t.Errorf("cut %d, before the last delta: executable", cut)
		}
	}
	if err := readErr(t, s); err != nil {
		t.Fatal(err)
	}
	err := readErr(t, s[:5])
	if err == nil || !strings.Contains(err.Error(), "message 1 (byte 0) cut in the prelude, after 5 of its 12 bytes") {
		t.Errorf("cut at 5: %v", err)
	}
	err = readErr(t, s[:len(msgStart())+20])
	if err == nil || !strings.Contains(err.Error(), "message 2 (byte "+itoa(len(msgStart()))+") cut after 20 of its") {
		t.Errorf("cut at 20 of message 2: %v", err)
	}
}

// TestAppendEvent: a response written with AppendEvent, event by event,
// reads as the same response written by the tests' own encoder; an
// exception is an exception message, whose type and message Read returns.
func TestAppendEvent(t *testing.T) {
	events := [][2]string{
		{"messageStart", `{"role":"assistant"}`},
		{"contentBlockStart", `{"contentBlockIndex":0,"start":{"toolUse":{"toolUseId":"t","name":"f"}}}`},
		{"contentBlockDelta", `{"contentBlockIndex":0,"delta":{"toolUse":{"input":"{\"a\":"}}}`},
		{"contentBlockDelta", `{"contentBlockIndex":0,"delta":{"toolUse":{"input":"1}"}},"p":"abc"}`},
		{"contentBlockStop", `{"contentBlockIndex":0}`},
		{"messageStop", `{"stopReason":"tool_use"}`},
		{"metadata", `{"usage":{"inputTokens":1,"outputTokens":2,"totalTokens":3}}`},
	}
	var appended []byte
	var encoded [][]byte
	for _, e := range events {
		appended = AppendEvent(appended, e[0], []byte(e[1]))
		encoded = append(encoded, ev(e[0], e[1]))
	}
	want, got := run(stream(encoded...)), run(appended)
	if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b error) bool { return a == b })); diff != "" || len(got.Calls) != 1 || !got.Calls[0].Executable {
		t.Errorf("(-encoded +appended):\n%s\n%+v", diff, got)
	}

	for typ, want := range map[string]bool{"contentBlockDelta": true, "metadata": true, "throttlingException": true,
		"Exception": false, "ContentBlockDelta": false, "chunk": false, "": false} {
		if IsEvent(typ) != want {
			t.Errorf("IsEvent(%q) = %v", typ, !want)
		}
	}

	cut := AppendEvent(AppendEvent(nil, events[0][0], []byte(events[0][1])), "throttlingException", []byte(`{"message":"Too many requests"}`))
	var pe *wire.ProviderError
	if err := run(cut).Err; !errors.As(err, &pe) || pe.Type != "throttlingException" || pe.Message != "Too many requests" {
		t.Errorf("an exception: Read = %v", err)
	}
}
