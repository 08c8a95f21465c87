package openaistream

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/argstream/argstream/internal/testutil/wiretest"
)

// responsesSynthetic is a Responses stream of a reasoning item, a message
// and two function calls, interleaved, with n argument deltas per call
// (with escapes, every third one identified by its item_id only), n text
// and n reasoning deltas. withEvent gives each event its "event:" line.
func responsesSynthetic(n int, withEvent bool) []byte {
	var b []byte
	event := func(typ, data string) {
		if !withEvent {
			typ = ""
		}
		b = wiretest.AppendSSE(b, wiretest.SSEEvent{Type: typ, Data: data})
	}
	event("response.created", `{"type":"response.created","sequence_number":0,"response":{"id":"resp_1","object":"response","status":"in_progress","output":[]}}`)
	event("response.output_item.added", `{"type":"response.output_item.added","output_index":0,"item":{"id":"rs_1","type":"reasoning","summary":[]}}`)
	event("response.output_item.added", `{"type":"response.output_item.added","output_index":1,"item":{"id":"msg_1","type":"message","status":"in_progress","content":[],"role":"assistant"}}`)
	for _, i := range []string{"2", "3"} {
		event("response.output_item.added", `{"type":"response.output_item.added","output_index":`+i+`,"item":{"id":"fc_`+i+`","type":"function_call","status":"in_progress","arguments":"","call_id":"call_`+i+`","name":"write"}}`)
		event("response.function_call_arguments.delta", `{"type":"response.function_call_arguments.delta","item_id":"fc_`+i+`","output_index":`+i+`,"delta":"{\"text\": \""}`)
	}
	for k := range n {
		event("response.reasoning_summary_text.delta", `{"type":"response.reasoning_summary_text.delta","item_id":"rs_1","output_index":0,"summary_index":0,"delta":" think","obfuscation":"abcdef"}`)
		event("response.output_text.delta", `{"type":"response.output_text.delta","item_id":"msg_1","output_index":1,"content_index":0,"delta":"word ","logprobs":[],"obfuscation":"abc"}`)
		for _, i := range []string{"2", "3"} {
			index := `"output_index":` + i + `,`
			if k%3 == 0 {
				index = ""
			}
			event("response.function_call_arguments.delta", `{"type":"response.function_call_arguments.delta","sequence_number":`+strconv.Itoa(k)+`,"item_id":"fc_`+i+`",`+index+`"delta":"line `+strconv.Itoa(k)+` \\\"q\\\"\\n","obfuscation":"xyz"}`)
		}
		if k%100 == 0 {
			event("response.in_progress", `{"type":"response.in_progress","response":{"id":"resp_1","status":"in_progress"}}`)
		}
	}
	// The arguments each call streamed, restated by the done events and
	// the final output, as the API does.
	var text strings.Builder
	text.WriteString(`{"text": "`)
	for k := range n {
		text.WriteString(`line ` + strconv.Itoa(k) + ` \"q\"\n`)
	}
	text.WriteString(`"}`)
	args := strconv.Quote(text.String())
	item := func(i string) string {
		return `{"id":"fc_` + i + `","type":"function_call","status":"completed","arguments":` + args + `,"call_id":"call_` + i + `","name":"write"}`
	}
	for _, i := range []string{"2", "3"} {
		event("response.function_call_arguments.delta", `{"type":"response.function_call_arguments.delta","item_id":"fc_`+i+`","output_index":`+i+`,"delta":"\"}"}`)
		event("response.function_call_arguments.done", `{"type":"response.function_call_arguments.done","item_id":"fc_`+i+`","output_index":`+i+`,"arguments":`+args+`}`)
		event("response.output_item.done", `{"type":"response.output_item.done","output_index":`+i+`,"item":`+item(i)+`}`)
	}
	event("response.completed", `{"type":"response.completed","response":{"id":"resp_1","object":"response","status":"completed","output":[`+
		`{"id":"rs_1","type":"reasoning","summary":[]},{"id":"msg_1","type":"message","status":"completed","content":[],"role":"assistant"},`+item("2")+`,`+item("3")+`]}}`)
	return b
}

// TestResponsesAllocs: ReadResponses allocates per stream and per call,
// never per delta, with or without the event field.
func TestResponsesAllocs(t *testing.T) {
	for _, withEvent := range []bool{true, false} {
		responsesAdapter.CheckAllocs(t, wiretest.SteadyStream{
			Name:   fmt.Sprint("event field ", withEvent),
			Stream: func(n int) []byte { return responsesSynthetic(n, withEvent) },
			Deltas: 4, Large: 10000, Runs: 10,
		})
	}
}

func BenchmarkReadResponses(b *testing.B) {
	for _, withEvent := range []bool{true, false} {
		name := "event"
		if !withEvent {
			name = "type"
		}
		b.Run(name, func(b *testing.B) {
			responsesAdapter.Bench(b, responsesSynthetic(1000, withEvent))
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/4000, "ns/delta")
		})
	}
}
