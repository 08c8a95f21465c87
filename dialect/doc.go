// Package dialect reads tool calls written inside an assistant's text, as
// models without native tool calling write them: it separates the prose
// from the calls, hands the prose on as text, and drives a
// [toolcall.Response] with each call's source, so that the calls reach the
// same sinks, policies and results as the calls of a provider's wire
// format.
//
//	tok := dialect.Caret.Tokenizer(tools) // token/caret's, typed by the tools' schemas (package schema)
//	calls := toolcall.New(toolcall.WithStreamOptions(argstream.WithTokenizer(tok)))
//	rd := dialect.NewReader(dialect.Caret, calls, dialect.OnText(func(text []byte) {
//		os.Stdout.Write(text)
//	}))
//	for delta := range textDeltas {
//		if _, err := rd.WriteString(delta); err != nil {
//			return err // toolcall.ErrEnded: the Response was ended under the Reader
//		}
//	}
//	rd.Close()
//	for _, res := range calls.End() { ... }
//
// The [Reader] only frames: it finds where each call starts and ends and
// feeds the call every byte of its source, its opening fence or tags and
// its closing ones included. The call's tokenizer ([Syntax.Tokenizer]: the
// caret, XML-tag or Qwen one, given to each call's Stream with
// argstream.WithTokenizer) parses that source and is the authority on its
// validity; [Syntax.Format] writes a call the way a model writes it.
//
// # The calls
//
// The calls of one message are numbered 0, 1, 2, ... in order of
// appearance; the text gives them no id, so their id is "". For each one
// the Reader calls, on its Response:
//
//	call(i) = Start(i, "", name, nil) { Chunk(i) } [ Stop(i) ] .
//
// Start comes the moment the opening fence or tag is complete, with the
// tool name it gives; the Chunks bring the source, the opening first, then
// the body bytes the moment they arrive (without waiting for a line end);
// Stop comes once the closing fence or tag is complete. A call that the
// text leaves open gets no Stop: the Response's End closes it, and its
// tokenizer, which never saw its closing, reports it truncated
// ([token.ErrTruncated] in its [toolcall.Result]).
//
// # Framing
//
// Names are at most [MaxName] (128) bytes; a longer one is no name.
//
// [Caret] (code-assistant's triple-caret blocks) is read line by line; a line
// ends with "\n", and a "\r" right before it is part of the line end.
// A call opens with a line that is exactly ^^^NAME at column 0 (at the
// start of the text or right after a "\n", whatever the chunking), NAME of
// [A-Za-z0-9_-]. In the call, a line that is exactly "NAME2 ---" (NAME2 of
// [A-Za-z0-9_.-]) starts a multi-line value that lasts until the line that
// is exactly "--- NAME2"; outside a multi-line value, a line that is exactly
// ^^^ is the closing fence, and the call's source ends after its line end
// (or at the end of the text, if the text ends with that line and no line
// end; a last line "^^^\r" does not close). Every other line is forwarded
// unexamined. A line inside a multi-line value, ^^^ included, is content.
// Prose resumes at column 0 after the closing fence.
//
// [XML] (code-assistant's tags): <tool:NAME> anywhere in the text opens a
// call, NAME of [A-Za-z0-9_-]; the call ends after the ">" that follows
// the first "</tool:" in it, whatever the name between them (the tokenizer
// checks that it matches).
//
// Qwen (Qwen3-Coder): <tool_call> anywhere opens a call. Its name is that
// of the <function=NAME> that follows, after JSON white space (at most 128
// bytes of it), NAME of [A-Za-z0-9_.-]: the Reader holds the source back
// until the ">" of <function=NAME>, and then starts the call with its name.
// If something else follows <tool_call>, the call starts without a name,
// and is fed its source all the same: its tokenizer reports the error, and
// a call without a name is not executable. The call ends after
// </tool_call>.
//
// # Open-weight families
//
// The other syntaxes are the ones open-weight models write when a server
// serves them raw (tool parsing off): [Hermes], [Mistral], [DeepSeekV3],
// [DeepSeekV31], [DeepSeekDSML], [KimiK2], [GLM45], [MiniMaxM2] and
// [Harmony]. Their markers are the models' special tokens (or tags), as
// the chat templates write them; the Reader matches them byte for byte,
// anywhere in the text, and holds back only what may still become one.
//
// The families that write their arguments as JSON text (Hermes, Mistral,
// the two DeepSeek JSON ones, Kimi K2, Harmony) have their markers read by
// the Reader alone: each call is fed its JSON arguments, nothing else, and
// its tokenizer is token/jsontoken ([Syntax.Tokenizer]). A call's
// arguments end at the family's closing marker outside a JSON string (a
// string may hold any marker), or, for Mistral's, where the JSON value
// ends. The families written in tags (GLM, MiniMax, DSML) feed each call
// its whole source, from its own opening tag (<tool_call>, <invoke
// name="F">, <｜DSML｜invoke name="F">) to its closing one, to a tokenizer
// of tags that types the values by the tools' schemas, as Qwen's does.
//
// Some families gather their calls in a section: DeepSeek's
// <｜tool▁calls▁begin｜> ... <｜tool▁calls▁end｜>, Kimi's
// <|tool_calls_section_begin|> ... <|tool_calls_section_end|> (or the
// singular <|tool_call_section_begin|>, which vLLM's parser takes too),
// MiniMax's <minimax:tool_call> ... </minimax:tool_call>, DSML's
// <｜DSML｜function_calls> or <｜DSML｜tool_calls> and its closing tag. In a
// section only JSON white space may separate the calls. The section
// markers, that white space, and the markers of the JSON families are
// framing: they go neither to [OnText] nor to a call.
//
// The heads, held back until complete (at most 512 bytes):
//
//	Hermes        <tool_call> {"name": "NAME", "arguments": {...}} </tool_call>
//	Mistral       [TOOL_CALLS]NAME[ARGS]{...}   or   [TOOL_CALLS]NAME[CALL_ID]ID[ARGS]{...}
//	              [TOOL_CALLS] [{"name": "NAME", "arguments": {...}, "id": "ID"}, ...]
//	DeepSeekV3    <｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME\n```json {...} ```<｜tool▁call▁end｜>
//	DeepSeekV31   <｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{...}<｜tool▁call▁end｜>
//	KimiK2        <|tool_call_begin|>functions.NAME:IDX<|tool_call_argument_begin|>{...}<|tool_call_end|>
//	GLM45         <tool_call>NAME then "\n" (GLM-4.5, 4.6) or the first tag (GLM-4.7 and later)
//	MiniMaxM2     <invoke name="NAME">
//	DeepSeekDSML  <｜DSML｜invoke name="NAME">
//
// NAME is 1 to [MaxName] of [A-Za-z0-9_.-]. White space (JSON's) may stand
// around the JSON arguments, around Kimi's id and between Hermes' and
// Mistral's JSON tokens. Mistral's NAME{...} without [ARGS] reads as
// NAME[ARGS]{...}: vLLM's detokenizer drops that special token from the
// text and keeps [TOOL_CALLS]. Hermes' and Mistral's objects hold "name"
// and "arguments" (and, in Mistral's array, an optional "id"), nothing
// else, each once, the name a plain string. The call starts when its
// arguments begin, with its name if it came first, so that a policy sees
// all of them. An object that gives "arguments" before "name" is read, the
// name coming late: a call whose tool has a policy then fails with
// [toolcall.ErrLateName], since its policy did not see the arguments as
// they streamed (holding them back until the name came would hold back a
// whole call). Kimi's id is the call's id (its name is the id without
// "functions." and ":IDX"); Mistral's [CALL_ID] or "id" is too; the others
// give none.
//
// [Harmony] (gpt-oss) is a sequence of messages, each a header, <|message|>,
// its content and an end: <|end|> or <|return|>, or <|call|> for a call.
// The text a server returns begins in the first message's header, after
// the prompt's <|start|>assistant: a header begins with <|start|>assistant
// or with <|channel|>, and holds a channel (<|channel|>NAME), a recipient
// (to=functions.NAME, before or after the channel), a content type
// (<|constrain|>json or json); the text may also begin with the recipient
// (" to=functions.NAME<|channel|>..."), the rest of the prompt's header. A
// message with a recipient is a call, its content the JSON arguments,
// ended by <|call|> (or <|end|>, which Ollama's parser takes too), or by
// the end of the text: <|call|> is a stop token, which servers leave out.
// The tool is NAME for functions.NAME, the recipient itself for any other
// (a built-in tool). A
// message on the analysis channel is reasoning, given to [OnReasoning];
// any other message (final, commentary without a recipient) is text. Text
// outside messages is prose.
//
// A head that names no tool (an invalid name, Kimi's id without ":IDX", a
// recipient that is no name) is the error of its call alone: the call
// starts without a name and is refused ([toolcall.Response.Refuse], a
// *[token.SyntaxError] with the byte offset in the text, line and column),
// it is read to its closing marker, and the calls after it are what they
// are; so is a Hermes <tool_call> not followed by a call's object (a name
// and arguments, nothing else), read to its </tool_call>. Anything else
// where the markers allow nothing else (text in a section, a header that
// is not an assistant's, a Mistral array that is not one of calls) is an
// error of the text: Write returns a
// *[token.SyntaxError] (category [token.ErrSyntax], its Syntax "NAME text")
// and fails the Response ([toolcall.Response.Fail]), so that no call of the
// message runs; what was handed on stays handed on. vLLM's parsers drop
// such text; here a person or a policy would not see it, so it is refused. A call whose closing
// marker never comes is cut off ([toolcall.Response.Cut]): it ends
// truncated even if its JSON was complete, since what followed is not
// known. Markers differ in how servers send them; what is accepted is what
// the models' chat templates write, as listed.
//
// # Prose
//
// Prose goes to [OnText] the moment the bytes received show it cannot be the
// start of a call. The Reader holds back only what may still become an
// opening fence or tag ("^^^wri" at column 0, "<tool:" or "<tool_c"), and
// Qwen's head until its name: a few hundred bytes at most. It releases
// them as soon as a byte rules a call out ("a < b" leaves at the space),
// and at Close.
//
// The pieces given to OnText and [OnSource], joined in the order they come,
// are exactly the text (for Caret, XML and Qwen: the other families'
// markers are framing, given to neither). The joined prose, each call's source and the
// calls' Results are the same for every way of cutting the text into
// chunks; how the prose and the sources are cut into pieces is not.
//
// # Time and memory
//
// Each byte is examined a bounded number of times, whatever the chunking:
// prose and call bodies are scanned with [bytes.IndexByte], and a caret line
// is kept only up to the length of the longest line that matters. Text and
// source pieces borrow the chunk being written, or the Reader's memory for
// what it held back: they are valid until the callback returns. A Reader
// keeps its memory across messages (Reset) and does not allocate per
// chunk; it allocates a tool name's string the first time it sees that
// name (it keeps the last few dozen).
//
// # Concurrency
//
// A Reader is for one goroutine: it calls OnText, OnSource and its
// Response from the goroutine that calls Write, WriteString and Close, and
// the callbacks may not call the Reader. Separate Readers, each with its
// own Response, may run in separate goroutines and share Options.
package dialect
