package dialect

// This file is the Syntax type: its names (ParseSyntax, String), and the
// tokenizer and the formatter of a call written in each (Tokenizer,
// Format).

import (
	"fmt"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/argstream/argstream/schema"
	"github.com/argstream/argstream/token"
	"github.com/argstream/argstream/token/caret"
	"github.com/argstream/argstream/token/qwen"
	"github.com/argstream/argstream/token/xmltag"
)

// Syntax is a way of writing tool calls inside assistant text.
type Syntax uint8

// The syntaxes. The package documentation gives their framing rules.
const (
	// Caret is code-assistant's triple-caret block: ^^^NAME ... ^^^.
	Caret Syntax = iota + 1
	// XML is code-assistant's tags: <tool:NAME> ... </tool:NAME>.
	XML
	// Qwen is Qwen3-Coder's <tool_call><function=NAME> ... </tool_call>.
	Qwen
)

var syntaxNames = [...]string{Caret: "caret", XML: "xml", Qwen: "qwen"}

// ParseSyntax returns the [Syntax] that [Syntax.String] names: "caret", "xml"
// or "qwen".
func ParseSyntax(s string) (Syntax, error) {
	for i, name := range syntaxNames {
		if name != "" && name == s {
			return Syntax(i), nil
		}
	}
	return 0, fmt.Errorf("dialect: unknown syntax %q (want caret, xml or qwen)", s)
}

// String returns the syntax's name, as [ParseSyntax] reads it.
func (s Syntax) String() string {
	if s.valid() {
		return syntaxNames[s]
	}
	return fmt.Sprintf("Syntax(%d)", uint8(s))
}

func (s Syntax) valid() bool { return s >= Caret && s <= Qwen }

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
// arguments that s cannot carry (see [caret.Format], [xmltag.Format] and
// [qwen.Format]).
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
