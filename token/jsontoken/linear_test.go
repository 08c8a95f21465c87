package jsontoken

import (
	"strings"
	"testing"

	"github.com/argstream/argstream/token"
)

var nop = token.HandlerFunc(func(token.Event) error { return nil })

// TestLinear checks the second known trap: however the input is split, every
// byte reaches jsontext at most once, the bodies of strings never (a 2-byte
// stand-in replaces each key and string value), so nothing is rescanned.
func TestLinear(t *testing.T) {
	content := strings.Repeat(`fn main() {\n    println!(\"héllo\");\n}\n`, 2000)
	in := []byte(`{"path":"src/main.rs","content":"` + content + `","n":[1,2.5,true,null],"k\u00e9y":{}}`)
	for _, size := range []int{1, 3, 16, 1024, len(in)} {
		tok := New(nop)
		for i := 0; i < len(in); i += size {
			if err := tok.Feed(in[i:min(i+size, len(in))]); err != nil {
				t.Fatal(err)
			}
		}
		if err := tok.Close(); err != nil {
			t.Fatal(err)
		}
		// Everything but the bodies of the two string values and the keys.
		want := int64(len(in) - len(content) - len("src/main.rs") - len(`pathcontentnk\u00e9y`))
		if tok.synth != want {
			t.Errorf("chunks of %d: jsontext read %d bytes, want %d", size, tok.synth, want)
		}
	}
}
