// Package timing is what the benchmarks that report a ratio share: the
// time of a reference measured in the same run. It imports nothing but the
// standard library, so that the bench module can use it without the test
// helpers' dependencies.
package timing

import (
	"slices"
	"time"
)

// MedianNs returns the median time of one call of f over a few short
// batches: the reference a benchmark measures in the same run, right
// after its own loop, to report a ratio (x_ref) that the machine's load
// changes less than it changes either time.
func MedianNs(f func()) float64 {
	const batches, minBatch = 5, 20 * time.Millisecond
	var per [batches]float64
	for i := range per {
		start, runs := time.Now(), 0
		for runs == 0 || time.Since(start) < minBatch {
			f()
			runs++
		}
		per[i] = float64(time.Since(start).Nanoseconds()) / float64(runs)
	}
	slices.Sort(per[:])
	return per[batches/2]
}
