// Command argstream runs argstream on tool-call arguments from a file or
// stdin, fed in chunks the way a provider streams them.
//
//	argstream fragments [SYNTAX] [--split N | --split random:SEED | --chunks CHUNKS.json] [--format rfd|jsonl] [FILE]
//	argstream fields [SYNTAX] [--split N | --split random:SEED | --chunks CHUNKS.json] [FILE]
//	argstream aggregate [SYNTAX] [--split N | --split random:SEED | --chunks CHUNKS.json] [FILE]
//	argstream policy --rules RULES.json [SYNTAX] [--split N | --split random:SEED | --chunks CHUNKS.json] [FILE]
//	argstream replay [--wire auto|anthropic|openai-chat|openai-responses|gemini|ollama|bedrock|cohere] [--framing auto|sse|jsonl|eventstream] [--rules RULES.json | --rules-dir DIR] [--format text|jsonl] [FILE]
//	argstream replay --syntax NAME [--schema TOOLS.json] [--rules RULES.json | --rules-dir DIR] [--format text|jsonl] [FILE]
//	argstream replay --render function_call|json [--syntax ...] [--rules RULES.json | --rules-dir DIR] [--pace recorded|none|BYTES_PER_SEC] [--width N] [FILE]
//	argstream proxy --upstream URL [--listen ADDR] (--rules RULES.json | --rules-dir DIR) [--ask forward|block] [--dialect NAME [--tools TOOLS.json]] [--audit FILE] [--admin ADDR] [--drain DURATION]
//	argstream version
//	argstream help [COMMAND]
//
// where SYNTAX is --syntax json|NAME [--schema TOOLS.json]: the input of
// the single-call commands is JSON arguments (json, the default) or one
// call written in text, fences or tags included, its values typed by the
// JSON Schemas of the tool definitions in TOOLS.json (package schema).
// NAME is a syntax of calls written in text (package [dialect]): caret,
// xml, qwen, hermes, mistral, deepseek-v3, deepseek-v31, deepseek-dsml,
// kimi-k2, glm45, minimax-m2 or harmony. replay --syntax reads an
// assistant's text, whose prose it reports as text (gpt-oss's analysis
// channel as thinking) and whose calls as the calls of one response. The
// single-call commands read one call's source as its tokenizer does: for
// the families whose arguments are JSON text (hermes, mistral, the two
// DeepSeek JSON ones, kimi-k2, harmony) that is the JSON arguments alone.
//
// fragments prints every fragment as it is produced, in RFD 043's notation
// (rfd, the default; docs/design.md, "The fragment protocol") or as JSON
// Lines (jsonl). aggregate prints the complete arguments as compact JSON.
// policy prints, as soon as it is known, the decision of the rules in
// RULES.json (see package [policy]) as one JSON line:
// {"mode":"ask","rule":1,"decided_at_byte":24,"total_bytes":10240}, where
// total_bytes, the input's length, is there only when it is known before the
// input is read (a regular file, or --chunks) and left out for a pipe; it
// exits 2 for invalid rules. version prints the module version when installed
// with go install (v1.2.0, or a pseudo-version for a commit), the commit's
// short hash, +dirty and commit time when built in a checkout ("(devel)" when
// there is neither: go run), then the Go version and GOOS/GOARCH. help lists
// the commands, each with what it does in one line.
//
// The benchmark command, which measured the pipeline against the
// hand-written baseline (argstream bench), is cmd/benchfile of the bench
// module (see bench/README.md): the shipped command does not link the
// benchmarks' baseline.
//
// fields prints the events of each top-level argument (see package [fields])
// as they are produced, one JSON line each: {"field":"start","key":"path"},
// then {"field":"delta","key":"path","text":"/tm"} for each piece of the
// value's text (the decoded string; for any other value its compact JSON,
// and the start line says "json":true), then {"field":"end","key":"path"}
// once the value is complete. Arguments that are not an object are invalid
// input.
//
// Input: FILE, or stdin when FILE is "-" or absent. The input is read as it
// arrives: what each read returns is fed at once, and the output it produces
// (fragments, a decision line) is written before the next read waits, so
// that it is visible while the producer is still writing; invalid input
// ends the command without waiting for the rest. Without --split each read
// is one chunk (a regular file is read whole, in one read); --split N feeds
// N-byte chunks, the bytes re-cut as they arrive, a chunk waiting for its
// last bytes; --split random:SEED feeds chunks of random length 0 to 64
// drawn from SEED; with --split, the chunks are the same however the bytes
// arrive. --chunks reads a JSON array of strings and feeds them in order,
// such as a provider's recorded deltas.
//
// What a model wrote (keys, values, names, ids, text, and the error
// messages that quote them) goes through package [render]'s escaper in
// every line the command prints: a character a terminal could act on, or
// that hides or reorders text (controls, bidi, zero-width, tags, the BOM,
// line separators, fillers, variation selectors...), is an escape, as Go
// writes it in the text formats (\u200b, \U000e0041, \x1b) and as JSON does
// in JSON lines (the same JSON value).
//
// Flags may come before or after FILE; after "--" every argument is FILE.
// A flag is spelt --flag (-flag is taken too). -h or --help after a
// command, or "argstream help COMMAND", prints its usage, what it does and
// its flags, each with its default.
//
// Messages are one line each on stderr: "argstream: FILE: what" about an
// input, FILE being the name given or "stdin" (for invalid arguments, what
// says what is wrong and where: the byte offset and the JSON pointer), and
// "argstream: what" about the command line.
//
// Exit status: 0 on success (--help and version included); 1 on invalid
// input, with the error on stderr after everything already printed; 2 on a
// usage error, invalid rules, or a file that cannot be read or written.
//
// # replay
//
// replay reads a provider's streamed response, recorded or live from a
// pipe, and prints what the tool-call layer (package [toolcall]) sees, as it
// sees it. --wire names the provider's API: anthropic (Messages),
// openai-chat (Chat Completions and the servers that speak it) or
// openai-responses (Responses). auto, the default, tells it from the first
// events: Anthropic's event types (message_start, content_block_*, ping,
// ...), data with "object": "chat.completion.chunk" or "choices", or a type
// starting with "response."; the events read to tell it are read again by
// the wire's reader, and no byte beyond them is read before. If 16 events
// do not tell, replay exits 2: "cannot tell the wire ...", with what the
// input looks like.
//
// --framing says how the events are framed: sse, server-sent events as the
// HTTP body carries them, or jsonl, one event's JSON data per line, as
// vercel/ai records streams (its *.chunks.txt; each line is read as an
// event of the data's type; Ollama's streams are such lines; Bedrock's
// events, {"TYPE": PAYLOAD} a line, are framed again as the AWS event
// stream messages they came in), or eventstream, AWS event stream frames,
// Bedrock's (one response a file).
// auto, the default, tells them from the first bytes: an event stream
// prelude (its CRC checked) is frames, "{" (after white space) JSON lines,
// anything else server-sent events. An input whose first line is neither (a README, a pretty-printed
// JSON document, an array, compressed data) is refused at once, exit 2,
// with what it looks like and what to try: --syntax for an assistant's
// text with calls written in it, argstream fragments for bare arguments,
// --chunks for an array of deltas. When the first response ends in an
// error and its start looks like another wire's stream (--wire anthropic
// on a Chat Completions stream), a second message says so and names the
// --wire to try.
//
// An input may hold several responses one after another, as recordings of
// a conversation do: each is read to its end (message_stop, [DONE],
// response.completed, ...) and reported, then the next, with the wire of
// the first. replay ends at the end of the input, or at the first response
// that ends in an error.
//
// --rules RULES.json applies one policy to every tool. --rules-dir DIR
// holds a policy per tool, DIR/TOOLNAME.json, all loaded at the start
// (other files are ignored); a tool name is only ever looked up among the
// files listed in DIR, never made into a path. A tool that has no file in
// DIR gets ask: the policy of a tool without rules, the implicit ask (rule
// -1), decided at the call's start. A rules directory is an allow-list: a
// model cannot escape it by calling a tool it does not list. Every call is
// parsed to its end, a skipped one included.
//
// Indexes are the provider's, and say what they number: Anthropic's
// content block ("block 1 call", "block 0 text"), Chat Completions' tool
// call and choice ("tool call 0", "choice 0 text"), the Responses API's
// output item ("item 1 call"); the calls written in an assistant's text
// are numbered from 0 ("call 0").
//
// --format text, the default, prints lines for a person: "response 0:
// anthropic", the model's text as it comes ("block 0 text: ...", its
// further lines indented), "block 1 call toolu_1 fs_create_file started"
// ("(run by the provider)" for a server tool's call), "block 1 call decided
// ask (rule 2) at byte 46", "stream error: ...", and at the end of each
// response a line per call saying what became of it, from its
// [toolcall.Result], then its decision and its arguments (or its error):
//
//	block 1 call toolu_1 fs_create_file: allowed by the policy; unattended (rule 0): {...}
//	block 2 call toolu_2 fs_create_file: needs approval, not approved (no answer); ask (rule 2): {...}
//	block 3 call srvtoolu_3 text_editor: run by the provider, not by the caller; ask (rule 2): {...}
//	block 4 call toolu_4 shell: refused by the policy (skip); skip (rule 0): {...}
//	block 5 call toolu_5 fs_create_file: truncated; unattended (rule 0): invalid JSON at byte 33 ...
//
// (also "approved", "complete (no policy)", "declined", "invalid
// arguments", "refused: restated differently (name)", "refused: no tool
// name"). Without --render nothing is approved: an ask is "needs approval,
// not approved".
//
// --format jsonl prints one JSON object per line, "event" first and, after
// a response line, the response's number:
//
//	{"event":"response","response":0,"wire":"anthropic"}   a response begins
//	{"event":"text","response":0,"index":0,"text":"Sure"}  the model's text, as it comes ("thinking" for its reasoning)
//	{"event":"start","response":0,"index":1,"id":"toolu_1","name":"fs_create_file"}
//	{"event":"fragment","response":0,"index":1,"path":["path"],"string":"src/ma"}
//	{"event":"decision","response":0,"index":1,"mode":"unattended","rule":0,"decided_at_byte":22}
//	{"event":"error","response":0,"error":"anthropic: error event: overloaded_error: Overloaded"}
//	{"event":"end","response":0,"index":1,"id":"toolu_1","name":"fs_create_file","executable":true,"mode":"unattended","rule":0,"arguments":{...}}
//	{"event":"end","response":0,"index":2,...,"executable":false,"error":{"category":"truncated","offset":33,"pointer":"/content","message":"..."}}
//
// A fragment line holds the fields that fragments --format jsonl prints. A
// decision is printed the moment the policy decides, "unlisted":true for a
// tool without a file in --rules-dir. An error line is the error that
// ended the stream: an error event of the provider, a stream cut short, a
// malformed event. At the end of each response, an end line for every call
// in index order: "arguments" (compact JSON) when they are complete and
// valid (a call not approved has them too); "executable"
// ([toolcall.Result.Executable]); "server":true for a call the provider runs
// (also on its start line), "approved":true, "declined":true; "mode" and
// "rule", the policy's decision, if one was made; and "error", an object:
// its "category" (the token package's: syntax, truncated, duplicate_key,
// case_folded_key, nul_in_key, invalid_utf8, ...; toolcall's: declined,
// not_approved, after_stop, late_name, restated; other), "offset",
// "pointer", "line" and "column" for invalid arguments, "what", "streamed"
// and "restated" for a call restated differently (a [*toolcall.MismatchError]),
// and "message", for people.
//
// replay takes no --split or --chunks: it reads the input as it arrives,
// and each line's output is out before the next read waits (see Input).
//
// replay exits 0 when every response is complete and every call the
// caller's to run may run (a call the provider runs is not the caller's);
// 1 when a response ended in an error (an error event, a stream cut short,
// a malformed event, a stream without events) or a call may not run
// (invalid or truncated arguments, a skip, an ask nobody approved, a call
// restated differently, no tool name) or was not read (a Responses item
// the client runs whose input is the API's own structure, a shell's, a
// patch's or a computer's; a Chat call in a choice other than the first),
// each reason on stderr after the output; 2 for a usage error, a rules file or directory that cannot be
// loaded, a wire that cannot be told, an input that is not a stream, or an
// input that cannot be read. A stream whose last event has no blank line
// after it, as some recordings end, is cut short: that event was never
// dispatched, and the response is not known to be whole.
//
// # replay --render: what a person sees, and the early permission prompt
//
// --render function_call|json shows the calls as a person sees them
// (package render, in its FunctionCall or JSON style) instead of the
// report: each call's header when it starts, its short arguments when
// complete, long strings (a file's content) line by line as they arrive,
// the model's text under "block 0 text", each of its lines behind the
// renderer's gutter, "── response N (WIRE)" at each response's start, and
// a summary line per call at the end of each response ("block 0 call
// toolu_1 fs_create_file: approved; ask (rule 1)"). No line of what the
// model wrote starts at column 0, where the renderer's and the command's
// own lines start: long lines are wrapped, after the mark "  ┆ ".
//
// Colour is on when stdout is a terminal and NO_COLOR is unset. The width
// is --width N (0: no wrapping), else the terminal's, followed when it is
// resized (SIGWINCH), else $COLUMNS, else 80. At a terminal a line never
// passes the width (a word near the line's end moves whole to the next
// line, a longer one is cut); piped, words are never cut, a line breaking
// at the first space past the width.
//
// --pace paces the replay, since a recording carries no timing: before each
// read of the input, replay waits until the argument and text bytes
// delivered so far are due at the pace. recorded, the default with
// --render, is 240 bytes a second (60 tokens a second, about 4 bytes a
// token); a number is bytes a second; none reads as fast as it can.
// --pace and --width need --render.
//
// When a call's policy decides ask, replay shows what it asks about at
// once, while the stream goes on: the call, its decision and its partial
// arguments ([render.Renderer.Partial]: the complete parameters and a
// placeholder for the one streaming), and its prompt, which names the call
// (its index, tool and id, escaped; shortened in their middle to fit the
// line):
//
//	? block 0 call toolu_1 fs_create_file asks permission (ask (rule 1), decided at byte 21; while its arguments stream):
//	fs_create_file(path: "src/main.rs", …)
//	...the content streams on...
//	Allow block 0 call fs_create_file (toolu_1)? [y/n/e]
//
// The prompt is the screen's last line while it waits: it is drawn again
// below each new line of output, so that it never scrolls away, however
// small the terminal (the line being streamed is held until its end
// meanwhile). One prompt is on the screen at a time; another call that
// asks meanwhile is announced, and gets its prompt once the one shown is
// answered. A key answers the prompt on the screen, at once, without
// Enter; what was typed before a prompt appeared is dropped (the
// terminal's input is flushed, and the keys read after an answer are not
// applied to the next prompt), so that "y" typed twice never approves a
// call whose arguments were not shown. While replay owns the terminal, its
// echo and line editing are off (typed keys never show in the streamed
// text); they are put back as they were at the end, on an error, on a
// panic, and on SIGINT (Ctrl-C), SIGTERM and SIGHUP, after which the
// signal ends the command as it would have.
//
//   - y: the call is approved ([toolcall.Response.Approve]): at the end it is
//     "approved" if its arguments end complete and valid.
//   - n: the call is declined ([toolcall.Response.Decline]): its remaining
//     bytes are discarded, its output ends with "✗ ... declined". If it
//     was the only call still pending, replay stops reading, as a client
//     cancels the response (the context of the wire's reader is cancelled),
//     and says what was never streamed. For a recording (a regular file):
//     "never streamed: A argument bytes of block I call, B of later calls;
//     C bytes of the input", the argument bytes (the tokens saved) counted
//     in the rest of the recording, by call index. For a live stream (a
//     pipe), nothing more is read: "never streamed: the rest of the input,
//     never read (N bytes were read)".
//   - e: the call is "marked for editing: complete, not run as streamed"
//     once its arguments are complete (it is not approved: what would run
//     is the edited call).
//
// Any other key shows what to type. A call still asked when its response
// ends waits for its answer; Ctrl-D or the terminal's end answers n. A
// call whose policy decides ask once its arguments are complete is asked
// the same way.
//
// Without a terminal to ask on (stdin and stdout must both be terminals),
// replay never approves: the prompt is printed with the answer "n (no
// terminal to ask on: not approved)", the call is declined as for n (and
// the replay stops if it was the only pending call), and its summary says
// "not approved, no terminal".
//
// With --render, replay exits 0 when every response is complete and every
// call the caller's to run may run, or was marked for editing; 1 if a call
// was declined (n, or no terminal) or may not run, or a response ended in
// an error, each reason on stderr after the output; 2 as without --render.
//
// # Proxy
//
// proxy is package [guard]'s gateway as a server: it listens on ADDR
// (127.0.0.1:8787 by default: this machine only) and forwards every
// request to the upstream URL, its path and query kept (POST /v1/messages
// goes to URL/v1/messages), so that ANTHROPIC_BASE_URL=http://127.0.0.1:8787
// or OPENAI_BASE_URL=http://127.0.0.1:8787/v1 puts an agent behind it. The
// tool calls of each response are judged while it streams by the policy of
// --rules (every tool's) or --rules-dir (DIR/TOOLNAME.json; a tool without
// a file gets ask): a call its policy skips never reaches the client, which
// reads a notice in its place; --ask says whether a call its policy asks
// for is forwarded (the default: the agent's own prompt asks) or blocked.
//
// --dialect NAME puts proxy in front of an OpenAI-compatible server (vLLM,
// SGLang, llama.cpp, Ollama...) whose tool parser is off, serving a model
// that writes its tool calls in its text in the syntax NAME (as --syntax
// names it: qwen, xml, caret, and the open-weight families): the text of
// each Chat Completions response reaches the client as a tool-parsing
// server sends it ([toolparser.Stream], [toolparser.Whole]), prose as
// content and each call as tool_calls, its arguments streamed as JSON,
// and the calls are judged as a provider's. The values of calls written
// as text are typed by the JSON Schemas of --tools TOOLS.json or, without
// it, of each request's own tools. A call that is not valid ends the
// client's stream with an error event. With --dialect, a model's request
// of another wire (Messages, Responses) is refused (502).
//
// Each call, once its response ends, is one JSON line of the audit log
// (--audit FILE, appended to; stderr without it), as [guard.Record]'s
// AppendJSON writes it, with "unlisted":true for a tool that --rules-dir
// has no file for: never a header, a request body or an argument value.
// --admin ADDR serves GET /healthz ("ok") and GET /metrics
// ([guard.Metrics], Prometheus's text format). stdout says where it listens:
// "argstream proxy: listening on http://ADDR, forwarding to URL".
//
// A request's headers must come within 10 seconds, and an idle connection
// is closed after 2 minutes; nothing bounds a response that streams. On
// SIGINT or SIGTERM, proxy stops listening and lets the responses in
// flight end, for --drain at most (30s by default; a second signal cuts
// them at once), then exits 0. It exits 2 for a wrong command line,
// unreadable rules or an address it cannot listen on.
package main
