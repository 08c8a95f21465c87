package guard

import (
	"bytes"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/argstream/argstream/internal/testutil/wiretest"
	"github.com/argstream/argstream/policy"
	"github.com/argstream/argstream/wire"
)

// BenchmarkFilterResponses: the gateway's filter over a Responses stream of
// one call of 100 KB of arguments in deltas of 30 bytes, which the stream
// restates three times (the done event, the output item, the final
// response), as the API does.
//
//	go test -run '^$' -bench FilterResponses -benchmem ./guard
func BenchmarkFilterResponses(b *testing.B) {
	content := strings.Repeat("fmt.Println(\"hello, world\")\n\t", 100<<10/30)
	args := `{"path":"src/main.go","content":` + strconv.Quote(content) + `}`
	quoted := strconv.Quote(args)
	item := func(status string, args string) string {
		return `{"type":"function_call","id":"fc_1","call_id":"call_1","name":"write","arguments":` + args + `,"status":"` + status + `"}`
	}
	resp := wiretest.TypedSSE
	var s strings.Builder
	s.WriteString(resp(`{"type":"response.created","response":{"id":"r","object":"response","status":"in_progress","output":[]}}`))
	s.WriteString(resp(`{"type":"response.output_item.added","output_index":0,"item":` + item("in_progress", `""`) + `}`))
	deltas := 0
	for i := 0; i < len(args); i += 30 {
		d := strconv.Quote(args[i:min(i+30, len(args))])
		s.WriteString(resp(`{"type":"response.function_call_arguments.delta","item_id":"fc_1","output_index":0,"delta":` + d + `}`))
		deltas++
	}
	s.WriteString(resp(`{"type":"response.function_call_arguments.done","item_id":"fc_1","output_index":0,"arguments":` + quoted + `}`))
	s.WriteString(resp(`{"type":"response.output_item.done","output_index":0,"item":` + item("completed", quoted) + `}`))
	s.WriteString(resp(`{"type":"response.completed","response":{"id":"r","object":"response","status":"completed","output":[` + item("completed", quoted) + `]}}`))
	body := []byte(s.String())

	yes := mustPolicy(b, `{"run": "unattended"}`)
	g := New(Config{Policy: func(string) *policy.Policy { return yes }})
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		rc := g.Filter(wire.OpenAIResponses, io.NopCloser(bytes.NewReader(body)), nil)
		n, err := io.Copy(io.Discard, rc)
		if err != nil || n != int64(len(body)) {
			b.Fatalf("the client read %d bytes of %d: %v", n, len(body), err)
		}
		rc.Close()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*deltas), "ns/delta")
}
