package argstream_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/aggregate"
	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/policy"
	"github.com/argstream/argstream/sink"
)

// TestSeparateStreamsConcurrently shows what may be shared between
// goroutines (run it with -race): separate Streams, each with its own
// sinks, fed in separate goroutines from the same input bytes, built with
// the same Options and evaluating the same Policy, give what one alone
// gives.
func TestSeparateStreamsConcurrently(t *testing.T) {
	doc := []byte(`{"path":"src/main.rs","content":"fn main() {\n}\n","n":[1,2.5,true,null,{}]}`)
	p, _, err := policy.Parse([]byte(`{"run":[{"arg":"/path","prefix":"src/","mode":"unattended"},{"mode":"ask"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	opts := []argstream.Option{argstream.WithCall(fragment.Call{ID: "c", Name: "write"})}
	run := func(size int) (string, string) {
		agg, ev := aggregate.New(), p.Evaluator()
		s := argstream.New(sink.Multi(agg, ev), opts...)
		if err := testutil.Feed(s, testutil.SplitEvery(doc, size)); err != nil {
			return "", err.Error()
		}
		v, err := agg.Value()
		if err != nil {
			return "", err.Error()
		}
		return string(v), fmt.Sprint(ev.Verdict())
	}
	wantValue, wantVerdict := run(len(doc))
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := range 8 {
		wg.Go(func() {
			for i := range 50 {
				if v, d := run(1 + (g+i)%len(doc)); v != wantValue || d != wantVerdict {
					errs <- fmt.Sprintf("goroutine %d: %s, %s; want %s, %s", g, v, d, wantValue, wantVerdict)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
