package bedrockstream

import (
	"math/rand/v2"
	"testing"

	"github.com/argstream/argstream/internal/testutil/jsonlayout"
	"github.com/argstream/argstream/internal/testutil/wiretest"
)

// bedrockParsed is what parse reads from a content block event's payload.
type bedrockParsed struct {
	Index         int64
	HasIndex      bool
	Start, Delta  blockKind
	ID, Name, Str string
	HasStr        bool
	Stop          string
	ToolType      string
}

func (r *Reader) parsed() bedrockParsed {
	return bedrockParsed{r.index, r.hasIndex, r.start, r.delta, string(r.id), string(r.name), string(r.str), r.hasStr, string(r.stop), string(r.toolType)}
}

// blockFastVsSlow checks parse and the fast path against the token
// decoder (wiretest.FastVsSlow) on the payload of an event, and reports
// whether the fast path took it.
func blockFastVsSlow(event string, data []byte) (took bool, problem string) {
	return wiretest.FastVsSlowOn(data,
		func(r *Reader, data []byte) error { return r.parse(event, data) },
		func(r *Reader, data []byte) error { return r.parseSlow(event, data) },
		func(r *Reader, data []byte) bool {
			r.resetPayload()
			switch event {
			case "messageStart", "messageStop", "metadata":
				return r.fastOther(event, data)
			}
			return r.fastBlock(event, data)
		},
		(*Reader).parsed)
}

func TestFastBlock(t *testing.T) {
	for _, tc := range []struct {
		event, data string
		took        bool
	}{
		{"contentBlockDelta", `{"contentBlockIndex":0,"delta":{"toolUse":{"input":"{\"path\": \"a\u00e9\""}}}`, true},
		{"contentBlockDelta", `{"delta":{"text":"Hello"},"contentBlockIndex":1,"p":"abcd"}`, true},
		{"contentBlockDelta", ` { "contentBlockIndex" : 2 , "delta" : { "toolUse" : { "input" : "" , "x" : [ ] } , "text" : null } } `, true},
		{"contentBlockDelta", `{"contentBlockIndex":0,"delta":{"citation":{"title":"t"}}}`, true},
		{"contentBlockDelta", `{"contentBlockIndex":0,"delta":null}`, true},
		{"contentBlockDelta", `{"contentBlockIndex":null,"delta":{}}`, true},
		{"contentBlockStart", `{"contentBlockIndex":0,"start":{"toolUse":{"toolUseId":"tooluse_1","name":"get_weather"}}}`, true},
		{"contentBlockStart", `{"contentBlockIndex":0,"start":{"image":{}}}`, true},
		{"contentBlockStop", `{"contentBlockIndex":0}`, true},
		{"contentBlockStop", `{"contentBlockIndex":0,"delta":{"toolUse":{"input":"x"}},"start":1}`, true},
		// What the fast path leaves to the decoder.
		{"contentBlockDelta", `{"contentBlockIndex":0,"delta":{"reasoningContent":{"text":"hmm"}}}`, false},
		{"contentBlockDelta", `{"contentBlockIndex":0,"delta":{"toolUse":{"input":"a"},"text":"b"}}`, false},
		{"contentBlockDelta", `{"contentBlockIndex":0,"delta":{"toolUse":{}}}`, false},
		{"contentBlockDelta", `{"contentBlockIndex":0,"delta":{"toolUse":{"input":null}}}`, false},
		{"contentBlockDelta", `{"contentBlockIndex":2147483648,"delta":{"text":"a"}}`, false},
		{"contentBlockDelta", `{"contentBlockIndex":-1,"delta":{"text":"a"}}`, false},
		{"contentBlockDelta", `{"contentBlockIndex":0,"delta":{"tooluse":{"input":"a"}}}`, false},
		{"contentBlockDelta", `{"contentBlockIndex":0,"delta":{"tooluse":null,"text":"a"}}`, false},
		{"contentBlockDelta", `{"contentblockindex":0,"delta":{"text":"a"}}`, false},
		{"contentBlockDelta", `{"ContentBlockIndex":0,"delta":{"text":"a"}}`, false},
		{"contentBlockDelta", `{"contentBlockIndex":0,"contentBlockIndex":1,"delta":{"text":"a"}}`, false},
		{"contentBlockDelta", `{"contentBlockIndex":0,"delta":{"text":"\ud800"}}`, false},
		{"contentBlockDelta", `{"contentBlockIndex":0,"delta":{"text":"a"}}x`, false},
		{"contentBlockDelta", `{"contentBlockIndex":0,"delta":"a"}`, false},
		{"contentBlockStart", `{"contentBlockIndex":0,"start":{"toolUse":{"toolUseId":null,"name":"f"}}}`, false},
		{"contentBlockStart", `{"contentBlockIndex":0,"start":{"toolUse":{"tooluseid":"t","name":"f"}}}`, false},
		{"contentBlockStart", `{"contentBlockIndex":0,"start":{"toolUse":{"toolUseId":"t"},"image":{}}}`, false},
		// The other events, checked and skipped but for stopReason.
		{"messageStart", `{"role":"assistant","p":"abc"}`, true},
		{"messageStart", `{"Role":"assistant"}`, false},
		{"messageStart", `{"role":"assistant","role":"user"}`, false},
		{"messageStop", `{"stopReason":"tool_use","additionalModelResponseFields":{"a":[1]}}`, true},
		{"messageStop", `{"stopReason":null}`, true},
		{"messageStop", `{"stopreason":"end_turn"}`, false},
		{"messageStop", `{"stopReason":1}`, false},
		{"metadata", `{"usage":{"inputTokens":1,"outputTokens":2},"metrics":{"latencyMs":3}}`, true},
		{"metadata", `{"usage":{"a":1,"a":2}}`, false},
		{"metadata", `{"usage":{},"Usage":{}}`, false},
		{"metadata", `{"usage":{}}x`, false},
	} {
		wiretest.CheckFastCase(t, tc.data, tc.took, func(data []byte) (bool, string) { return blockFastVsSlow(tc.event, data) })
	}
}

