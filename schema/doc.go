// Package schema reads the JSON Schemas of a set of tools, the tool
// definitions a caller already sends to a provider, for the tokenizers of
// tool calls written in text (token/caret, token/xmltag, token/qwen).
//
// A call written in text carries its arguments as text: "count: 3" says
// neither that 3 is a number nor that it is not a string. The tool's schema
// says which: [Parse] reads the definitions, and a tokenizer made with them
// gives each parameter the JSON type its schema declares, so that the
// arguments of a caret block are the same JSON object as those of a JSON
// tool call.
//
// # What is read
//
// Parse takes a JSON array of tool definitions, or an object with such an
// array under "tools" (a request body), in any of the providers' forms:
//
//	{"name": "read_files", "input_schema": {...}}                          Anthropic
//	{"type": "function", "function": {"name": ..., "parameters": {...}}}   OpenAI Chat
//	{"type": "function", "name": ..., "parameters": {...}}                 OpenAI Responses
//
// Of each tool's schema it reads "properties" and "additionalProperties";
// of each property its "type", and for arrays the "type" of "items":
//
//   - "string", or no type at all: the text as it is ([String]);
//   - "number", "integer", "boolean", "null": the text, without surrounding
//     JSON white space, must be a JSON number (an integer is one without
//     fraction or exponent: "3", not "3.0"), true or false, or null;
//   - "array": an array, whose elements are typed by "items" the same way;
//   - "object", a list of types that does not include "string", or an
//     array of such items: the text is JSON, parsed as such (JSON kind);
//   - a list of types that includes "string" (["string", "null"]): a string.
//
// A tool whose schema lists properties is closed unless its
// additionalProperties is true or a schema: a parameter it does not declare
// is an error (token.ErrSchema), not a silent extra. This is also how a
// singular/plural mismatch is treated: "path" for a tool that declares
// "paths" is an error that names "paths"; it is never renamed, since the
// policy would then judge one parameter and the tool read another.
//
// # Concurrency
//
// A [*Tools] is immutable once Parse returns: any number of goroutines and
// tokenizers may share it.
package schema
