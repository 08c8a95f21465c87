// Package aggregate rebuilds complete JSON values from fragments.
//
// An [Aggregator] writes the arguments as compact JSON while the fragments
// arrive. Every value, at any depth, is complete the moment its Done arrives,
// and is then a slice of that text: Add returns it, and the [OnValue] callback
// receives it with its path, so that a consumer can act on "path" while
// "content" is still streaming. Value returns the whole arguments at the end.
//
// The text is what a whole-document decode gives, written compactly: numbers
// keep their exact text, object keys keep their order, and strings are
// quoted as jsontext quotes them ([jsontext.AppendQuote]: minimal escaping).
// A String fragment whose Escaped input is already quoted that way, the
// common case, is copied as is; the others are quoted from their Text. It is
// the [jsontext.Value] that json.Unmarshal takes, so a tool can decode its
// arguments into its own struct.
package aggregate
