// Package toolparser is the streaming tool parser of an OpenAI-compatible
// server: it turns the text of a model that writes its tool calls inside
// its text (a [dialect.Syntax]: qwen, xml, caret, and the open-weight
// families: hermes, mistral, deepseek, kimi-k2, glm45, minimax-m2,
// harmony), as it streams, into the Chat
// Completions chunks a server that parses tool calls sends.
//
//	w := toolparser.NewWriter(dialect.Qwen, emit, toolparser.WithTools(tools))
//	w.SetEnvelope(firstUpstreamChunk) // id, object, created, model
//	for delta := range textDeltas {
//		if _, err := w.WriteString(delta); err != nil {
//			return err // a *CallError: end the client's stream with an error
//		}
//	}
//	err := w.Finish(upstreamFinishReason)
//
// [Stream] does that to a whole upstream stream (server-sent events in,
// server-sent events out), [Whole] to a response that is not a stream;
// `argstream proxy --dialect NAME` puts Stream and Whole in front of its
// gateway (package guard), which then judges the calls as it judges a
// provider's.
//
// # The chunks
//
// The text's prose goes out as choices[0].delta.content, the moment the
// dialect's Reader releases it (it holds back only what may still open a
// call: a marker's length). Each call goes out as tool_calls deltas at
// its index in the message (0, 1, 2, ...): first, the moment its opening
// names the tool,
//
//	{"index":I,"id":"call_...","type":"function","function":{"name":NAME,"arguments":""}}
//
// then {"index":I,"function":{"arguments":PIECE}} as the arguments
// become known: PIECE is the next piece of the arguments' compact JSON
// text, as package aggregate writes it from the call's fragments (a key
// once it is complete, a string's text as it comes, a number once it
// ends), its values typed by the tools' schemas ([WithTools]) for a syntax
// whose values are text. The pieces of one call, joined, are the
// arguments a whole response holds. Reasoning text (the upstream's
// reasoning_content, gpt-oss's analysis channel) goes out as
// delta.reasoning_content, as vLLM sends it. The first chunk's delta says
// "role":"assistant". The last chunk has an empty delta and finish_reason
// "tool_calls" if the message had calls, else the upstream's (or "stop").
// What one Write settles goes out in as few chunks as its order allows:
// one for its prose, one per call's head, one for a call's arguments.
//
// Chunks carry the upstream's id, object, created and model members
// ([Writer.SetEnvelope]), since the SDKs' accumulators drop a chunk of
// another id. A call's id is the one its syntax gives (kimi-k2's
// functions.NAME:IDX, Mistral's [CALL_ID]), else one from [WithCallIDs] ([NewCallID] by default:
// "call_" and 24 random letters and digits, as servers make them).
//
// Prose, each call's arguments and the calls' names and ids are the same
// however the upstream's text is cut into deltas; how they are cut into
// chunks is not. A chunk never splits a UTF-8 character.
//
// # A call that fails
//
// A call is strict as package dialect reads it: its tokenizer refuses
// what two readers could read differently (duplicate or confusable keys,
// a value its schema refuses, a syntax error), and a call the text leaves
// open is truncated. Its head and the arguments known so far have gone
// out when the failure is known, and a client's SDK would accumulate them
// as a call: arguments that are a prefix of JSON text, which a lenient
// reader might complete and run. So a call that fails ends the message:
// the [Writer] returns a [*CallError] (which says which call, and where in
// its source: line and column) and writes nothing more, [Stream] ends the
// client's stream with an error event, which the OpenAI SDKs raise, and
// [Whole] returns the error and no response. Nothing of the message is
// executable; the other calls of the message fail with it, since the
// client reads the message as one. A call that names no tool fails too.
//
// # Time and memory
//
// Each byte of text is read once by the dialect's Reader and the call's
// tokenizer; a Writer keeps of a call's arguments only the open path (the
// arguments go to the client, not into memory: aggregate.WithDigest), and
// of its output only what one Write makes. A Writer reused with Reset
// allocates per call (its id, the digest of its arguments), not per
// delta.
//
// # Concurrency
//
// A [Writer] and the body [Stream] returns are for one goroutine. Options
// may be shared by any number of them.
package toolparser
