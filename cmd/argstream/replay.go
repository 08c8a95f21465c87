package main

// This file is structured in the following way:
//
//   - runReplay: the flags, the policies, and the loop over the responses
//     of the input, each read by its wire's adapter into a
//     toolcall.Response (or, with --syntax, an assistant's text, read by a
//     dialect.Reader);
//   - the replayer's hooks: the calls' sinks, the decisions and the text,
//     told to the reporter, and the problems kept for stderr.
//
// The input, read a line at a time and sniffed for its wire, is
// input_replay.go's; its framing, framing.go's; where a response ends,
// cut.go's; the reports (JSON Lines, and text for a person), report.go's;
// --render, render.go's.

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/dialect"
	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/policy"
	"github.com/argstream/argstream/render"
	"github.com/argstream/argstream/schema"
	"github.com/argstream/argstream/sink"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire"
	"github.com/argstream/argstream/wire/anthropicstream"
	"github.com/argstream/argstream/wire/bedrockstream"
	"github.com/argstream/argstream/wire/coherestream"
	"github.com/argstream/argstream/wire/geministream"
	"github.com/argstream/argstream/wire/ollamastream"
	"github.com/argstream/argstream/wire/openaistream"
	"github.com/argstream/argstream/wire/sse"
)

const replayUsage = "replay [--wire auto|anthropic|openai-chat|openai-responses|gemini|ollama|bedrock|cohere] [--framing auto|sse|jsonl|eventstream] [--syntax SYNTAX [--schema TOOLS.json]] [--rules RULES.json | --rules-dir DIR] [--format text|jsonl] [--render function_call|json [--pace recorded|none|BYTES_PER_SEC] [--width N]] [FILE]"

// A wireReader reads one response of a provider's stream from body into
// resp, calling onText and onThinking with the model's text.
type wireReader func(ctx context.Context, body io.Reader, resp *toolcall.Response, onText, onThinking func(index int64, text []byte)) (unjudged string, err error)

// wireReaders are the wires of --wire, by name. A reader's unjudged, if not
// empty, says which calls of the response it did not read: calls no policy
// judged, which the replay reports as a problem.
var wireReaders = map[string]wireReader{
	"anthropic": func(ctx context.Context, body io.Reader, resp *toolcall.Response, onText, onThinking func(int64, []byte)) (string, error) {
		return "", anthropicstream.Read(ctx, body, resp, wire.OnText(onText), wire.OnThinking(onThinking))
	},
	"openai-chat": func(ctx context.Context, body io.Reader, resp *toolcall.Response, onText, onThinking func(int64, []byte)) (string, error) {
		return readOthers(ctx, body, openaistream.NewChatReader(resp, wire.OnText(onText), wire.OnThinking(onThinking)),
			"tool calls in a choice other than the first, which replay does not read: no policy judged them")
	},
	"openai-responses": func(ctx context.Context, body io.Reader, resp *toolcall.Response, onText, onThinking func(int64, []byte)) (string, error) {
		return readOthers(ctx, body, openaistream.NewResponsesReader(resp, wire.OnText(onText), wire.OnThinking(onThinking)),
			"an output item is a call the client runs whose input replay does not read (a shell's, a patch's, a computer's): no policy judged it")
	},
	"gemini": func(ctx context.Context, body io.Reader, resp *toolcall.Response, onText, onThinking func(int64, []byte)) (string, error) {
		return "", geministream.Read(ctx, body, resp, wire.OnText(onText), wire.OnThinking(onThinking))
	},
	"ollama": func(ctx context.Context, body io.Reader, resp *toolcall.Response, onText, onThinking func(int64, []byte)) (string, error) {
		return "", readOllama(ctx, body, resp, onText, onThinking)
	},
	"cohere": func(ctx context.Context, body io.Reader, resp *toolcall.Response, onText, onThinking func(int64, []byte)) (string, error) {
		return "", coherestream.Read(ctx, body, resp, wire.OnText(onText), wire.OnThinking(onThinking))
	},
	"bedrock": func(ctx context.Context, body io.Reader, resp *toolcall.Response, onText, onThinking func(int64, []byte)) (string, error) {
		return "", bedrockstream.Read(ctx, body, resp, wire.OnText(onText), wire.OnThinking(onThinking))
	},
}

