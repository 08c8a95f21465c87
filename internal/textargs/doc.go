// Package textargs is what the tokenizers of tool calls written in text
// share (token/caret, token/xmltag, token/qwen, token/glm, token/minimax,
// token/dsml): turning a call's parameters,
// written as raw text, into the token events of a JSON object, typed by the
// tool's schema (package [schema]). A tokenizer reads its own syntax and tells
// an [Args] what it found; Args emits the events through the tokenizer's
// [lifecycle.Base], so that the translator, the aggregator, the policy and the
// renderer see a caret block as they see a JSON tool call.
//
// The calls a tokenizer makes for one call, where TEXT is any number of Text
// calls:
//
//	call    = Begin { param } End .
//	param   = ( Value | ValueOf ) TEXT EndText
//	        | List { Element TEXT EndText } EndList .
//
// Value begins a parameter's value (or, with Repeat, the next element of the
// parameter just read, if the schema makes it an array); List begins a
// parameter written as a list (a caret array); ValueOf begins a value
// written in a given [Form]: [Text] is Value's, [JSONText] JSON text whose
// value must be of the parameter's type (DSML's string="false"). What Value
// and List become depends on the parameter's [schema.Type]:
//
//   - String: BeginString, the text as StringData pieces the moment they
//     arrive (never ending inside a UTF-8 sequence; invalid UTF-8 is
//     [token.ErrInvalidUTF8]), EndString.
//   - Number, Integer, Boolean, Null: the text is held until EndText,
//     then it must be one (JSON white space around it allowed), else
//     [token.ErrSchema].
//   - JSON: the text is parsed as JSON while it arrives, its events
//     reported as the value's.
//   - Array: written as a List, its elements typed by Items; written as a
//     single value, a one-element array; with Repeat, each Value of the same
//     parameter in a row is one more element.
//
// Keys are checked as the JSON tokenizer checks them: a repeated parameter
// (unless it is a Repeat array) is [token.ErrDuplicateKey], and keys that a
// tool would confuse are rejected unless given token.WithConfusableKeys(true)
// (internal/keyfold); a parameter the tool's schema does not allow is
// token.ErrSchema. [Lines] counts lines for the errors' Line and Column.
//
// Nothing here allocates on the way through a valid input once the buffers
// have grown to the largest typed value.
package textargs
