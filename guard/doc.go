// Package guard is a gateway that enforces tool-call policy while a
// provider's response streams: it forwards every event the moment it is
// read, byte for byte, but for the events of a tool call whose policy has
// not decided yet, which it holds, in order, until the decision; then a
// forwarded call's events go out at once and the rest of it streams
// through, and a blocked call never reaches the client in any form an SDK
// would run: a short notice naming the tool and the rule stands in its
// place. If the blocked call was the only one still streaming, the
// upstream request is cancelled at once (no more paying for its tokens)
// and the client's stream is ended with well-formed closing events.
//
// It reads the wires of packages anthropicstream, openaistream and
// geministream (Anthropic Messages, OpenAI Chat Completions, the Responses
// API, Gemini), with their strictness: an event that two readers could
// read differently is refused, and whatever the gateway cannot read ends
// the client's stream with the wire's error event (fail closed).
//
// # Faces
//
//	g := guard.New(guard.Config{Policy: policyOf, OnCall: audit})
//
//	// An http.RoundTripper, for a Go program's SDK client:
//	client := &http.Client{Transport: &guard.Transport{Guard: g}}
//
//	// An http.Handler (an httputil.ReverseProxy), for a server:
//	http.Handle("/", guard.NewProxy(upstreamURL, g))
//
//	// The command: argstream proxy --upstream URL --rules-dir DIR
//
// Each judges what the client's SDK will read, whatever the headers claim:
// a stream when the request asked for one ("stream": true), of the wire
// the path names (.../messages, .../chat/completions, .../responses,
// wherever mounted, however spelled) or, for another path, that the events
// show; a response that is not a stream whole ([Guard.Whole]). A compressed
// request or response (gzip, deflate) is read decoded. A request in an
// encoding the gateway cannot decode (zstd, which Codex sends) is forwarded
// as it came, and its 2xx response, on any path, is judged as what its
// Content-Type says: a body that is not what its type says fails to parse,
// and is refused. A request to switch protocols (a WebSocket), whose
// messages the gateway does not read, is refused. Other endpoints, error
// statuses and their bodies pass unchanged. Filter is the core, for a
// caller with a body of its own.
//
// # A model served raw
//
// With [Config.Dialect], the gateway stands in front of an
// OpenAI-compatible server whose tool parser is off, serving a model that
// writes its tool calls in its text: package toolparser rewrites each
// Chat Completions response (streamed or whole) into the tool_calls a
// server that parses them sends, typed by [Config.Tools] or the request's
// own tools, and the result is judged as a provider's stream is, by the
// same code. A call that is not valid ends the client's stream with an
// error event; a model's request of another wire is refused.
//
// # What the client reads in place of a blocked call
//
//   - Anthropic: a text block at the call's index, holding the notice;
//     stop_reason tool_use becomes end_turn if no call the client runs is
//     left.
//   - Chat Completions: the call's tool_calls elements are left out, a
//     content delta holds the notice, the calls after it come one index
//     lower (the SDKs' accumulators index their calls by it); finish_reason
//     tool_calls becomes stop if no call is left.
//   - Responses: a message item at the call's output_index, its events
//     whole, and in the final response's output.
//   - Gemini: a text part in place of the call's first functionCall part;
//     the other parts of a call streamed over several (Vertex AI's
//     partialArgs) are left out.
//
// On its next turn the model reads the notice as the assistant's own text:
// it knows the call did not run, and why.
//
// # What it cannot see
//
// The gateway judges the model's tool calls, as they stream: not the
// requests (what the agent sends, the tool results), nor what a tool does
// once an agent runs a forwarded call. An ask decision is forwarded by
// default, for the agent's own prompt to ask ([Config.BlockAsk] blocks it).
// A Responses custom_tool_call (a tool whose input is free text, as Codex's
// apply_patch) is judged as a call whose arguments are {"input":TEXT}, as
// its text streams. A Chat custom tool's call ends the stream with an
// error: the SDKs do not read its input as the gateway would judge it
// (openai-go has no member for it, the JavaScript SDK keeps only its last
// delta). A call whose input the gateway does not read (the Responses
// API's local_shell_call, shell_call, apply_patch_call and computer_call
// items, which the agent runs) is not judged: it ends the stream with an
// error too, as do tool calls in a Chat
// choice other than the first, and Chat tool calls without an index, which
// the SDKs number otherwise. Gemini's wire ([wire.OfPath]: its path says
// whether it streams) is judged as the others; a whole call is decided
// within its event, so nothing is held for it, and the upstream is not
// cancelled for a Gemini block. Ollama's (JSON lines) and Bedrock's (event
// stream frames) are not judged: a stream of theirs is refused, and a
// whole response that holds a tool call.
//
// # Memory and time
//
// Each response is read as its client reads it: a slow client slows the
// upstream down rather than fill memory. What a response holds at once is
// the event being read (at most [Config.MaxEventSize]) and the events held
// behind a pending decision (at most [Config.MaxHeld]: past it, the call is
// blocked); a Responses stream also keeps its done items, to end it
// itself. Each byte is read once.
//
// # Concurrency
//
// A [Guard], a [Transport] and the proxy are safe for concurrent use; each
// response has its own state. A response body is read by one goroutine,
// and may be closed from another while a Read waits, as an
// http.Response's body may. [Config]'s callbacks are called from the
// goroutine that reads the response.
package guard
