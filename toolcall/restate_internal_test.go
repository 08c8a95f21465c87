package toolcall

import (
	"testing"

	"github.com/argstream/argstream/fragment"
)

// TestRestateSameBytes: a restatement of the very bytes that streamed is
// not parsed again (the Responses API restates every call's arguments up
// to three times); one written otherwise is parsed and compared, equal
// or not; a chunked stream hashes as the whole.
func TestRestateSameBytes(t *testing.T) {
	const args = `{"path":"src/a.go","n":[1,2.5,true]}`
	for _, tc := range []struct {
		name     string
		restated string
		parsed   bool // parseRestated ran
		mismatch bool
	}{
		{"the same bytes", args, false, false},
		{"the same value written otherwise", `{"path": "src/a.go", "n": [1, 2.5, true]}`, true, false},
		{"another value of the same length", `{"path":"src/b.go","n":[1,2.5,true]}`, true, true},
		{"another value", `{"path":"/etc/passwd"}`, true, true},
	} {
		r := New()
		c := fragment.Call{Index: 0, ID: "c", Name: "write"}
		if err := r.Start(c, nil); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < len(args); i += 5 {
			if err := r.Chunk(0, []byte(args[i:min(i+5, len(args))])); err != nil {
				t.Fatal(err)
			}
		}
		if err := r.Stop(0); err != nil {
			t.Fatal(err)
		}
		for range 3 {
			if err := r.Restate(c, []byte(tc.restated)); err != nil {
				t.Fatal(err)
			}
		}
		res := r.End()
		if parsed := r.restated != nil; parsed != tc.parsed {
			t.Errorf("%s: parsed %v, want %v", tc.name, parsed, tc.parsed)
		}
		if mismatch := res[0].Err != nil; mismatch != tc.mismatch || res[0].Executable == tc.mismatch {
			t.Errorf("%s: %+v, want a mismatch %v", tc.name, res[0], tc.mismatch)
		}
	}
}
