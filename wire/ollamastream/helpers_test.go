package ollamastream

import (
	"strings"

	"github.com/argstream/argstream/internal/testutil/wiretest"
)

var adapterRead = wiretest.Adapter{Name: "Read", Read: Read}

// ndjson joins lines into a stream, each ended by "\n".
func ndjson(lines ...string) string {
	return strings.Join(lines, "\n") + "\n"
}

// Lines as Ollama writes them.
const (
	head     = `{"model":"qwen3","created_at":"2025-07-07T20:22:19.184789Z","message":{"role":"assistant","content":`
	doneLine = `{"model":"qwen3","created_at":"2025-07-07T20:22:19.19314Z","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","total_duration":182242375,"load_duration":41295167,"prompt_eval_count":169,"prompt_eval_duration":24573166,"eval_count":15,"eval_duration":115959084}`
)

// textLine is a line of content text (a JSON string's body).
func textLine(text string) string {
	return head + `"` + text + `"},"done":false}`
}

// callLine is a line of one tool call.
func callLine(id, name, args string) string {
	return head + `"","tool_calls":[{"id":"` + id + `","function":{"index":0,"name":"` + name + `","arguments":` + args + `}}]},"done":false}`
}
