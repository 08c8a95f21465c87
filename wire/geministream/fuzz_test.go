package geministream

import (
	"testing"

	"github.com/argstream/argstream/internal/testutil/wiretest"
)

// FuzzRead: no stream makes Read panic, return an error it does not
// document, or give Results that contradict each other (ReadChecked); the
// seeds are the event tests' streams, the recordings and malformed events.
//
//	go test -run '^$' -fuzz FuzzRead ./wire/geministream
func FuzzRead(f *testing.F) {
	seeds := [][]byte{
		[]byte(stream(textEv, callEv, stopEv)),
		[]byte(stream(twoCallsEv, thoughtEv, callEv, stopEv, usageEv)),
		[]byte(stream(`{"candidates":[{"content":{"parts":[{"functionCall":{"name":"now"}},{"functionCall":{"name":"later","args":null}}]}}]}`, stopEv)),
		[]byte(stream(`{"candidates":[{"content":{"parts":[{"text":"zero"}]},"index":0},{"content":{"parts":[{"text":"one"}]},"index":1}]}`, stopEv)),
		[]byte(stream(callEv, `{"error":{"code":503,"message":"overloaded","status":"UNAVAILABLE"}}`)),
		[]byte(stream(`{"promptFeedback":{"blockReason":"SAFETY"}}`)),
		[]byte(stream(parts(`{"function_call":{"name":"f","args":{}}}`))),
		[]byte(stream(parts(`{"functionCall":{"name":"f","willContinue":true}}`))),
		[]byte(stream(parts(`{"functionCall":{"id":"x","name":"f"}},{"functionCall":{"id":"x","name":"g"}}`))),
		synthetic(3),
		// Arguments streamed (Vertex AI's partialArgs), read and refused.
		streamedSynthetic(3),
		[]byte(stream(begin, cont(`{"jsonPath":"$.o['a b'].l[0]","stringValue":"x","willContinue":true}`), cont(`{"jsonPath":"$.o['a b'].l[0]","stringValue":"y"},{"jsonPath":"$.o.n","nullValue":"NULL_VALUE"},{"jsonPath":"$.b","boolValue":true}`), parts(`{"functionCall":{}}`), stopEv)),
		[]byte(stream(begin, cont(`{"jsonPath":"$.a.x","numberValue":1},{"jsonPath":"$.b","numberValue":2},{"jsonPath":"$.a.y","numberValue":3}`))),
		[]byte(stream(begin, cont(`{"jsonPath":"$.l[0]","numberValue":1},{"jsonPath":"$.l[2]","numberValue":1}`), parts(`{"functionCall":{}}`), stopEv)),
		[]byte(stream(begin, cont(`{"jsonPath":"$.a","stringValue":"x","numberValue":1}`), stopEv)),
		[]byte(stream(begin, begin, stopEv)),
		[]byte(stream(parts(`{"functionCall":{"partialArgs":[{"jsonPath":"$.x","stringValue":"a"}]}}`), stopEv)),
		[]byte(stream(begin, cont(`{"jsonPath":"$.a","numberValue":1}`), `{"candidates":[{"content":{"parts":[{"text":""}]},"finishReason":"MAX_TOKENS"}]}`)),
	}
	for _, rec := range recordings {
		seeds = append(seeds, recording(f, rec.file))
	}
	geminiAdapter.Fuzz(f, wiretest.Streams(seeds...))
}
