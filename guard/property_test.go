package guard

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/internal/testutil/wiretest"
	"github.com/argstream/argstream/policy"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire"
	"github.com/argstream/argstream/wire/anthropicstream"
	"github.com/argstream/argstream/wire/geministream"
	"github.com/argstream/argstream/wire/openaistream"
	"github.com/google/go-cmp/cmp"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
)

var kinds = []wire.Kind{wire.Anthropic, wire.OpenAIChat, wire.OpenAIResponses}

// encode writes plan as a stream of wire k, framed at random (line ends,
// comments, id lines, data split over lines), and returns the plan as
// written (Anthropic numbers its calls by start).
func encode(k wire.Kind, plan wiretest.WirePlan, rng *rand.Rand) (wiretest.WirePlan, []byte) {
	var events []wiretest.SSEEvent
	switch k {
	case wire.Anthropic:
		plan, events = wiretest.EncodeAnthropic(plan, rng)
	case wire.OpenAIChat:
		plan = plan.NumberedByStart(0) // as OpenAI numbers them
		events = wiretest.EncodeChat(plan, rng)
	default:
		events = wiretest.EncodeResponses(plan, rng)
	}
	return plan, wiretest.FrameSSE(events, k != wire.Anthropic, rng)
}

// readClient reads what the client got with argstream's own adapter, as
// a client's SDK would: its calls, its text, its error.
func readClient(k wire.Kind, out []byte) ([]toolcall.Result, string, error) {
	resp := toolcall.New()
	var text strings.Builder
	onText := func(_ int64, b []byte) { text.Write(b) }
	var err error
	switch k {
	case wire.Anthropic:
		err = anthropicstream.Read(context.Background(), bytes.NewReader(out), resp, wire.OnText(onText))
	case wire.OpenAIChat:
		err = openaistream.ReadChat(context.Background(), bytes.NewReader(out), resp, wire.OnText(onText))
	case wire.Gemini:
		err = geministream.Read(context.Background(), bytes.NewReader(out), resp, wire.OnText(onText))
	default:
		err = openaistream.ReadResponses(context.Background(), bytes.NewReader(out), resp, wire.OnText(onText))
	}
	return resp.End(), text.String(), err
}

type clientCall struct {
	Index    int64
	ID, Name string
	Args     string
}

// TestPropertyGuard: generated responses of each wire, framed at random,
// read from the upstream in random read sizes, with each tool's policy
// drawn among unattended, ask, skip and none:
//
//   - when no call is blocked, the client reads the upstream's bytes,
//     exactly;
//   - otherwise the client's stream reads without error, with the
//     forwarded calls only, their ids, names and arguments intact (Chat's
//     indexes from 0 with no gap, the others at their own), and a notice
//     for each blocked call in its text;
//   - each call has its Record, forwarded or blocked as its policy says.
func TestPropertyGuard(t *testing.T) {
	modes := []string{"unattended", "ask", "skip", ""}
	properties := gopter.NewProperties(testutil.PropertyParameters(150))
	docs := gen.SliceOfN(4, testutil.GenArgs(), reflect.TypeOf(testutil.Doc{}))
	properties.Property("forwarded byte for byte, blocked replaced", prop.ForAll(
		func(n int, docs []testutil.Doc, seed uint64, blockAsk bool) string {
			rng := rand.New(rand.NewPCG(seed, 9))
			k := kinds[rng.IntN(len(kinds))]
			plan, err := wiretest.MakeWirePlan(docs[:n], 1, rng)
			if err != nil {
				return err.Error()
			}
			plan, in := encode(k, plan, rng)
			pols := map[string]*policy.Policy{}
			mode := map[string]string{}
			for _, c := range plan.Calls {
				m := modes[rng.IntN(len(modes))]
				mode[c.Name] = m
				if m != "" {
					pols[c.Name] = mustPolicy(t, `{"run": "`+m+`"}`)
				}
			}
			var recs []Record
			g := New(Config{Policy: func(name string) *policy.Policy { return pols[name] }, BlockAsk: blockAsk,
				OnCall: func(r Record) { recs = append(recs, r) }})
			cancelled := false
			rc := g.Filter(k, io.NopCloser(wiretest.RandomReads(bytes.NewReader(in), seed, 64)), func() { cancelled = true })
			out, err := io.ReadAll(rc)
			if err != nil {
				return "reading: " + err.Error()
			}
			rc.Close()
			blocked := func(name string) bool { return mode[name] == "skip" || mode[name] == "ask" && blockAsk }
			var want []clientCall
			var wantBlocked []string
			byStart := slices.Clone(plan.Calls)
			slices.SortFunc(byStart, func(a, b wiretest.WireCall) int { return int(a.Index - b.Index) })
			for _, c := range byStart {
				if blocked(c.Name) {
					wantBlocked = append(wantBlocked, c.Name)
					continue
				}
				i := c.Index
				if k == wire.OpenAIChat {
					i -= int64(len(wantBlocked)) // no gap where a call was blocked
				}
				want = append(want, clientCall{i, c.ID, c.Name, c.Want})
			}
			if len(wantBlocked) == 0 {
				if !bytes.Equal(out, in) {
					i := 0
					for i < len(out) && i < len(in) && out[i] == in[i] {
						i++
					}
					return fmt.Sprintf("%v, nothing blocked: the client read %d bytes of %d, differing at %d: %q, not %q", k, len(out), len(in), i, out[max(0, i-80):min(len(out), i+80)], in[max(0, i-80):min(len(in), i+80)])
				}
			}
			results, text, err := readClient(k, out)
			if err != nil {
				return fmt.Sprintf("%v: the client's stream: %v\n%s", k, err, out)
			}
			var got []clientCall
			for _, r := range results {
				got = append(got, clientCall{r.Call.Index, r.Call.ID, r.Call.Name, string(r.Arguments)})
			}
			if k == wire.OpenAIChat {
				slices.SortFunc(got, func(a, b clientCall) int { return int(a.Index - b.Index) })
			}
			if cancelled {
				// A block that left no call streaming cancelled the
				// response: the calls after it never came; those that
				// came are intact (with their indexes, for Chat, the
				// first ones).
				if len(got) > len(want) {
					return fmt.Sprintf("%v: cancelled, %d calls, want at most %d", k, len(got), len(want))
				}
				byID := map[string]clientCall{}
				for _, c := range want {
					byID[c.ID] = c
				}
				for _, c := range got {
					w := byID[c.ID]
					if k == wire.OpenAIChat {
						w.Index = c.Index
					}
					if c != w {
						return fmt.Sprintf("%v: cancelled, the client's call %+v, want %+v\n%s", k, c, w, out)
					}
				}
			} else if diff := cmp.Diff(want, got); diff != "" {
				return fmt.Sprintf("%v: the client's calls (-want +got):\n%s\n%s", k, diff, out)
			}
			for _, r := range recs {
				if r.Action == Blocked && !strings.Contains(text, fmt.Sprintf("%q", r.Call.Name)) {
					return fmt.Sprintf("%v: no notice of %s in %q", k, r.Call.Name, text)
				}
			}
			if len(recs) > len(plan.Calls) || !cancelled && len(recs) != len(plan.Calls) {
				return fmt.Sprintf("%d records, %d calls, cancelled %v", len(recs), len(plan.Calls), cancelled)
			}
			for _, r := range recs {
				if (r.Action == Blocked) != blocked(r.Call.Name) {
					return fmt.Sprintf("record %+v, mode %q", r, mode[r.Call.Name])
				}
			}
			return ""
		},
		gen.IntRange(1, 4), docs, gen.UInt64(), gen.Bool()))
	properties.TestingRun(t)
}
