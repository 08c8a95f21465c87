package bedrockstream

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"

	"testing"

	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/internal/testutil/wiretest"
	"github.com/argstream/argstream/toolcall"
	"github.com/google/go-cmp/cmp"
)

// encodePlan writes p as a ConverseStream stream: messageStart, a text
// block at index 0 and a reasoning block here and there, each call a
// toolUse block (p's calls numbered from 1 in the order of their starts),
// its input deltas interleaved with the other calls' as p says, then
// messageStop and the metadata.
func encodePlan(p wiretest.WirePlan, rng *rand.Rand) (wiretest.WirePlan, []byte) {
	p = p.NumberedByStart(1)
	var b []byte
	b = append(b, msgStart()...)
	if rng.IntN(2) == 0 {
		b = append(append(b, textDelta(0, "Let me see.")...), blockStop(0)...)
	}
	for _, s := range p.Steps {
		c := p.Calls[s.Call]
		i := int(c.Index)
		switch {
		case s.Delta < 0:
			b = append(b, toolStart(i, c.ID, c.Name)...)
		case s.Delta == len(c.Deltas):
			b = append(b, blockStop(i)...)
		default:
			b = append(b, toolDelta(i, c.Deltas[s.Delta])...)
		}
	}
	if rng.IntN(2) == 0 {
		k := len(p.Calls) + 1
		b = append(append(append(b, reasonDelta(k, "so ")...), reasonDelta(k, "it is")...), blockStop(k)...)
	}
	b = append(append(b, msgStop("tool_use")...), metadata()...)
	return p, b
}

// TestPropertyGenerated (gopter, through wiretest.PlanProperty): generated
// responses of 1 to 4 calls give back their calls whole, read whole or in
// reads of random sizes; cut at any byte, they give an error wrapping
// io.ErrUnexpectedEOF (none only once messageStop came whole), and calls
// that are each the generated one or not executable.
func TestPropertyGenerated(t *testing.T) {
	resp := toolcall.New()
	wiretest.PlanProperty(t, "calls come back whole", func(docs []testutil.Doc, seed uint64, cut int) string {
		rng := rand.New(rand.NewPCG(seed, 3))
		p, err := wiretest.MakeWirePlan(docs, 1, rng)
		if err != nil {
			return err.Error()
		}
		p, s := encodePlan(p, rng)
		want := p.Want()
		whole := bedrockAdapter.Run(resp, bytes.NewReader(s))
		if whole.Err != nil {
			return fmt.Sprintf("whole: %v", whole.Err)
		}
		if diff := cmp.Diff(want, whole.Calls); diff != "" {
			return fmt.Sprintf("whole (-want +got):\n%s", diff)
		}
		split := bedrockAdapter.Run(resp, wiretest.RandomReads(bytes.NewReader(s), seed, 64))
		if diff := cmp.Diff(whole, split, cmp.Comparer(func(a, b error) bool { return (a == nil) == (b == nil) })); diff != "" {
			return fmt.Sprintf("split reads (-whole +split):\n%s", diff)
		}
		cut %= len(s) + 1
		got := bedrockAdapter.Run(resp, bytes.NewReader(s[:cut]))
		ended := cut >= len(s)-len(metadata())
		switch {
		case got.Err == nil && !ended:
			return fmt.Sprintf("cut at %d of %d: no error", cut, len(s))
		case got.Err != nil && !errors.Is(got.Err, io.ErrUnexpectedEOF):
			return fmt.Sprintf("cut at %d: %v", cut, got.Err)
		}
		byIndex := map[int64]wiretest.CallOutcome{}
		for _, c := range want {
			byIndex[c.Index] = c
		}
		for _, c := range got.Calls {
			if c.Executable && !cmp.Equal(c, byIndex[c.Index]) {
				return fmt.Sprintf("cut at %d: executable %+v, generated %+v", cut, c, byIndex[c.Index])
			}
		}
		return ""
	})
}

// TestSplits: every way of cutting the reads of a stream gives what a
// whole read gives.
func TestSplits(t *testing.T) {
	s := synthetic(3)
	bedrockAdapter.CheckSplits(t, "synthetic", s, func(r io.Reader) wiretest.Got { return bedrockAdapter.Run(toolcall.New(), r) })
}