// readOthers reads the events of body with r, an OpenAI wire's reader,
// and returns unjudged if calls came that r does not read (its
// OtherCalls).
func readOthers(ctx context.Context, body io.Reader, r interface {
	ReadEvents(context.Context, *sse.Reader) error
	OtherCalls() bool
}, unjudged string) (string, error) {
	err := r.ReadEvents(ctx, sse.NewReader(body))
	if !r.OtherCalls() {
		unjudged = ""
	}
	return unjudged, err
}

// readOllama reads an Ollama /api/chat stream, its JSON lines framed as
// server-sent events (framing.go): each event's data is one line, up to
// the line that says done.
func readOllama(ctx context.Context, body io.Reader, resp *toolcall.Response, onText, onThinking func(int64, []byte)) error {
	r := ollamastream.NewReader(resp, wire.OnText(onText), wire.OnThinking(onThinking))
	rd := sse.NewReader(body, sse.WithMaxEventSize(ollamastream.MaxLineSize))
	for !r.Done() && rd.Next() {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := r.Line(rd.Event().Data); err != nil {
			return err
		}
	}
	switch {
	case r.Done():
		return nil
	case rd.Err() != nil:
		return fmt.Errorf("ollama: %w", rd.Err())
	}
	return fmt.Errorf("ollama: stream ended before its done line: %w", io.ErrUnexpectedEOF)
}

// runReplay reads a provider's event stream as it arrives and reports what
// the tool-call layer sees: calls starting, their fragments, policy
// decisions, the model's text, and at the end of each response every
// call's arguments or error.
func runReplay(e env, args []string) int {
	fs := newFlags("replay")
	wire := fs.String("wire", "auto", "the provider's stream: auto (told from its first events), anthropic, openai-chat, openai-responses, gemini, ollama, bedrock or cohere")
	rulesFile, rulesDir := rulesFlags(fs)
	format := fs.String("format", "text", "text (for a person) or jsonl (one JSON object per event)")
	style := fs.String("render", "", "show the calls as a person sees them, in the style function_call or json, with a permission prompt for ask")
	pace := fs.String("pace", "", "with --render: recorded (240 bytes of arguments and text a second), none, or `BYTES_PER_SEC`")
	width := fs.Int("width", -1, "with --render: wrap lines at `N` columns, 0 for no wrapping (default: the terminal's width, else $COLUMNS, else 80)")
	framing := fs.String("framing", "auto", "how the events are framed: auto (told from the first bytes), sse (server-sent events, as the HTTP body carries them), jsonl (one event's JSON data per line, as vercel/ai records streams; Bedrock's as {\"TYPE\": PAYLOAD}) or eventstream (AWS event stream frames, as Bedrock sends them)")
	syntax := fs.String("syntax", "", "the input is an assistant's text, not a provider's stream, whose calls are written in `SYNTAX`: "+syntaxList)
	schemaFile := fs.String("schema", "", "with --syntax: the tools' definitions, `TOOLS.json`, whose JSON Schemas type the values")
	files, code, ok := parseFlags(e, fs, replayUsage, args)
	if !ok {
		return code
	}
	var syn dialect.Syntax
	var tools *schema.Tools
	if *syntax != "" {
		var err error
		if syn, tools, err = textSyntax(*syntax, *schemaFile); err != nil {
			return usageError(e, err)
		}
		if *wire != "auto" {
			return usageError(e, errors.New("--syntax excludes --wire"))
		}
	} else if *schemaFile != "" {
		return usageError(e, errors.New("--schema needs --syntax"))
	}
	if _, known := wireReaders[*wire]; !known && *wire != "auto" {
		return usageError(e, fmt.Errorf("--wire %s: want auto, anthropic, openai-chat, openai-responses, gemini, ollama, bedrock or cohere", *wire))
	}
	if *format != "text" && *format != "jsonl" {
		return usageError(e, fmt.Errorf("--format %s: want text or jsonl", *format))
	}
	switch {
	case *framing != "auto" && *framing != "sse" && *framing != "jsonl" && *framing != "eventstream":
		return usageError(e, fmt.Errorf("--framing %s: want auto, sse, jsonl or eventstream", *framing))
	case *syntax != "" && flagSet(fs, "framing"):
		return usageError(e, errors.New("--syntax excludes --framing: an assistant's text is not framed"))
	}
	if *rulesFile != "" && *rulesDir != "" {
		return usageError(e, errors.New("--rules and --rules-dir exclude each other"))
	}
	var opts []render.Option
	switch *style {
	case "":
		if *pace != "" {
			return usageError(e, errors.New("--pace needs --render"))
		}
	case "function_call":
		opts = append(opts, render.WithStyle(render.FunctionCall))
	case "json":
		opts = append(opts, render.WithStyle(render.JSON))
	default:
		return usageError(e, fmt.Errorf("--render %s: want function_call or json", *style))
	}
	if *style != "" && *format != "text" {
		return usageError(e, errors.New("--render excludes --format jsonl"))
	}
	if *style == "" && flagSet(fs, "width") {
		return usageError(e, errors.New("--width needs --render"))
	}
	if *width < -1 || *width == -1 && flagSet(fs, "width") {
		return usageError(e, fmt.Errorf("--width %d: want a number of columns, 0 for no wrapping", *width))
	}
	if *pace == "" {
		*pace = "recorded"
	}
	rate, err := parsePace(*pace)
	if err != nil {
		return usageError(e, err)
	}
	pols, ok := loadPolicies(e, *rulesFile, *rulesDir)
	if !ok {
		return exitUsage
	}
	src, err := (&input{}).open(e, files)
	if err != nil {
		return usageError(e, err)
	}
	defer src.close()

	out := bufio.NewWriter(e.stdout)
	in := &arrival{r: src.r, out: out}
	rp := &replayer{e: e, name: src.name, pols: pols, rep: &textReport{w: out}, regular: src.size >= 0,
		in: in, body: lineReads{bufio.NewReaderSize(in, readSize)}}
	if *format == "jsonl" {
		j := &jsonlReport{w: out}
		rp.rep, rp.fragments = j, sink.PushFunc(j.fragment)
	}
	if *syntax == "" {
		if err := rp.frame(*framing); err != nil {
			return usageError(e, err)
		}
	}
	if *style != "" {
		stop, err := rp.setupRender(e, src, opts, rate, *width)
		if err != nil {
			return usageError(e, err)
		}
		defer stop()
	}
	if *syntax != "" {
		return rp.runText(syn, tools)
	}
	return rp.run(*wire)
}

