// Package argstream parses the arguments of an LLM tool call while they
// stream, and hands them on as typed fragments the moment the bytes received
// determine them.
//
// A provider sends a tool call's arguments as JSON text in small chunks over
// seconds. Waiting for the whole object delays everything; re-parsing the
// growing text on every chunk costs time quadratic in its length. A [Stream]
// parses each chunk once and dispatches the fragments of RFD 043's protocol
// (package [fragment]; docs/design.md, "The fragment protocol") to sinks
// (package [sink]): the aggregator that rebuilds complete values (package
// aggregate), a policy that decides as soon as the deciding argument is
// complete, a renderer, your own code.
//
//	agg := aggregate.New()
//	s := argstream.New(agg, argstream.WithCall(fragment.Call{ID: id, Name: name}))
//	for chunk := range deltas {
//		if err := s.Feed(chunk); err != nil {
//			return err // bad input (a *token.SyntaxError), or a sink stopped
//		}
//	}
//	if err := s.Close(); err != nil {
//		return err
//	}
//	args, _ := agg.Value()
//
// The work is linear in the input, whatever its chunking, and allocates
// nothing per fragment. A Stream and its sinks serve one goroutine at a time;
// separate Streams run in parallel. A sink that panics fails its Stream: see
// Stream. Bad input ends in an error that says what and where
// (byte offset, JSON pointer), after the fragments that preceded it.
package argstream
