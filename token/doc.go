// Package token holds argstream's resumable tokenizers: they take input in
// chunks of any size and report SAX events the moment the bytes received
// determine them.
//
// A Tokenizer is fed with Feed and ended with Close. Events go to a Handler:
// begin and end of objects and arrays, complete object keys, string values in
// decoded pieces between BeginString and EndString, and null, true, false and
// numbers (with their exact text). Event data is borrowed: it is valid only
// until Handle returns.
//
// Package jsontoken has the JSON tokenizer.
//
// Input must be one RFC 8259 JSON value in valid UTF-8, with unique object
// keys, nested at most MaxDepth deep (DefaultMaxDepth unless set) and, when
// MaxSize is set, no longer than that. Unless AllowConfusableKeys is set, no
// two keys of an object may be equal under Unicode simple case folding
// ("path" and "PATH": ErrCaseFoldedKey), and no key may hold U+0000
// (ErrNULInKey): a tool runtime would confuse them. Anything else ends in a *SyntaxError
// that gives the category (errors.Is with ErrSyntax, ErrTruncated, ...), the
// byte offset in the whole stream and the JSON pointer of the value concerned.
// Events delivered before an error stay delivered; the error comes after them.
package token
