package coherestream

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/internal/testutil/wiretest"
	"github.com/argstream/argstream/toolcall"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// words is a piece of text: words, quotes, line ends, non-ASCII.
func words(rng *rand.Rand) string {
	var b strings.Builder
	for range 1 + rng.IntN(5) {
		b.WriteString([]string{"the ", "weather", " é", "\"", "\n", "😀", "{", "}"}[rng.IntN(8)])
	}
	return b.String()
}

// encode writes generated arguments as Cohere streams them: a
// message-start (or none), a tool plan, the calls' starts, deltas and ends
// interleaved at random (MakeWirePlan), the first piece of the arguments
// in the start or not, text and thinking content between them, and a
// message-end. It returns the stream, framed at random (the event line
// there or not), with the calls, text and thinking a whole read gives.
func encode(docs []testutil.Doc, rng *rand.Rand) ([]byte, wiretest.Got, error) {
	p, err := wiretest.MakeWirePlan(docs, 0, rng)
	if err != nil {
		return nil, wiretest.Got{}, err
	}
	want := wiretest.Got{Calls: p.Want(), Text: map[int64]string{}, Thinking: map[int64]string{}}
	var events []wiretest.SSEEvent
	add := func(data string) {
		var v struct{ Type string }
		if err := json.Unmarshal([]byte(data), &v); err != nil {
			panic(err)
		}
		events = append(events, wiretest.SSEEvent{Type: v.Type, Data: data})
	}
	if rng.IntN(4) != 0 {
		add(startEv)
	}
	if rng.IntN(2) == 0 {
		plan := words(rng)
		want.Thinking[0] += plan
		add(`{"type":"tool-plan-delta","delta":{"message":{"tool_plan":` + quote(plan) + `}}}`)
	}
	content := int64(0)
	inStart := make([]bool, len(p.Calls)) // the first delta went in the start
	for _, s := range p.Steps {
		c := p.Calls[s.Call]
		i := strconv.FormatInt(c.Index, 10)
		switch {
		case s.Delta < 0:
			first := ""
			if len(c.Deltas) > 0 && rng.IntN(2) == 0 {
				first, inStart[s.Call] = c.Deltas[0], true
			}
			add(callStart(int(c.Index), c.ID, c.Name, first))
		case s.Delta == len(c.Deltas):
			add(callEnd(int(c.Index)))
		case s.Delta == 0 && inStart[s.Call]:
		default:
			add(`{"type":"tool-call-delta","index":` + i + `,"delta":{"message":{"tool_calls":{"function":{"arguments":` + quote(c.Deltas[s.Delta]) + `}}}}}`)
		}
		if rng.IntN(4) == 0 {
			text, kind := words(rng), "text"
			if rng.IntN(2) == 0 {
				kind = "thinking"
				want.Thinking[content] += text
			} else {
				want.Text[content] += text
			}
			n := strconv.FormatInt(content, 10)
			add(`{"type":"content-start","index":` + n + `,"delta":{"message":{"content":{"type":"` + kind + `","` + kind + `":""}}}}`)
			add(`{"type":"content-delta","index":` + n + `,"delta":{"message":{"content":{"` + kind + `":` + quote(text) + `}}}}`)
			add(`{"type":"content-end","index":` + n + `}`)
			content++
		}
	}
	add(endCallEv)
	return wiretest.FrameSSE(events, true, rng), want, nil
}

// TestPropertyGenerated: generated responses of 1 to 4 calls, framed at
// random, give back their calls, text and thinking, read whole; the same
// in reads of random sizes; cut at any byte, a prefix of the calls, each
// whole and executable or not executable, and an error wrapping
// io.ErrUnexpectedEOF unless the cut comes after message-end.
func TestPropertyGenerated(t *testing.T) {
	resp := toolcall.New()
	wiretest.PlanProperty(t, "calls come back whole",
		func(docs []testutil.Doc, seed uint64, cut int) string {
			s, want, err := encode(docs, newRand(seed))
			if err != nil {
				return err.Error()
			}
			whole := cohereAdapter.Run(resp, bytes.NewReader(s))
			if whole.Err != nil {
				return fmt.Sprintf("whole stream: Read = %v\n%s", whole.Err, s)
			}
			if diff := cmp.Diff(want, whole, cmpopts.IgnoreFields(wiretest.Got{}, "Err")); diff != "" {
				return fmt.Sprintf("whole stream (-want +got):\n%s\n%s", diff, s)
			}
			split := cohereAdapter.Run(resp, wiretest.RandomReads(bytes.NewReader(s), seed, 64))
			if diff := cmp.Diff(whole, split, cmp.Comparer(func(a, b error) bool { return (a == nil) == (b == nil) })); diff != "" {
				return fmt.Sprintf("split reads (-whole +split):\n%s", diff)
			}

			cut %= len(s) + 1
			got := cohereAdapter.Run(resp, bytes.NewReader(s[:cut]))
			if got.Err != nil && !errors.Is(got.Err, io.ErrUnexpectedEOF) {
				return fmt.Sprintf("cut at %d: Read = %v", cut, got.Err)
			}
			byIndex := map[int64]wiretest.CallOutcome{}
			for _, c := range want.Calls {
				byIndex[c.Index] = c
			}
			for _, c := range got.Calls {
				if c.Executable && c != byIndex[c.Index] {
					return fmt.Sprintf("cut at %d: call %+v executable, whole %+v", cut, c, byIndex[c.Index])
				}
			}
			if got.Err == nil && !cmp.Equal(got.Calls, want.Calls) {
				return fmt.Sprintf("cut at %d: no error, calls %+v", cut, got.Calls)
			}
			return ""
		})
}