// replayer replays one input.
type replayer struct {
	e    env
	name string // the input's, for messages
	rep  reporter
	// fragments is the sink of every call: nil for the text format, which
	// does not show fragments.
	fragments sink.Sink
	pols      *policies // nil without --rules or --rules-dir
	prompt    *prompter // --render's; nil without it
	regular   bool      // the input is a regular file: a recording, not a live stream
	framing   string    // sse, jsonl or eventstream: what the input is
	frames    bool      // body holds AWS event stream frames: of eventstream, or of Bedrock's JSON lines
	in        *arrival  // the input, and the output's flush
	body      io.Reader // the input, a line at most per read
	rest      io.Reader // under --render, body without the pacer

	carry    []byte   // the first event of the next response, read to end the last one
	problems []string // why the exit status is not 0, for stderr
	wire     string   // the wire of the response being read, "" for a text
	labels   labels   // its labels
}

// run replays the responses of the input, one after another, and returns
// the exit status.
func (rp *replayer) run(wire string) int {
	resp := rp.newResponse()
	ctx := context.Background()
	if rp.prompt != nil {
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(ctx)
		defer cancel()
		rp.prompt.resp, rp.prompt.cancel, rp.prompt.start = resp, cancel, time.Now()
	}
	if rp.frames {
		return rp.runFrames(ctx, wire, resp)
	}
	for n := 0; ; n++ {
		head, told, code, more := rp.begin(n, wire)
		if !more {
			return code
		}
		wire = told
		rp.wire, rp.labels = wire, labelsOf(wire)
		rp.rep.response(n, wire)
		cut := newResponseCut(wire, io.MultiReader(bytes.NewReader(head), rp.body))
		unjudged, err := wireReaders[wire](ctx, cut, resp, rp.onText("text"), rp.onText("thinking"))
		rp.carry = append(rp.carry[:0], cut.next...)
		if rp.in.flushErr != nil {
			return rp.finish()
		}
		last := rp.endResponse(n, wire, unjudged, err, resp)
		resp.Reset()
		if rp.prompt != nil {
			rp.prompt.reset()
			rp.prompt.r.Reset()
		}
		if last {
			return rp.finish()
		}
	}
}

