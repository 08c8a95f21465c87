package dialect

// This file is the Syntax type: its names (ParseSyntax, String), and the
// tokenizer and the formatter of a call written in each (Tokenizer,
// Format).

import (
	"fmt"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/argstream/argstream/schema"
	"github.com/argstream/argstream/token"
	"github.com/argstream/argstream/token/caret"
	"github.com/argstream/argstream/token/dsml"
	"github.com/argstream/argstream/token/glm"
	"github.com/argstream/argstream/token/jsontoken"
	"github.com/argstream/argstream/token/minimax"
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
	// Hermes is <tool_call>{"name": NAME, "arguments": {...}}</tool_call>:
	// Hermes 2 Pro and 3, Qwen2.5, QwQ, Qwen3 (but Qwen3-Coder).
	Hermes
	// Mistral is [TOOL_CALLS] then NAME[ARGS]{...} (tokenizer v11 and
	// later: Devstral, Ministral 3) or a JSON array of {"name", "arguments"}
	// (earlier tokenizers).
	Mistral
	// DeepSeekV3 is DeepSeek V3's <｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME
	// and a ```json fence, in <｜tool▁calls▁begin｜> ... <｜tool▁calls▁end｜>.
	DeepSeekV3
	// DeepSeekV31 is DeepSeek V3.1's <｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{...}<｜tool▁call▁end｜>,
	// in <｜tool▁calls▁begin｜> ... <｜tool▁calls▁end｜>.
	DeepSeekV31
	// DeepSeekDSML is DeepSeek V3.2's and V4's <｜DSML｜invoke name="F">
	// with <｜DSML｜parameter> tags, in <｜DSML｜function_calls> (or
	// <｜DSML｜tool_calls>).
	DeepSeekDSML
	// KimiK2 is Kimi K2's <|tool_call_begin|>functions.NAME:IDX<|tool_call_argument_begin|>{...}<|tool_call_end|>,
	// in <|tool_calls_section_begin|> ... <|tool_calls_section_end|>.
	KimiK2
	// GLM45 is GLM-4.5's (and later) <tool_call>NAME with <arg_key> and
	// <arg_value> pairs, </tool_call>.
	GLM45
	// MiniMaxM2 is MiniMax-M2's <invoke name="F"> with <parameter
	// name="K"> tags, in <minimax:tool_call> ... </minimax:tool_call>.
	MiniMaxM2
	// Harmony is gpt-oss's messages: a call is a message to
	// functions.NAME, <|message|>{...}<|call|>; the analysis channel is
	// reasoning, the others text.
	Harmony

	lastSyntax = Harmony
)

var syntaxNames = [...]string{Caret: "caret", XML: "xml", Qwen: "qwen",
	Hermes: "hermes", Mistral: "mistral", DeepSeekV3: "deepseek-v3", DeepSeekV31: "deepseek-v31",
	DeepSeekDSML: "deepseek-dsml", KimiK2: "kimi-k2", GLM45: "glm45", MiniMaxM2: "minimax-m2", Harmony: "harmony"}

// SyntaxNames returns the names of the syntaxes, in the order of their
// constants, as [ParseSyntax] reads them.
func SyntaxNames() []string {
	return append([]string(nil), syntaxNames[Caret:]...)
}

// ParseSyntax returns the [Syntax] that [Syntax.String] names: "caret",
// "xml", "qwen", "hermes", "mistral", "deepseek-v3", "deepseek-v31",
// "deepseek-dsml", "kimi-k2", "glm45", "minimax-m2" or "harmony".
func ParseSyntax(s string) (Syntax, error) {
	for i, name := range syntaxNames {
		if name != "" && name == s {
			return Syntax(i), nil
		}
	}
	return 0, fmt.Errorf("dialect: unknown syntax %q (want one of %s)", s, strings.Join(syntaxNames[Caret:], ", "))
}

// String returns the syntax's name, as [ParseSyntax] reads it.
func (s Syntax) String() string {
	if s.valid() {
		return syntaxNames[s]
	}
	return fmt.Sprintf("Syntax(%d)", uint8(s))
}

