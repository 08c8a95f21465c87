package dialect_test

import (
	"fmt"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/dialect"
	"github.com/argstream/argstream/token"
	"github.com/argstream/argstream/toolcall"
)

// emptyArgs stands in for token/caret's tokenizer, which parses a caret
// block into the call's arguments: this one reads nothing and gives {}.
type emptyArgs struct{ h token.Handler }

func (t emptyArgs) Feed([]byte) error { return nil }

func (t emptyArgs) Close() error {
	if err := t.h.Handle(token.Event{Kind: token.BeginObject}); err != nil {
		return err
	}
	return t.h.Handle(token.Event{Kind: token.EndObject})
}

func newEmptyArgs(h token.Handler, _ ...token.Option) token.Tokenizer { return emptyArgs{h} }

func Example() {
	calls := toolcall.New(toolcall.WithStreamOptions(argstream.WithTokenizer(newEmptyArgs)))
	rd := dialect.NewReader(dialect.Caret, calls,
		dialect.OnText(func(text []byte) { fmt.Printf("text %q\n", text) }),
		dialect.OnSource(func(i int64, src []byte) { fmt.Printf("call %d %q\n", i, src) }))

	// The assistant's text, as a model streams it.
	for _, delta := range []string{
		"I'll read it.\n^^^read", "_files\nproject: my_proj\n",
		"path: src/main.rs\n^^^\n", "Reading now ^^^ wait.",
	} {
		if _, err := rd.WriteString(delta); err != nil {
			fmt.Println(err)
			return
		}
	}
	rd.Close()
	for _, res := range calls.End() {
		fmt.Printf("%d %s %s executable=%v\n", res.Call.Index, res.Call.Name, res.Arguments, res.Executable)
	}
	// Output:
	// text "I'll read it.\n"
	// call 0 "^^^read_files\n"
	// call 0 "project: my_proj\n"
	// call 0 "path: src/main.rs\n^^^\n"
	// text "Reading now ^^^ wait."
	// 0 read_files {} executable=true
}
