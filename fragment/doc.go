// Package fragment holds the fragment protocol of RFD 043 ("Incremental Tool
// Call Argument Streaming") in Go form, the Translator that produces it from
// token events, and its two text forms. docs/design.md ("The fragment
// protocol") is the project's account of the RFD, whose text is in
// testdata/reference.
//
// # The protocol
//
// A tool call's arguments become a sequence of fragments. Each fragment is a
// leaf (a scalar, a piece of string data, or [Done]) at a path of object keys
// and array indexes. The RFD nests the same information:
//
//	path ["patterns", 0, "old"], leaf String("lo")
//
// is the RFD's
//
//	ObjectEntry { key: "patterns", value: ArrayItem { index: 0, value:
//	    ObjectEntry { key: "old", value: String("lo") } } }
//
// Every value ends with a Done at its own path: a scalar is one Scalar
// fragment and a Done, a string is zero or more [String] pieces and a Done, an
// array or object is the fragments of its members and a Done. The whole
// arguments end with the Done at the empty path.
//
// # Grammar
//
// The fragments of one call's arguments, in the order a [Receiver] gets
// them, where each production is the fragments of one value at path P
// (written [P]), the members' paths extending P by one key or index:
//
//	arguments = value[] .
//	value[P]  = scalar[P] | string[P] | array[P] | object[P] .
//	scalar[P] = Scalar[P] Done[P] .                       (Null, Bool, Number)
//	string[P] = String[P] { String[P] } Done[P]           (pieces of the text)
//	          | Done[P, Empty=""] .
//	array[P]  = value[P,0] { value[P,i+1] } Done[P]       (indexes 0, 1, 2, …)
//	          | Done[P, Empty=[]] .
//	object[P] = value[P,k] { value[P,k'] } Done[P]        (distinct keys)
//	          | Done[P, Empty={}] .
//
// So every value ends with a Done at its own path, and the whole arguments
// with the Done at the empty path. A stream that fails stops anywhere in
// this grammar: the fragments delivered are a prefix of it, and the error
// comes after them (in a sink, with End).
//
// # Lossless empty values
//
// The RFD's bare Done cannot tell "", [] and {} apart, since no other
// fragment precedes it. argstream's Done says which empty value ended, in its
// [Fragment.Empty] field: Done with Empty set is the whole of an empty
// string, array or object, written Done(""), Done([]) and Done({}) in the RFD
// notation and "empty":"", "empty":[] and "empty":{} in JSON Lines. A Done
// after other fragments of its value has Empty == [NotEmpty] and is written
// Done, exactly as in the RFD. So the fragments alone rebuild the exact
// value.
//
// # Escaped string pieces
//
// A String piece's Text is decoded. Most pieces also carry Escaped: the
// piece's input, when that is exactly Text escaped as jsontext escapes it
// (\n and \" kept, no \u or \/). A sink that writes JSON, such as the
// aggregator, copies it rather than escaping Text again. It is nil for the
// other pieces, which are few: those with escapes jsontext would not write,
// and the one that finishes an escape or rune that a chunk boundary split.
//
// # Memory
//
// A [Fragment] borrows its [Path], keys, Text and Escaped from the translator
// and the tokenizer: they are valid only until the call that delivered the
// fragment returns, like a [jsontext.Token] or [bufio.Scanner.Bytes]. A
// consumer that keeps a fragment keeps Clone's copy. The translator allocates
// nothing per fragment.
//
// One promise goes further, for keys: the bytes of a key slice on a path do
// not change while its member is open, that is until the Done of the
// member's value. The translator keeps each open object's current key in one
// place, so the fragments under a member carry the same key slice, or a copy
// of it in new memory when its buffer grows. A sink may therefore take a key
// slice it has already compared for an open member as equal without reading
// it again, which makes its work per fragment independent of the key's
// length: the aggregator does. Whoever produces fragments by hand keeps the
// same promise: a buffer reused for keys gets a member's key only after the
// Done of the previous member.
//
// # Text forms
//
// [Fragment.String] (and AppendText) gives the RFD notation on one line, so the
// RFD's examples read verbatim. [Fragment.AppendJSON] gives one JSON object per
// fragment, for JSON Lines:
//
//	{"path":["patterns",0,"old"],"string":"lo"}
//	{"path":["n"],"number":"2.5e3"}
//	{"path":["ok"],"bool":true}
//	{"path":["x"],"null":true}
//	{"path":["opts"],"done":true,"empty":{}}
//	{"path":[],"done":true}
package fragment
