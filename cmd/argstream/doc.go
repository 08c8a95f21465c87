// Command argstream runs argstream on tool-call arguments from a file or
// stdin, fed in chunks the way a provider streams them.
//
//	argstream fragments [SYNTAX] [--split N | --split random:SEED | --chunks CHUNKS.json] [--format rfd|jsonl] [FILE]
//	argstream fields [SYNTAX] [--split N | --split random:SEED | --chunks CHUNKS.json] [FILE]
//	argstream aggregate [SYNTAX] [--split N | --split random:SEED | --chunks CHUNKS.json] [FILE]
//	argstream policy --rules RULES.json [SYNTAX] [--split N | --split random:SEED | --chunks CHUNKS.json] [FILE]
//	argstream replay [--wire auto|anthropic|openai-chat|openai-responses] [--rules RULES.json | --rules-dir DIR] [--format text|jsonl] [FILE]
//	argstream replay --syntax caret|xml|qwen [--schema TOOLS.json] [--rules RULES.json | --rules-dir DIR] [--format text|jsonl] [FILE]
//	argstream replay --render function_call|json [--syntax ...] [--rules RULES.json | --rules-dir DIR] [--pace recorded|none|BYTES_PER_SEC] [FILE]
//	argstream bench [--chunk N] [--impl jsontext|handrolled] [--runs N] [--time D] FILE...
//	argstream bench --wire anthropic|openai-chat|openai-responses [--impl jsontext|handrolled] [--runs N] [--time D] FILE...
//	argstream version
//
// where SYNTAX is --syntax json|caret|xml|qwen [--schema TOOLS.json]: the
// input of the single-call commands is JSON arguments (json, the default)
// or one call written in text, fences or tags included, its values typed
// by the JSON Schemas of the tool definitions in TOOLS.json (package
// schema). replay --syntax reads an assistant's text, whose prose it
// reports as text and whose calls (package dialect) as the calls of one
// response.
//
// fragments prints every fragment as it is produced, in RFD 043's notation
// (rfd, the default) or as JSON Lines (jsonl). aggregate prints the complete
// arguments as compact JSON. policy prints, as soon as it is known, the
// decision of the rules in RULES.json (see package policy) as one JSON line:
// {"mode":"ask","rule":1,"decided_at_byte":24,"total_bytes":10240}, where
// total_bytes, the input's length, is there only when it is known before
// the input is read (a regular file, or --chunks) and left out for a pipe;
// it exits 2 for invalid rules. bench measures the full pipeline against
// whole-document jsontext tokenization of the same bytes in the same process
// and prints one JSON line per file (see bench/README.md): ratio for a new
// pipeline per document, reused_ratio for one kept with Reset; FILE may be
// gzipped. version prints the module version when installed with go install
// (v1.2.0, or a pseudo-version for a commit), the commit's short hash, +dirty
// and commit time when built in a checkout ("(devel)" when there is neither:
// go run), then the Go version and GOOS/GOARCH.
//
// fields prints the events of each top-level argument (see package fields)
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
// such as a provider's recorded deltas. bench reads each FILE whole before
// measuring it.
//
// Flags may come before or after FILE; after "--" every argument is FILE.
// -h or --help after a command, or "argstream help COMMAND", prints its
// usage and flags.
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
// replay reads a provider's streamed response, server-sent events as the
// HTTP body carries them (recorded, or live from a pipe), and prints what
// the tool-call layer (package toolcall) sees, as it sees it. --wire names
// the provider's API: anthropic (Messages), openai-chat (Chat Completions
// and the servers that speak it) or openai-responses (Responses). auto, the
// default, tells it from the first events: Anthropic's event types
// (message_start, content_block_*, ping, ...), data with "object":
// "chat.completion.chunk" or "choices", or a type starting with
// "response."; the events read to tell it are read again by the wire's
// reader, and no byte beyond them is read before. If 16 events do not
// tell, replay exits 2: "cannot tell the wire ...: use --wire".
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
// --format jsonl prints one JSON object per line, "event" first:
//
//	{"event":"response","response":0,"wire":"anthropic"}   a response begins
//	{"event":"text","index":0,"text":"Sure"}               the model's text, as it comes ("thinking" for its reasoning)
//	{"event":"start","index":1,"id":"toolu_1","name":"fs_create_file"}
//	{"event":"fragment","index":1,"path":["path"],"string":"src/ma"}
//	{"event":"decision","index":1,"mode":"unattended","rule":0,"decided_at_byte":22}
//	{"event":"error","error":"anthropic: error event: overloaded_error: Overloaded"}
//	{"event":"end","index":1,"id":"toolu_1","name":"fs_create_file","executable":true,"mode":"unattended","rule":0,"arguments":{...}}
//
// index is the provider's: a call's (Anthropic's content block, OpenAI's
// tool call index or Responses' output index), or for text the content
// block, choice or output item. A fragment line holds the fields that
// fragments --format jsonl prints. A decision is printed the moment the
// policy decides, "unlisted":true for a tool without a file in
// --rules-dir. An error line is the error that ended the stream: an error
// event of the provider, a stream cut short, a malformed event. At the end
// of each response, an end line for every call in index order: "arguments"
// (compact JSON) when they are complete and valid, else "error";
// "executable" (toolcall.Result.Executable: complete, valid, named, and
// not skipped by the policy; ask still needs a person's yes); and "mode"
// and "rule", the policy's decision, if one was made. --format text, the
// default, prints the same for a person, without the fragments: "call 1
// toolu_1 fs_create_file started", "call 1 decided unattended (rule 0) at
// byte 22", the text as it comes, "stream error: ...", and "call 1 toolu_1
// fs_create_file: executable, unattended (rule 0): {...}"; the control and
// bidirectional characters of what the model wrote are shown as escapes.
//
// replay takes no --split or --chunks: it reads the input as it arrives,
// and each line's output is out before the next read waits (see Input).
//
// replay exits 0 when every response is complete and every call
// executable; 1 when a response ended in an error (an error event, a
// stream cut short, a malformed event, a stream without events) or a call
// is not executable (invalid or truncated arguments, a skip decision, no
// tool name), each reason on stderr after the output; 2 for a usage error,
// a rules file or directory that cannot be loaded, a wire that cannot be
// told, or an input that cannot be read. A stream whose last event has no
// blank line after it, as some recordings end, is cut short: that event
// was never dispatched, and the response is not known to be whole.
//
// # replay --render: what a person sees, and the early permission prompt
//
// --render function_call|json shows the calls as a person sees them
// (package render, in its FunctionCall or JSON style) instead of the
// report: each call's header when it starts, its short arguments when
// complete, long strings (a file's content) line by line as they arrive,
// the model's text a line at a time ("text 0: ...", escaped, its further
// lines indented), "── response N (WIRE)" at each response's start, and a
// summary line per call at the end of each response ("call 0 toolu_1
// fs_create_file: allowed, executable, ask (rule 1)"). Colour is on when stdout is a terminal and NO_COLOR
// is unset; the width is the terminal's.
//
// --pace paces the replay, since a recording carries no timing: before each
// read of the input, replay waits until the argument and text bytes
// delivered so far are due at the pace. recorded, the default with
// --render, is 240 bytes a second (60 tokens a second, about 4 bytes a
// token); a number is bytes a second; none reads as fast as it can.
// --pace needs --render.
//
// When a call's policy decides ask, replay shows its partial arguments
// (render.Renderer.Partial: the complete parameters and a placeholder for
// the one streaming) and "Allow? [y/n/e]" at once, and the stream goes on
// while the person answers (a letter, then Enter; the terminal stays in
// its usual line mode). A goroutine reads the terminal and hands each
// answer over a channel; the answers are applied on the goroutine that
// reads the stream, between two reads of the input (and while it waits
// for the pace), never inside a call of the toolcall.Response, which is
// for one goroutine. Several calls asked are answered in turn.
//
//   - y: the call goes on; at the end it is "allowed, executable" (if its
//     arguments end complete and valid).
//   - n: the call is declined (toolcall.Response.Decline): its remaining
//     bytes are discarded, its output ends with "✗ ... declined". If it
//     was the only call still pending, replay stops reading, as a client
//     cancels the response (the context of the wire's reader is cancelled),
//     and prints what was never streamed: "never streamed: A argument bytes
//     of call I, B of later calls; C bytes of the input". The argument bytes
//     (the tokens saved) are counted in the rest of the recording, the text
//     of the argument deltas of the wire, by call index, after replay
//     stopped; C is every byte of the input replay had not read when it
//     stopped (for a pipe, replay reads it to its end to count it).
//   - e: the call goes on and is reported "edit: complete, marked for
//     editing" once its arguments are complete.
//
// A call still asked when its response ends waits for its answer; the
// terminal's end (EOF) answers n. A call whose policy decides ask once its
// arguments are complete is asked the same way.
//
// Without a terminal (stdin is not one), replay never approves: the prompt
// is printed with the answer "n (stdin is not a terminal: not approved)",
// the call is declined as for n (and the replay stops if it was the only
// pending call), and its summary says "not approved, no terminal".
//
// With --render, replay exits 0 when every response is complete and every
// call executable and, if asked, answered y or e; 1 if a call was declined
// (n, or no terminal) or is not executable, or a response ended in an
// error, each reason on stderr after the output; 2 as without --render.
package main
