package argstream_test

import (
	"fmt"
	"testing"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/aggregate"
	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/internal/handrolled"
	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/sink"
	"github.com/argstream/argstream/token"
	"github.com/argstream/argstream/token/jsontoken"
	"github.com/google/go-cmp/cmp"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
)

// reuseOutcome is what one call delivers to a Recorder and an Aggregator.
type reuseOutcome struct {
	Fragments []string
	Calls     []fragment.Call
	Value     string
	Err       string
}

func outcomeOf(rec *testutil.Recorder, agg *aggregate.Aggregator, calls []fragment.Call, err error) reuseOutcome {
	o := reuseOutcome{Fragments: testutil.Texts(testutil.Merge(rec.Fragments)), Calls: calls}
	if err != nil {
		o.Err = err.Error()
	}
	if v, verr := agg.Value(); verr == nil {
		o.Value = string(v)
	}
	return o
}

// callRecorder notes the call identity every fragment carries.
type callRecorder struct{ calls []fragment.Call }

func (c *callRecorder) Push(p *fragment.Progress) error {
	if n := len(c.calls); n == 0 || c.calls[n-1] != *p.Call {
		c.calls = append(c.calls, *p.Call)
	}
	return nil
}

func (c *callRecorder) End(error) {}

// TestPropertyReset: a Stream reset after any call, finished, failed or
// abandoned half-way, gives the next call exactly what a new Stream gives
// it, on either tokenizer.
func TestPropertyReset(t *testing.T) {
	properties := gopter.NewProperties(testutil.PropertyParameters(100))
	for _, impl := range []struct {
		name string
		opts []argstream.Option
	}{{"jsontext", nil}, {"handrolled", []argstream.Option{argstream.WithTokenizer(handrolled.NewFunc)}}} {
		properties.Property(impl.name, prop.ForAll(
			func(first, next testutil.Doc, ms []testutil.Mutation, cuts []int, stopAt int) string {
				a := testutil.Mutate(first.Text, ms)
				b := next.Text
				callA, callB := fragment.Call{ID: "a", Name: "first"}, fragment.Call{ID: "b", Name: "next", Index: 1}

				rec, agg, calls := &testutil.Recorder{}, aggregate.New(), &callRecorder{}
				opts := append([]argstream.Option{argstream.WithCall(callA)}, impl.opts...)
				s := argstream.New(sink.Multi(rec, agg, calls), opts...)
				chunksA := testutil.SplitAt(a, testutil.Cuts(a, cuts))
				// The first call is abandoned after stopAt chunks, or fed
				// whole and closed.
				if stopAt < len(chunksA) {
					for _, c := range chunksA[:stopAt] {
						if s.Feed(c) != nil {
							break
						}
					}
				} else {
					_ = testutil.Feed(s, chunksA) // failing is one of the cases
				}

				*rec, *calls = testutil.Recorder{}, callRecorder{}
				agg.Reset()
				s.Reset(callB)
				chunksB := testutil.SplitAt(b, testutil.Cuts(b, cuts))
				got := outcomeOf(rec, agg, calls.calls, testutil.Feed(s, chunksB))

				rec2, agg2, calls2 := &testutil.Recorder{}, aggregate.New(), &callRecorder{}
				opts2 := append([]argstream.Option{argstream.WithCall(callB)}, impl.opts...)
				err := testutil.Feed(argstream.New(sink.Multi(rec2, agg2, calls2), opts2...), chunksB)
				want := outcomeOf(rec2, agg2, calls2.calls, err)
				if want.Value == "" || want.Err != "" {
					return fmt.Sprintf("the next call %q did not aggregate: %s", b, want.Err)
				}
				if d := cmp.Diff(want, got); d != "" {
					return fmt.Sprintf("after %q (stopped at chunk %d), %q: reused stream differs (-new +reused):\n%s", a, stopAt, b, d)
				}
				return ""
			},
			testutil.GenDoc(testutil.GenValue(3)), testutil.GenDoc(testutil.GenValue(3)),
			gen.SliceOfN(2, testutil.GenMutation(testutil.MutationBytes)), testutil.GenCuts(), gen.IntRange(0, 8)))
	}
	properties.TestingRun(t)
}

// TestResetDoesNotAllocate: a reused Stream and Aggregator parse another
// call's arguments without allocating.
func TestResetDoesNotAllocate(t *testing.T) {
	data := []byte(`{"path":"src/a.go","content":"package a\n\nfunc A() string { return \"é\" }\n","n":[1,2.5,true,null,{}]}`)
	chunks := testutil.SplitEvery(data, 7)
	for _, opts := range [][]argstream.Option{nil, {argstream.WithTokenizer(handrolled.NewFunc)}} {
		agg := aggregate.New()
		s := argstream.New(agg, opts...)
		run := func() {
			agg.Reset()
			s.Reset(fragment.Call{ID: "x"})
			if err := testutil.Feed(s, chunks); err != nil {
				t.Fatal(err)
			}
			if _, err := agg.Value(); err != nil {
				t.Fatal(err)
			}
		}
		run()
		if n := testing.AllocsPerRun(50, run); n != 0 {
			t.Errorf("%d options: %v allocations per reused call, want 0", len(opts), n)
		}
	}
}

// noReset hides the tokenizer's Reset method.
type noReset struct{ token.Tokenizer }

// TestResetWithoutTokenizerReset: a tokenizer that cannot be reset is made
// anew.
func TestResetWithoutTokenizerReset(t *testing.T) {
	made := 0
	newTok := func(h token.Handler, opts ...token.Option) token.Tokenizer {
		made++
		return noReset{jsontoken.New(h, opts...)}
	}
	agg := aggregate.New()
	s := argstream.New(agg, argstream.WithTokenizer(newTok))
	if err := testutil.Feed(s, [][]byte{[]byte(`[1,`)}); err == nil {
		t.Fatal("truncated input accepted")
	}
	agg.Reset()
	s.Reset(fragment.Call{})
	if err := testutil.Feed(s, [][]byte{[]byte(`{"a":2}`)}); err != nil {
		t.Fatal(err)
	}
	if v, err := agg.Value(); err != nil || string(v) != `{"a":2}` || made != 2 || s.Offset() != 7 {
		t.Errorf("after Reset: %s, %v; tokenizers made %d, offset %d", v, err, made, s.Offset())
	}
}
