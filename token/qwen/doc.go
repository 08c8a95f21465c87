// Package qwen reads one tool call written in Qwen3-Coder's format while it
// streams, and reports the events of the JSON object of its arguments
// (package [token]), so that the translator, the aggregator, the policy and
// the renderer see it as they see a JSON tool call:
//
//	<tool_call>
//	<function=write_file>
//	<parameter=path>
//	src/main.rs
//	</parameter>
//	<parameter=content>
//	fn main() {}
//	</parameter>
//	</function>
//	</tool_call>
//
// gives {"path": "src/main.rs", "content": "fn main() {}"}. The input is the
// whole call, from <tool_call> to </tool_call>: package dialect finds calls
// in an assistant's text and feeds each one's bytes to a [Tokenizer] through
// argstream.WithTokenizer.
//
// # Grammar
//
// In EBNF, where WS is JSON white space (space, tab, LF, CR), ignored:
//
//	call   = "<tool_call>" WS "<function=" NAME ">" { WS | param } "</function>" WS "</tool_call>" .
//	param  = "<parameter=" PNAME ">" value "</parameter>" .
//	NAME   = 1 to 128 of [A-Za-z0-9_.-] .
//	PNAME  = 1 to 128 of [A-Za-z0-9_.-] .
//
// White space may follow the call, as it may follow a JSON value; anything
// else is [token.ErrTrailingData]. The arguments object ends at </function>'s
// '>'; the call, at </tool_call>'s.
//
// A value is raw text, with no escapes, except one line break ("\n" or
// "\r\n") right after <parameter=P> and one right before </parameter>: those
// are framing, as Qwen3-Coder's chat template writes
// "<parameter=P>\nvalue\n</parameter>". So "<parameter=x>\n\nhi\n\n</parameter>"
// is "\nhi\n", and "<parameter=x>hi</parameter>" is "hi". Other tags in a
// value are text ("<div>", "a < b", even "<parameter=y>"): only bytes that
// may still become "</parameter>", "<tool_call>", "</tool_call>",
// "<function=" or "</function>" are held back, and released as soon as they
// cannot. The text reaches the handler as it arrives.
//
// The call's own tags inside a value (a parameter left unclosed) and text
// other than white space between parameters are [token.ErrSyntax]; a
// parameter given twice is [token.ErrDuplicateKey]; the end of input before
// </tool_call>'s '>' is [token.ErrTruncated]. Every error gives the byte
// offset, the line and column (line 1 is <tool_call>'s) and the JSON pointer
// of the parameter concerned.
//
// # Types
//
// Without schemas ([New]) every value is a string. With the tools' schemas
// ([Typed], package [schema]), each value takes the type its parameter
// declares: numbers, integers, booleans and null are read from the text
// (white space around them allowed); objects and arrays are JSON text,
// since the template writes them with tojson:
//
//	<parameter=paths>
//	["src/main.rs", "Cargo.toml"]
//	</parameter>
//
// A parameter the schema does not declare, or a value that does not fit,
// is [token.ErrSchema] (see package internal/textargs for the details).
//
// # Format
//
// [Format] writes a call as the chat template does, each value framed by line
// breaks (a value ending in '\r' gets "\r\n" before </parameter>, so that
// the '\r' stays its own): strings as they are, numbers, booleans and null
// as their JSON text, arrays and objects as compact JSON text. It cannot
// carry, and returns an error naming the parameter for: arguments that are
// not a JSON object, a name that is not a NAME or PNAME, and a value
// holding "</parameter>", "<tool_call>", "</tool_call>", "<function=" or
// "</function>".
//
// # Memory and concurrency
//
// Event data is borrowed: it points into the chunk being fed or into the
// tokenizer's buffers, and is valid until Handle returns. A Tokenizer may
// not be used from several goroutines at once; separate Tokenizers may run
// in parallel, and may share one [*schema.Tools]. A Reset tokenizer reads a
// call without allocating.
package qwen
