package jsontoken_test

import (
	"fmt"

	"github.com/argstream/argstream/token"
	"github.com/argstream/argstream/token/jsontoken"
)

// The tokenizer reports each event as soon as the bytes fed so far determine
// it: string data in pieces, a number only once a byte after it shows it has
// ended.
func ExampleNew() {
	tok := jsontoken.New(token.HandlerFunc(func(e token.Event) error {
		fmt.Printf("%d %v %q\n", e.Offset, e.Kind, e.Data)
		return nil
	}))
	for _, chunk := range []string{`{"s": "ab`, `c", "n": 1`, `2}`} {
		tok.Feed([]byte(chunk))
		fmt.Println("--")
	}
	if err := tok.Close(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// 1 BeginObject ""
	// 4 Key "s"
	// 7 BeginString ""
	// 9 StringData "ab"
	// --
	// 10 StringData "c"
	// 11 EndString ""
	// 16 Key "n"
	// --
	// 21 Number "12"
	// 21 EndObject ""
	// --
}
