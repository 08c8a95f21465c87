package coherestream

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/internal/testutil/wiretest"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire/sse"
)

// TestLinear: the cost of a stream grows linearly with its size, in each
// way a model can make it long: many deltas of one call, one long delta
// (a string of escapes), many calls (each one index after the last), a
// long tool plan in many events, and long unknown members. n is 16 KiB,
// as in wire/sse's TestLinear, so that the input for 4n stays in the
// cache.
func TestLinear(t *testing.T) {
	shapes := []struct {
		name string
		make func(n int) []byte
	}{
		{"many deltas", func(n int) []byte {
			evs := []string{callStart(0, "c0", "f", `{"s":"`)}
			for range n / 16 {
				evs = append(evs, callDelta(0, "abc\\n"))
			}
			return []byte(stream(append(evs, callDelta(0, `"}`), callEnd(0), endCallEv)...))
		}},
		{"one long delta", func(n int) []byte {
			return []byte(stream(callStart(0, "c0", "f", `{"s":"`+strings.Repeat(`\"\u00e9`, n/8)+`"}`), callEnd(0), endCallEv))
		}},
		{"many calls", func(n int) []byte {
			var evs []string
			for i := range n / 128 {
				evs = append(evs, callStart(i, "c"+strconv.Itoa(i), "f", `{}`), callEnd(i))
			}
			return []byte(stream(append(evs, endCallEv)...))
		}},
		{"a long plan", func(n int) []byte {
			var evs []string
			for range n / 64 {
				evs = append(evs, planEv)
			}
			return []byte(stream(append(evs, doneEv)...))
		}},
		{"long unknown members", func(n int) []byte {
			junk := `"x":[` + strings.Repeat(`{"k":"v"},`, n/10) + `0]`
			return []byte(stream(`{"type":"debug",`+junk+`}`, `{"type":"message-end",`+junk+`,"delta":{"finish_reason":"COMPLETE"}}`))
		}},
	}
	for _, s := range shapes {
		t.Run(s.name, func(t *testing.T) {
			testutil.CheckLinear(t, 16<<10, func(n int) func() {
				in := s.make(n)
				resp := toolcall.New()
				return func() {
					resp.Reset()
					if err := Read(context.Background(), wiretest.RandomReads(bytesReader(in), 1, 64), resp); err != nil {
						t.Fatal(err)
					}
					resp.End()
				}
			})
		})
	}
}

// TestNoActionBeforeCheck: a malformed event drives the Response with
// nothing of it: the start of a call whose event has a member twice is
// never made, and no text of a content event refused is given.
func TestNoActionBeforeCheck(t *testing.T) {
	resp := toolcall.New()
	var text []string
	r := NewReader(resp)
	r.cfg.OnText = func(_ int64, b []byte) { text = append(text, string(b)) }
	for _, ev := range []string{
		`{"type":"tool-call-start","index":0,"delta":{"message":{"tool_calls":{"id":"a","type":"function","function":{"name":"f","arguments":"{}"}}}},"index":1}`,
		`{"type":"content-delta","index":0,"delta":{"message":{"content":{"text":"hi","thinking":"no"}}}}`,
	} {
		resp.Reset()
		r.Reset(resp)
		text = nil
		err := r.ReadEvents(context.Background(), sse.NewReader(strings.NewReader(stream(ev))))
		if !errors.Is(err, ErrMalformed) {
			t.Fatalf("Read = %v", err)
		}
		if len(text) != 0 || len(r.EventCalls()) != 0 {
			t.Errorf("text %q, calls %v given before the event was refused", text, r.EventCalls())
		}
		if res := resp.End(); len(res) != 0 {
			t.Errorf("results %+v, want none", res)
		}
	}
}
