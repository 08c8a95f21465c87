package coherestream

import (
	"bytes"
	"encoding/json"
	"io"
	"math/rand/v2"
	"strconv"

	"github.com/argstream/argstream/internal/testutil/wiretest"
)

var cohereAdapter = wiretest.Adapter{Name: "Read", Read: Read}

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 23)) }

func quote(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// Events of the shapes the API sends.
const (
	startEv   = `{"id":"m1","type":"message-start","delta":{"message":{"role":"assistant","content":[],"tool_plan":"","tool_calls":[],"citations":[]}}}`
	planEv    = `{"type":"tool-plan-delta","delta":{"message":{"tool_plan":"I will check."}}}`
	textEv    = `{"type":"content-delta","index":0,"delta":{"message":{"content":{"text":"Hi \"there\""}}}}`
	thinkEv   = `{"type":"content-delta","index":0,"delta":{"message":{"content":{"thinking":"hm"}}}}`
	endCallEv = `{"type":"message-end","delta":{"finish_reason":"TOOL_CALL","usage":{"billed_units":{"input_tokens":1,"output_tokens":2}}}}`
	doneEv    = `{"type":"message-end","delta":{"finish_reason":"COMPLETE"}}`
	maxEv     = `{"type":"message-end","delta":{"finish_reason":"MAX_TOKENS"}}`
)

// callStart is a tool-call-start of call i, with its first arguments.
func callStart(i int, id, name, args string) string {
	return `{"type":"tool-call-start","index":` + strconv.Itoa(i) + `,"delta":{"message":{"tool_calls":{"id":` + quote(id) +
		`,"type":"function","function":{"name":` + quote(name) + `,"arguments":` + quote(args) + `}}}}}`
}

// callDelta is a tool-call-delta of call i.
func callDelta(i int, args string) string {
	return `{"type":"tool-call-delta","index":` + strconv.Itoa(i) + `,"delta":{"message":{"tool_calls":{"function":{"arguments":` + quote(args) + `}}}}}`
}

// callEnd is a tool-call-end of call i.
func callEnd(i int) string { return `{"type":"tool-call-end","index":` + strconv.Itoa(i) + `}` }

// stream frames data as Cohere sends it: each event named by its type.
func stream(data ...string) string { return wiretest.TypedSSE(data...) }

// dataOnly frames data as data-only events.
func dataOnly(data ...string) string { return wiretest.DataSSE(data...) }

// call is the events of one whole call: its start, its arguments cut in
// pieces of up to 5 bytes, its end.
func call(i int, id, name, args string) []string {
	evs := []string{callStart(i, id, name, "")}
	for len(args) > 0 {
		n := min(5, len(args))
		evs = append(evs, callDelta(i, args[:n]))
		args = args[n:]
	}
	return append(evs, callEnd(i))
}

// join joins groups of events.
func join(groups ...[]string) []string {
	var out []string
	for _, g := range groups {
		out = append(out, g...)
	}
	return out
}

func bytesReader(b []byte) io.Reader { return bytes.NewReader(b) }
