package geministream_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire"
	"github.com/argstream/argstream/wire/geministream"
)

func Example() {
	body := strings.NewReader(`data: {"candidates":[{"content":{"parts":[{"text":"Checking the weather.","thought":true}],"role":"model"},"index":0}]}

data: {"candidates":[{"content":{"parts":[{"functionCall":{"name":"get_weather","args":{"city":"Paris"}}},{"functionCall":{"name":"get_time","args":{"tz":"Europe/Paris"}}}],"role":"model"},"index":0}]}

data: {"candidates":[{"content":{"parts":[{"text":""}],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":29,"candidatesTokenCount":15,"totalTokenCount":44}}

`)
	resp := toolcall.New()
	err := geministream.Read(context.Background(), body, resp,
		wire.OnThinking(func(index int64, text []byte) { fmt.Printf("thinking %d: %s\n", index, text) }))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range resp.End() {
		fmt.Println(r.Call.Index, r.Call.Name, string(r.Arguments), r.Executable)
	}
	// Output:
	// thinking 0: Checking the weather.
	// 0 get_weather {"city":"Paris"} true
	// 1 get_time {"tz":"Europe/Paris"} true
}
