package dialect

import (
	"github.com/go-json-experiment/json/jsontext"

	"github.com/argstream/argstream/schema"
	"github.com/argstream/argstream/token"
	"github.com/argstream/argstream/token/caret"
	"github.com/argstream/argstream/token/qwen"
	"github.com/argstream/argstream/token/xmltag"
)

// Tokenizer returns the tokenizer of one call written in s, its values
// typed by the schemas of tools (nil: every value a string): give it to
// each call's Stream, as
//
//	toolcall.New(toolcall.WithStreamOptions(argstream.WithTokenizer(dialect.Caret.Tokenizer(tools))))
func (s Syntax) Tokenizer(tools *schema.Tools) token.NewFunc {
	switch s {
	case Caret:
		return caret.Typed(tools)
	case XML:
		return xmltag.Typed(tools)
	case Qwen:
		return qwen.Typed(tools)
	}
	panic("dialect: invalid " + s.String())
}

// Format writes a call of the named tool with the arguments args, a JSON
// object, in s: what a model would write. It returns an error for
// arguments that s cannot carry (see caret.Format, xmltag.Format and
// qwen.Format).
func (s Syntax) Format(name string, args jsontext.Value) ([]byte, error) {
	switch s {
	case Caret:
		return caret.Format(name, args)
	case XML:
		return xmltag.Format(name, args)
	case Qwen:
		return qwen.Format(name, args)
	}
	panic("dialect: invalid " + s.String())
}
