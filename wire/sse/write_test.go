package sse

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"testing/quick"
)

// Whatever the type and data, if AppendEvent frames them, a Reader reads
// back exactly one event of that type and data; if not, it says so and
// appends nothing.
func TestAppendEventReadBack(t *testing.T) {
	check := func(typ string, data []byte, prefix []byte) bool {
		out, err := AppendEvent(bytes.Clone(prefix[:0]), typ, data)
		unframable := strings.ContainsAny(typ, "\r\n") || bytes.IndexByte(data, '\r') >= 0
		if unframable {
			return errors.Is(err, ErrUnframable) && len(out) == 0
		}
		if err != nil {
			return false
		}
		rd := NewReader(bytes.NewReader(out))
		if !rd.Next() {
			t.Logf("no event from %q: %v", out, rd.Err())
			return false
		}
		ev := rd.Event()
		if string(ev.Type) != typ || !bytes.Equal(ev.Data, data) {
			t.Logf("%q: read %q %q", out, ev.Type, ev.Data)
			return false
		}
		return !rd.Next() && rd.Err() == nil
	}
	if err := quick.Check(check, &quick.Config{MaxCount: 2000}); err != nil {
		t.Error(err)
	}
	// The cases quick may not draw.
	for _, c := range []struct {
		typ  string
		data string
	}{
		{"", ""}, {"", "\n"}, {"message_start", `{"a":1}`}, {"x", "a\n\nb\n"}, {"", " leading space"}, {"t", ":"},
	} {
		if !check(c.typ, []byte(c.data), nil) {
			t.Errorf("%q %q", c.typ, c.data)
		}
	}
}

func TestAppendEventUnframable(t *testing.T) {
	for _, c := range []struct{ typ, data string }{{"a\nb", "{}"}, {"a\rb", "{}"}, {"a", "x\ry"}} {
		dst := []byte("kept")
		out, err := AppendEvent(dst, c.typ, []byte(c.data))
		if !errors.Is(err, ErrUnframable) || string(out) != "kept" {
			t.Errorf("%q %q: %q, %v", c.typ, c.data, out, err)
		}
	}
}