func (s Syntax) valid() bool { return s >= Caret && s <= lastSyntax }

// marked reports whether s is one of the families whose calls are set off
// by markers (families.go), read by feedMarked.
func (s Syntax) marked() bool { return s >= Hermes && s <= lastSyntax }

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
	case Hermes, Mistral, DeepSeekV3, DeepSeekV31, KimiK2, Harmony:
		return newJSON // the Reader feeds their JSON arguments alone
	case GLM45:
		return glm.Typed(tools)
	case MiniMaxM2:
		return minimax.Typed(tools)
	case DeepSeekDSML:
		return dsml.Typed(tools)
	}
	panic("dialect: invalid " + s.String())
}

func newJSON(h token.Handler, opts ...token.Option) token.Tokenizer { return jsontoken.New(h, opts...) }

// Format writes a call of the named tool with the arguments args, a JSON
// object, in s: what a model would write, as its chat template writes it,
// section markers included, so that the text is a message of its own. It
// returns an error for arguments that s cannot carry (see [caret.Format],
// [xmltag.Format], [qwen.Format], [glm.Format], [minimax.Format] and
// [dsml.Format]) and, for the syntaxes that write the
// arguments as JSON text, for a name that is not 1 to [MaxName] of
// [A-Za-z0-9_.-] or arguments that are not a JSON object.
func (s Syntax) Format(name string, args jsontext.Value) ([]byte, error) {
	switch s {
	case Caret:
		return caret.Format(name, args)
	case XML:
		return xmltag.Format(name, args)
	case Qwen:
		return qwen.Format(name, args)
	case Hermes, Mistral, DeepSeekV3, DeepSeekV31, KimiK2, Harmony:
		return formatJSON(s, name, args)
	case GLM45:
		return glm.Format(name, args)
	case MiniMaxM2:
		return wrap(mmSection+"\n", minimax.Format, name, args, "\n"+mmSectionEnd)
	case DeepSeekDSML:
		return wrap(dsmlCalls+"\n", dsml.Format, name, args, "\n"+dsmlCallsEnd)
	}
	panic("dialect: invalid " + s.String())
}

// wrap writes a call with format, in a section of its own, between open
// and close.
func wrap(open string, format func(string, jsontext.Value) ([]byte, error), name string, args jsontext.Value, close string) ([]byte, error) {
	call, err := format(name, args)
	if err != nil {
		return nil, err
	}
	return append(append([]byte(open), call...), close...), nil
}

// formatJSON writes a call of a syntax whose arguments are JSON text.
func formatJSON(s Syntax, name string, args jsontext.Value) ([]byte, error) {
	if !isName([]byte(name)) {
		return nil, fmt.Errorf("dialect: %v cannot carry the tool name %q", s, name)
	}
	if !args.IsValid() || args.Kind() != '{' {
		return nil, fmt.Errorf("dialect: %v arguments must be a JSON object", s)
	}
	var pre, post string
	switch s {
	case Hermes:
		pre, post = toolCall+"\n{\"name\": \""+name+"\", \"arguments\": ", "}\n"+toolCallEnd
	case Mistral:
		pre = mistralCalls + name + mistralArgs
	case DeepSeekV3:
		pre, post = dsCallsBegin+dsCallBegin+"function"+dsSep+name+"\n```json\n", "\n```"+dsCallEnd+dsCallsEnd
	case DeepSeekV31:
		pre, post = dsCallsBegin+dsCallBegin+name+dsSep, dsCallEnd+dsCallsEnd
	case KimiK2:
		pre, post = kimiSection+kimiCallBegin+"functions."+name+":0"+kimiArgBegin, kimiCallEnd+kimiSectionEnd
	case Harmony:
		pre, post = hmStart+"assistant"+hmChannel+"commentary to=functions."+name+" "+hmConstrain+"json"+hmMessage, hmCall
	}
	return append(append([]byte(pre), args...), post...), nil
}
