package bedrockstream_test

import (
	"bytes"
	"context"
	"fmt"

	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire"
	"github.com/argstream/argstream/wire/bedrockstream"
)

func Example() {
	// An HTTP response body of ConverseStream: its events' messages one
	// after the other (AppendEvent writes one as Bedrock sends it).
	var body []byte
	for _, e := range [][2]string{
		{"messageStart", `{"role":"assistant"}`},
		{"contentBlockDelta", `{"contentBlockIndex":0,"delta":{"text":"Checking the weather."}}`},
		{"contentBlockStop", `{"contentBlockIndex":0}`},
		{"contentBlockStart", `{"contentBlockIndex":1,"start":{"toolUse":{"toolUseId":"tooluse_x1","name":"get_weather"}}}`},
		{"contentBlockDelta", `{"contentBlockIndex":1,"delta":{"toolUse":{"input":"{\"city\":"}}}`},
		{"contentBlockDelta", `{"contentBlockIndex":1,"delta":{"toolUse":{"input":"\"Paris\"}"}}}`},
		{"contentBlockStop", `{"contentBlockIndex":1}`},
		{"messageStop", `{"stopReason":"tool_use"}`},
		{"metadata", `{"usage":{"inputTokens":410,"outputTokens":77,"totalTokens":487},"metrics":{"latencyMs":1219}}`},
	} {
		body = bedrockstream.AppendEvent(body, e[0], []byte(e[1]))
	}
	resp := toolcall.New()
	err := bedrockstream.Read(context.Background(), bytes.NewReader(body), resp,
		wire.OnText(func(index int64, text []byte) { fmt.Printf("text %d: %s\n", index, text) }))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range resp.End() {
		fmt.Println(r.Call.Index, r.Call.ID, r.Call.Name, string(r.Arguments), r.Executable)
	}
	// Output:
	// text 0: Checking the weather.
	// 1 tooluse_x1 get_weather {"city":"Paris"} true
}

// A server that reads many responses keeps a Reader and a Response, resets
// both, and reads each body with ReadBody, which keeps its message buffer.
func ExampleReader_ReadBody() {
	body := func(id, input string) *bytes.Buffer {
		var b bytes.Buffer
		for _, e := range [][2]string{
			{"messageStart", `{"role":"assistant"}`},
			{"contentBlockStart", `{"contentBlockIndex":0,"start":{"toolUse":{"toolUseId":"` + id + `","name":"read_file"}}}`},
			{"contentBlockDelta", `{"contentBlockIndex":0,"delta":{"toolUse":{"input":` + input + `}}}`},
			{"contentBlockStop", `{"contentBlockIndex":0}`},
			{"messageStop", `{"stopReason":"tool_use"}`},
		} {
			b.Write(bedrockstream.AppendEvent(nil, e[0], []byte(e[1])))
		}
		return &b
	}
	resp := toolcall.New()
	r := bedrockstream.NewReader(resp)
	for _, b := range []*bytes.Buffer{body("tooluse_1", `"{\"path\":\"go.mod\"}"`), body("tooluse_2", `"{\"path\":\"go.sum\"}"`)} {
		resp.Reset()
		r.Reset(resp)
		if err := r.ReadBody(context.Background(), b); err != nil {
			fmt.Println(err)
		}
		for _, res := range resp.End() {
			fmt.Println(res.Call.ID, string(res.Arguments), res.Executable)
		}
	}
	// Output:
	// tooluse_1 {"path":"go.mod"} true
	// tooluse_2 {"path":"go.sum"} true
}
