package anthropicstream

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/argstream/argstream/internal/testutil/wiretest"
	"github.com/argstream/argstream/wire/internal/adapter"
)

// parsed is what parse reads from one event's data, with the kinds that
// event and blockDelta take of its type and delta type: set again from the
// layout's kept fields, or read from the bytes.
type parsed struct {
	Typ, BlockType, ID, Name, Input, DeltaType, Str, ErrType, ErrMsg string
	Index                                                            int64
	HasIndex, HasStr                                                 bool
	EvType                                                           eventType
	Want                                                             blockKind
}

func (r *Reader) parsed() parsed {
	p := parsed{
		Typ: string(r.typ), BlockType: string(r.blockType), ID: string(r.id), Name: string(r.name),
		Input: string(r.input), DeltaType: string(r.deltaType), Str: string(r.str),
		ErrType: string(r.errType), ErrMsg: string(r.errMsg),
		Index: r.index, HasIndex: r.hasIndex, HasStr: r.hasStr,
		EvType: r.evType, Want: r.want,
	}
	if p.EvType == evUnread {
		p.EvType = eventTypeOf(r.typ)
	}
	if !r.hasWant {
		p.Want = deltaKindOf(r.deltaType)
	}
	return p
}

// fastVsSlow checks parse and the fast path against the token decoder
// (wiretest.FastVsSlow), and reports whether the fast path took data.
func fastVsSlow(data []byte) (took bool, problem string) {
	return wiretest.FastVsSlow(data,
		func(data []byte) (parsed, error) { var r Reader; err := r.parse(data); return r.parsed(), err },
		func(data []byte) (parsed, error) { var r Reader; err := r.parseSlow(data); return r.parsed(), err },
		func(data []byte) (parsed, bool) { var r Reader; ok := r.fastDelta(data); return r.parsed(), ok })
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
		{`{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"x"}}`, true},
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
		{`{"type": "content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"x"}}`, true},
		{` {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"x"}}`, true},
		// Any layout: members in any order, white space, escapes in
		// strings, members of any kind skipped.
		{`{"delta":{"partial_json":"x","type":"input_json_delta"},"index":1,"type":"content_block_delta"}`, true},
		{"{ \"type\" :\t\"content_block_delta\" ,\n\"index\" : 1 , \"delta\" : { \"type\" : \"input_json_delta\" , \"partial_json\" : \"x\" } }", true},
		{`{"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": "{\"path\": \"caf\u00e9 \ud83d\ude00\/\b\f\r\t\u0000\""}}`, true},
		{`{"x":{"a":[1,-2.5e-3,{"b":null,"B":true}],"c":{}},"type":"content_block_delta","y":[],"index":1,"delta":{"z":[[]],"type":"input_json_delta","partial_json":"x"},"X_Up":"\u00e9"}`, true},
		{`{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":15}}`, true},
		{`{"type":"content_block_stop","index":0}`, true},
		{`{"type":"message_stop"}`, true},
		{`{"type":"ping"}`, true},
		// Names the decoder refuses or reads otherwise, at any depth.
		{`{"type":"content_block_delta","Index":1,"delta":{"type":"input_json_delta","partial_json":"x"}}`, false},
		{`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","Partial_JSON":"x"}}`, false},
		{`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"x","x":1,"X":2}}`, false},
		{`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"x"},"x":{"a":1,"a":2}}`, false},
		{`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"x"},"x":[{"a":[{"b":1,"b":1}]}]}`, false},
		{`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"x"},"x":{"\u0061":1,"a":2}}`, false},
		{`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"x"},"\u212a":1}`, false},
		{"{\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"x\",\"\u017fTOP_REASON\":1}}", false},
		{`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"x","text":"y"}}`, false},
		{`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"x"},"x":[01]}`, false},
		{`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"x"},"x":[1.]}`, false},
		{`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"x"},"x":[1,]}`, false},
		{`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"x"},"x":"\udc00"}`, false},
		{`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"\ud83d\u0041"}}`, false},
		{`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"\u00e"}}`, false},
		{`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"x"},"x":[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]}`, false},
		{`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"f","input":{}}}`, false},
		{`{"type":"","index":0}`, false},
		{`{"type":null,"index":0}`, false},
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
	return wiretest.MutateBytes(rng, deltaEvent(rng))
}

// deltaEvent makes the data of a delta event, mostly as the API writes it,
// sometimes not.
func deltaEvent(rng *rand.Rand) []byte {
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
	return data
}

// TestPropertyFastDelta: on generated and mutated delta events, the fast
// path declines, or reads what the token decoder reads.
func TestPropertyFastDelta(t *testing.T) {
	wiretest.FastPathProperty(t, func(rng *rand.Rand) (bool, string) {
		return fastVsSlow(deltaData(rng))
	})
}

// TestPropertyLayoutFastDelta: the delta events in any layout (members in
// any order, white space, unknown members, strings escaped as Python
// writes them), mutated or not: the fast path takes each one it takes as
// the API writes it, and reads what the token decoder reads.
func TestPropertyLayoutFastDelta(t *testing.T) {
	wiretest.LayoutProperty(t, deltaEvent, fastVsSlow)
}

func FuzzFastDelta(f *testing.F) {
	wiretest.FuzzFastPath(f, deltaData, fastVsSlow)
}

// TestPropertySequenceFastDelta: a Reader kept from event to event, whose
// fast path learns the layout of the events it reads, reads each event of
// a sequence of one layout with other values (and mutations) as a fresh
// token decoder does.
func TestPropertySequenceFastDelta(t *testing.T) {
	wiretest.SequenceProperty(t, deltaEvent, func(events [][]byte) (int, string) {
		var viaParse, fast Reader
		took, problem := wiretest.Sequence(events, func(data []byte) (bool, string) {
			return wiretest.FastVsSlow(data,
				func(data []byte) (parsed, error) { err := viaParse.parse(data); return viaParse.parsed(), err },
				func(data []byte) (parsed, error) { var r Reader; err := r.parseSlow(data); return r.parsed(), err },
				func(data []byte) (parsed, bool) { fast.reset(); ok := fast.fastDelta(data); return fast.parsed(), ok })
		})
		return took - fast.layout.Learns(), problem // the events read by the layout learned
	})
}

// TestNamesLowerCase: the names the reader reads are in lower case, which
// adapter.Members's checks of names in another case rely on.
func TestNamesLowerCase(t *testing.T) {
	for _, names := range []adapter.Names{rootNames, blockNames, msgNames, deltaNames, errNames} {
		for _, n := range names {
			if n != strings.ToLower(n) {
				t.Errorf("name %q is not in lower case", n)
			}
		}
	}
}