// blockEvents are the event types whose payloads the fast path reads.
var blockEvents = []string{"contentBlockStart", "contentBlockDelta", "contentBlockStop", "messageStart", "messageStop", "metadata"}

// blockPayload makes the payload of a content block event: an index, a
// start or a delta of any kind, members in random order, some repeated,
// some values of the wrong kind, some names in another case; unknown
// members around.
func blockPayload(rng *rand.Rand) []byte {
	d := wiretest.Draw{Rand: rng}
	pick, rare := d.Pick, d.Rare
	str := func() string { return `"` + d.Chars(8) + `"` }
	object, some := d.Object, d.Some
	toolStart := object(some(`"toolUseId":`+rare(`"tooluse_1"`, "null", str(), "1"), `"name":`+rare(`"get_weather"`, "null", str()),
		rare(`"x":1`, `"tooluseid":"t"`, `"type":"tool"`, `"type":"server_tool_use"`, `"type":null`, `"type":1`, `"Type":"t"`))...)
	start := object(append(some(rare(`"x":null`, `"image":{}`, `"toolUse":null`, `"ToolUse":{}`, `"tooluse":null`)),
		`"`+rare("toolUse", "image", "tooluse")+`":`+rare(toolStart, "null", `"t"`, "[]"))...)
	toolDelta := object(append(some(rare(`"x":1`, `"Input":"a"`, `"input":"b"`)), `"input":`+rare(str(), "null", "1", "{}"))...)
	delta := object(append(some(rare(`"x":null`, `"text":null`, `"citation":{"t":1}`, `"Text":"a"`, `"tooluse":null`)),
		pick(`"toolUse":`+rare(toolDelta, "null", "[]", `{}`), `"text":`+rare(str(), "null", "1"),
			rare(`"citation":{"title":"t"}`, `"reasoningContent":{"text":"r"}`, `"text":"a","toolUse":{"input":"b"}`)))...)
	members := some(
		`"stopReason":`+rare(pick(`"tool_use"`, "null"), "1", `{}`),
		`"role":"assistant"`,
		`"contentBlockIndex":`+rare(pick("0", "1", "7"), "null", "-1", "01", "2147483648", `"0"`, "1.5"),
		`"start":`+rare(start, "null", "1"),
		`"delta":`+rare(delta, "null", `"d"`),
		`"p":"abcdefgh"`,
		rare(`"x":[1,{"a":"b"}]`, `"contentblockindex":0`, `"Delta":{}`, `"START":null`))
	return []byte(object(members...) + rare("", " ", "}", "x"))
}

