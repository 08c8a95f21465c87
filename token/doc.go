// Package token is the vocabulary that every argstream tokenizer shares,
// whatever the syntax of its input: the events a tokenizer reports ([Event],
// [Kind]), the [Handler] that receives them, the [Tokenizer] interface (Feed,
// Close) and [NewFunc], the options and limits ([WithMaxDepth], [WithMaxSize],
// [WithConfusableKeys]), and the errors ([SyntaxError] and its categories,
// [ErrClosed]). It has no syntax of its own: the tokenizers live in their own
// packages, the JSON one (the default) in token/jsontoken.
//
// # Events
//
// A tokenizer takes its input in chunks of any size and reports each event
// the moment the bytes received determine it. For one document, the calls
// of Handle follow this grammar (EBNF; each name in capitals is one call,
// with an Event of that Kind):
//
//	Document = Value .
//	Value    = Object | Array | String | Scalar .
//	Object   = BeginObject { Key Value } EndObject .
//	Array    = BeginArray { Value } EndArray .
//	String   = BeginString { StringData } EndString .
//	Scalar   = Null | False | True | Number .
//
// [Key] carries the whole decoded key in Data. A string value comes in
// decoded pieces, each [StringData] non-empty and never ending inside a UTF-8
// sequence; how the value is cut into pieces depends on the chunking, the
// text they make together does not. [Number] carries its exact input text.
// Each event carries the Offset of the input prefix that determined it.
//
// After bad input, or when Handle returns an error, no more calls follow:
// Feed and Close return the error (a *SyntaxError for bad input), and the
// events already delivered stay delivered.
//
// # Memory
//
// Event data is borrowed: Data and Escaped point into the tokenizer's
// buffers or into the chunk being fed, and are valid only until Handle
// returns. A handler that keeps them copies them. The Event value itself is
// the handler's.
//
// # Input
//
// Input must be one document, nested at most as deep as [WithMaxDepth] says
// ([DefaultMaxDepth] unless given) and, when [WithMaxSize] is given, no
// longer than that. Object keys must be unique; unless given
// WithConfusableKeys(true), no two keys of an object may be equal under
// Unicode simple case folding ("path" and "PATH": [ErrCaseFoldedKey]), and no
// key may hold U+0000 ([ErrNULInKey]): a tool runtime would confuse them.
// Anything else ends in a *SyntaxError that names the syntax and gives the
// category ([errors.Is] with [ErrSyntax], [ErrTruncated], ...), the byte
// offset in the whole stream and the JSON pointer of the value concerned. Its
// message is for people and may change.
package token
