package openaistream

import (
	"math/rand/v2"
	"testing"

	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/internal/testutil/wiretest"
)

// chatMutate applies 1 to 4 random one-byte mutations (insert, replace,
// delete, truncate) to a copy of b.
func chatMutate(rng *rand.Rand, b []byte) []byte {
	ms := make([]testutil.Mutation, 1+rng.IntN(4))
	for i := range ms {
		ms[i] = testutil.Mutation{Op: rng.IntN(4), At: rng.IntN(len(b) + 1), Set: testutil.MutationBytes[rng.IntN(len(testutil.MutationBytes))]}
	}
	return testutil.Mutate(b, ms)
}

// TestChatMutations: random mutations of the recordings never make
// ReadChat panic, and give a documented error and consistent Results. Most
// end with an error or with calls; the others lost their tool calls to the
// mutation (a member name mangled into an unknown one is skipped, as it
// must be).
func TestChatMutations(t *testing.T) {
	var streams [][]byte
	for _, rec := range chatRecordings {
		streams = append(streams, chatRecording(t, rec.file, rec.chunks))
	}
	chatAdapter.CheckMutations(t, streams, chatMutate, 10)
}

func FuzzReadChat(f *testing.F) {
	var seeds []wiretest.Seed
	for _, rec := range chatRecordings {
		seeds = append(seeds, wiretest.Seed{Stream: chatRecording(f, rec.file, rec.chunks)})
	}
	seeds = append(seeds,
		wiretest.Seed{Stream: chatSynthetic(3)},
		wiretest.Seed{Stream: []byte(chatTwoChoices + wiretest.DataSSE(chatDoneData)), Choice: 1},
		wiretest.Seed{Stream: []byte(chatWhole(chatStart("0", "call_0", "f"), chatStart("1", "call_1", "g"), chatArgs("0", `"{\"a\":}"`), chatArgs("1", `"{\"b\":1}"`)))},
		wiretest.Seed{Stream: []byte(wiretest.DataSSE(chatRole, chatStart("0", "call_1", "f"), chatArgs("0", `"{\"a\":"`), `{"error":{"message":"m","type":"server_error","code":429}}`))},
		// Calls without an index, continued by pieces without one.
		wiretest.Seed{Stream: []byte(chatWhole(chatDelta(`{"tool_calls":[{"id":"a","function":{"name":"f","arguments":"{\"x\":"}}]}`),
			chatDelta(`{"tool_calls":[{"function":{"arguments":"1}"}},{"id":"b","function":{"name":"g","arguments":"["}}]}`),
			chatDelta(`{"tool_calls":[{"id":"b","function":{"arguments":"2]"}}]}`)))})
	for _, tc := range chatHostile() {
		seeds = append(seeds, wiretest.Seed{Stream: []byte(tc.stream)})
	}
	chatAdapter.Fuzz(f, seeds)
}