// endResponse reports the end of response n of wire, which its reader
// ended with err, having left unjudged's calls unread: the stream's error,
// every call's result, the calls unjudged, and what was never read if the
// prompt stopped the replay. It reports whether the replay stops there.
func (rp *replayer) endResponse(n int, wire, unjudged string, err error, resp *toolcall.Response) (last bool) {
	stopped := rp.prompt != nil && rp.prompt.stopped
	if err != nil && !stopped {
		rp.streamError(n, err)
	}
	rp.ended(n, resp.End())
	if unjudged != "" {
		rp.problems = append(rp.problems, fmt.Sprintf("response %d: %s", n, unjudged))
	}
	if stopped {
		rp.unread(wire, rp.prompt.stoppedAt)
	}
	return stopped || err != nil
}

// runFrames replays an input of AWS event stream frames, or of Bedrock's
// events in JSON lines framed again as such: one Bedrock ConverseStream
// response, read whole (a file of several is not cut).
func (rp *replayer) runFrames(ctx context.Context, wire string, resp *toolcall.Response) int {
	if wire != "auto" && wire != "bedrock" {
		what := framingName[rp.framing] // AWS event stream frames
		if rp.framing == "jsonl" {
			what = "JSON lines of Bedrock's events"
		}
		return usageError(rp.e, fmt.Errorf("%s: %s are Bedrock's wire, not %s: use --wire bedrock", rp.name, what, wire))
	}
	rp.wire, rp.labels = "bedrock", labelsOf("bedrock")
	rp.rep.response(0, "bedrock")
	unjudged, err := wireReaders["bedrock"](ctx, rp.body, resp, rp.onText("text"), rp.onText("thinking"))
	if rp.in.flushErr == nil {
		rp.endResponse(0, "bedrock", unjudged, err, resp)
	}
	return rp.finish()
}

// newResponse returns the Response of the replay: its calls reported,
// with their policies, and configured by opts.
func (rp *replayer) newResponse(opts ...toolcall.Option) *toolcall.Response {
	opts = append(opts, toolcall.WithSinks(rp.newSink), toolcall.OnDecision(rp.decided))
	if rp.pols != nil {
		opts = append(opts, toolcall.WithPolicy(rp.pols.lookup))
	}
	return toolcall.New(opts...)
}

// ended reports the results of response n's calls, and keeps the problems
// of those that should have run and may not.
func (rp *replayer) ended(n int, results []toolcall.Result) {
	if rp.prompt != nil {
		rp.prompt.await()
	}
	for _, r := range results {
		rp.rep.end(r, r.Verdict.Decided() && rp.pols.unlisted(r.Call.Name))
		o := describe(r)
		if rp.prompt != nil {
			o = rp.prompt.final(r, o)
		}
		if !o.problem {
			continue
		}
		why := o.status
		if r.Err != nil && !r.Declined && !errors.Is(r.Err, toolcall.ErrNotApproved) {
			why += ": " + shown(r.Err)
		}
		rp.problems = append(rp.problems, fmt.Sprintf("%s: not executable: %s", rp.callName(n, r.Call), why))
	}
}

// runText replays an assistant's text in which the model writes its calls
// in syn (--syntax): the prose is reported as text, each call as a call
// of one response.
func (rp *replayer) runText(syn dialect.Syntax, tools *schema.Tools) int {
	resp := rp.newResponse(toolcall.WithStreamOptions(argstream.WithTokenizer(syn.Tokenizer(tools))))
	if rp.prompt != nil {
		// Stopping is reading no more: nothing else to cancel.
		rp.prompt.resp, rp.prompt.cancel, rp.prompt.start = resp, func() {}, time.Now()
	}
	onText, onThinking := rp.onText("text"), rp.onText("thinking")
	dr := dialect.NewReader(syn, resp, dialect.OnText(func(text []byte) { onText(0, text) }),
		dialect.OnReasoning(func(text []byte) { onThinking(0, text) }))
	rp.labels = textLabels
	rp.rep.response(0, syn.String())
	buf := make([]byte, readSize)
	var werr error
	for {
		n, err := rp.body.Read(buf)
		if _, werr = dr.Write(buf[:n]); werr != nil {
			rp.streamError(0, werr)
			break
		}
		if err == io.EOF || err == errStopped {
			break
		}
		if err != nil || rp.in.failed() {
			return rp.finish()
		}
	}
	stopped := rp.prompt != nil && rp.prompt.stopped
	if err := dr.Close(); err != nil && !stopped && werr == nil {
		rp.streamError(0, err) // the Reader's error is sticky: reported once
	}
	rp.ended(0, resp.End())
	if stopped {
		rp.unread("", 0)
	}
	return rp.finish()
}

