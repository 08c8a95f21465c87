// Package toolcall keeps apart the several tool calls of one provider
// response, which arrive interleaved, each announced by an index, an id and
// a tool name, some with their whole input at the start, some cut off by
// max_tokens.
//
// A [Response] gives each call its own [argstream.Stream], an aggregator of its
// arguments, the sink the user's constructor makes for it ([WithSinks]) and,
// if a policy applies to its tool ([WithPolicy]), a streaming policy
// evaluator; every fragment reaches them with the call's identity
// ([fragment.Call]). At the end of the response, End closes every call still
// open and returns each call's [Result] in index order: its identity, its
// arguments as compact JSON or its error, its policy verdict, and whether it
// may run. The provider wire adapters drive a Response, and so can the
// event loop of an official SDK: see the examples.
//
// # The call grammar
//
// The calls a Response takes for one response, where i is a call's index
// (the provider's, an int64 from 0), are:
//
//	response = { Start(i) | Chunk(i) | Stop(i) | Restate(i) | StopAll | Decline(i) | Approve(i) | Pending | Incomplete | Fail } End { Approve(i) | Decline(i) | Fail } [ Reset ] .
//
// in any interleaving of the indexes: a call's Start, Chunks and Stop need
// not be adjacent to each other. For one index, in the order received:
//
//	call(i) = [ Start(i, id, name, input) ] { Chunk(i) | Start(i, id, name, input) } [ Stop(i) | Restate(i, args) ] { Restate(i, args) } .
//
// The first Start, Chunk or Restate of an index opens the call: the sink
// constructor is called then, with the identity known then. A Chunk for an
// index never started opens an unnamed call. An id or a name still empty is
// filled in by a later Start; one that differs from the call's makes the
// call fail (a [*MismatchError]), since the SDKs that read the same stream
// may take the other. Start's input is argument text (Anthropic's
// content_block_start input), except that exactly {} before any argument
// bytes is a placeholder: deltas follow, or,
// if the call stops with none, the call had no input and its arguments are
// {}. Chunks of a declined call, or of one whose arguments have failed, are
// discarded; bytes after Stop make the call fail with [ErrAfterStop]. Stop of
// an index never started is ignored (a loop may call Stop for text blocks
// too); StopAll stops every call (Chat Completions' finish_reason). End
// ends the response: every call still open is closed, and one cut off ends
// with [token.ErrTruncated]. After End, Start, Chunk and Stop return [ErrEnded]
// until Reset, which readies the Response for the next response. At most
// [WithMaxCalls] calls ([DefaultMaxCalls]) open in one response: the method
// that would open one more returns [ErrTooManyCalls].
//
// A call that got no argument bytes at all gets {} only when the provider
// said so (Start's input {} and then Stop); otherwise it ends truncated,
// like a Stream closed with no input. Calls are independent: one call's
// bad arguments, or its sink's error, end that call only, and are reported
// in its Result, not returned by Start, Chunk or Stop, which return only
// [ErrIndex], ErrTooManyCalls and ErrEnded.
//
// # What runs is what streamed
//
// Whatever a policy judged and a person saw is what an executable call
// runs. So:
//
//   - a restatement (Restate: the Responses API's done events and final
//     response) must equal what streamed, as JSON written the same way, or
//     the call fails with a *MismatchError; one that comes with nothing
//     before it is parsed as the call's input;
//   - a call the provider runs itself (Call.Server: Anthropic's server
//     tools, MCP calls) is never executable for the caller;
//   - nothing is invented: the arguments of a call the provider did not
//     finish (no Stop, or a response it cut short: Incomplete) that are a
//     bare number end truncated, since 12 may have been 123;
//   - a response whose stream could not be read with certainty (an adapter
//     calls Fail) runs no call at all.
//
// # Policy, approval and cancellation
//
// WithPolicy looks up a call's policy by tool name when the name is known.
// A policy whose first rule is a catch-all decides at the call's start;
// any other decides as soon as the fragments received settle it (package
// policy). [OnDecision] reports each decision the moment it is made, with the
// Response: show the permission prompt then, while the arguments still
// stream. If the user approves, Approve(i); if the user declines,
// Decline(i) discards the rest of the call and reports whether it was the
// only call still pending: if so, cancel the response's context, to stop
// paying for tokens that would be thrown away; if not, keep reading, for
// the other calls (RFD D26's Phase 3: docs/design.md, "RFD D26's phases").
// [WithDeclineOnSkip] does the same on its own for a skip decision. An answer
// may also come after End (a prompt shown once the stream is over): Approve
// and Decline then update the Results.
//
// A decision is never permission to run. Run a call only if its
// [Result.Executable] is true: its arguments ended complete and valid, it is
// the caller's to run, it was not declined, and its policy verdict is
// Unattended ([policy.Verdict.Unattended]: no declared path is suspect), or
// it was approved with Approve. An Ask or Edit call nobody approved ends
// with [ErrNotApproved], its arguments in its Result, and so does a call
// decided Unattended with a suspect declared path, such as "~/.ssh/x": the
// decision OnDecision reported stays Unattended, the Result asks for an
// answer. A call decided early whose arguments later fail is not
// executable.
//
// # Memory
//
// Results and their Arguments belong to the Response and are valid until
// its Reset. Fragments handed to sinks are borrowed for the Push call, as
// everywhere in argstream. A Response keeps its Streams, aggregators and
// evaluators across calls and responses: reused with Reset, it does not
// allocate per delta, nor per call once its pools are warm (the sink
// constructor aside).
//
// # Concurrency
//
// A Response is for one goroutine: it calls its sinks and callbacks from
// the goroutine that calls its methods. Sinks and callbacks may call
// Decline and Approve, and no other method of the Response.
package toolcall
