// Package differ is the differential test of argstream's wire adapters
// against the official SDKs (invariant 11: an event that two conforming
// readers could read differently is refused, never guessed).
//
// A Wire generates valid streams of tool calls (Calls, Cut, Schedule: ids,
// names, JSON arguments cut into deltas of 1 to 12 bytes, some calls
// interleaved) or takes a recording (ParseSSE), and applies one Mutation
// of a named class: the classes every wire shares are Mutations(), each
// wire's test adds its own (restatements, indexes out of order...).
// Streams are Events of Nodes, JSON values whose objects keep repeated and
// case-folded member names, written in any Style.
//
// Check is the property: argstream's raw adapter refuses the stream
// (ErrMalformed, nothing executable), or it reads the calls the readings
// through the SDK read, which must agree with each other. Results is the
// one place that reads a toolcall.Result's index type.
package differ
