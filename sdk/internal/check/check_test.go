package check

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestAnthropic(t *testing.T) {
	body := []byte(`event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}

data: {"type":"content_block_stop","index":0}

data: {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"a","name":"f","input":{}}}

data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"x\": "}}

data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"1}"}}

data: {"type":"content_block_stop","index":1}

data: {"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"b","name":"g","input":{"y": 2}}}

data: {"type":"content_block_stop","index":2}

data: {"type":"content_block_start","index":3,"content_block":{"type":"server_tool_use","id":"c","name":"h","input":{}}}

data: {"type":"content_block_stop","index":3}

data: {"type":"content_block_start","index":4,"content_block":{"type":"tool_use","id":"d","name":"i","input":{}}}

data: {"type":"content_block_delta","index":4,"delta":{"type":"input_json_delta","partial_json":"{}"}}

data: {"type":"content_block_start","index":5,"content_block":{"type":"mcp_tool_use","id":"e","name":"j","input":{}}}

data: {"type":"content_block_delta","index":5,"delta":{"type":"input_json_delta","partial_json":"{\"z\": nope}"}}

data: {"type":"content_block_stop","index":5}

`)
	got, err := Anthropic(body)
	if err != nil {
		t.Fatal(err)
	}
	want := []Outcome{
		{Index: 1, ID: "a", Name: "f", Arguments: `{"x":1}`, Executable: true},
		{Index: 2, ID: "b", Name: "g", Arguments: `{"y":2}`, Executable: true},
		{Index: 3, ID: "c", Name: "h", Arguments: `{}`, Server: true}, // the provider runs it
		{Index: 4, ID: "d", Name: "i", Truncated: true},               // no stop
		{Index: 5, ID: "e", Name: "j", Server: true, Truncated: true}, // invalid
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestChat(t *testing.T) {
	body := []byte(`data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"a","function":{"name":"f","arguments":""}}]}},{"index":1,"delta":{"tool_calls":[{"index":0,"id":"x","function":{"name":"other","arguments":"{}"}}]}}]}

data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"b","function":{"name":"g","arguments":"{\"q\""}}]}}]}

data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"","function":{"name":"","arguments":"[1, 2]"}},{"index":0,"function":{"arguments":": 1"}}]}}]}

data: [DONE]

data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"}"}}]}}]}

`)
	got, err := Chat(body, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []Outcome{
		{Index: 0, ID: "b", Name: "g", Truncated: true}, // the rest comes after [DONE]
		{Index: 1, ID: "a", Name: "f", Arguments: `[1,2]`, Executable: true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestResponses(t *testing.T) {
	body := []byte(`data: {"type":"response.output_item.added","output_index":0,"item":{"type":"reasoning"}}

data: {"type":"response.output_item.added","output_index":1,"item":{"type":"function_call","call_id":"a","name":"f","arguments":""}}

data: {"type":"response.function_call_arguments.delta","output_index":1,"delta":"{\"a\":"}

data: {"type":"response.function_call_arguments.delta","output_index":1,"delta":" 1}"}

data: {"type":"response.function_call_arguments.done","output_index":1,"arguments":"{\"a\": 1}"}

data: {"type":"response.output_item.added","output_index":2,"item":{"type":"function_call","call_id":"b","name":"g","arguments":""}}

data: {"type":"response.function_call_arguments.delta","output_index":2,"delta":"{}"}

`)
	got, err := Responses(body)
	if err != nil {
		t.Fatal(err)
	}
	want := []Outcome{
		{Index: 1, ID: "a", Name: "f", Arguments: `{"a":1}`, Executable: true},
		{Index: 2, ID: "b", Name: "g", Truncated: true}, // no done
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	bad := []byte(`data: {"type":"response.function_call_arguments.delta","output_index":0,"delta":"{}"}

data: {"type":"response.function_call_arguments.done","output_index":0,"arguments":"{ }"}
`)
	if _, err := Responses(bad); err == nil {
		t.Error("done's arguments differ from the deltas: no error")
	}
}

// TestCanonical: arguments written in another key order, with spaces, an
// escape, or an integer float64 rounds, become the same text; outcomes
// without arguments are left alone; the input is not changed.
func TestCanonical(t *testing.T) {
	const args = `{"b": [1, {"d":2,"c":"\u00e9"}], "a":12345678901234567890}`
	in := []Outcome{
		{Index: 0, Arguments: args},
		{Index: 1, Truncated: true},
	}
	got := Canonical(t, in)
	want := []Outcome{
		{Index: 0, Arguments: `{"a":12345678901234567000,"b":[1,{"c":"é","d":2}]}`},
		{Index: 1, Truncated: true},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Canonical (+), want (-):\n%s", d)
	}
	if in[0].Arguments != args {
		t.Errorf("Canonical changed its input: %+v", in)
	}
}
