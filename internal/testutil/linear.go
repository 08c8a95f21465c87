package testutil

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// MaxGrowth is the most [CheckLinear] lets the time grow when the input grows
// 4 times: linear work gives about 4, quadratic work 16.
const MaxGrowth = 6

// CheckLinear checks, for invariant 9 (docs/design.md, "Invariants": linear
// for every input), that some work costs time linear in its size n:
// prepare(n) builds the input of size n, untimed, and returns the work to
// time; CheckLinear times the work for n and for 4n in turns, a few times
// each, and compares the fastest of each (the run least disturbed by the rest
// of the machine). It fails t if the time for 4n is more than [MaxGrowth]
// times the time for n, and returns that ratio. This is the one form of timed
// test the project allows: both sizes run in the same process, on the same
// machine, at the same time.
//
// Where the system can say (Linux), the time is the CPU time of the thread
// that runs the work, not the time on the wall: see timeLoops.
//
// A run for n that takes less than 2 milliseconds is repeated within one
// timing, as often for 4n, so that the clock and the scheduler matter less.
// Pick n so that the input for 4n and what the work builds from it fit in
// the processor's cache (a few hundred KB at most): past it, every access
// costs more and the time grows faster than the size though the work does
// not. Quadratic work still stands out at that size, by far. The work runs
// at least 5 and at most 9 times at each size (more only while the ratio is
// too high, to tell a busy machine from slow code; 3 when it is more than
// twice too high), in up to 5 attempts while the ratio stays too high:
// about 0.1 s for a check when the work for n takes 2 ms.
func CheckLinear(t testing.TB, n int, prepare func(n int) (work func())) float64 {
	t.Helper()
	small, large := prepare(n), prepare(4*n)
	loops := 1
	if d := timeLoops(small, 1); d < 2*time.Millisecond { // also warms up
		loops = min(int(2*time.Millisecond/max(d, time.Microsecond))+1, 1000)
	}
	var ratio float64
	var bestSmall, bestLarge time.Duration
	// A ratio over the limit is measured again, four times at most, and
	// fails only if it stays over: other test packages running at the same
	// time (go test ./... runs them in parallel) can slow one measurement,
	// even to a quadratic-looking 16 (the larger input's memory evicted
	// from a cache they share), not five, and a superlinear cost is over
	// the limit every time.
	for attempt := 0; attempt < 5; attempt++ {
		bestSmall, bestLarge = time.Duration(1<<62), time.Duration(1<<62)
		for rep := 1; rep <= 9; rep++ {
			bestSmall = min(bestSmall, timeLoops(small, loops))
			bestLarge = min(bestLarge, timeLoops(large, loops))
			ratio = float64(bestLarge) / float64(max(bestSmall, 1))
			if rep >= 5 && ratio <= MaxGrowth || rep >= 3 && ratio > 2*MaxGrowth {
				break // clearly linear, or clearly not
			}
		}
		t.Logf("n=%d: %v, 4n: %v (%d runs each time), ratio %.2f", n, bestSmall, bestLarge, loops, ratio)
		if ratio <= MaxGrowth {
			break
		}
	}
	if ratio > MaxGrowth {
		t.Errorf("the time for 4n (n=%d) is %.1f times the time for n (%v against %v), want at most %d: not linear",
			n, ratio, bestLarge, bestSmall, MaxGrowth)
	}
	return ratio
}

// timeLoops times loops runs of work, after a garbage collection and with
// the collector off, so that neither a collection started by earlier
// garbage nor one that the work's own allocations trigger counts: a
// collection's cost depends on the heap, not on the work. It measures the CPU time of
// the thread that runs the work where the system tells it (threadTime), so
// that the time other processes take the processor does not count either:
// on a busy machine a long run is interrupted more often than a short one,
// which would make the ratio grow though the work does not.
func timeLoops(work func(), loops int) time.Duration {
	runtime.GC()
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	t0 := threadTime()
	for range loops {
		work()
	}
	return threadTime() - t0
}
