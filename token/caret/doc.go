// Package caret is the tokenizer of one caret block, the tool-call syntax
// of code-assistant's "triple-caret" design (docs/design.md, "Tool calls
// written in text"), read while it streams:
//
//	^^^write_file
//	path: src/lib.rs
//	content ---
//	//! hello
//	fn main() {}
//	--- content
//	^^^
//
// A [Tokenizer] reads the whole block, fences included (package dialect finds
// blocks in prose and feeds each one to a tokenizer made here, through
// argstream.WithTokenizer), and reports the token events of the JSON object
// of its arguments, as package jsontoken reports those of a JSON tool call:
//
//	{"path":"src/lib.rs","content":"//! hello\nfn main() {}"}
//
// so that the translator, the aggregator, the policy and the renderer see a
// caret block as they see any other call. [New] reads every value as a
// string and every list as an array of strings; [Typed] gives each value the
// JSON type that the schema of the block's tool declares (package [schema]),
// so that "count: 3" is 3 and "paths: src/a.go" is ["src/a.go"]. [Format]
// writes JSON arguments as a caret block.
//
// # Grammar
//
// A block is lines. A line ends with "\n"; a "\r" right before the "\n" is
// part of the line end (CRLF), a "\r" anywhere else is an ordinary byte:
// text in a value, an error in the block's structure. In EBNF, with EOL the
// line end and TEXT any bytes but a line end:
//
//	block     = "^^^" name EOL { param | EOL } "^^^" [ EOL ] .
//	name      = namechar { namechar } .             (at most 128 bytes)
//	namechar  = "A"…"Z" | "a"…"z" | "0"…"9" | "_" | "-" .
//	key       = keychar { keychar } .               (at most 128 bytes)
//	keychar   = namechar | "." .
//	param     = key ": " TEXT EOL                   (one-line value; not exactly "[")
//	          | key ":" EOL                         (the empty value "")
//	          | key ": [" EOL { element | EOL } "]" EOL
//	          | key " ---" EOL body "--- " key EOL .
//	element   = TEXT EOL .                          (not empty, not "]", not beginning with "^^^", "] " or "]\t")
//	body      = { TEXT EOL } .                      (no line exactly "--- " key)
//
// The value of a multi-line parameter is the body with its line ends as
// written, except the last line end, the one before "--- KEY": that one
// belongs to the marker. "KEY ---" EOL "--- KEY" EOL is the empty value.
// A one-line value and a list element are the rest of their line, raw.
//
// The choices, where the design document leaves room:
//
//	question                                   answer
//	-----------------------------------------  ---------------------------------------------
//	white space at the start of a line         error ("line begins with white space"), except
//	                                           in a value or list element, whose text is raw
//	white space at the end of a marker line    error: "^^^", "]", "KEY ---" and the fence are exact
//	  (fence, "]", "KEY ---")
//	white space at the end of a value          kept: the value is the rest of the line, raw
//	"KEY:VALUE" (no space)                     error; "KEY:" and "KEY: " are the empty value ""
//	"KEY: [" then a line end                   a list; "KEY: [x" is the value "[x"
//	empty lines                                ignored between parameters and in lists (the
//	                                           design says so), text in a multi-line value
//	a line beginning with "^^^" in a list      error: the list is not closed
//	a line of white space only                 error between parameters, an element in a
//	                                           list, text in a multi-line value
//	"^^^" in a multi-line value                text; so is "--- OTHER" and "--- KEY " (spaces)
//	"] " in a list                             error (the marker is exact); "]x" is an element
//	a parameter given twice                    token.ErrDuplicateKey (and keys equal under case
//	                                           folding: token.ErrCaseFoldedKey, as for JSON)
//	a bare "\r" (no "\n" after it)             text in a value; error in a structure line
//	the input ends before the closing fence    token.ErrTruncated, wherever it ends: a block
//	                                           without its closing fence is never complete
//	anything after "^^^" and its line end      token.ErrTrailingData
//	a value of the wrong type (Typed)          token.ErrSchema, at the value: "3.0" is not an
//	                                           integer, "yes" not a boolean
//	a parameter the schema does not declare    token.ErrSchema naming the near one ("path" for
//	                                           "paths"); never renamed
//	a single value for an array parameter      a one-element array (the design's
//	                                           back-compatibility rule)
//
// # Events
//
// The events are those of a JSON object (see package [token]): BeginObject at
// the end of the opening fence's name, each parameter's Key and value (the
// events of a string, of a number or literal, of an array, or of a JSON
// text, as the schema says), EndObject after the closing fence's "^^^".
// String data is reported as it arrives: a one-line value holds back only
// a "\r" at the end of a chunk, until it knows whether "\n" follows; a
// multi-line value holds back only what may still be its last line end and
// the end marker after it ("\n--- con" of "\n--- content"), so that a
// file's content reaches the handler line by line while the model writes
// it. Numbers, booleans and null (Typed) are reported at the end of their
// line.
//
// An event's Offset is where what it reports ends in the block: the end of
// the name for BeginObject, the first byte of a value (or the "[" of a list,
// or the line after "KEY ---") for its Key, the end of each piece of text,
// the end of a value's text for its EndString (the line end that shows the
// value complete comes after it), just past the "]" of a list for its
// EndArray, just past the closing "^^^" for EndObject. Offsets never go back, and do not depend
// on how the block is cut into chunks.
//
// # Errors
//
// Every error is a [*token.SyntaxError] of syntax "caret block", with its
// category ([errors.Is]: [token.ErrSyntax], [token.ErrTruncated],
// [token.ErrSchema], ...), its byte Offset in the block, its Line and Column
// (line 1 is the opening fence) and the JSON Pointer of the parameter
// concerned ("" for the block's structure). Its message is for people and
// may change.
//
// The options are those of every tokenizer: [token.WithMaxSize],
// [token.WithMaxDepth] (the arguments' object is depth 1, a list depth 2,
// JSON text deeper) and [token.WithConfusableKeys].
//
// # Memory
//
// Event data is borrowed: it points into the chunk being fed or the
// Tokenizer's buffers, and is valid only until Handle returns. A handler that
// keeps it copies it. Feeding allocates nothing in steady state, and a
// Tokenizer made ready again with Reset allocates nothing for its next block.
//
// # Cost
//
// Linear in the input, however it is cut: a multi-line value is searched
// for its line ends with [bytes.IndexByte], and every byte is looked at a
// bounded number of times.
//
// # Concurrency
//
// A Tokenizer may be used by one goroutine at a time; separate Tokenizers may
// run in parallel and share a [*schema.Tools]. Format may be called from any
// number of goroutines.
package caret
