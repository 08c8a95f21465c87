package policy

import (
	"fmt"
	"regexp"
	"regexp/syntax"
)

// DefaultMaxPatternSize is the default limit on the size of a rule's
// pattern, in instructions of its compiled program: the count that
// regexp/syntax gives, len(prog.Inst) after syntax.Parse(expr, syntax.Perl),
// Simplify and [syntax.Compile]. `(^|/)\.env($|\.)` is 16 instructions,
// `^[0-9a-f]{64}$` 68, `[a-z]{1,300}@` 602: a counted repetition costs its
// body once per count.
//
// Go's regular expressions run in time linear in the value, but the time
// per byte grows with the program: at each byte the matcher steps every
// thread alive, and a value can keep one alive at nearly every
// instruction ('aaaa…' against `[a-z]{1,300}@` takes 5.6 s per megabyte).
// Measured on 1 MB worst-case values (BenchmarkPatternCost, fastest of 3
// runs on a shared 2-core machine), a live thread costs 4 to 13 ns per
// byte, so a pattern at this limit costs
// at most about 0.4 to 0.8 µs per byte of the value it searches, under a
// second per megabyte, where the documented patterns, which keep a few
// threads alive, cost 20 to 90 ns per byte on values made to keep them
// busy. No limit brings the worst case near 20 ns per byte: a pattern of
// 8 instructions already costs 20 to 70.
const DefaultMaxPatternSize = 100

// compilePattern compiles expr, a Go (RE2) regular expression, refusing it
// if its program has more than max instructions (see
// [DefaultMaxPatternSize]).
func compilePattern(expr string, max int) (*regexp.Regexp, error) {
	n, err := patternSize(expr)
	if err != nil {
		return nil, fmt.Errorf("not a Go (RE2) regular expression: %v", err)
	}
	if n > max {
		return nil, fmt.Errorf("compiles to %d instructions, more than the limit of %d; simplify it or raise the limit", n, max)
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, fmt.Errorf("not a Go (RE2) regular expression: %v", err)
	}
	return re, nil
}

// patternSize returns the number of instructions of expr's program, as
// [regexp.Compile] builds it.
func patternSize(expr string) (int, error) {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return 0, err
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return 0, err
	}
	return len(prog.Inst), nil
}
