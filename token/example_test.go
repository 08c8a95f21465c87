package token_test

import (
	"fmt"
	"strings"

	"github.com/argstream/argstream/token"
	"github.com/argstream/argstream/token/jsontoken"
)

// outline is a small Handler: it prints each event on a line of its own,
// indented by how deep it is, with its data and the offset of the input
// that determined it.
type outline struct{ depth int }

func (o *outline) Handle(e token.Event) error {
	if e.Kind == token.EndObject || e.Kind == token.EndArray {
		o.depth--
	}
	fmt.Printf("%s%v", strings.Repeat("  ", o.depth), e.Kind)
	if e.Data != nil {
		fmt.Printf(" %q", e.Data) // borrowed: a handler that kept it would copy it
	}
	fmt.Printf(" @%d\n", e.Offset)
	if e.Kind == token.BeginObject || e.Kind == token.BeginArray {
		o.depth++
	}
	return nil
}

// A Handler receives the events of any tokenizer, here the JSON one, fed
// the arguments in two chunks: each event comes as soon as the bytes fed so
// far determine it, the string data in pieces, and the number only once
// the byte after it shows it has ended.
func ExampleHandler() {
	tok := jsontoken.New(&outline{})
	for _, chunk := range []string{`{"path": "src/ma`, `in.go", "tags": ["a", 1.50]}`} {
		fmt.Printf("-- feed %q\n", chunk)
		if err := tok.Feed([]byte(chunk)); err != nil {
			fmt.Println(err)
			return
		}
	}
	if err := tok.Close(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// -- feed "{\"path\": \"src/ma"
	// BeginObject @1
	//   Key "path" @7
	//   BeginString @10
	//   StringData "src/ma" @16
	// -- feed "in.go\", \"tags\": [\"a\", 1.50]}"
	//   StringData "in.go" @21
	//   EndString @22
	//   Key "tags" @30
	//   BeginArray @33
	//     BeginString @34
	//     StringData "a" @35
	//     EndString @36
	//     Number "1.50" @43
	//   EndArray @43
	// EndObject @44
}
