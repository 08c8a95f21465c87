package anthropicstream

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/argstream/argstream/internal/testutil/wiretest"
)

// parsed is what parse reads from one event's data.
type parsed struct {
	Typ, BlockType, ID, Name, Input, DeltaType, Str, ErrType, ErrMsg string
	Index                                                            int64
	HasIndex, HasStr                                                 bool
}

func (r *Reader) parsed() parsed {
	return parsed{
		Typ: string(r.typ), BlockType: string(r.blockType), ID: string(r.id), Name: string(r.name),
		Input: string(r.input), DeltaType: string(r.deltaType), Str: string(r.str),
		ErrType: string(r.errType), ErrMsg: string(r.errMsg),
		Index: r.index, HasIndex: r.hasIndex, HasStr: r.hasStr,
	}
}

// fastVsSlow checks that the fast path reads data as the token decoder
// does, or declines it. It reports whether the fast path took it.
func fastVsSlow(data []byte) (took bool, problem string) {
	var fast, slow, blank Reader
	if !fast.fastDelta(data) {
		if got := fast.parsed(); got != blank.parsed() {
			return false, fmt.Sprintf("%q: the fast path declined, but set %+v", data, got)
		}
		return false, ""
	}
	if err := slow.parseSlow(data); err != nil {
		return true, fmt.Sprintf("%q: the fast path took it, the decoder rejects it: %v", data, err)
	}
	if f, s := fast.parsed(), slow.parsed(); f != s {
		return true, fmt.Sprintf("%q: the fast path read %+v, the decoder %+v", data, f, s)
	}
	return true, ""
}

func TestFastDelta(t *testing.T) {
	for _, tc := range []struct {
		data string
		took bool
	}{
		{`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"a\": 1"}}`, true},
		{`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":""}       }`, true},
		{`{"type":"content_block_delta","index":922337203685477,"delta":{"type":"input_json_delta","partial_json":"\\\"\u00e9\n"} } ` + "\n\t\r", true},
		{`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"a\\"}}`, true},
		{`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi, \u00e9\n"}}`, true},
		{`{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"hmm"}}`, true},
		{`{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"x"}}`, false},
		// Huge, signed, fractional, leading zeros: the decoder decides.
		{`{"type":"content_block_delta","index":9223372036854775807,"delta":{"type":"input_json_delta","partial_json":"x"}}`, false},
		{`{"type":"content_block_delta","index":99999999999999999999,"delta":{"type":"input_json_delta","partial_json":"x"}}`, false},
		{`{"type":"content_block_delta","index":01,"delta":{"type":"input_json_delta","partial_json":"x"}}`, false},
		{`{"type":"content_block_delta","index":-1,"delta":{"type":"input_json_delta","partial_json":"x"}}`, false},
		{`{"type":"content_block_delta","index":1.0,"delta":{"type":"input_json_delta","partial_json":"x"}}`, false},
		// Escapes in names, duplicate names, white space, other fields.
		{`{"\u0074ype":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"x"}}`, false},
		{`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"x","partial_json":"y"}}`, false},
		{`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"x"},"index":2}`, false},
		{`{"type": "content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"x"}}`, false},
		{` {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"x"}}`, false},
		// Bad strings, trailing garbage, cut short.
		{`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"\x"}}`, false},
		{`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"\ud800"}}`, false},
		{"{\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"\xff\"}}", false},
		{"{\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"\x01\"}}", false},
		{`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"x"}}}`, false},
		{`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"x"}} x`, false},
		{`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"x"}`, false},
		{`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"x\"}}`, false},
		{`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"x"} }` + "\v", false},
	} {
		wiretest.CheckFastCase(t, tc.data, tc.took, fastVsSlow)
	}
}

// deltaData makes the data of a delta event, mostly as the API writes it,
// sometimes not, and then mutates some of its bytes.
func deltaData(rng *rand.Rand) []byte {
	d := wiretest.Draw{Rand: rng}
	rare := d.Rare
	str := d.Chars(12)
	ws := func() string { return rare("", " ", "      ", "\n", "\t\r\n ", "\v", "\u00a0") }
	data := []byte(rare(`{"type"`, `{"\u0074ype"`, ` {"type"`, `{"type" `, `{"typ"`) + ":" +
		rare(`"content_block_delta"`, `"content_block_start"`, `"content_block_deltb"`, `null`) + "," +
		rare(`"index":`, `"index" :`, `"ind\u0065x":`, `"x":0,"index":`) +
		rare(fmt.Sprint(rng.IntN(100)), "0", "00", "-1", "1e1", "1.5", "9223372036854775807", "9223372036854775808",
			"999999999999999999", "1000000000000000000", `"1"`, "null") +
		rare(`,"delta":{"type":"input_json_delta","partial_json":`,
			`,"delta":{"type":"text_delta","text":`, `,"delta":{"type":"thinking_delta","thinking":`,
			`,"delta":{"type":"text_delta","thinking":`, `,"delta":{"type":"thinking_delta","text":`, `,"delta":{"partial_json":`,
			`,"delta":{"type":"input_json_delta","partial_json" :`, `,"index":2,"delta":{"type":"input_json_delta","partial_json":`) +
		`"` + str + `"` +
		rare("", `,"partial_json":"y"`, `,"type":"text_delta"`) + "}" + ws() +
		rare("", `,"index":3`, `,"delta":null`) + "}" + ws() +
		rare("", "}", "x", "{}", `"`))
	return wiretest.MutateBytes(rng, data)
}

// TestPropertyFastDelta: on generated and mutated delta events, the fast
// path declines, or reads what the token decoder reads.
func TestPropertyFastDelta(t *testing.T) {
	wiretest.FastPathProperty(t, func(rng *rand.Rand) (bool, string) {
		return fastVsSlow(deltaData(rng))
	})
}

func FuzzFastDelta(f *testing.F) {
	wiretest.FuzzFastPath(f, deltaData, fastVsSlow)
}