// TestPropertyFastBlock: on generated and mutated payloads of each content
// block event, the fast path declines, or reads what the token decoder
// reads.
func TestPropertyFastBlock(t *testing.T) {
	wiretest.FastPathProperty(t, func(rng *rand.Rand) (bool, string) {
		return blockFastVsSlow(blockEvents[rng.IntN(len(blockEvents))], wiretest.MutateBytes(rng, blockPayload(rng)))
	})
}

// TestPropertyLayoutFastBlock: the payloads in any layout (members in any
// order, white space, unknown members at the root, strings escaped as
// Python writes them), mutated or not: the fast path takes each one it
// takes as written, and reads what the token decoder reads. Unknown
// members go at the root only: in start or delta, a union, one is a
// second member, which the decoder refuses.
func TestPropertyLayoutFastBlock(t *testing.T) {
	wiretest.FastPathProperty(t, func(rng *rand.Rand) (bool, string) {
		event := blockEvents[rng.IntN(len(blockEvents))]
		check := func(data []byte) (bool, string) { return blockFastVsSlow(event, data) }
		data := blockPayload(rng)
		took, problem := check(data)
		if problem != "" {
			return took, problem
		}
		l := jsonlayout.Layout{
			Order:  jsonlayout.Order(rng.IntN(3)),
			Spaces: wiretest.LayoutSpaces[rng.IntN(len(wiretest.LayoutSpaces))],
			ASCII:  rng.IntN(2) == 0,
			Rand:   rng,
		}
		if rng.IntN(2) == 0 {
			l.Unknown = wiretest.UnknownMembers
		}
		laid, err := jsonlayout.Relayout(data, l)
		if err != nil {
			return took, "" // not valid JSON
		}
		tookLaid, problem := check(laid)
		if problem != "" {
			return tookLaid, problem
		}
		if took && !tookLaid {
			return false, "the fast path took " + string(data) + " but declined it laid out as " + string(laid)
		}
		return check(wiretest.MutateBytes(rng, laid))
	})
}

func FuzzFastBlock(f *testing.F) {
	wiretest.FuzzFastPath(f, blockPayload, func(data []byte) (bool, string) {
		for _, event := range blockEvents {
			if took, problem := blockFastVsSlow(event, data); problem != "" {
				return took, problem
			}
		}
		return false, ""
	})
}

// deltaPayload makes the payload of a contentBlockDelta event as
// blockPayload does, mostly one of toolUse input or text, as a stream
// sends them one after the other.
func deltaPayload(rng *rand.Rand) []byte {
	if rng.IntN(4) == 0 {
		return blockPayload(rng)
	}
	d := wiretest.Draw{Rand: rng}
	index := d.Rare(d.Pick("0", "1"), "null", "2147483648")
	if rng.IntN(2) == 0 {
		return []byte(`{"contentBlockIndex":` + index + `,"delta":{"toolUse":{"input":"` + d.Chars(12) + `"}}` + d.Rare("", `,"p":"abcdefgh"`) + `}`)
	}
	return []byte(`{"delta":{"text":"` + d.Chars(12) + `"},"contentBlockIndex":` + index + d.Rare("", `,"p":"abc"`) + `}`)
}

// TestPropertySequenceFastDelta: a reader kept from payload to payload,
// whose fast path learns the layout of the contentBlockDelta payloads it
// reads, reads each payload of a sequence of one layout with other values
// (and mutations) as a fresh token decoder does.
func TestPropertySequenceFastDelta(t *testing.T) {
	wiretest.SequenceProperty(t, deltaPayload, func(events [][]byte) (int, string) {
		var viaParse, fast Reader
		took, problem := wiretest.Sequence(events, func(data []byte) (bool, string) {
			return wiretest.FastVsSlow(data,
				func(data []byte) (bedrockParsed, error) {
					err := viaParse.parse("contentBlockDelta", data)
					return viaParse.parsed(), err
				},
				func(data []byte) (bedrockParsed, error) {
					var r Reader
					err := r.parseSlow("contentBlockDelta", data)
					return r.parsed(), err
				},
				func(data []byte) (bedrockParsed, bool) {
					fast.resetPayload()
					ok := fast.fastDelta(data)
					return fast.parsed(), ok
				})
		})
		return took - fast.layout.Learns(), problem // the payloads read by the layout learned
	})
}
