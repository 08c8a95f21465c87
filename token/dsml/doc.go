// Package dsml reads one tool call written in DeepSeek's DSML format
// (DeepSeek V3.2 and V4) while it streams, and reports the events of the
// JSON object of its arguments (package [token]), so that the translator,
// the aggregator, the policy and the renderer see it as they see a JSON
// tool call:
//
//	<｜DSML｜invoke name="write_file">
//	<｜DSML｜parameter name="path" string="true">src/main.rs</｜DSML｜parameter>
//	<｜DSML｜parameter name="mode" string="false">420</｜DSML｜parameter>
//	</｜DSML｜invoke>
//
// gives {"path": "src/main.rs", "mode": 420}. (｜ is U+FF5C, the
// fullwidth vertical line, three bytes in UTF-8.) The input is the call,
// from <｜DSML｜invoke name="…"> to </｜DSML｜invoke>: the
// <｜DSML｜function_calls> block around one or more calls (and V4's
// <｜DSML｜tool_calls>) is package dialect's framing, which finds calls in
// an assistant's text and feeds each one's bytes to a [Tokenizer] through
// argstream.WithTokenizer.
//
// # Grammar
//
// In EBNF, where WS is JSON white space (space, tab, LF, CR), ignored:
//
//	call   = "<｜DSML｜invoke name=\"" NAME "\">" { WS | param } "</｜DSML｜invoke>" .
//	param  = "<｜DSML｜parameter name=\"" PNAME "\"" [ kind ] ">" value "</｜DSML｜parameter>" .
//	kind   = " string=\"true\"" | " string=\"false\"" .
//	NAME   = 1 to 128 of [A-Za-z0-9_.-] .
//	PNAME  = 1 to 128 of [A-Za-z0-9_.-] .
//
// White space may follow the call, as it may follow a JSON value; anything
// else is [token.ErrTrailingData]. The arguments object begins at the '>'
// of the invoke tag and ends at the '>' of </｜DSML｜invoke>.
//
// A value is all the bytes between its tags, with no framing, as
// DeepSeek's encoding writes them. With string="true" it is raw text,
// with no escapes (a string, unless the schema says otherwise: see Types);
// with string="false", or without the attribute, it is JSON text (white
// space around it allowed), streamed as it is parsed. Other tags in a value are text ("<div>", "a < b"): only bytes
// that may still become "</｜DSML｜parameter>" or one of the DSML tags a
// value may not hold (any "<｜DSML｜", "</｜DSML｜invoke>",
// "</｜DSML｜function_calls>", "</｜DSML｜tool_calls>") are held back, and
// released as soon as they cannot. The text reaches the handler as it
// arrives.
//
// Those DSML tags inside a value (a parameter left unclosed), text other
// than white space between parameters, a string attribute other than
// "true" or "false", and a value with string="false" that is not JSON are
// [token.ErrSyntax] (DeepSeek's reference parser and SGLang fall back to
// the raw text as a string there: argstream does not guess). A parameter
// given twice, or two whose names a tool would confuse, is
// [token.ErrDuplicateKey] or [token.ErrCaseFoldedKey]; the end of input
// before </｜DSML｜invoke>'s '>' is [token.ErrTruncated]. Every error
// gives the byte offset, the line and column (line 1 is the invoke tag's)
// and the JSON pointer of the parameter concerned.
//
// # Types
//
// Without schemas ([New]), a string="true" value is a string and any other
// the JSON value it holds. With the tools' schemas ([Typed], package
// [schema]):
//
//   - A string="true" value is raw text typed by its parameter's schema,
//     as a value of token/glm or token/minimax is: a string as it is;
//     numbers, integers, booleans and null read from the text (white space
//     around them allowed); arrays and objects as JSON text. So
//     string="true" with "42" for an integer parameter is 42, and with
//     "forty" is [token.ErrSchema]. The encoding writes string="true" only
//     for strings, so a template's call reads the same either way; for a
//     model that marks a number as a string this is what vLLM's
//     deepseek_v32 parser does, where DeepSeek's reference parser and
//     SGLang keep the string "42", which the schema does not allow.
//   - A JSON value must be of the declared type, checked on its first
//     token, before any of it is reported: a number for a number, a number
//     without fraction or exponent for an integer, true or false for a
//     boolean, null for null, an array for an array (its elements
//     unchecked, as for any array written as JSON text). A parameter
//     declared as a string takes any JSON value: package schema gives the
//     same type to a string and to what it cannot type (no "type", anyOf
//     or oneOf, as Optional fields are often written), which may hold
//     objects. So does an object, or a union of types.
//
// A parameter the schema does not allow, or a value that does not fit, is
// [token.ErrSchema] (see package internal/textargs).
//
// # Format
//
// [Format] writes a call as DeepSeek's encoding does: the invoke tag, each
// parameter on a line of its own, the closing tag; a string with
// string="true" as it is, any other value with string="false" as compact
// JSON text (the encoding's json.dumps puts a space after ',' and ':';
// both read the same). It cannot carry, and returns an error naming the
// parameter for: arguments that are not a JSON object, a name that is not
// a NAME or PNAME, and a value holding one of the DSML tags above or
// "</｜DSML｜parameter>".
//
// # Memory and concurrency
//
// Event data is borrowed: it points into the chunk being fed or into the
// tokenizer's buffers, and is valid until Handle returns. A Tokenizer may
// not be used from several goroutines at once; separate Tokenizers may run
// in parallel, and may share one [*schema.Tools]. A Reset tokenizer reads a
// call without allocating.
package dsml
