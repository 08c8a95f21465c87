// Package adapter holds what the provider wire adapters
// (wire/anthropicstream, wire/openaistream) share: the [Decoder] of an
// event's JSON data, the [Loop] over a stream's server-sent events, and the
// [Config] that wire.Option sets.
//
// A Decoder reads one event's data at a time, field by field, with jsontext
// tokens, into buffers the caller reuses from event to event: no
// reflection, and no allocation per event once the buffers have grown. Each
// adapter walks the fields it knows with Root, Object and Array, reads the
// values it wants with String, Index and Value, and skips the rest, so that
// fields a provider adds later do not break it. Any error means the data is
// not what the adapter expects; the adapter wraps it in wire.ErrMalformed,
// with the event's number.
//
// The fast paths of the adapters read the common events (deltas, above all)
// with a byte scanner instead, shared in fast.go: [Members] reads an object
// the adapter reads, in any layout (members in any order, white space,
// escapes in strings, unknown members of any kind skipped by [Skip] after
// one validation), with [Unquote], [Index] and [NullableString] for the
// values; a [Layout] learns the layout of the last event read, so that the
// next events of that layout are read by comparing bytes but for the
// values that change. A fast path takes only what the Decoder would read
// the same way and declines the rest, which the Decoder then reads: its
// answer is the answer. Each adapter's tests check that on generated
// events in every layout, mutated, and on sequences of them.
//
// A Decoder, and a Layout, is for one goroutine.
package adapter
