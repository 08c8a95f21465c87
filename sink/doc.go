// Package sink is the consumer side of argstream: the [Sink] interface that
// everything acting on fragments implements (the aggregator, the policy
// evaluator, renderers, your own code), fan-out to several sinks, and early
// stop.
//
// A sink sees the fragments of one tool call in order, each borrowed for the
// duration of Push, and then exactly one End: End(nil) when the arguments
// ended complete and valid, End(err) when they did not, after every fragment
// that preceded the error. A sink that has seen enough (a policy that decided
// "skip") returns [ErrStop], or an error wrapping it, from Push: the stream
// stops parsing, every sink gets End with that error, and the caller sees it
// from Feed and can cancel the upstream request.
package sink
