// Package glm reads one tool call written in the format of GLM-4.5, 4.6 and
// 4.7 (Zhipu AI) while it streams, and reports the events of the JSON
// object of its arguments (package [token]), so that the translator, the
// aggregator, the policy and the renderer see it as they see a JSON tool
// call:
//
//	<tool_call>write_file
//	<arg_key>path</arg_key>
//	<arg_value>src/main.rs</arg_value>
//	<arg_key>content</arg_key>
//	<arg_value>fn main() {}
//	</arg_value>
//	</tool_call>
//
// gives {"path": "src/main.rs", "content": "fn main() {}\n"}. GLM-4.7 and
// later write the same call without the line breaks between the tags:
// "<tool_call>write_file<arg_key>path</arg_key><arg_value>src/main.rs</arg_value>…</tool_call>".
// Both are read. The input is the whole call, from <tool_call> to
// </tool_call>: package dialect finds calls in an assistant's text and
// feeds each one's bytes to a [Tokenizer] through argstream.WithTokenizer.
//
// # Grammar
//
// In EBNF, where WS is JSON white space (space, tab, LF, CR), ignored:
//
//	call   = "<tool_call>" NAME { WS | param } "</tool_call>" .
//	param  = "<arg_key>" PNAME "</arg_key>" WS "<arg_value>" value "</arg_value>" .
//	NAME   = 1 to 128 of [A-Za-z0-9_.-] .
//	PNAME  = 1 to 128 of [A-Za-z0-9_.-] .
//
// The tool's name follows <tool_call> at once and ends at the first byte
// it cannot hold (GLM-4.5's line break, GLM-4.7's <arg_key>); white space
// may follow the call, as it may follow a JSON value; anything else is
// [token.ErrTrailingData]. The arguments object begins after the name
// and ends at </tool_call>'s '>'.
//
// A value is raw text, with no escapes and no framing: all the bytes
// between <arg_value> and </arg_value>, as the chat templates write them (a
// string as it is, anything else as its JSON text). This is what vLLM's
// glm45 and glm47 parsers read for a string parameter; for others they
// strip white space, as the types below allow around a number or JSON
// text. Other tags in a value are text ("<div>", "a < b"): only bytes that
// may still become "</arg_value>" or one of the call's own tags
// ("<tool_call>", "</tool_call>", "<arg_key>", "</arg_key>",
// "<arg_value>") are held back, and released as soon as they cannot. The
// text reaches the handler as it arrives.
//
// The call's own tags inside a value (a parameter left unclosed) and text
// other than white space between parameters are [token.ErrSyntax]; white
// space around a NAME or a PNAME is too (vLLM strips it; the templates
// write none). A parameter given twice, or two whose names a tool would
// confuse, is [token.ErrDuplicateKey] or [token.ErrCaseFoldedKey]; the end
// of input before </tool_call>'s '>' is [token.ErrTruncated]. Every error
// gives the byte offset, the line and column (line 1 is <tool_call>'s) and
// the JSON pointer of the parameter concerned.
//
// # Types
//
// Without schemas ([New]) every value is a string (vLLM, without tools,
// guesses: JSON, then a Python literal, then a string). With the tools'
// schemas ([Typed], package [schema]), each value takes the type its
// parameter declares: numbers, integers, booleans and null are read from
// the text (white space around them allowed); objects and arrays are JSON
// text, as the templates write them with tojson. A parameter the schema
// does not allow, or a value that does not fit, is [token.ErrSchema] (see
// package internal/textargs for the details).
//
// # Format
//
// [Format] writes a call as GLM-4.5's and GLM-4.6's chat template does,
// with a line break after the name and after each tag pair: values as
// they are (a string as it is, numbers, booleans and null as their JSON
// text, arrays and objects as compact JSON text). It cannot carry, and
// returns an error naming the parameter for: arguments that are not a
// JSON object, a name that is not a NAME or PNAME, and a value holding
// "</arg_value>" or one of the call's own tags.
//
// # Memory and concurrency
//
// Event data is borrowed: it points into the chunk being fed or into the
// tokenizer's buffers, and is valid until Handle returns. A Tokenizer may
// not be used from several goroutines at once; separate Tokenizers may run
// in parallel, and may share one [*schema.Tools]. A Reset tokenizer reads a
// call without allocating.
package glm
