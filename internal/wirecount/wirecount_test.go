package wirecount

import "testing"

func TestDeltas(t *testing.T) {
	for _, tc := range []struct {
		wire, stream string
		want         int
	}{
		{Anthropic, "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"\"}}\n\n" +
			"data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"x\"}}\n\n" +
			"data: {\"type\":\"message_stop\"}\n\n" +
			"data: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\"}}\n\n", 1},
		{Chat, "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"\"}},{\"index\":1,\"function\":{\"name\":\"f\"}}]}}]}\n\n" +
			"data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{}\"}}]}}]}\n\n" +
			"data: [DONE]\n\ndata: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{}\"}}]}}]}\n\n", 2},
		{Responses, "data: {\"type\":\"response.function_call_arguments.delta\",\"output_index\":0,\"delta\":\"{\"}\n\n" +
			"data: {\"type\":\"response.output_text.delta\",\"output_index\":1,\"delta\":\"x\"}\n\n" +
			"data: {\"type\":\"response.completed\"}\n\n" +
			"data: {\"type\":\"response.function_call_arguments.delta\",\"output_index\":0,\"delta\":\"}\"}", 1},
	} {
		n, err := Deltas(tc.wire, []byte(tc.stream))
		if err != nil || n != tc.want {
			t.Errorf("%s: %d, %v; want %d", tc.wire, n, err, tc.want)
		}
	}
	if _, err := Deltas("gemini", nil); err == nil {
		t.Error("unknown wire: no error")
	}
	if _, err := Deltas(Chat, []byte("data: {\n\n")); err == nil {
		t.Error("data not JSON: no error")
	}
}
