package openaistream

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire"
)

// responsesReadChecked reads stream into a fresh Response and checks the
// Results are consistent: a call with no error has valid JSON arguments,
// and only such a call can be executable.
func responsesReadChecked(t testing.TB, stream []byte) ([]toolcall.Result, error) {
	t.Helper()
	resp := toolcall.New()
	err := ReadResponses(context.Background(), bytes.NewReader(stream), resp,
		wire.OnText(func(int64, []byte) {}), wire.OnThinking(func(int64, []byte) {}))
	results := resp.End()
	for _, r := range results {
		switch {
		case r.Err == nil && !json.Valid(r.Arguments):
			t.Fatalf("call %+v: no error but arguments %q are not valid JSON\nstream %q", r.Call, r.Arguments, stream)
		case r.Err != nil && (r.Executable || r.Arguments != nil):
			t.Fatalf("call %+v: error %v but executable %v, arguments %q", r.Call, r.Err, r.Executable, r.Arguments)
		case r.Executable && r.Call.Name == "":
			t.Fatalf("call %+v: executable without a name", r.Call)
		}
	}
	return results, err
}

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
// ReadResponses panic, and give consistent Results.
func TestResponsesMutations(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 300
	}
	rng := rand.New(rand.NewPCG(12, 34))
	streams := responsesStreams(t)
	var errs, calls, neither int
	for _, sc := range streams {
		for range n / len(streams) {
			res, err := responsesReadChecked(t, responsesMutate(rng, sc.stream))
			switch {
			case err != nil:
				errs++
			case len(res) > 0:
				calls++
			default:
				neither++
			}
		}
	}
	t.Logf("mutations: %d errors, %d with calls and no error, %d with neither", errs, calls, neither)
	// Neither: a mutation that hit only events ignored (response.created's
	// data, an event type mangled into an unknown one), or a response of
	// text only.
	if neither > (errs+calls)/5 {
		t.Errorf("%d mutations gave neither an error nor a call", neither)
	}
}

func FuzzReadResponses(f *testing.F) {
	for _, sc := range responsesStreams(f) {
		if sc.part != -1 {
			f.Add(sc.stream)
		}
	}
	f.Add(responsesSynthetic(3, true))
	f.Add(responsesSynthetic(3, false))
	f.Add([]byte(responsesSSE(false,
		responsesAdded(0, "fc_0", "call_0", "f", "{}"),
		responsesDelta(-1, "fc_0", `{"a":`),
		responsesArgsDoneEvent(0, "fc_0", `{"a":1}`),
		responsesItemDoneEvent(1, "fc_1", "call_1", "g", `{"b":[2]}`),
		`{"type":"error","code":429,"message":"slow down","error":{"type":"t"}}`)))
	f.Add([]byte(responsesSSE(true,
		`{"type":"response.output_item.added","output_index":1,"item":{"type":"mcp_call","id":"mcp_1","name":"ask","arguments":""}}`,
		`{"type":"response.mcp_call_arguments.delta","item_id":"mcp_1","delta":"{\"q\":1}"}`,
		`{"type":"response.incomplete","response":{"status":"incomplete"}}`)))
	for _, tc := range responsesHostile() {
		f.Add([]byte(tc.stream))
	}
	f.Fuzz(func(t *testing.T, stream []byte) {
		responsesReadChecked(t, stream)
	})
}
