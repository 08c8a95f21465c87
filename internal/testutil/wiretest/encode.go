package wiretest

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
)

// The encoders below write a WirePlan as each provider streams it, in the
// documented layout, with text before and between the calls: whole, valid
// streams, which the gateway's tests cut and filter. (The adapters' own
// tests have encoders of their own, which vary the layouts.)

func quote(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// EncodeAnthropic writes p as a Messages stream: a text block at index 0,
// each call a tool_use block from index 1 in the order of their starts (p
// is renumbered so), text deltas between the calls' events.
func EncodeAnthropic(p WirePlan, rng *rand.Rand) (WirePlan, []SSEEvent) {
	p = p.NumberedByStart(1)
	ev := func(data string) SSEEvent {
		var v struct{ Type string }
		if err := json.Unmarshal([]byte(data), &v); err != nil {
			panic(err)
		}
		return SSEEvent{Type: v.Type, Data: data}
	}
	events := []SSEEvent{
		ev(`{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}}`),
		ev(`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`),
		ev(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Let me do that."}}`),
	}
	for _, s := range p.Steps {
		c := p.Calls[s.Call]
		if rng.IntN(6) == 0 {
			events = append(events, ev(`{"type":"ping"}`))
		}
		switch {
		case s.Delta < 0:
			events = append(events, ev(fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"tool_use","id":%q,"name":%q,"input":{}}}`, c.Index, c.ID, c.Name)))
		case s.Delta < len(c.Deltas):
			events = append(events, ev(fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"input_json_delta","partial_json":%s}}`, c.Index, quote(c.Deltas[s.Delta]))))
		default:
			events = append(events, ev(fmt.Sprintf(`{"type":"content_block_stop","index":%d}`, c.Index)))
		}
	}
	events = append(events,
		ev(`{"type":"content_block_stop","index":0}`),
		ev(`{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":9}}`),
		ev(`{"type":"message_stop"}`))
	return p, events
}

// EncodeChat writes p as a Chat Completions stream: a role chunk, text,
// each call's start as an element with id, type and name, its deltas as
// elements with arguments only, then the finish_reason and [DONE].
func EncodeChat(p WirePlan, rng *rand.Rand) []SSEEvent {
	const head = `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":`
	chunk := func(delta, finish string) SSEEvent {
		return SSEEvent{Data: head + delta + `,"finish_reason":` + finish + `}]}`}
	}
	events := []SSEEvent{chunk(`{"role":"assistant","content":""}`, "null"), chunk(`{"content":"Let me do that."}`, "null")}
	for _, s := range p.Steps {
		c := p.Calls[s.Call]
		switch {
		case s.Delta < 0:
			events = append(events, chunk(fmt.Sprintf(`{"tool_calls":[{"index":%d,"id":%q,"type":"function","function":{"name":%q,"arguments":""}}]}`, c.Index, c.ID, c.Name), "null"))
		case s.Delta < len(c.Deltas):
			events = append(events, chunk(fmt.Sprintf(`{"tool_calls":[{"index":%d,"function":{"arguments":%s}}]}`, c.Index, quote(c.Deltas[s.Delta])), "null"))
		}
		if rng.IntN(8) == 0 {
			events = append(events, chunk(`{"content":"…"}`, "null"))
		}
	}
	return append(events, chunk(`{}`, `"tool_calls"`), SSEEvent{Data: "[DONE]"})
}

// EncodeResponses writes p as a Responses API stream: a message item at
// output_index 0, each call a function_call item at its index, with its
// deltas, its done events, and the final response listing every item.
func EncodeResponses(p WirePlan, rng *rand.Rand) []SSEEvent {
	ev := func(typ, rest string) SSEEvent {
		return SSEEvent{Type: typ, Data: `{"type":"` + typ + `",` + rest + `}`}
	}
	item := func(c WireCall, args, status string) string {
		return fmt.Sprintf(`{"type":"function_call","id":"fc_%d","call_id":%q,"name":%q,"arguments":%s,"status":%q}`, c.Index, c.ID, c.Name, quote(args), status)
	}
	msg := `{"type":"message","id":"msg_0","status":"completed","role":"assistant","content":[{"type":"output_text","text":"Let me do that.","annotations":[]}]}`
	events := []SSEEvent{
		ev("response.created", `"response":{"id":"resp_1","object":"response","status":"in_progress","output":[]}`),
		ev("response.output_item.added", `"output_index":0,"item":{"type":"message","id":"msg_0","status":"in_progress","role":"assistant","content":[]}`),
		ev("response.content_part.added", `"item_id":"msg_0","output_index":0,"content_index":0,"part":{"type":"output_text","text":"","annotations":[]}`),
		ev("response.output_text.delta", `"item_id":"msg_0","output_index":0,"content_index":0,"delta":"Let me do that."`),
		ev("response.output_text.done", `"item_id":"msg_0","output_index":0,"content_index":0,"text":"Let me do that."`),
		ev("response.content_part.done", `"item_id":"msg_0","output_index":0,"content_index":0,"part":{"type":"output_text","text":"Let me do that.","annotations":[]}`),
		ev("response.output_item.done", `"output_index":0,"item":`+msg),
	}
	output := make([]string, len(p.Calls)+1)
	output[0] = msg
	for _, s := range p.Steps {
		c := p.Calls[s.Call]
		args := strings.Join(c.Deltas, "")
		switch {
		case s.Delta < 0:
			events = append(events, ev("response.output_item.added", fmt.Sprintf(`"output_index":%d,"item":%s`, c.Index, item(c, "", "in_progress"))))
		case s.Delta < len(c.Deltas):
			events = append(events, ev("response.function_call_arguments.delta", fmt.Sprintf(`"item_id":"fc_%d","output_index":%d,"delta":%s`, c.Index, c.Index, quote(c.Deltas[s.Delta]))))
		default:
			events = append(events,
				ev("response.function_call_arguments.done", fmt.Sprintf(`"item_id":"fc_%d","output_index":%d,"arguments":%s`, c.Index, c.Index, quote(args))),
				ev("response.output_item.done", fmt.Sprintf(`"output_index":%d,"item":%s`, c.Index, item(c, args, "completed"))))
			output[c.Index] = item(c, args, "completed")
		}
		if rng.IntN(8) == 0 {
			events = append(events, ev("response.in_progress", `"response":{"id":"resp_1","status":"in_progress"}`))
		}
	}
	return append(events, ev("response.completed", `"response":{"id":"resp_1","object":"response","status":"completed","output":[`+strings.Join(output, ",")+`]}`))
}
