package differ

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"unicode/utf8"
)

// Call is a generated tool call: its identity, its JSON arguments, and
// those cut into the deltas a provider streams.
type Call struct {
	ID, Name string
	Args     string
	Deltas   []string
}

var (
	toolNames = []string{"get_weather", "read_file", "write_file", "run_command", "search", "GetStock"}
	argKeys   = []string{"path", "content", "city", "units", "n", "items", "flag", "nested", "query", "é"}
	argTexts  = []string{"", "Paris", "src/main.go", "a \"quoted\" word", `back\slash`, "line\nbreak", "tab\there",
		"café", "日本語", "emoji 😀", "</script>", "\u2028", "rm -rf /", "{\"not\":\"json\"}"}
)

// Calls generates n calls, with ids of prefix.
func Calls(r *rand.Rand, n int, prefix string) []Call {
	calls := make([]Call, n)
	for i := range calls {
		c := &calls[i]
		c.ID = fmt.Sprintf("%s%d%s", prefix, i, randAlnum(r, 6))
		c.Name = toolNames[r.IntN(len(toolNames))]
		if r.IntN(8) == 0 {
			c.Args = "{}"
		} else {
			c.Args = argObject(r, 0)
		}
		c.Deltas = Cut(r, c.Args, 1, 12)
	}
	return calls
}

func randAlnum(r *rand.Rand, n int) string {
	const alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	b := make([]byte, n)
	for i := range b {
		b[i] = alnum[r.IntN(len(alnum))]
	}
	return string(b)
}

// argObject writes a JSON object of one to four members, compact or with
// spaces, values of every kind, nested up to depth 2.
func argObject(r *rand.Rand, depth int) string {
	space := ""
	if r.IntN(4) == 0 {
		space = " "
	}
	n := 1 + r.IntN(4)
	used := map[string]bool{}
	var b strings.Builder
	b.WriteByte('{')
	for i := 0; i < n; i++ {
		k := argKeys[r.IntN(len(argKeys))]
		if used[k] {
			continue
		}
		used[k] = true
		if b.Len() > 1 {
			b.WriteString("," + space)
		}
		b.WriteString(Quote(k) + ":" + space + argValue(r, depth))
	}
	b.WriteByte('}')
	return b.String()
}

func argValue(r *rand.Rand, depth int) string {
	switch k := r.IntN(9); {
	case k < 3:
		return Quote(argTexts[r.IntN(len(argTexts))])
	case k == 3:
		return fmt.Sprint(r.IntN(2000) - 1000)
	case k == 4:
		return []string{"1.5", "-0.25", "1e3", "0", "12345678901234567890"}[r.IntN(5)]
	case k == 5:
		return []string{"true", "false", "null"}[r.IntN(3)]
	case k == 6 && depth < 2:
		return argObject(r, depth+1)
	case k == 7 && depth < 2:
		n := r.IntN(4)
		elems := make([]string, n)
		for i := range elems {
			elems[i] = argValue(r, depth+1)
		}
		return "[" + strings.Join(elems, ",") + "]"
	}
	return Quote(strings.Repeat(argTexts[r.IntN(len(argTexts))], 1+r.IntN(3)))
}

// Cut cuts s into pieces of min to max bytes, never inside a UTF-8
// sequence (a JSON string delta holds whole characters).
func Cut(r *rand.Rand, s string, min, max int) []string {
	var pieces []string
	for len(s) > 0 {
		n := min + r.IntN(max-min+1)
		if n >= len(s) {
			n = len(s)
		}
		for n < len(s) && !utf8.RuneStart(s[n]) {
			n++
		}
		pieces = append(pieces, s[:n])
		s = s[n:]
	}
	return pieces
}

// Step is one delta of a schedule: piece Piece of call Call.
type Step struct{ Call, Piece int }

// Schedule orders the deltas of calls: one call after another, or, one
// time in three, interleaved at random (each call's pieces in order).
func Schedule(r *rand.Rand, calls []Call) []Step {
	var steps []Step
	if r.IntN(3) != 0 {
		for i, c := range calls {
			for j := range c.Deltas {
				steps = append(steps, Step{i, j})
			}
		}
		return steps
	}
	next := make([]int, len(calls))
	for {
		var open []int
		for i, c := range calls {
			if next[i] < len(c.Deltas) {
				open = append(open, i)
			}
		}
		if len(open) == 0 {
			return steps
		}
		i := open[r.IntN(len(open))]
		steps = append(steps, Step{i, next[i]})
		next[i]++
	}
}
