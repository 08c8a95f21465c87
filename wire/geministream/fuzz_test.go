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
	}
	for _, rec := range recordings {
		seeds = append(seeds, recording(f, rec.file))
	}
	geminiAdapter.Fuzz(f, wiretest.Streams(seeds...))
}