// begin finds the start of response n, which the wire named (or for
// "auto", the wire of response 0) reads: with more false, there is none,
// and the command exits with code. It returns the bytes it read (head),
// which the wire's reader reads again, and the wire. The first response of
// a named wire is handed to its reader as it is, even empty; a later one
// begins at the next event, and there is none at a clean end of the input.
func (rp *replayer) begin(n int, wire string) (head []byte, told string, code int, more bool) {
	if n == 0 && wire != "auto" {
		return nil, wire, 0, true
	}
	head, told, events, err := sniff(io.MultiReader(bytes.NewReader(rp.carry), rp.body), wire)
	switch {
	case rp.in.failed():
		return nil, "", rp.finish(), false
	case told != "":
		return head, told, 0, true
	case n > 0 && err == nil && events == 0:
		return nil, "", rp.finish(), false // the end, after the last response
	case n > 0:
		return head, wire, 0, true // the wire's reader says what is wrong
	case events == 0:
		if err == nil {
			err = errors.New("the stream has no event")
		}
		rp.streamError(n, err)
		return nil, "", rp.finish(), false
	}
	which := fmt.Sprintf("its %d events", events)
	switch {
	case events == sniffEvents || len(head) >= sniffBytes:
		which = fmt.Sprintf("the first %d events", events)
	case events == 1:
		which = "its only event"
	}
	what, try := looksLike(rp.in.head, true)
	return nil, "", usageError(rp.e, fmt.Errorf("%s: cannot tell the wire from %s: it looks like %s%s: use --wire anthropic, openai-chat, openai-responses, gemini, ollama or cohere", rp.name, which, what, try)), false
}

// streamError reports the error that ended response n. For the first,
// it says what the input looks like if that is not the wire it was read
// as.
func (rp *replayer) streamError(n int, err error) {
	rp.rep.streamError(err)
	what := shown(err)
	if n > 0 {
		what = fmt.Sprintf("response %d: %s", n, what)
	}
	rp.problems = append(rp.problems, what)
	if n == 0 && rp.wire != "" {
		if h := rp.hint(rp.wire); h != "" {
			rp.problems = append(rp.problems, esc(h))
		}
	}
}

// finish flushes the output, reports the problems on stderr, and returns
// the exit status.
func (rp *replayer) finish() int {
	rp.rep.close()
	rp.in.flush()
	switch {
	case rp.in.flushErr != nil:
		return usageError(rp.e, &ioError{"stdout", rp.in.flushErr})
	case rp.in.readErr != nil:
		return usageError(rp.e, &ioError{rp.name, rp.in.readErr})
	}
	for _, p := range rp.problems {
		fmt.Fprintf(rp.e.stderr, "argstream: %s: %s\n", rp.name, p)
	}
	if len(rp.problems) > 0 {
		return exitInvalid
	}
	return exitOK
}

// newSink is toolcall's sink constructor, called at each call's start.
func (rp *replayer) newSink(c fragment.Call) sink.Sink {
	rp.rep.start(c)
	if rp.prompt != nil {
		return rp.prompt.sink(c)
	}
	return rp.fragments
}

func (rp *replayer) decided(r *toolcall.Response, c fragment.Call, d policy.Decision, at int64) {
	rp.rep.decision(c, d, at, rp.pols.unlisted(c.Name))
	if rp.prompt != nil {
		rp.prompt.decided(r, c, d, at)
	}
}

func (rp *replayer) onText(kind string) func(int64, []byte) {
	return func(index int64, text []byte) { rp.rep.text(kind, index, text) }
}

// callName names call c of response n in a message.
func (rp *replayer) callName(n int, c fragment.Call) string {
	s := fmt.Sprintf("%s (%s %s)", rp.labels.callAt(c.Index), esc(orNone(c.ID, "no id")), esc(orNone(c.Name, "no name")))
	if n > 0 {
		s = fmt.Sprintf("response %d, %s", n, s)
	}
	return s
}

func orNone(s, none string) string {
	if s == "" {
		return "(" + none + ")"
	}
	return s
}
