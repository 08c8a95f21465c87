// Package xmltag reads one tool call written in code-assistant's XML tags
// while it streams, and reports the events of the JSON object of its
// arguments (package [token]), so that the translator, the aggregator, the
// policy and the renderer see it as they see a JSON tool call:
//
//	<tool:write_file>
//	<param:path>src/main.rs</param:path>
//	<param:content>
//	fn main() {}
//	</param:content>
//	</tool:write_file>
//
// gives {"path": "src/main.rs", "content": "fn main() {}"}. The input is the
// whole call, from its opening tag to its closing one: package dialect
// finds calls in an assistant's text and feeds each one's bytes to a
// [Tokenizer] through argstream.WithTokenizer.
//
// # Grammar
//
// In EBNF, where WS is JSON white space (space, tab, LF, CR), ignored:
//
//	call   = "<tool:" NAME ">" { WS | param } "</tool:" NAME ">" .
//	param  = "<param:" PNAME ">" value "</param:" PNAME ">" .
//	NAME   = 1 to 128 of [A-Za-z0-9_-] .
//	PNAME  = 1 to 128 of [A-Za-z0-9_.-] .
//
// The closing tags must repeat the names of their opening tags. White space
// may follow the call, as it may follow a JSON value; anything else is
// [token.ErrTrailingData].
//
// A value is raw text, with no escapes, except one line break ("\n" or
// "\r\n") right after its opening tag and one right before its closing tag:
// those are framing, as models and [Format] write "<param:x>\n...\n</param:x>"
// (Qwen3-Coder's template does the same). So "<param:x>\n\nhi\n\n</param:x>"
// is "\nhi\n", and "<param:x>hi</param:x>" is "hi". Other tags in a value are
// text ("<div>", "a < b", even "<param:y>"): only bytes that may still become
// "</param:PNAME>", "<tool:" or "</tool:" are held back, and released as soon
// as they cannot. The text reaches the handler as it arrives.
//
// As code-assistant's parser, the tokenizer is strict: "<tool:" or "</tool:"
// inside a value (a nested call, an unclosed parameter), a closing tag with
// another name than its opening one, and text other than white space
// between parameters are [token.ErrSyntax]; the end of input before the
// call's closing tag is [token.ErrTruncated]. Every error gives the byte
// offset, the line and column (line 1 is the opening tag's) and the JSON
// pointer of the parameter concerned.
//
// # Types
//
// Without schemas ([New]) every value is a string. With the tools' schemas
// ([Typed], package [schema]), each value takes the type its parameter
// declares: numbers, integers, booleans and null are read from the text
// (white space around them allowed), objects as JSON text, and an array
// parameter is written by repeating it, one element per tag, in a row:
//
//	<param:paths>src/main.rs</param:paths>
//	<param:paths>Cargo.toml</param:paths>
//
// is "paths": ["src/main.rs", "Cargo.toml"]. A parameter repeated
// otherwise is [token.ErrDuplicateKey]; a parameter the schema does not
// declare, or a value that does not fit, [token.ErrSchema] (see package
// internal/textargs for the details).
//
// # Format
//
// Format writes a call the tokenizer reads back: each parameter as
// <param:k>value</param:k>, framed by line breaks when the value holds one
// (a value ending in '\r' gets "\r\n" before the closing tag, so that the
// '\r' stays its own); numbers, booleans and null as their JSON text;
// an array as the parameter repeated, one element each; objects, and the
// array elements that are arrays or objects, as compact JSON text. It
// cannot carry, and returns an error naming the parameter for: arguments
// that are not a JSON object, a name that is not a NAME or PNAME, a value
// holding a complete "</param:PNAME>", "<tool:" or "</tool:", and an empty
// array, which would vanish.
//
// # Memory and concurrency
//
// Event data is borrowed: it points into the chunk being fed or into the
// tokenizer's buffers, and is valid until Handle returns. A Tokenizer may
// not be used from several goroutines at once; separate Tokenizers may run
// in parallel, and may share one [*schema.Tools]. A Reset tokenizer reads a
// call without allocating.
package xmltag
