package toolparser_test

import (
	"strings"
	"testing"

	"github.com/argstream/argstream/dialect"
	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/toolparser"
)

// TestLinear checks invariant 9 (docs/design.md, "Invariants": linear for
// every input) for the Writer: long prose full of near-misses, one long
// call, many short calls (up to toolcall's limit of calls), written in
// 16-byte deltas, cost time linear in their size.
func TestLinear(t *testing.T) {
	get := "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call>"
	shapes := []struct {
		name string
		make func(n int) string
	}{
		{"prose", func(n int) string { return strings.Repeat("a <tool_cal> b 日本\n", n/22) }},
		{"long call", func(n int) string {
			return "<tool_call>\n<function=write_file>\n<parameter=content>\n" + strings.Repeat("</tool_call <</ v\"\\", n/19) + "\n</parameter>\n</function>\n</tool_call>"
		}},
		{"many calls", func(n int) string { return strings.Repeat(get+" and ", n/len(get+" and ")) }},
	}
	for _, s := range shapes {
		t.Run(s.name, func(t *testing.T) {
			w := toolparser.NewWriter(dialect.Qwen, func([]byte) error { return nil }, toolparser.WithTools(testTools),
				toolparser.WithCallIDs(func() string { return "call_x" }))
			testutil.CheckLinear(t, 24<<10, func(n int) func() {
				chunks := testutil.SplitEvery([]byte(s.make(n)), 16)
				return func() {
					for _, c := range chunks {
						if _, err := w.Write(c); err != nil {
							t.Fatal(err)
						}
					}
					if err := w.Finish("stop"); err != nil {
						t.Fatal(err)
					}
					w.Reset()
				}
			})
		})
	}
}
