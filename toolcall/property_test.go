package toolcall_test

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/token"
	"github.com/argstream/argstream/toolcall"
	gocmp "github.com/google/go-cmp/cmp"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
)

// plan is a response made of calls with known arguments: its events, in
// the interleaving played, and for each call what it needs to be complete.
type plan struct {
	events []ev
	calls  []plannedCall
}

type plannedCall struct {
	index       int64
	id, name    string
	doc         []byte
	want        []byte // the canonical arguments
	whole       bool   // the input came whole at the start
	placeholder bool   // ... and it was {}: complete only at Stop
	needs       int    // the bytes up to the last significant one
}

// makePlan cuts each document into random deltas, or gives it whole at the
// start, and interleaves the calls' events at random, each call's in order.
func makePlan(t *testing.T, docs []testutil.Doc, seed uint64) plan {
	rng := rand.New(rand.NewPCG(seed, seed>>7|1))
	var p plan
	var seqs [][]ev
	indexes := rng.Perm(len(docs) + 2)[:len(docs)] // distinct, not always 0..n-1
	for i, d := range docs {
		want, err := testutil.Canonical(d.Text)
		if err != nil {
			t.Fatalf("generated arguments %q: %v", d.Text, err)
		}
		c := plannedCall{index: int64(indexes[i]), id: fmt.Sprint("call_", i), name: fmt.Sprint("tool", i),
			doc: d.Text, want: want, needs: len(bytes.TrimRight(d.Text, " \t\r\n"))}
		var seq []ev
		if rng.IntN(3) == 0 {
			c.whole = true
			c.placeholder = string(d.Text) == "{}" // exactly those bytes, as anthropic-sdk-go takes them
			seq = append(seq, start(c.index, c.id, c.name, string(d.Text)))
		} else {
			seq = append(seq, start(c.index, c.id, c.name, ""))
			for _, ch := range testutil.SplitRandom(d.Text, rng, 1+rng.IntN(16)) {
				seq = append(seq, chunk(c.index, string(ch)))
			}
		}
		if rng.IntN(2) == 0 { // Anthropic stops each call, OpenAI Chat does not
			seq = append(seq, stop(c.index))
		}
		seqs = append(seqs, seq)
		p.calls = append(p.calls, c)
	}
	for len(seqs) > 0 {
		i := rng.IntN(len(seqs))
		p.events = append(p.events, seqs[i][0])
		if seqs[i] = seqs[i][1:]; len(seqs[i]) == 0 {
			seqs = append(seqs[:i], seqs[i+1:]...)
		}
	}
	return p
}

// expect returns the results a prefix of n events must give: a call
// without events gives none; one that got all its significant bytes (and
// its Stop, when it came as the placeholder {}) is intact; the others are
// truncated.
func (p plan) expect(n int) []got {
	seen := map[int64]bool{}
	fed := map[int64]int{}
	stopped := map[int64]bool{}
	for _, e := range p.events[:n] {
		seen[e.index] = true
		switch e.op {
		case 's', 'c':
			fed[e.index] += len(e.data)
		case 'p':
			stopped[e.index] = true
		}
	}
	var out []got
	for _, c := range p.calls {
		if !seen[c.index] {
			continue
		}
		g := got{Index: c.index, ID: c.id, Name: c.name}
		if fed[c.index] >= c.needs && (!c.placeholder || stopped[c.index]) {
			g.Args, g.Executable = string(c.want), true
		} else {
			g.Err = "truncated"
		}
		out = append(out, g)
	}
	slices.SortFunc(out, func(a, b got) int { return cmp.Compare(a.Index, b.Index) })
	return out
}

func TestPropertyInterleavedCalls(t *testing.T) {
	r := toolcall.New() // reused across cases: Reset must forget everything
	properties := gopter.NewProperties(testutil.PropertyParameters(200))
	docs := gen.SliceOfN(4, testutil.GenArgs(), reflect.TypeOf(testutil.Doc{}))
	properties.Property("calls give back their arguments, in index order; a cut leaves the complete ones intact", prop.ForAll(
		func(n int, docs []testutil.Doc, seed uint64, cut int) bool {
			msg := checkPlan(t, r, docs[:n], seed, cut)
			if msg != "" {
				t.Log(msg)
			}
			return msg == ""
		},
		gen.IntRange(1, 4), docs, gen.UInt64(), gen.IntRange(0, 1<<20),
	))
	properties.TestingRun(t)
}

// checkPlan plays a plan of docs whole, then cut after its first cut
// events, and returns what went wrong.
func checkPlan(t *testing.T, r *toolcall.Response, docs []testutil.Doc, seed uint64, cut int) string {
	p := makePlan(t, docs, seed)
	cut %= len(p.events) + 1
	for _, k := range []int{len(p.events), cut} {
		r.Reset()
		res := run(t, r, p.events[:k])
		for _, x := range res {
			if x.Err != nil && (!errors.Is(x.Err, token.ErrTruncated) || x.Executable) {
				return fmt.Sprintf("call %d: error %v, executable %v", x.Call.Index, x.Err, x.Executable)
			}
		}
		if diff := gocmp.Diff(p.expect(k), summarize(res)); diff != "" {
			return fmt.Sprintf("%d of %d events %+v: results (-want +got):\n%s", k, len(p.events), p.events, diff)
		}
	}
	return ""
}
