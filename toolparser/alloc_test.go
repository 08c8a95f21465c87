package toolparser_test

import (
	"testing"

	"github.com/argstream/argstream/dialect"
	"github.com/argstream/argstream/toolparser"
)

// TestWriterAllocs: a Writer reused with Reset allocates nothing per
// delta: once warm, at most one allocation per call (the Response's
// digest of its arguments), its ids aside (here a constant).
func TestWriterAllocs(t *testing.T) {
	text := "Two calls. " + qwenCall + " and " + qwenCall + " done."
	var deltas []string
	for i := 0; i < len(text); i += 5 {
		deltas = append(deltas, text[i:min(i+5, len(text))])
	}
	chunks := 0
	w := toolparser.NewWriter(dialect.Qwen, func([]byte) error { chunks++; return nil }, toolparser.WithTools(testTools),
		toolparser.WithCallIDs(func() string { return "call_x" }))
	w.SetEnvelope([]byte(envelope))
	run := func() {
		for _, d := range deltas {
			if _, err := w.WriteString(d); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Finish("stop"); err != nil {
			t.Fatal(err)
		}
		w.Reset()
	}
	run()
	if n := testing.AllocsPerRun(20, run); n > 2 {
		t.Errorf("%v allocations per message of %d deltas", n, len(deltas))
	}
	if chunks < len(deltas)/2 {
		t.Errorf("%d chunks", chunks)
	}
}
