package testutil

import (
	"fmt"
	"testing"
)

// recorder is a testing.TB that keeps the errors reported to it.
type recorder struct {
	testing.TB
	errors []string
}

func (r *recorder) Helper()             {}
func (r *recorder) Logf(string, ...any) {}
func (r *recorder) Errorf(format string, a ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, a...))
}

var total int // what the work computes, so that it is not optimized away

// TestCheckLinear: CheckLinear passes linear work and fails quadratic work.
func TestCheckLinear(t *testing.T) {
	linear := func(n int) func() {
		b := make([]byte, n)
		return func() {
			for i := range b {
				total += int(b[i]) + i
			}
		}
	}
	quadratic := func(n int) func() {
		b := make([]byte, n)
		return func() {
			for i := range b {
				for j := range i {
					total += int(b[j])
				}
			}
		}
	}
	r := &recorder{TB: t}
	if ratio := CheckLinear(r, 200_000, linear); len(r.errors) != 0 {
		t.Errorf("linear work: ratio %.2f, errors %q", ratio, r.errors)
	}
	r = &recorder{TB: t}
	if ratio := CheckLinear(r, 1_000, quadratic); len(r.errors) != 1 || ratio < 2*MaxGrowth {
		t.Errorf("quadratic work: ratio %.2f, errors %q; want it failed", ratio, r.errors)
	}
}
