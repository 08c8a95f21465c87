package openaistream

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/internal/testutil/wiretest"
)

// responsesMutate applies 1 to 4 random edits to a copy of b: bytes
// changed, inserted or deleted (testutil.Mutation), a segment duplicated
// elsewhere, or the stream cut.
func responsesMutate(rng *rand.Rand, b []byte) []byte {
	out := bytes.Clone(b)
	for range 1 + rng.IntN(4) {
		if len(out) == 0 {
			break
		}
		i := rng.IntN(len(out))
		switch rng.IntN(3) {
		case 0:
			j := min(len(out), i+1+rng.IntN(200))
			seg := bytes.Clone(out[i:j])
			k := rng.IntN(len(out) + 1)
			out = append(out[:k], append(seg, out[k:]...)...)
		default:
			m := testutil.Mutation{Op: rng.IntN(4), At: i, Set: testutil.MutationBytes[rng.IntN(len(testutil.MutationBytes))]}
			out = m.Apply(out)
		}
	}
	return out
}

// TestResponsesMutations: random mutations of the recordings never make
// ReadResponses panic, and give consistent Results. At most one in five
// gives neither an error nor a call: a mutation that hit only events
// ignored (response.created's data, an event type mangled into an unknown
// one), or a response of text only.
func TestResponsesMutations(t *testing.T) {
	var streams [][]byte
	for _, sc := range responsesStreams(t) {
		streams = append(streams, sc.stream)
	}
	responsesAdapter.CheckMutations(t, streams, responsesMutate, 5)
}

func FuzzReadResponses(f *testing.F) {
	var seeds [][]byte
	for _, sc := range responsesStreams(f) {
		if sc.part != -1 {
			seeds = append(seeds, sc.stream)
		}
	}
	seeds = append(seeds, responsesSynthetic(3, true), responsesSynthetic(3, false),
		[]byte(responsesSSE(false,
			responsesAdded(0, "fc_0", "call_0", "f", "{}"),
			responsesDelta(-1, "fc_0", `{"a":`),
			responsesArgsDoneEvent(0, "fc_0", `{"a":1}`),
			responsesItemDoneEvent(1, "fc_1", "call_1", "g", `{"b":[2]}`),
			`{"type":"error","code":429,"message":"slow down","error":{"type":"t"}}`)),
		[]byte(responsesSSE(true,
			`{"type":"response.output_item.added","output_index":1,"item":{"type":"mcp_call","id":"mcp_1","name":"ask","arguments":""}}`,
			`{"type":"response.mcp_call_arguments.delta","item_id":"mcp_1","delta":"{\"q\":1}"}`,
			`{"type":"response.incomplete","response":{"status":"incomplete"}}`)),
		[]byte(responsesSSE(true,
			`{"type":"response.output_item.added","output_index":1,"item":`+customItem("*** Begin")+`}`,
			customEvent("response.custom_tool_call_input.delta", "delta", " Patch\n\"\u2028"),
			customEvent("response.custom_tool_call_input.done", "input", "*** Begin Patch\n\"\u2028"),
			`{"type":"response.output_item.done","output_index":1,"item":`+customItem("*** Begin Patch\n\"\u2028")+`}`,
			responsesCompleted)))
	for _, tc := range responsesHostile() {
		seeds = append(seeds, []byte(tc.stream))
	}
	responsesAdapter.Fuzz(f, wiretest.Streams(seeds...))
}
