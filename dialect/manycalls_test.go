package dialect

import (
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/argstream/argstream/toolcall"
)

// TestManyCalls: a message of more calls than the Response takes ends
// with toolcall.ErrTooManyCalls at the call past the limit, and the memory
// it costs is bounded by the limit, not by the message: each call holds a
// Stream and an aggregator (a few KiB), and 1.8 MB of "^^^f\n^^^\n" once
// held 540 MB.
func TestManyCalls(t *testing.T) {
	for _, tc := range []struct {
		syntax Syntax
		call   string
	}{
		{Caret, "^^^f\n^^^\n"},
		{XML, "<tool:f></tool:f>\n"},
		{Qwen, "<tool_call><function=f></function></tool_call>\n"},
	} {
		t.Run(tc.syntax.String(), func(t *testing.T) {
			alloc := func(n int) (uint64, error) {
				msg := []byte(strings.Repeat(tc.call, n)) // not counted
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				r := NewReader(tc.syntax, toolcall.New(toolcall.WithMaxCalls(100)))
				_, err := r.Write(msg)
				runtime.ReadMemStats(&after)
				return after.TotalAlloc - before.TotalAlloc, err
			}
			small, err := alloc(101)
			if !errors.Is(err, toolcall.ErrTooManyCalls) {
				t.Fatalf("101 calls: Write = %v, want ErrTooManyCalls", err)
			}
			large, err := alloc(40000)
			if !errors.Is(err, toolcall.ErrTooManyCalls) {
				t.Fatalf("40000 calls: Write = %v, want ErrTooManyCalls", err)
			}
			// The input of 40000 calls is read no further than the limit's,
			// so it costs what the input of 101 costs (the message itself,
			// made before, is not counted): 64 KiB more at most, where a
			// cost per call would be megabytes.
			t.Logf("40000 calls allocated %d bytes, 101 calls %d", large, small)
			if extra := int64(large) - int64(small); extra > 64<<10 {
				t.Errorf("40000 calls allocated %d bytes, 101 calls %d", large, small)
			}
			if _, err := alloc(100); err != nil {
				t.Errorf("100 calls: Write = %v", err)
			}
		})
	}
}
