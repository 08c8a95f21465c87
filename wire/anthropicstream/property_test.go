package anthropicstream

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/internal/testutil/wiretest"
	"github.com/argstream/argstream/token"
	"github.com/argstream/argstream/toolcall"
	"github.com/google/go-cmp/cmp"
)

func quote(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// encodePlan writes a generated response as the Messages API streams it:
// a text block at index 0 whose deltas come between the calls' events,
// each call a tool_use block from index 1 with input {} and its deltas,
// and message_stop. stopEnds[i] is the stream length just after the event
// that stops call i.
func encodePlan(p wiretest.WirePlan, rng *rand.Rand) (stream []byte, stopEnds map[int64]int) {
	events := []wiretest.SSEEvent{
		{Type: "message_start", Data: `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[]}}`},
		{Type: "content_block_start", Data: `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`},
	}
	stopEvent := map[int]int64{} // event position -> call index
	for _, s := range p.Steps {
		c := p.Calls[s.Call]
		if rng.IntN(4) == 0 {
			events = append(events, wiretest.SSEEvent{Type: "content_block_delta",
				Data: `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"words "}}`})
		}
		switch {
		case s.Delta < 0:
			events = append(events, wiretest.SSEEvent{Type: "content_block_start", Data: fmt.Sprintf(
				`{"type":"content_block_start","index":%d,"content_block":{"type":"tool_use","id":%q,"name":%q,"input":{}}}`, c.Index, c.ID, c.Name)})
		case s.Delta < len(c.Deltas):
			events = append(events, wiretest.SSEEvent{Type: "content_block_delta", Data: fmt.Sprintf(
				`{"type":"content_block_delta","index":%d,"delta":{"type":"input_json_delta","partial_json":%s}}`, c.Index, quote(c.Deltas[s.Delta]))})
		default:
			stopEvent[len(events)] = c.Index
			events = append(events, wiretest.SSEEvent{Type: "content_block_stop", Data: fmt.Sprintf(
				`{"type":"content_block_stop","index":%d}`, c.Index)})
		}
	}
	events = append(events,
		wiretest.SSEEvent{Type: "content_block_stop", Data: `{"type":"content_block_stop","index":0}`},
		wiretest.SSEEvent{Type: "message_delta", Data: `{"type":"message_delta","delta":{"stop_reason":"tool_use"}}`},
		wiretest.SSEEvent{Type: "message_stop", Data: `{"type":"message_stop"}`})
	// Frame event by event, to know where each stop ends; the framing is
	// drawn once for the whole stream, so frame all then find the ends by
	// framing prefixes with the same seed.
	seed := rng.Uint64()
	stream = wiretest.FrameSSE(events, false, rand.New(rand.NewPCG(seed, 2)))
	stopEnds = map[int64]int{}
	for pos, index := range stopEvent {
		prefix := wiretest.FrameSSE(events[:pos+1], false, rand.New(rand.NewPCG(seed, 2)))
		stopEnds[index] = len(prefix)
	}
	return stream, stopEnds
}

// TestPropertyGenerated: generated responses of 1 to 4 interleaved calls,
// with random delta cuts and random SSE framing, read in random read sizes,
// give back the calls' arguments; cut at any byte, they give each call's
// whole arguments or an error, never other arguments, and every call whose
// content_block_stop came is executable.
func TestPropertyGenerated(t *testing.T) {
	resp := toolcall.New()
	wiretest.PlanProperty(t, "calls come back whole, or truncated",
		func(docs []testutil.Doc, seed uint64, cut int) string {
			rng := rand.New(rand.NewPCG(seed, 1))
			p, err := wiretest.MakeWirePlan(docs, 1, rng)
			if err != nil {
				return err.Error()
			}
			p = p.NumberedByStart(1) // content blocks start in index order
			stream, stopEnds := encodePlan(p, rng)

			resp.Reset()
			if err := Read(context.Background(), wiretest.RandomReads(bytes.NewReader(stream), seed, 64), resp); err != nil {
				return fmt.Sprintf("whole stream: Read = %v\n%s", err, stream)
			}
			if diff := cmp.Diff(p.Want(), wiretest.Outcomes(resp.End())); diff != "" {
				return fmt.Sprintf("whole stream (-want +got):\n%s\n%s", diff, stream)
			}

			cut %= len(stream) + 1
			resp.Reset()
			err = Read(context.Background(), bytes.NewReader(stream[:cut]), resp)
			if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
				return fmt.Sprintf("cut at %d: Read = %v", cut, err)
			}
			want := map[int64]wiretest.CallOutcome{}
			for _, w := range p.Want() {
				want[w.Index] = w
			}
			for _, r := range resp.End() {
				w := want[int64(r.Call.Index)]
				switch {
				case r.Executable && string(r.Arguments) != w.Arguments:
					return fmt.Sprintf("cut at %d: call %d executable with %s, want %s", cut, r.Call.Index, r.Arguments, w.Arguments)
				case !r.Executable && !errors.Is(r.Err, token.ErrTruncated):
					return fmt.Sprintf("cut at %d: call %d not executable, error %v", cut, r.Call.Index, r.Err)
				case !r.Executable && cut >= stopEnds[int64(r.Call.Index)]:
					return fmt.Sprintf("cut at %d, after call %d stopped at %d: not executable (%v)", cut, r.Call.Index, stopEnds[int64(r.Call.Index)], r.Err)
				}
			}
			return ""
		})
}
