package coherestream_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire"
	"github.com/argstream/argstream/wire/coherestream"
)

func Example() {
	body := strings.NewReader(`event: message-start
data: {"id":"m1","type":"message-start","delta":{"message":{"role":"assistant","content":[],"tool_plan":"","tool_calls":[],"citations":[]}}}

event: tool-plan-delta
data: {"type":"tool-plan-delta","delta":{"message":{"tool_plan":"I will check the weather."}}}

event: tool-call-start
data: {"type":"tool-call-start","index":0,"delta":{"message":{"tool_calls":{"id":"get_weather_1","type":"function","function":{"name":"get_weather","arguments":""}}}}}

event: tool-call-delta
data: {"type":"tool-call-delta","index":0,"delta":{"message":{"tool_calls":{"function":{"arguments":"{\"city\":"}}}}}

event: tool-call-delta
data: {"type":"tool-call-delta","index":0,"delta":{"message":{"tool_calls":{"function":{"arguments":" \"Paris\"}"}}}}}

event: tool-call-end
data: {"type":"tool-call-end","index":0}

event: message-end
data: {"type":"message-end","delta":{"finish_reason":"TOOL_CALL","usage":{"billed_units":{"input_tokens":20,"output_tokens":12}}}}

`)
	resp := toolcall.New()
	err := coherestream.Read(context.Background(), body, resp,
		wire.OnThinking(func(index int64, text []byte) { fmt.Printf("plan: %s\n", text) }))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range resp.End() {
		fmt.Println(r.Call.Index, r.Call.ID, r.Call.Name, string(r.Arguments), r.Executable)
	}
	// Output:
	// plan: I will check the weather.
	// 0 get_weather_1 get_weather {"city":"Paris"} true
}
