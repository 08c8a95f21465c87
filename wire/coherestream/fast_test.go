package coherestream

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/argstream/argstream/internal/testutil/wiretest"
	"github.com/argstream/argstream/wire/internal/adapter"
)

// parsed is what a Reader read of one event's data, for comparing the
// fast path with the token decoder.
type parsed struct {
	Type, ContentType, Text, Thinking, ToolPlan, CallID, CallType, Name, Args, Finish, Error *string
	Index                                                                                    *int64
	ContentKind, CallsKind                                                                   byte
	ContentItems, CallsItems                                                                 int
	HasFunc                                                                                  bool
}

func (f *fields) parsed() parsed {
	s := func(fl field) *string {
		if !fl.ok {
			return nil
		}
		v := string(fl.text)
		return &v
	}
	p := parsed{Type: s(f.typ), ContentType: s(f.contentType), Text: s(f.text), Thinking: s(f.thinking), ToolPlan: s(f.toolPlan),
		CallID: s(f.callID), CallType: s(f.callType), Name: s(f.name), Args: s(f.args), Finish: s(f.finish), Error: s(f.errMsg),
		ContentKind: f.contentKind, CallsKind: f.callsKind, ContentItems: f.contentItems, CallsItems: f.callsItems, HasFunc: f.hasFunc}
	if f.hasIndex {
		p.Index = &f.index
	}
	return p
}

// fastVsSlow checks parse and the fast path against the token decoder
// (wiretest.FastVsSlow), and reports whether the fast path took data.
func fastVsSlow(data []byte) (took bool, problem string) {
	return wiretest.FastVsSlow(data,
		func(data []byte) (parsed, error) {
			var r Reader
			err := r.parse(data)
			return r.f.parsed(), err
		},
		func(data []byte) (parsed, error) {
			var r Reader
			err := r.parseSlow(data)
			return r.f.parsed(), err
		},
		func(data []byte) (parsed, bool) {
			var r Reader
			ok := r.fastParse(data)
			return r.f.parsed(), ok
		})
}

// event is the data of an event of any type as Cohere writes it, its
// strings drawn by wiretest.Draw (sometimes invalid), now and then with a
// member of another kind, null, or in another case.
func event(rng *rand.Rand) []byte {
	d := wiretest.Draw{Rand: rng}
	str := func() string { return `"` + d.Chars(12) + `"` }
	idx := d.Rare(strconv.Itoa(rng.IntN(20)), "null", "-1", "1.5", `"0"`, "9999999999999999", "01")
	var data string
	switch rng.IntN(8) {
	case 0:
		data = `{"id":` + str() + `,"type":"message-start","delta":{"message":{"role":"assistant","content":` + d.Rare("[]", `[{"type":"text"}]`, "null", "{}") +
			`,"tool_plan":` + d.Rare(`""`, "null", str()) + `,"tool_calls":` + d.Rare("[]", "null", `[{"id":"a"}]`) + `,"citations":[]}}}`
	case 1:
		kind := d.Pick("text", "thinking")
		data = `{"type":"content-` + d.Pick("start", "delta") + `","index":` + idx + `,"delta":{"message":{"content":{` +
			d.Rare(`"type":"`+kind+`",`, `"type":null,`) + `"` + kind + `":` + str() + d.Rare("", `,"text":"x"`, `,"Text":"x"`) + `}}}` +
			d.Rare("", `,"logprobs":{"token_ids":[1,2],"logprobs":[-0.5]}`) + `}`
	case 2:
		data = `{"type":"tool-plan-delta","delta":{"message":{"tool_plan":` + d.Rare(str(), "null", "1") + `}}}`
	case 3:
		data = `{"type":"tool-call-start","index":` + idx + `,"delta":{"message":{"tool_calls":{"id":` + str() + `,"type":` + d.Rare(`"function"`, "null", `"code"`) +
			`,"function":` + d.Rare(`{"name":`+str()+`,"arguments":`+str()+`}`, "null", `"f"`, `{"name":"f","name":"g"}`) + `}}}}`
	case 4:
		data = `{"type":"tool-call-delta","index":` + idx + `,"delta":{"message":{"tool_calls":{"function":{"arguments":` + d.Rare(str(), "null", "{}") + `}` +
			d.Rare("", `,"id":"x"`, `,"Function":{}`) + `}}}}`
	case 5:
		data = `{"type":"` + d.Pick("tool-call-end", "content-end", "citation-end") + `","index":` + idx + `}`
	case 6:
		data = `{"type":"message-end","delta":{"finish_reason":` + d.Rare(`"TOOL_CALL"`, `"ERROR"`, "null", "3") + d.Rare("", `,"error":`+str()) +
			`,"usage":{"billed_units":{"input_tokens":1,"output_tokens":2},"tokens":{"input_tokens":3}}}}`
	default:
		data = `{"type":"citation-start","index":` + idx + `,"delta":{"message":{"citations":{"start":0,"end":1,"text":` + str() + `,"sources":[{"type":"document","id":"doc:0"}]}}}}`
	}
	return []byte(d.Rare("", " ") + data + d.Rare("", "\n", "x"))
}

// TestFastCases: the fast path takes the events of the recordings' shapes,
// and declines what only the decoder can say.
func TestFastCases(t *testing.T) {
	for _, tc := range []struct {
		data string
		took bool
	}{
		{callDelta(0, `{"a":"b\n"}`), true},
		{callStart(3, "c3", "f", ""), true},
		{textEv, true},
		{planEv, true},
		{endCallEv, true},
		{callEnd(0), true},
		{`{"type":"tool-call-end","index":null}`, true},
		{` { "index" : 0 , "type" : "tool-call-end" } `, true},
		{startEv, false}, // arrays: the decoder counts their elements
		{`{"type":"tool-call-end","index":9999999999999999}`, false},
		{`{"type":"tool-call-delta","index":0,"delta":{"message":{"tool_calls":{"function":{"arguments":"a","arguments":"b"}}}}}`, false},
		{`{"type":"tool-call-delta","index":0,"delta":{"message":{"Tool_calls":{}}}}`, false},
		{`{"type":"tool-call-delta","index":0,"delta":null}`, false},
		{`{"type":"x"} x`, false},
	} {
		wiretest.CheckFastCase(t, tc.data, tc.took, fastVsSlow)
	}
}

// TestFastPath: on generated events of every type, in every layout and
// mutated, the fast path declines or reads what the token decoder reads.
func TestFastPath(t *testing.T) {
	wiretest.LayoutProperty(t, event, fastVsSlow)
}

// FuzzFastPath: no data makes the fast path read otherwise than the token
// decoder.
//
//	go test -run '^$' -fuzz FuzzFastPath ./wire/coherestream
func FuzzFastPath(f *testing.F) {
	wiretest.FuzzFastPath(f, event, fastVsSlow)
}

// TestNamesLowerCase: the names the reader reads are in lower case, which
// adapter.Members's checks of names in another case rely on.
func TestNamesLowerCase(t *testing.T) {
	for _, names := range []adapter.Names{rootNames, deltaNames, messageNames, contentNames, toolCallNames, functionNames} {
		for _, n := range names {
			if n != strings.ToLower(n) {
				t.Errorf("name %q is not in lower case", n)
			}
		}
	}
}
