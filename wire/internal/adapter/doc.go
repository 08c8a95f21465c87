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
// A Decoder is for one goroutine.
package adapter
