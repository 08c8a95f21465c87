package policy

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"testing"
	"time"
)

// A costFamily is a kind of pattern whose program grows with k, with a
// value that keeps a thread alive at nearly every instruction.
type costFamily struct {
	name    string
	pattern func(k int) string
	value   func(n int) string // n bytes
}

var costFamilies = []costFamily{
	// A counted class: 'aaaa…' keeps k threads counting.
	{"class{1,k}@", func(k int) string { return fmt.Sprintf("[a-z]{1,%d}@", k) },
		func(n int) string { return strings.Repeat("a", n) }},
	// Case folded alternation counted: each thread also explores 4 branches.
	{"(?i)(x|y|z|w){1,k}q", func(k int) string { return fmt.Sprintf("(?i)(x|y|z|w){1,%d}q", k) },
		func(n int) string { return strings.Repeat("x", n) }},
	// An exact count.
	{"a{k}b", func(k int) string { return fmt.Sprintf("a{%d}b", k) },
		func(n int) string { return strings.Repeat("a", n) }},
	// Empty-width assertions in the loop.
	{`(\b?a){1,k}@`, func(k int) string { return fmt.Sprintf(`(\b?a){1,%d}@`, k) },
		func(n int) string { return strings.Repeat("a", n) }},
	// Many alternatives sharing prefixes.
	{"(a…b|…){k}", func(k int) string {
		alts := make([]string, k)
		for i := range alts {
			alts[i] = strings.Repeat("a", i%7+1) + "b"
		}
		return "(" + strings.Join(alts, "|") + ")"
	}, func(n int) string { return strings.Repeat("a", n) }},
	// The tail of an unanchored search: every position starts a thread.
	{"(a|b)*a(a|b){k}c", func(k int) string { return fmt.Sprintf("(a|b)*a(a|b){%d}c", k) },
		func(n int) string { return strings.Repeat("ab", n/2) }},
}

// largest returns the pattern of f with the largest k whose program has at
// most size instructions, and that program's size; 0 if none fits.
func (f costFamily) largest(size int) (string, int) {
	best, bestSize := "", 0
	for k := 1; k <= size; k++ {
		p := f.pattern(k)
		n, err := patternSize(p)
		if err != nil || n > size {
			break
		}
		best, bestSize = p, n
	}
	return best, bestSize
}

// BenchmarkPatternCost runs MatchString on a 1 MB worst-case value for
// patterns of each family at several program sizes, and for the
// documented patterns on values made to keep them busy, and reports the
// size (inst), the time per byte (ns/byte, and ns/byte-best for the
// fastest iteration, the one a loaded machine disturbed least) and per
// byte and instruction (ns/byte/inst, from the best): what
// DefaultMaxPatternSize is chosen from.
//
//	go test -run '^$' -bench PatternCost -benchtime 3x ./policy/
func BenchmarkPatternCost(b *testing.B) {
	const n = 1 << 20
	run := func(b *testing.B, re *regexp.Regexp, value string) {
		inst, _ := patternSize(re.String())
		b.SetBytes(int64(len(value)))
		best := time.Duration(math.MaxInt64)
		for range b.N {
			start := time.Now()
			re.MatchString(value)
			best = min(best, time.Since(start))
		}
		perByte := float64(b.Elapsed().Nanoseconds()) / float64(b.N) / float64(len(value))
		bestPerByte := float64(best.Nanoseconds()) / float64(len(value))
		b.ReportMetric(float64(inst), "inst")
		b.ReportMetric(perByte, "ns/byte")
		b.ReportMetric(bestPerByte, "ns/byte-best")
		b.ReportMetric(bestPerByte/float64(inst), "ns/byte/inst")
	}
	for _, size := range []int{8, 16, 32, 64, DefaultMaxPatternSize, 128, 256} {
		for _, f := range costFamilies {
			expr, inst := f.largest(size)
			if inst == 0 {
				continue
			}
			re, err := compilePattern(expr, inst)
			if err != nil {
				b.Fatal(err)
			}
			value := f.value(n)
			b.Run(fmt.Sprintf("size=%d/%s", size, f.name), func(b *testing.B) { run(b, re, value) })
		}
	}
	// The documented patterns, on values that never match and keep their
	// threads busy.
	for _, c := range []struct{ expr, unit string }{
		{`(^|/)\.env($|\.)`, "/.envx"},
		{`\brm\s+(-[a-zA-Z]*[rR][a-zA-Z]*f|-[a-zA-Z]*f[a-zA-Z]*[rR])`, "rm -rRrR"},
		{`\brm\s+(-[a-zA-Z]*[rR][a-zA-Z]*f|-[a-zA-Z]*f[a-zA-Z]*[rR])`, "r"},
		{`^[0-9]{1,3}$`, "1"},
	} {
		re, err := compilePattern(c.expr, DefaultMaxPatternSize)
		if err != nil {
			b.Fatal(err)
		}
		value := strings.Repeat(c.unit, n/len(c.unit))
		b.Run(fmt.Sprintf("documented/%s/%s", c.expr, c.unit), func(b *testing.B) { run(b, re, value) })
	}
}
