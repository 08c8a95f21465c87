package openaistream

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/internal/testutil/wiretest"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire"
	"github.com/argstream/argstream/wire/sse"
)

// chatReadChecked reads stream into a fresh Response and checks that the
// error is one ReadChat documents and that the Results are consistent: a
// call with no error has valid JSON arguments, and only such a call can be
// executable.
func chatReadChecked(t testing.TB, stream []byte, opts ...wire.Option) (results []toolcall.Result, err error) {
	t.Helper()
	resp := toolcall.New()
	err = ReadChat(context.Background(), bytes.NewReader(stream), resp, opts...)
	var pe *wire.ProviderError
	if err != nil && !errors.Is(err, ErrMalformed) && !errors.As(err, &pe) && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, sse.ErrEventTooLarge) {
		t.Fatalf("ReadChat = %v, not an error ReadChat documents\nstream %q", err, stream)
	}
	results = resp.End()
	for _, r := range results {
		switch {
		case r.Err == nil && !json.Valid(r.Arguments):
			t.Fatalf("call %+v: no error but arguments %q are not valid JSON\nstream %q", r.Call, r.Arguments, stream)
		case r.Err != nil && (r.Executable || r.Arguments != nil):
			t.Fatalf("call %+v: error %v but executable %v, arguments %q", r.Call, r.Err, r.Executable, r.Arguments)
		}
	}
	return results, err
}

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
	n := 3000
	if testing.Short() {
		n = 300
	}
	rng := rand.New(rand.NewPCG(12, 34))
	var errs, calls, neither int
	for _, rec := range chatRecordings {
		stream := chatRecording(t, rec.file, rec.chunks)
		for range n / len(chatRecordings) {
			res, err := chatReadChecked(t, chatMutate(rng, stream))
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
	if neither > (errs+calls)/10 {
		t.Errorf("%d mutations gave neither an error nor a call", neither)
	}
}

func FuzzReadChat(f *testing.F) {
	for _, rec := range chatRecordings {
		f.Add(chatRecording(f, rec.file, rec.chunks), uint8(0))
	}
	f.Add(chatSynthetic(3), uint8(0))
	f.Add([]byte(chatTwoChoices+wiretest.DataSSE(chatDoneData)), uint8(1))
	f.Add([]byte(chatWhole(chatStart("0", "call_0", "f"), chatStart("1", "call_1", "g"), chatArgs("0", `"{\"a\":}"`), chatArgs("1", `"{\"b\":1}"`))), uint8(0))
	f.Add([]byte(wiretest.DataSSE(chatRole, chatStart("0", "call_1", "f"), chatArgs("0", `"{\"a\":"`), `{"error":{"message":"m","type":"server_error","code":429}}`)), uint8(0))
	for _, tc := range chatHostile() {
		f.Add([]byte(tc.stream), uint8(0))
	}
	f.Fuzz(func(t *testing.T, stream []byte, choice uint8) {
		chatReadChecked(t, stream, wire.WithChoice(int64(choice%3)))
	})
}
