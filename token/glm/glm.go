package glm

import (
	"github.com/go-json-experiment/json/jsontext"

	"github.com/argstream/argstream/internal/tagscan"
	"github.com/argstream/argstream/schema"
	"github.com/argstream/argstream/token"
)

// syntax is GLM-4.5's tool call format (and GLM-4.7's, without the line
// breaks), as internal/tagscan reads it.
var syntax = tagscan.Prepare(tagscan.Syntax{
	Name: "GLM tags",
	// The tool's name ends before the first byte it cannot hold.
	Open:      []tagscan.Tag{{Lit: "<tool_call>", Name: tagscan.Dotted, Ends: []string{""}}},
	Param:     tagscan.Tag{Lit: "<arg_key>", Name: tagscan.Dotted, Ends: []string{"</arg_key>"}},
	ParamNext: []tagscan.Tag{{Lit: "<arg_value>"}},
	EndParam:  tagscan.Tag{Lit: "</arg_value>"},
	Close:     []tagscan.Tag{{Lit: "</tool_call>"}},
	Reserved: []tagscan.Tag{{Lit: "<tool_call>"}, {Lit: "</tool_call>"}, {Lit: "<arg_key>"}, {Lit: "</arg_key>"},
		{Lit: "<arg_value>"}},
	JSONArrays: true,
	Raw:        true,
})

// Tokenizer reads one tool call in GLM's format and reports the
// events of the JSON object of its arguments (see the package
// documentation). A Tokenizer may not be used from several goroutines at
// once; separate Tokenizers may run in parallel.
type Tokenizer struct {
	s tagscan.Scanner
}

var _ token.Tokenizer = (*Tokenizer)(nil)

// New returns a tokenizer without schemas, reporting to h: every value is
// a string.
func New(h token.Handler, opts ...token.Option) *Tokenizer {
	return newTokenizer(h, nil, opts)
}

// Typed returns a [token.NewFunc] for argstream.WithTokenizer whose
// tokenizers type each value by the schema of the call's tool in tools;
// the values of a tool tools does not hold are strings.
func Typed(tools *schema.Tools) token.NewFunc {
	return func(h token.Handler, opts ...token.Option) token.Tokenizer {
		return newTokenizer(h, tools, opts)
	}
}

func newTokenizer(h token.Handler, tools *schema.Tools, opts []token.Option) *Tokenizer {
	t := &Tokenizer{}
	t.s.Init(h, syntax, tools, opts...)
	return t
}

// Feed reads the next chunk of the call, which may be empty, and reports
// the events it determines. After an error, Feed and [Tokenizer.Close] return
// that error; after Close, Feed returns [token.ErrClosed].
func (t *Tokenizer) Feed(chunk []byte) error { return t.s.Feed(chunk) }

// Close ends the input: it returns [token.ErrTruncated] if </tool_call>
// has not been read.
func (t *Tokenizer) Close() error { return t.s.Close() }

// Reset makes t ready for a new call, reporting to h, with the same
// options and schemas. It keeps t's memory, so a reused tokenizer does not
// allocate.
func (t *Tokenizer) Reset(h token.Handler) { t.s.Reset(h) }

// Offset returns the number of input bytes fed so far.
func (t *Tokenizer) Offset() int64 { return t.s.Offset() }

// Name returns the function's name, once its tag has been read, else "".
func (t *Tokenizer) Name() string { return t.s.Name() }

// Format writes a call of the function name with the JSON object args as
// GLM-4.5's and GLM-4.6's chat template writes it, the form the [Tokenizer]
// reads back (see the package documentation for what it cannot carry).
func Format(name string, args jsontext.Value) ([]byte, error) {
	return syntax.Format("glm", name, args)
}
