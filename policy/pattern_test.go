package policy

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/argstream/argstream/internal/testutil"
	"time"
)

// documentedPatterns returns the patterns of the policy examples: README.md
// and doc.go (the "pattern" members of their JSON), and the rules files in
// testdata/policy.
func documentedPatterns(t *testing.T) map[string]string {
	t.Helper()
	found := map[string]string{} // pattern -> where
	member := regexp.MustCompile(`"pattern":\s*("(?:[^"\\]|\\.)*")`)
	for _, file := range []string{"../README.md", "doc.go"} {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range member.FindAllStringSubmatch(string(b), -1) {
			var p string
			if err := json.Unmarshal([]byte(m[1]), &p); err != nil {
				t.Fatalf("%s: %s: %v", file, m[1], err)
			}
			found[p] = file
		}
	}
	files, err := filepath.Glob("../testdata/policy/*.rules.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no rules files: %v", err)
	}
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var rules struct {
			Run []map[string]any `json:"run"`
		}
		if json.Unmarshal(b, &rules) != nil {
			continue // "run": "ask", or a file that is invalid on purpose
		}
		for _, r := range rules.Run {
			if p, ok := r["pattern"].(string); ok {
				found[p] = file
			}
		}
	}
	return found
}

// TestPatternLimit: the patterns of the defect are refused by default;
// those of the documentation fit four times over; the limit is inclusive.
func TestPatternLimit(t *testing.T) {
	for _, c := range []struct {
		expr string
		size int
	}{
		{`[a-z]{1,300}@`, 602},
		{`(?i)(x|y|z|w){1,1000}q`, 4002},
	} {
		_, err := compilePattern(c.expr, DefaultMaxPatternSize)
		want := fmt.Sprintf("compiles to %d instructions, more than the limit of %d; simplify it or raise the limit", c.size, DefaultMaxPatternSize)
		if err == nil || err.Error() != want {
			t.Errorf("compilePattern(%s) = %v, want %q", c.expr, err, want)
		}
	}

	patterns := documentedPatterns(t)
	if len(patterns) < 3 {
		t.Fatalf("found only %d documented patterns: %v", len(patterns), patterns)
	}
	for p, where := range patterns {
		size, err := patternSize(p)
		t.Logf("%4d instructions: %s (%s)", size, p, where)
		if err != nil || size > DefaultMaxPatternSize/4 {
			t.Errorf("%s: %s compiles to %d instructions (%v): not within a quarter of the limit %d", where, p, size, err, DefaultMaxPatternSize)
		}
		re, err := compilePattern(p, DefaultMaxPatternSize)
		if err != nil || re.String() != p {
			t.Errorf("compilePattern(%s) = %v, %v", p, re, err)
		}
	}

	// At the limit and one over: [a-z]{1,k}@ has 2k+2 instructions.
	at := fmt.Sprintf("[a-z]{1,%d}@", (DefaultMaxPatternSize-2)/2)
	if n, _ := patternSize(at); n != DefaultMaxPatternSize {
		t.Fatalf("%s has %d instructions, want %d", at, n, DefaultMaxPatternSize)
	}
	if _, err := compilePattern(at, DefaultMaxPatternSize); err != nil {
		t.Errorf("compilePattern(%s) at the limit: %v", at, err)
	}
	if _, err := compilePattern(at, DefaultMaxPatternSize-1); err == nil {
		t.Errorf("compilePattern(%s) accepted over the limit", at)
	}
}

// TestPatternSyntaxError: a bad pattern gets the wording compile has
// always given, whatever the limit.
func TestPatternSyntaxError(t *testing.T) {
	for _, expr := range []string{`a(`, `(?=x)`, `\1`, `a{1001}`, `x**`, "\xff"} {
		_, want := regexp.Compile(expr)
		for _, max := range []int{0, DefaultMaxPatternSize} {
			_, err := compilePattern(expr, max)
			if want == nil {
				if err == nil {
					t.Errorf("compilePattern(%q, %d) accepted", expr, max)
				}
				continue
			}
			if err == nil || err.Error() != "not a Go (RE2) regular expression: "+want.Error() {
				t.Errorf("compilePattern(%q, %d) = %v, want the wording of %v", expr, max, err, want)
			}
		}
	}
}

// TestPatternCostLinear: the worst-case pattern at the limit, on its
// worst-case value, takes time linear in the value (n and 4n bytes), and
// the time per byte it takes is logged: what DefaultMaxPatternSize bounds.
func TestPatternCostLinear(t *testing.T) {
	k := (DefaultMaxPatternSize - 2) / 4 // (?i)(x|y|z|w){1,k}q has 4k+2 instructions
	expr := fmt.Sprintf("(?i)(x|y|z|w){1,%d}q", k)
	re, err := compilePattern(expr, DefaultMaxPatternSize)
	if err != nil {
		t.Fatal(err)
	}
	const n = 16 << 10 // above the sizes at which regexp backtracks instead
	var perByte [2]float64
	testutil.CheckLinear(t, n, func(n int) func() {
		value := strings.Repeat("x", n)
		return func() {
			start := time.Now()
			if re.MatchString(value) {
				panic("matched")
			}
			i := 0
			if n > 16<<10 {
				i = 1
			}
			if d := float64(time.Since(start).Nanoseconds()) / float64(n); perByte[i] == 0 || d < perByte[i] {
				perByte[i] = d
			}
		}
	})
	t.Logf("%s: %.0f ns/byte at %d bytes, %.0f at %d", expr, perByte[0], n, perByte[1], 4*n)
}
