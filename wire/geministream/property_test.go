package geministream

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/internal/testutil/wiretest"
	"github.com/argstream/argstream/toolcall"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 7)) }

func quote(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// words is a text part's text: words, quotes, line ends, non-ASCII.
func words(rng *rand.Rand) string {
	var b strings.Builder
	for range rng.IntN(6) {
		b.WriteString([]string{"the ", "weather", " é", "\"", "\n", "😀", "{", "}"}[rng.IntN(8)])
	}
	return b.String()
}

// encode writes generated arguments as Gemini streams them: the calls in
// order, one to three a response event, with text and thought parts
// between them, an id or not, the args written as generated, a usage
// event here and there, and a finishReason in the last call's event or in
// one of its own. It returns the stream, framed at random, and the
// outcomes a whole read gives.
func encode(docs []testutil.Doc, rng *rand.Rand) ([]byte, []wiretest.CallOutcome, error) {
	var events []wiretest.SSEEvent
	var want []wiretest.CallOutcome
	var ps []string
	finished := false
	flush := func(finish bool) {
		finished = finish
		fr := ""
		if finish {
			fr = `,"finishReason":"STOP"`
		}
		events = append(events, wiretest.SSEEvent{Data: `{"candidates":[{"content":{"role":"model","parts":[` +
			strings.Join(ps, ",") + `]}` + fr + `,"index":0}],"modelVersion":"gemini-2.5-flash"}`})
		ps = ps[:0]
		if rng.IntN(5) == 0 {
			events = append(events, wiretest.SSEEvent{Data: usageEv})
		}
	}
	for i, d := range docs {
		if rng.IntN(3) == 0 {
			ps = append(ps, `{"text":`+quote(words(rng))+`,"thought":true}`)
		}
		if rng.IntN(2) == 0 {
			ps = append(ps, `{"text":`+quote(words(rng))+`}`)
		}
		canon, err := testutil.Canonical(d.Text)
		if err != nil {
			return nil, nil, err
		}
		c := outcome(int64(i), "", fmt.Sprint("tool", i), string(canon))
		id := ""
		if rng.IntN(2) == 0 {
			c.ID = fmt.Sprint("call_", i)
			id = `"id":` + quote(c.ID) + `,`
		}
		want = append(want, c)
		ps = append(ps, `{"functionCall":{`+id+`"name":`+quote(c.Name)+`,"args":`+oneLine.Replace(string(d.Text))+`}}`)
		if rng.IntN(2) == 0 || i == len(docs)-1 {
			flush(i == len(docs)-1 && rng.IntN(2) == 0)
		}
	}
	if !finished {
		flush(true)
	}
	return wiretest.FrameSSE(events, false, rng), want, nil
}

// oneLine makes generated JSON text one line, as an event's data is sent:
// a line end in it is white space (JSON strings hold none unescaped).
var oneLine = strings.NewReplacer("\n", " ", "\r", " ")

// TestPropertyGenerated: generated responses of 1 to 4 calls, framed at
// random, give back their calls whole, read whole or in reads of random
// sizes; cut at any byte, they give a prefix of the calls, each whole and
// executable, and an error wrapping io.ErrUnexpectedEOF unless the cut
// comes after the finishReason.
func TestPropertyGenerated(t *testing.T) {
	resp := toolcall.New()
	wiretest.PlanProperty(t, "calls come back whole",
		func(docs []testutil.Doc, seed uint64, cut int) string {
			rng := newRand(seed)
			s, want, err := encode(docs, rng)
			if err != nil {
				return err.Error()
			}
			whole := geminiAdapter.Run(resp, bytes.NewReader(s))
			if whole.Err != nil {
				return fmt.Sprintf("whole stream: Read = %v\n%s", whole.Err, s)
			}
			if diff := cmp.Diff(want, whole.Calls); diff != "" {
				return fmt.Sprintf("whole stream (-want +got):\n%s\n%s", diff, s)
			}
			split := geminiAdapter.Run(resp, wiretest.RandomReads(bytes.NewReader(s), seed, 64))
			if diff := cmp.Diff(whole, split, cmp.Comparer(func(a, b error) bool { return (a == nil) == (b == nil) })); diff != "" {
				return fmt.Sprintf("split reads (-whole +split):\n%s", diff)
			}

			cut %= len(s) + 1
			got := geminiAdapter.Run(resp, bytes.NewReader(s[:cut]))
			if got.Err != nil && !errors.Is(got.Err, io.ErrUnexpectedEOF) {
				return fmt.Sprintf("cut at %d: Read = %v", cut, got.Err)
			}
			if len(got.Calls) > len(want) {
				return fmt.Sprintf("cut at %d: %d calls, more than %d", cut, len(got.Calls), len(want))
			}
			if diff := cmp.Diff(want[:len(got.Calls)], got.Calls, cmpopts.EquateEmpty()); diff != "" {
				return fmt.Sprintf("cut at %d (-want +got):\n%s", cut, diff)
			}
			if got.Err == nil && len(got.Calls) != len(want) {
				return fmt.Sprintf("cut at %d: no error with %d of %d calls", cut, len(got.Calls), len(want))
			}
			return ""
		})
}
