// Package minimax reads one tool call written in MiniMax-M2's format while
// it streams, and reports the events of the JSON object of its arguments
// (package [token]), so that the translator, the aggregator, the policy and
// the renderer see it as they see a JSON tool call:
//
//	<invoke name="write_file">
//	<parameter name="path">src/main.rs</parameter>
//	<parameter name="content">fn main() {}
//	</parameter>
//	</invoke>
//
// gives {"path": "src/main.rs", "content": "fn main() {}\n"}. The input is
// the call, from <invoke name="…"> to </invoke>: the <minimax:tool_call> …
// </minimax:tool_call> block around one or more calls is package dialect's
// framing, which finds calls in an assistant's text and feeds each one's
// bytes to a [Tokenizer] through argstream.WithTokenizer.
//
// # Grammar
//
// In EBNF, where WS is JSON white space (space, tab, LF, CR), ignored:
//
//	call   = "<invoke name=\"" NAME "\">" { WS | param } "</invoke>" .
//	param  = "<parameter name=\"" PNAME "\">" value "</parameter>" .
//	NAME   = 1 to 128 of [A-Za-z0-9_.-] .
//	PNAME  = 1 to 128 of [A-Za-z0-9_.-] .
//
// White space may follow the call, as it may follow a JSON value; anything
// else is [token.ErrTrailingData]. The arguments object begins at the '>'
// of <invoke name="…"> and ends at the '>' of </invoke>.
//
// A value is raw text, with no escapes and no framing: all the bytes
// between <parameter name="P"> and </parameter>, as MiniMax-M2's chat
// template writes them (a string as it is, anything else as its JSON
// text). vLLM's minimax_m2 parser strips white space around every value and
// then one line break at each end; argstream keeps them, since a string's
// leading and trailing white space (a file's last line break) is the
// model's, and the template writes none of its own. Other tags in a value
// are text ("<div>", "a < b"): only bytes that may still become
// "</parameter>" or one of the call's own tags ("<invoke name=",
// "</invoke>", "<parameter name=", "<minimax:tool_call>",
// "</minimax:tool_call>") are held back, and released as soon as they
// cannot. The text reaches the handler as it arrives.
//
// The call's own tags inside a value (a parameter left unclosed) and text
// other than white space between parameters are [token.ErrSyntax]; a
// parameter given twice, or two whose names a tool would confuse, is
// [token.ErrDuplicateKey] or [token.ErrCaseFoldedKey]; the end of input
// before </invoke>'s '>' is [token.ErrTruncated]. Names are in double
// quotes, as the template writes them (vLLM also takes single quotes: here
// they are [token.ErrSyntax]). Every error gives the byte offset, the line
// and column (line 1 is <invoke>'s) and the JSON pointer of the parameter
// concerned.
//
// # Types
//
// Without schemas ([New]) every value is a string. With the tools' schemas
// ([Typed], package [schema]), each value takes the type its parameter
// declares: numbers, integers, booleans and null are read from the text
// (white space around them allowed); objects and arrays are JSON text, as
// the template writes them with tojson. A parameter the schema does not
// allow, or a value that does not fit, is [token.ErrSchema] (see package
// internal/textargs for the details). vLLM, by contrast, guesses: "nil" or
// "None" for null, "yes" or "on" for true, and falls back to a string.
//
// # Format
//
// [Format] writes a call as the chat template does: the <invoke> tag, each
// parameter on a line of its own, </invoke>, each value as it is (a string
// as it is, numbers, booleans and null as their JSON text, arrays and
// objects as compact JSON text). It cannot carry, and returns an error
// naming the parameter for: arguments that are not a JSON object, a name
// that is not a NAME or PNAME, and a value holding "</parameter>" or one of
// the call's own tags.
//
// # Memory and concurrency
//
// Event data is borrowed: it points into the chunk being fed or into the
// tokenizer's buffers, and is valid until Handle returns. A Tokenizer may
// not be used from several goroutines at once; separate Tokenizers may run
// in parallel, and may share one [*schema.Tools]. A Reset tokenizer reads a
// call without allocating.
package minimax
