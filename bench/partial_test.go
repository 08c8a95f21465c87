package bench

import (
	"encoding/json"
	"testing"
)

func TestClosePartial(t *testing.T) {
	tests := []struct{ in, want string }{
		{``, ``},
		{`{`, `{}`},
		{`{"pa`, `{}`},
		{`{"path"`, `{}`},
		{`{"path":`, `{}`},
		{`{"path":"src/ma`, `{"path":"src/ma"}`},
		{`{"path":"a\`, `{"path":"a"}`},
		{`{"path":"a\n`, `{"path":"a\n"}`},
		{`{"path":"a\u00`, `{"path":"a"}`},
		{`{"path":"a\u00e9`, `{"path":"a\u00e9"}`},
		{`{"a":1,"b`, `{"a":1}`},
		{`{"a":1, `, `{"a":1}`},
		{`{"a":tr`, `{"a":true}`},
		{`{"a":nu`, `{"a":null}`},
		{`{"a":-`, `{}`},
		{`{"a":1.`, `{"a":1}`},
		{`{"a":1.5e`, `{"a":1.5}`},
		{`[1,2`, `[1,2]`},
		{`[1,`, `[1]`},
		{`[ `, `[ ]`},
		{`["ab`, `["ab"]`},
		{`{"a":[{"b":[f`, `{"a":[{"b":[false]}]}`},
		{`{"a":{}}`, `{"a":{}}`},
	}
	for _, tt := range tests {
		if got := ClosePartial(nil, []byte(tt.in)); string(got) != tt.want {
			t.Errorf("ClosePartial(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestClosePartialPrefixes checks that every prefix of the test documents
// closes to JSON that encoding/json accepts, the job Reparse relies on.
func TestClosePartialPrefixes(t *testing.T) {
	ws, err := LoadDir("testdata", smallFiles...)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range ws {
		var closed []byte
		for i := 1; i <= len(w.Data); i++ {
			closed = ClosePartial(closed[:0], w.Data[:i])
			if !json.Valid(closed) {
				t.Errorf("%s: prefix of %d bytes closes to invalid %q", w.Name, i, closed)
				break
			}
		}
	}
}
