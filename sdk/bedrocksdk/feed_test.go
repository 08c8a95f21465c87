package bedrocksdk_test

import (
	"errors"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/argstream/argstream/sdk/internal/check"
	"github.com/argstream/argstream/wire"
	"github.com/google/go-cmp/cmp"
)

// TestFixture: the ConverseStream response of wire/bedrockstream/testdata
// (a text block, then read_file whose input comes in three deltas), served
// to the SDK, gives through Feed the outcomes Read gives on its bytes: the
// one call, executable, with its whole arguments.
func TestFixture(t *testing.T) {
	body, err := os.ReadFile("../../wire/bedrockstream/testdata/converse-tool-use.bin")
	if err != nil {
		t.Fatal(err)
	}
	got, events, streamErr := viaSDK(t, body)
	whole(t, body, events, streamErr)
	if len(events) != 10 {
		t.Errorf("the SDK gave %d events, want the fixture's 10: %v", len(events), events)
	}
	want, err := viaRead(body)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Feed (+) and Read (-) differ:\n%s", d)
	}
	exp := []check.Outcome{{Index: 1, ID: "tooluse_1", Name: "read_file", Arguments: `{"path":"src/main.go"}`, Executable: true}}
	if d := cmp.Diff(exp, got); d != "" {
		t.Errorf("Feed's outcomes (+), want (-):\n%s", d)
	}
}

// genArgs is a JSON object of a few members, strings with escapes and
// non-ASCII, numbers, nested values.
func genArgs(rng *rand.Rand) string {
	vals := []string{`"src/main.go"`, `42`, `-3.5e2`, `true`, `null`, `"é \"q\" \\ \u00e9 ☃"`, `[1,{"a":[]},"x"]`, `{"deep":{"er":[false]}}`, `""`}
	var b strings.Builder
	b.WriteString("{")
	n := 1 + rng.IntN(4)
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(`"k` + string(rune('a'+i)) + `": ` + vals[rng.IntN(len(vals))])
	}
	b.WriteString("}")
	return b.String()
}

// split cuts s into 1 to 6 pieces at random bytes (a piece may be empty, a
// cut may fall inside a UTF-8 sequence's bytes only between runes, as the
// SDK's strings are JSON strings).
func split(rng *rand.Rand, s string) []string {
	var cuts []int
	for i := range s {
		if i > 0 && rng.IntN(len(s)) < 5 {
			cuts = append(cuts, i)
		}
	}
	var out []string
	prev := 0
	for _, c := range cuts {
		out = append(out, s[prev:c])
		prev = c
	}
	return append(out, s[prev:])
}

// genStream is a ConverseStream response of 1 to 3 calls, their inputs
// split at random, text or reasoning blocks before, between and after them,
// ending with stopReason (and the metadata).
func genStream(rng *rand.Rand, stopReason string) (body []byte, calls int) {
	msgs := [][]byte{msgStart()}
	idx := 0
	text := func() {
		if rng.IntN(2) == 0 {
			return
		}
		if rng.IntN(3) == 0 {
			msgs = append(msgs, reasonDelta(idx, "let me "), reasonDelta(idx, "think"))
		} else {
			msgs = append(msgs, textDelta(idx, "Some text, "), textDelta(idx, "then a call."))
		}
		msgs = append(msgs, blockStop(idx))
		idx++
	}
	calls = 1 + rng.IntN(3)
	for c := range calls {
		text()
		msgs = append(msgs, toolStart(idx, "tooluse_"+string(rune('A'+c)), []string{"read_file", "write_file", "search"}[c]))
		for _, p := range split(rng, genArgs(rng)) {
			msgs = append(msgs, toolDelta(idx, p))
		}
		msgs = append(msgs, blockStop(idx))
		idx++
	}
	text()
	msgs = append(msgs, msgStop(stopReason), metadata())
	return join(msgs...), calls
}

// TestGenerated: on 60 generated streams (1 to 3 calls, inputs split at
// random, text and reasoning blocks between), the SDK's events fed with
// Feed give the outcomes of Read on the same bytes, every call executable.
func TestGenerated(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 60 {
		body, calls := genStream(rng, "tool_use")
		got, events, streamErr := viaSDK(t, body)
		whole(t, body, events, streamErr)
		want, err := viaRead(body)
		if err != nil {
			t.Fatalf("stream %d: Read: %v", i, err)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("stream %d: Feed (+) and Read (-) differ:\n%s", i, d)
		}
		if len(got) != calls {
			t.Fatalf("stream %d: %d outcomes, want %d", i, len(got), calls)
		}
		for _, o := range got {
			if !o.Executable {
				t.Errorf("stream %d: call %d not executable: %+v", i, o.Index, o)
			}
		}
	}
}

