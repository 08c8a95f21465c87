package toolcall

import (
	"testing"

	"github.com/argstream/argstream/fragment"
)

// TestRestateSameBytes: a restatement of the very bytes that streamed is
// not parsed again (the Responses API restates every call's arguments up
// to three times) once the Response has seen a restatement; one written
// otherwise is parsed and compared, equal or not; a chunked stream hashes
// as the whole. A Response learns that its wire restates at the first
// restatement, whose calls do not hash, or is told so (WithRestatements),
// and then its first call hashes; with WithDigestOnly too, as the gateway
// reads the Responses API.
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
		for _, told := range []string{"learned", "told", "told, digest only"} {
			var r *Response
			switch told {
			case "learned":
				r = New()
				r.restates = true // as after a response whose calls were restated
			case "told":
				r = New(WithRestatements())
			default:
				r = New(WithRestatements(), WithDigestOnly())
			}
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
				t.Errorf("%s (%s): parsed %v, want %v", tc.name, told, parsed, tc.parsed)
			}
			if mismatch := res[0].Err != nil; mismatch != tc.mismatch || res[0].Executable == tc.mismatch {
				t.Errorf("%s (%s): %+v, want a mismatch %v", tc.name, told, res[0], tc.mismatch)
			}
		}
	}
}

func TestRestatesLearned(t *testing.T) {
	const args = `{"a":1}`
	r := New()
	for round, parsed := range []bool{true, false} {
		r.Reset()
		c := fragment.Call{Index: 0, ID: "c", Name: "f"}
		if err := r.Chunk(0, []byte(args)); err != nil {
			t.Fatal(err)
		}
		r.restated = nil
		if err := r.Restate(c, []byte(args)); err != nil {
			t.Fatal(err)
		}
		if got := r.restated != nil; got != parsed {
			t.Errorf("response %d: parsed %v, want %v", round, got, parsed)
		}
		if res := r.End(); !res[0].Executable {
			t.Errorf("response %d: %+v", round, res[0])
		}
	}
}
