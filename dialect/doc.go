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
// are exactly the text. The joined prose, each call's source and the
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
