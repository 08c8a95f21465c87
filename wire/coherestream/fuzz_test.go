package coherestream

import (
	"testing"

	"github.com/argstream/argstream/internal/testutil/wiretest"
)

// FuzzRead: no stream makes Read panic, return an error it does not
// document, or give Results that contradict each other (ReadChecked); the
// seeds are the recordings, named and data only, and each kind of event,
// well formed and malformed.
//
//	go test -run '^$' -fuzz FuzzRead ./wire/coherestream
func FuzzRead(f *testing.F) {
	c0 := callStart(0, "c0", "f", "")
	seeds := [][]byte{
		[]byte(stream(join([]string{startEv, planEv, textEv, thinkEv}, call(0, "c0", "get_weather", `{"city":"Paris"}`), call(1, "c1", "now", ""), []string{endCallEv})...)),
		[]byte(dataOnly(startEv, callStart(0, "c0", "f", `{"a":`), callDelta(0, `[1,"é"]}`), callEnd(0), endCallEv, "[DONE]")),
		[]byte(stream(c0, callStart(1, "c1", "g", "{}"), callDelta(0, `{"x":1}`), callEnd(1), callEnd(0), endCallEv)),
		[]byte(stream(c0, callDelta(0, `{"a":"cut`), maxEv)),
		[]byte(stream(c0, callEnd(0), `{"type":"message-end","delta":{"finish_reason":"ERROR","error":"boom"}}`)),
		[]byte(stream(`{"type":"citation-start","index":0,"delta":{"message":{"citations":{"start":0,"end":1,"text":"A","sources":[]}}}}`, `{"type":"citation-end","index":0}`, `{"type":"debug"}`, doneEv)),
		[]byte("event: tool-call-delta\ndata: " + c0 + "\n\n"),
		[]byte(stream(c0, c0, callEnd(0), callEnd(0), callDelta(0, "x"), callStart(40, "z", "f", ""))),
		[]byte(stream(c0, `{"type":"tool-call-delta","index":0,"delta":{"message":{"tool_calls":{"function":{"name":"rm","arguments":"{}"}}}}}`)),
		[]byte(stream(`{"type":"content-delta","index":0,"delta":{"message":{"content":{"text":"a","thinking":"b"}}}}`)),
		synthetic(3),
	}
	for _, rec := range recordings {
		seeds = append(seeds, recording(f, rec.file, true), recording(f, rec.file, false))
	}
	cohereAdapter.Fuzz(f, wiretest.Streams(seeds...))
}
