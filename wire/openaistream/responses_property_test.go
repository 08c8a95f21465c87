package openaistream

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/internal/testutil/wiretest"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire/sse"
	"github.com/google/go-cmp/cmp"
)

// responsesPlanEvent is one event of a generated response, with what it
// means for the model of the test.
type responsesPlanEvent struct {
	sse.Event        // Type and Data
	call      int    // the call it is about, or -1
	fed       int    // argument bytes it gives the call
	stops     bool   // it stops the call
	isText    bool   // it is a text delta:
	textIndex int64  // ... at this output_index
	text      string // ... of this text
}

// responsesPlanStream makes the events of a response that sends plan's
// calls, with message items of text at other output indexes, and
// response.completed at the end.
func responsesPlanStream(t testing.TB, plan wiretest.WirePlan, first int64, rng *rand.Rand) []responsesPlanEvent {
	t.Helper()
	enc := func(v any) string {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	type obj = map[string]any
	ev := func(typ string, fields obj) sse.Event {
		fields["type"] = typ
		return sse.Event{Type: []byte(typ), Data: []byte(enc(fields))}
	}
	itemID := func(i int) string { return fmt.Sprint("fc_", i) }

	var calls []responsesPlanEvent
	output := map[int64]obj{} // the items of the final response, by output_index
	for _, st := range plan.Steps {
		c := plan.Calls[st.Call]
		item := obj{"type": "function_call", "id": itemID(st.Call), "call_id": c.ID, "name": c.Name, "arguments": "", "status": "in_progress"}
		switch {
		case st.Delta < 0:
			calls = append(calls, responsesPlanEvent{Event: ev("response.output_item.added", obj{"output_index": c.Index, "item": item}), call: st.Call})
		case st.Delta < len(c.Deltas):
			fields := obj{"item_id": itemID(st.Call), "delta": c.Deltas[st.Delta], "obfuscation": "xyz"}
			if rng.IntN(3) != 0 {
				fields["output_index"] = c.Index
			}
			calls = append(calls, responsesPlanEvent{Event: ev("response.function_call_arguments.delta", fields), call: st.Call, fed: len(c.Deltas[st.Delta])})
		default:
			args := strings.Join(c.Deltas, "")
			item["arguments"], item["status"] = args, "completed"
			output[c.Index] = item
			calls = append(calls,
				responsesPlanEvent{Event: ev("response.function_call_arguments.done", obj{"item_id": itemID(st.Call), "output_index": c.Index, "arguments": args}), call: st.Call, stops: true},
				responsesPlanEvent{Event: ev("response.output_item.done", obj{"output_index": c.Index, "item": item}), call: st.Call, stops: true})
		}
	}

	// Messages at indexes below first and above the calls'.
	var texts [][]responsesPlanEvent
	for idx := range first + 2 {
		if idx >= first {
			idx += int64(len(plan.Calls))
		}
		if rng.IntN(2) == 0 {
			continue
		}
		msg := obj{"type": "message", "id": fmt.Sprint("msg_", idx), "role": "assistant", "content": []any{}}
		seq := []responsesPlanEvent{{Event: ev("response.output_item.added", obj{"output_index": idx, "item": msg}), call: -1}}
		for k := range rng.IntN(4) {
			d := []string{"Let me ", "check \"that\"\n", "café ", ""}[k]
			seq = append(seq, responsesPlanEvent{Event: ev("response.output_text.delta", obj{"item_id": msg["id"], "output_index": idx, "content_index": 0, "delta": d}), call: -1, isText: true, textIndex: idx, text: d})
		}
		seq = append(seq, responsesPlanEvent{Event: ev("response.output_item.done", obj{"output_index": idx, "item": msg}), call: -1})
		output[idx] = msg
		texts = append(texts, seq)
	}

	// Interleave, each sequence in order.
	seqs := append(texts, calls)
	var out []responsesPlanEvent
	for len(seqs) > 0 {
		i := rng.IntN(len(seqs))
		if len(seqs[i]) == 0 {
			seqs = slices.Delete(seqs, i, i+1)
			continue
		}
		out = append(out, seqs[i][0])
		seqs[i] = seqs[i][1:]
	}
	created := responsesPlanEvent{Event: ev("response.created", obj{"response": obj{"id": "resp_1", "status": "in_progress"}}), call: -1}
	// The final response lists every item, a message at the indexes no
	// item was sent.
	var items []obj
	for idx := range first + 2 + int64(len(plan.Calls)) {
		it := output[idx]
		if it == nil {
			it = obj{"type": "message", "id": fmt.Sprint("msg_none_", idx), "role": "assistant", "content": []any{}}
		}
		items = append(items, it)
	}
	completed := responsesPlanEvent{Event: ev("response.completed", obj{"response": obj{"id": "resp_1", "status": "completed", "output": items}}), call: -1}
	return append(append([]responsesPlanEvent{created}, out...), completed)
}

// responsesModel is what a prefix of the events must give: the calls
// started, each executable if it got all its significant bytes or its
// stop, truncated otherwise; and the text per index.
func responsesModel(plan wiretest.WirePlan, events []responsesPlanEvent) ([]wiretest.CallOutcome, map[int64]string) {
	fed := map[int]int{}
	stopped := map[int]bool{}
	seen := map[int]bool{}
	text := map[int64]string{}
	for _, e := range events {
		if e.call >= 0 {
			seen[e.call] = true
			fed[e.call] += e.fed
			stopped[e.call] = stopped[e.call] || e.stops
		}
		if e.isText {
			text[e.textIndex] += e.text
		}
	}
	var out []wiretest.CallOutcome
	for i, c := range plan.Calls {
		if !seen[i] {
			continue
		}
		o := wiretest.CallOutcome{Index: c.Index, ID: c.ID, Name: c.Name}
		needs := len(strings.TrimRight(strings.Join(c.Deltas, ""), " \t\r\n"))
		if stopped[i] || fed[i] >= needs {
			o.Arguments, o.Executable = c.Want, true
		} else {
			o.Truncated = true
		}
		out = append(out, o)
	}
	slices.SortFunc(out, func(a, b wiretest.CallOutcome) int { return int(a.Index - b.Index) })
	return out, text
}

// responsesDispatched is the number of events an SSE reader dispatches from
// stream.
func responsesDispatched(stream []byte) int {
	rd := sse.NewReader(bytes.NewReader(stream))
	n := 0
	for rd.Next() {
		n++
	}
	return n
}

func TestResponsesProperty(t *testing.T) {
	resp := toolcall.New() // reused: Reset must forget everything
	wiretest.PlanProperty(t, "generated responses give back their calls; a cut stream its complete calls and no wrong ones",
		func(docs []testutil.Doc, seed uint64, cut int) string {
			return responsesCheckPlan(t, resp, docs, seed, cut)
		})
}

// responsesCheckPlan reads a response of docs whole, then cut after cut
// bytes, and returns what went wrong.
func responsesCheckPlan(t testing.TB, resp *toolcall.Response, docs []testutil.Doc, seed uint64, cut int) string {
	rng := rand.New(rand.NewPCG(seed, 1))
	first := int64(rng.IntN(3))
	plan, err := wiretest.MakeWirePlan(docs, first, rng)
	if err != nil {
		t.Fatal(err)
	}
	events := responsesPlanStream(t, plan, first, rng)
	sseEvents := make([]wiretest.SSEEvent, len(events))
	for i, e := range events {
		sseEvents[i] = wiretest.SSEEvent{Type: string(e.Type), Data: string(e.Data)}
	}
	stream := wiretest.FrameSSE(sseEvents, true, rng)

	// Whole.
	g := responsesAdapter.Run(resp, bytes.NewReader(stream))
	_, wantText := responsesModel(plan, events)
	if g.Err != nil {
		return fmt.Sprintf("whole: ReadResponses = %v\nstream %q", g.Err, stream)
	}
	if diff := cmp.Diff(plan.Want(), g.Calls); diff != "" {
		return fmt.Sprintf("whole: results (-want +got):\n%s\nstream %q", diff, stream)
	}
	if diff := cmp.Diff(wantText, g.Text); diff != "" {
		return fmt.Sprintf("whole: text (-want +got):\n%s", diff)
	}

	// Cut.
	cut %= len(stream) + 1
	prefix := stream[:cut]
	k := responsesDispatched(prefix)
	wantCalls, _ := responsesModel(plan, events[:k])
	g = responsesAdapter.Run(resp, bytes.NewReader(prefix))
	switch {
	case k == len(events) && g.Err != nil:
		return fmt.Sprintf("cut at %d of %d, after response.completed: ReadResponses = %v", cut, len(stream), g.Err)
	case k < len(events) && !errors.Is(g.Err, io.ErrUnexpectedEOF):
		return fmt.Sprintf("cut at %d of %d (%d of %d events): ReadResponses = %v, want io.ErrUnexpectedEOF", cut, len(stream), k, len(events), g.Err)
	}
	if diff := cmp.Diff(wantCalls, g.Calls); diff != "" {
		return fmt.Sprintf("cut at %d of %d (%d of %d events): results (-want +got):\n%s\nstream %q", cut, len(stream), k, len(events), diff, prefix)
	}
	return ""
}