// TestMaxTokens: a stream cut at max_tokens with a call still open (its
// input a bare number that may have lost digits, and one not ended) gives
// through Feed the outcomes of Read: no call executable.
func TestMaxTokens(t *testing.T) {
	body := join(msgStart(),
		toolStart(0, "t0", "count"), toolDelta(0, "12"), blockStop(0),
		toolStart(1, "t1", "write"), toolDelta(1, `{"text":"Once upon`),
		msgStop("max_tokens"), metadata())
	got := sameAsRead(t, body)
	if len(got) != 2 {
		t.Fatalf("%d outcomes: %+v", len(got), got)
	}
	for _, o := range got {
		if o.Executable || !o.Truncated {
			t.Errorf("call %d: %+v, want truncated, not executable", o.Index, o)
		}
	}
}

// TestNoInputAndServer: a call with no input delta gives {} through Feed
// as through Read, and a server_tool_use the provider's call in both.
func TestNoInputAndServer(t *testing.T) {
	server := ev("contentBlockStart", `{"contentBlockIndex":1,"start":{"toolUse":{"toolUseId":"t1","name":"nova_code_interpreter","type":"server_tool_use"}}}`)
	body := join(msgStart(),
		toolStart(0, "t0", "list"), blockStop(0),
		server, toolDelta(1, `{"snippet":"1+1"}`), blockStop(1),
		msgStop("tool_use"), metadata())
	got := sameAsRead(t, body)
	if len(got) != 2 || got[0].Arguments != "{}" || !got[0].Executable || !got[1].Server || got[1].Executable {
		t.Errorf("outcomes %+v; want list with {}, executable, and the provider's call", got)
	}
}

// TestException: an exception frame in the stream ends the SDK's events
// with an error; the call stopped before it is executable, the one still
// streaming is not, as with Read, which returns a *wire.ProviderError.
func TestException(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for i := range 10 {
		full, _ := genStream(rng, "tool_use")
		// Cut the generated stream after a random message past messageStart
		// and put an exception there.
		msgs := frames(full)
		k := 1 + rng.IntN(len(msgs)-2)
		body := append(join(msgs[:k]...), exc("modelStreamErrorException", `{"message":"the model failed","originalStatusCode":500}`)...)

		got, _, streamErr := viaSDK(t, body)
		if streamErr == nil || !strings.Contains(streamErr.Error(), "the model failed") {
			t.Errorf("stream %d: the SDK's error is %v, want the exception", i, streamErr)
		}
		want, err := viaRead(body)
		var pe *wire.ProviderError
		if !errors.As(err, &pe) || pe.Type != "modelStreamErrorException" {
			t.Errorf("stream %d: Read returned %v, want the exception", i, err)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("stream %d (cut after %d messages): Feed (+) and Read (-) differ:\n%s", i, k, d)
		}
		executable := map[int64]bool{}
		for _, o := range want {
			executable[o.Index] = o.Executable
		}
		for _, o := range got {
			if o.Executable && !executable[o.Index] {
				t.Errorf("stream %d: call %d executable through Feed, not through Read", i, o.Index)
			}
		}
	}
}

// frames cuts an event stream body into its messages by their total
// lengths.
func frames(b []byte) [][]byte {
	var out [][]byte
	for len(b) > 0 {
		n := int(b[0])<<24 | int(b[1])<<16 | int(b[2])<<8 | int(b[3])
		out = append(out, b[:n])
		b = b[n:]
	}
	return out
}

// whole fails the test unless the SDK gave an event for every message of
// body, without an error.
// sameAsRead reads body through the SDK, every message an event, and
// returns the outcomes Feed gives, having checked they are Read's.
func sameAsRead(t testing.TB, body []byte) []check.Outcome {
	t.Helper()
	got, events, streamErr := viaSDK(t, body)
	whole(t, body, events, streamErr)
	want, err := viaRead(body)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Feed (+) and Read (-) differ:\n%s", d)
	}
	return got
}

func whole(t testing.TB, body []byte, events []string, streamErr error) {
	t.Helper()
	if n := len(frames(body)); len(events) != n || streamErr != nil {
		t.Fatalf("the SDK gave %d events of %d messages, stream error %v", len(events), n, streamErr)
	}
}
