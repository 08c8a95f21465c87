// Package tagscan is what the tokenizers of tool calls written in tags
// share (token/xmltag for code-assistant's <tool:NAME>, token/qwen for
// Qwen3-Coder's <tool_call>, token/glm for GLM's <arg_key>/<arg_value>,
// token/minimax for MiniMax-M2's <invoke name="F">, token/dsml for
// DeepSeek's <｜DSML｜invoke>): one [Scanner], driven by a [Syntax] that lists
// the syntax's tags, which reads a call's opening tags, its parameters
// and its closing tags, and tells a [textargs.Args] what it finds, over a
// [lifecycle.Base]; and [Syntax.Format], the Format of all, which writes a
// call in the syntax's tags as the Scanner reads it back (with [Params],
// [AppendValue], [Syntax.CheckParam] and [Syntax.CheckTool]).
//
// # Tags
//
// A [Tag] is a literal, or a literal, a name and one of its ends: ">"
// (<tool:NAME>), `">` (<invoke name="NAME">), several (DSML's
// `" string="true">` or `" string="false">`, which tell the value's
// [textargs.Form] through [Syntax.Forms]), or none (GLM's <tool_call>NAME,
// which ends before the first byte a name cannot hold). A parameter may
// open with several tags in a row ([Syntax.ParamNext]: GLM's
// <arg_key>K</arg_key> then <arg_value>).
//
// # Values
//
// A value is raw text up to the tag that closes it, except one line break
// ("\n" or "\r\n") right after the opening tag and one right before the
// closing tag, which are framing: models and Qwen3-Coder's chat template
// write "<param>\nvalue\n</param>". A [Syntax.Raw] value has no framing
// (GLM, MiniMax, DSML): it is all the text between its tags. Other tags in a value are text ("<div>",
// "a < b"), except the closing tag of the parameter
// (with another name: an error) and the call's own tags (Reserved: an
// unclosed parameter). The text is scanned for '<' with [bytes.IndexByte] and
// given to textargs as it arrives; only the bytes that may still become one
// of those tags, and the line break before them, are held back, at most 2
// bytes more than the longest of those tags, and released as soon as they
// cannot.
//
// # Cost
//
// Every byte is read a bounded number of times, whatever the chunking
// (tags in the structure byte by byte, a tag in a value by [Matcher.Step]
// once per byte and per candidate). Nothing allocates on the way through a
// valid input once the buffers have grown (Init sizes the held-back one).
package tagscan
