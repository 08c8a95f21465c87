package xmltag

import (
	"testing"

	"github.com/argstream/argstream/internal/tagscan/tagscantest"
)

func TestEvents(t *testing.T) {
	// Begin at the opening tag's '>', Key and the text's start where the
	// text begins (after the framing line break), pieces as they arrive,
	// EndString past the closing tag, EndObject past the call's.
	dialect.Events(t, "<tool:t>\n<param:a>\nx<y\n</param:a></tool:t>", []string{
		`BeginObject "" @8`, `Key "a" @19`, `BeginString "" @19`, `StringData "x<y"`,
		`EndString "" @33`, `EndObject "" @42`})
}

func TestLife(t *testing.T) {
	dialect.Life(t, "<tool:write_file>\n<param:path>a.go</param:path>\n<param:content>\nx\n</param:content>\n</tool:write_file>", "write_file")
}

func TestFormat(t *testing.T) {
	dialect.Formats(t, [][2]string{
		{`{}`, "<tool:t>\n</tool:t>"},
		{`{"path": "a.go", "n": 3, "ok": true, "z": null}`,
			"<tool:t>\n<param:path>a.go</param:path>\n<param:n>3</param:n>\n<param:ok>true</param:ok>\n<param:z>null</param:z>\n</tool:t>"},
		{`{"content": "fn main() {}\n"}`, "<tool:t>\n<param:content>\nfn main() {}\n\n</param:content>\n</tool:t>"},
		{`{"a": "x\r"}`, "<tool:t>\n<param:a>\nx\r\r\n</param:a>\n</tool:t>"},
		{`{"paths": ["a", 1, {"k": [1, 2]}, [3]]}`,
			"<tool:t>\n<param:paths>a</param:paths>\n<param:paths>1</param:paths>\n<param:paths>{\"k\":[1,2]}</param:paths>\n<param:paths>[3]</param:paths>\n</tool:t>"},
		{`{"o": {"a": "<b>", "c": [ ]}}`, "<tool:t>\n<param:o>{\"a\":\"<b>\",\"c\":[]}</param:o>\n</tool:t>"},
		{`{"a": "</param:b </tool <param:a>"}`, "<tool:t>\n<param:a></param:b </tool <param:a></param:a>\n</tool:t>"},
	})
	dialect.FormatErrors(t, [][4]string{
		{"not an object", "t", `[1]`, "not a JSON object"},
		{"not JSON", "t", `{"a":`, "xmltag"},
		{"bad tool name", "a.b", `{}`, `"a.b"`},
		{"empty tool name", "", `{}`, `""`},
		{"bad key", "t", `{"a b": 1}`, `"a b"`},
		{"empty key", "t", `{"": 1}`, `""`},
		{"closing tag", "t", `{"k": "x</param:k>y"}`, `"k"`},
		{"other closing tag", "t", `{"k": "x</param:j>y"}`, `</param:j>`},
		{"tool tag", "t", `{"k": "<tool:u>"}`, `<tool:`},
		{"closing tool tag", "t", `{"k": "</tool:t>"}`, `</tool:`},
		{"tag in an element", "t", `{"k": ["a", "</tool:"]}`, `</tool:`},
		{"tag in an object", "t", `{"k": {"a": "</param:k>"}}`, `</param:k>`},
		{"empty array", "t", `{"k": []}`, `empty array`},
	})
}

// Invalid UTF-8 in a value gives the same events and error however it is
// cut: the text before the bad byte is reported in both, and an unfinished
// sequence completed by a byte that cannot continue it fails at once.
func TestUTF8Chunking(t *testing.T) {
	for _, c := range []struct {
		in  string
		cut int
	}{
		{"<tool:t><param:a>ab\xffc</param:a></tool:t>", 19},
		{"<tool:t><param:a>ab\xe10", 20},
	} {
		whole, err := tagscantest.Run(dialect.NewFunc(), [][]byte{[]byte(c.in)})
		if err != nil {
			t.Fatal(err)
		}
		cut, err := tagscantest.Run(dialect.NewFunc(), [][]byte{[]byte(c.in[:c.cut]), []byte(c.in[c.cut:])})
		if err != nil {
			t.Fatal(err)
		}
		if !tagscantest.Equal(whole, cut) {
			t.Errorf("%q whole: %v; cut at %d: %v", c.in, whole, c.cut, cut)
		}
	}
}

func BenchmarkCall(b *testing.B) {
	b.Run("chunk=16", func(b *testing.B) { dialect.Bench(b, 16) })
	b.Run("chunk=1024", func(b *testing.B) { dialect.Bench(b, 1024) })
}
