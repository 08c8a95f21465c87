package openaistream

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/argstream/argstream/internal/testutil/wiretest"
)

// responsesParsed is what parse reads from the data of an arguments delta.
type responsesParsed struct {
	Typ                 string
	Index               int64
	HasIndex, HasItemID bool
	ItemID              string
	Str                 string
	HasStr              bool
}

func (r *ResponsesReader) parsed() responsesParsed {
	return responsesParsed{string(r.typ), r.index, r.hasIndex, r.hasItemID, string(r.itemID), string(r.str), r.hasStr}
}

// responsesFastVsSlow checks that parse reads the data of an arguments
// delta with the fast path as the token decoder does, or that the fast
// path declines it. It reports whether the fast path took it.
func responsesFastVsSlow(data []byte) (took bool, problem string) {
	var fast, slow, viaParse ResponsesReader
	errParse := viaParse.parse(data)
	errSlow := slow.parseSlow(data)
	if (errParse == nil) != (errSlow == nil) {
		return false, fmt.Sprintf("%q: parse: %v, the decoder: %v", data, errParse, errSlow)
	}
	if errSlow == nil && viaParse.parsed() != slow.parsed() {
		return false, fmt.Sprintf("%q: parse read %+v, the decoder %+v", data, viaParse.parsed(), slow.parsed())
	}
	if !fast.fastDelta(data) {
		return false, ""
	}
	if errSlow != nil {
		return true, fmt.Sprintf("%q: the fast path took it, the decoder rejects it: %v", data, errSlow)
	}
	if f, s := fast.parsed(), slow.parsed(); f != s {
		return true, fmt.Sprintf("%q: the fast path read %+v, the decoder %+v", data, f, s)
	}
	return true, ""
}

func TestResponsesFastDelta(t *testing.T) {
	for _, tc := range []struct {
		data string
		took bool
	}{
		{`{"type":"response.function_call_arguments.delta","sequence_number":7,"item_id":"fc_1","output_index":0,"delta":"{\"a\": 1"}`, true},
		{`{"type":"response.function_call_arguments.delta","delta":"","obfuscation":"x\u00e9","output_index":3,"item_id":null,"sequence_number":8}` + " \n", true},
		{`{"type":"response.output_text.delta","item_id":"fc_1","delta":"\\"}`, true},
		{`{"item_id":"fc_1","delta":"x"}`, false}, // no type
		{`{"type":"x","sequence_number":7,"item_id":"fc_1","output_index":0,"delta":"x","delta":"y"}`, false},
		{`{"output_index":0,"output_index":1,"delta":"x"}`, false},
		{`{"\u0064elta":"x","output_index":0}`, false},
		{`{"output_index":01,"delta":"x"}`, false},
		{`{"output_index":0,"delta":null}`, false},
		{`{"output_index":0,"item_id":1,"delta":"x"}`, false},
		{`{"output_index":0,"delta":"\ud800"}`, false},
		{`{"output_index":0,"delta":"x"}}`, false},
		{`{"output_index":0, "delta":"x"}`, false},
		{`{"output_index":0,"logprobs":[],"delta":"x"}`, false},
	} {
		wiretest.CheckFastCase(t, tc.data, tc.took, responsesFastVsSlow)
	}
}

// responsesData makes the data of an arguments delta, mostly as the API
// writes it, sometimes not, and then mutates some of its bytes.
func responsesData(rng *rand.Rand) []byte {
	d := wiretest.Draw{Rand: rng}
	pick, rare := d.Pick, d.Rare
	str := func() string { return `"` + d.Chars(8) + `"` }
	members := []string{
		`"type":"response.function_call_arguments.delta"`,
		`"sequence_number":` + fmt.Sprint(rng.IntN(1000)),
		`"item_id":` + rare(str(), "null", "1", "{}"),
		`"output_index":` + rare(fmt.Sprint(rng.IntN(5)), "01", "-1", "null", "999999999999999999", "1000000000000000000", `"1"`),
		`"delta":` + rare(str(), "null", "1", "[]"),
	}
	if rng.IntN(2) == 0 {
		members = append(members, `"obfuscation":`+str())
	}
	rng.Shuffle(len(members), func(i, j int) { members[i], members[j] = members[j], members[i] })
	for range rng.IntN(3) {
		name := rare(pick("output_index", "item_id", "delta", "x"), "", `d\u0065lta`, "Delta")
		value := rare(pick(str(), "0", "null", "true", "false"), "-1", "1.5", "01", "{}", "[]", "nul")
		members = append(members[:len(members)-1], `"`+name+`":`+value, members[len(members)-1])
	}
	if rng.IntN(4) == 0 {
		members = members[:rng.IntN(len(members))]
	}
	data := []byte("{" + strings.Join(members, ",") + "}" + rare("", " ", "\n\t", "}", "x", "\v"))
	return wiretest.MutateBytes(rng, data)
}

// TestPropertyResponsesFastDelta: on generated and mutated arguments
// deltas, the fast path declines, or reads what the token decoder reads;
// parse reads what the decoder reads either way.
func TestPropertyResponsesFastDelta(t *testing.T) {
	wiretest.FastPathProperty(t, func(rng *rand.Rand) (bool, string) {
		return responsesFastVsSlow(responsesData(rng))
	})
}

func FuzzResponsesFastDelta(f *testing.F) {
	wiretest.FuzzFastPath(f, responsesData, responsesFastVsSlow)
}
