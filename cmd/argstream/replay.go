package main

// This file is structured in the following way:
//
//   - runReplay: the flags, the policies, and the loop over the responses
//     of the input, each read by its wire's adapter into a
//     toolcall.Response;
//   - the input: reads that flush the output before they may wait, cut at
//     line ends so that an event is read up to its end and no further; the
//     events at a response's start, kept to be read again, and the wire
//     they tell (--wire auto); where a response ends is cut.go's;
//   - the reports: JSON Lines, and text for a person.

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
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
	"github.com/argstream/argstream/wire/openaistream"
	"github.com/argstream/argstream/wire/sse"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

const replayUsage = "replay [--wire auto|anthropic|openai-chat|openai-responses] [--framing auto|sse|jsonl] [--syntax caret|xml|qwen [--schema TOOLS.json]] [--rules RULES.json | --rules-dir DIR] [--format text|jsonl] [--render function_call|json [--pace recorded|none|BYTES_PER_SEC] [--width N]] [FILE]"

// A wireReader reads one response of a provider's stream from body into
// resp, calling onText and onThinking with the model's text.
type wireReader func(ctx context.Context, body io.Reader, resp *toolcall.Response, onText, onThinking func(index int64, text []byte)) error

// wireReaders are the wires of --wire, by name.
var wireReaders = map[string]wireReader{
	"anthropic": func(ctx context.Context, body io.Reader, resp *toolcall.Response, onText, onThinking func(int64, []byte)) error {
		return anthropicstream.Read(ctx, body, resp, wire.OnText(onText), wire.OnThinking(onThinking))
	},
	"openai-chat": func(ctx context.Context, body io.Reader, resp *toolcall.Response, onText, onThinking func(int64, []byte)) error {
		return openaistream.ReadChat(ctx, body, resp, wire.OnText(onText), wire.OnThinking(onThinking))
	},
	"openai-responses": func(ctx context.Context, body io.Reader, resp *toolcall.Response, onText, onThinking func(int64, []byte)) error {
		return openaistream.ReadResponses(ctx, body, resp, wire.OnText(onText), wire.OnThinking(onThinking))
	},
}

// runReplay reads a provider's event stream as it arrives and reports what
// the tool-call layer sees: calls starting, their fragments, policy
// decisions, the model's text, and at the end of each response every
// call's arguments or error.
func runReplay(e env, args []string) int {
	fs := newFlags("replay")
	wire := fs.String("wire", "auto", "the provider's stream: auto (told from its first events), anthropic, openai-chat or openai-responses")
	rulesFile := fs.String("rules", "", "the policy of every tool, `RULES.json` (as for argstream policy)")
	rulesDir := fs.String("rules-dir", "", "a policy per tool, `DIR`/TOOLNAME.json; a tool without one gets ask")
	format := fs.String("format", "text", "text (for a person) or jsonl (one JSON object per event)")
	style := fs.String("render", "", "show the calls as a person sees them, in the style function_call or json, with a permission prompt for ask")
	pace := fs.String("pace", "", "with --render: recorded (240 bytes of arguments and text a second), none, or `BYTES_PER_SEC`")
	width := fs.Int("width", -1, "with --render: wrap lines at `N` columns, 0 for no wrapping (default: the terminal's width, else $COLUMNS, else 80)")
	framing := fs.String("framing", "auto", "how the events are framed: auto (told from the first byte), sse (server-sent events, as the HTTP body carries them) or jsonl (one event's JSON data per line, as vercel/ai records streams)")
	syntax := fs.String("syntax", "", "the input is an assistant's text, whose calls are written in caret (^^^ blocks), xml (<tool:NAME> tags) or qwen (<tool_call> tags), not a provider's stream")
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
		return usageError(e, fmt.Errorf("--wire %s: want auto, anthropic, openai-chat or openai-responses", *wire))
	}
	if *format != "text" && *format != "jsonl" {
		return usageError(e, fmt.Errorf("--format %s: want text or jsonl", *format))
	}
	switch {
	case *framing != "auto" && *framing != "sse" && *framing != "jsonl":
		return usageError(e, fmt.Errorf("--framing %s: want auto, sse or jsonl", *framing))
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
	framing   string    // sse or jsonl
	in        *arrival  // the input, and the output's flush
	body      io.Reader // the input, a line at most per read
	rest      io.Reader // under --render, body without the pacer

	carry    []byte   // the first event of the next response, read to end the last one
	problems []string // why the exit status is not 0, for stderr
	wire     string   // the wire of the response being read, "" for a text
	labels   labels   // its labels
}

// Bounds on what --wire auto reads to tell the wire: the events, and their
// bytes (a Responses API stream's first event repeats the request's
// instructions and tools, which may be large).
const (
	sniffEvents = 16
	sniffBytes  = sse.DefaultMaxEventSize
)

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
	for n := 0; ; n++ {
		head, told, code, more := rp.begin(n, wire)
		if !more {
			return code
		}
		wire = told
		rp.wire, rp.labels = wire, labelsOf(wire)
		rp.rep.response(n, wire)
		cut := newResponseCut(wire, io.MultiReader(bytes.NewReader(head), rp.body))
		err := wireReaders[wire](ctx, cut, resp, rp.onText("text"), rp.onText("thinking"))
		rp.carry = append(rp.carry[:0], cut.next...)
		if rp.in.flushErr != nil {
			return rp.finish()
		}
		stopped := rp.prompt != nil && rp.prompt.stopped
		switch {
		case stopped:
			err = errStopped
		case err != nil:
			rp.streamError(n, err)
		}
		rp.ended(n, resp.End())
		if stopped {
			rp.unread(wire, rp.prompt.stoppedAt)
		}
		resp.Reset()
		if rp.prompt != nil {
			rp.prompt.reset()
			rp.prompt.r.Reset()
		}
		if err != nil {
			return rp.finish()
		}
	}
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
	onText := rp.onText("text")
	dr := dialect.NewReader(syn, resp, dialect.OnText(func(text []byte) { onText(0, text) }))
	rp.labels = textLabels
	rp.rep.response(0, syn.String())
	buf := make([]byte, readSize)
	for {
		n, err := rp.body.Read(buf)
		if _, werr := dr.Write(buf[:n]); werr != nil {
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
	if !stopped {
		if err := dr.Close(); err != nil {
			rp.streamError(0, err)
		}
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
	return nil, "", usageError(rp.e, fmt.Errorf("%s: cannot tell the wire from %s: it looks like %s%s: use --wire anthropic, openai-chat or openai-responses", rp.name, which, what, try)), false
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

// The input.

// arrival reads the input and, before each read, which may wait for the
// producer, flushes the output: what the bytes received so far produce is
// out before the command waits for more. It keeps the input's error (not
// io.EOF) and the output's, which it returns as its own read error, to
// stop the adapter.
type arrival struct {
	r        io.Reader
	n        int64  // the bytes read
	head     []byte // the first headSize bytes read, to describe the input
	out      *bufio.Writer
	readErr  error
	flushErr error
}

// flush writes the output out, and keeps its first error.
func (a *arrival) flush() error {
	if a.flushErr == nil {
		a.flushErr = a.out.Flush()
	}
	return a.flushErr
}

func (a *arrival) Read(p []byte) (int, error) {
	if err := a.flush(); err != nil {
		return 0, err
	}
	n, err := a.r.Read(p)
	a.n += int64(n)
	if len(a.head) < headSize {
		a.head = append(a.head, p[:min(n, headSize-len(a.head))]...)
	}
	if err != nil && err != io.EOF && a.readErr == nil {
		a.readErr = err
	}
	return n, err
}

// failed reports whether the input could not be read or the output not
// written.
func (a *arrival) failed() bool { return a.readErr != nil || a.flushErr != nil }

// lineReads returns what its reader holds, up to the first line end (CR or
// LF) at most, per read. An adapter returns at the end of its response,
// which is a blank line: reading a line at a time, it has then read no byte
// of what follows, and the next response starts with the next read.
type lineReads struct{ br *bufio.Reader }

func (l lineReads) Read(p []byte) (int, error) {
	if l.br.Buffered() == 0 {
		if _, err := l.br.Peek(1); err != nil {
			return 0, err
		}
	}
	b, _ := l.br.Peek(l.br.Buffered())
	if i := bytes.IndexAny(b, "\r\n"); i >= 0 {
		b = b[:i+1]
	}
	n := copy(p, b)
	l.br.Discard(n)
	return n, nil
}

// tape keeps every byte read through it.
type tape struct {
	r   io.Reader
	buf []byte
}

func (t *tape) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	t.buf = append(t.buf, p[:n]...)
	return n, err
}

// sniff reads the events at the start of a response from body, keeping the
// bytes it reads (head), until it knows the wire: with wire "auto", the one
// an event tells (wireOf), looking at sniffEvents events and sniffBytes
// bytes at most; otherwise wire, at the first event. It returns the wire,
// or "" if none was told, the events read, and the error of the sse Reader
// if the stream ended or failed first. The adapter then reads head again,
// followed by the rest of body: no byte is lost or read twice from the
// input.
func sniff(body io.Reader, wire string) (head []byte, told string, events int, err error) {
	t := &tape{r: body}
	rd := sse.NewReader(t)
	for rd.Next() {
		events++
		if wire != "auto" {
			return t.buf, wire, events, nil
		}
		if w := wireOf(rd.Event()); w != "" {
			return t.buf, w, events, nil
		}
		if events == sniffEvents || len(t.buf) >= sniffBytes {
			break
		}
	}
	return t.buf, "", events, rd.Err()
}

// wireOf tells the wire of a stream from one of its events, as package
// wire does for the gateway, or returns "".
func wireOf(ev sse.Event) string {
	if k := wire.OfEvent(ev); k != wire.Unknown {
		return k.String()
	}
	return ""
}

// The reports.

// reporter prints what the replay sees, as it sees it.
type reporter interface {
	response(n int, wire string)
	start(c fragment.Call)
	decision(c fragment.Call, d policy.Decision, at int64, unlisted bool)
	text(kind string, index int64, text []byte) // kind is "text" or "thinking"
	streamError(err error)
	end(r toolcall.Result, unlisted bool)
	// close ends the last line, once nothing more is reported.
	close()
}

// jsonlReport prints one JSON object per line (see the package doc). What
// a model wrote is in JSON strings, where every character a terminal
// could act on, or that hides or reorders text, is a \u escape
// (render.JSONText): the values are the same, and the lines are safe to
// look at.
type jsonlReport struct {
	w    *bufio.Writer
	buf  []byte
	resp *int // the number of the response being reported, once one began
}

type (
	responseLine struct {
		Event    string `json:"event"`
		Response int    `json:"response"`
		Wire     string `json:"wire"`
	}
	startLine struct {
		Event    string `json:"event"`
		Response *int   `json:"response,omitzero"`
		Index    int64  `json:"index"`
		ID       string `json:"id"`
		Name     string `json:"name"`
		Server   bool   `json:"server,omitzero"`
	}
	replayDecisionLine struct {
		Event        string           `json:"event"`
		Response     *int             `json:"response,omitzero"`
		Index        int64            `json:"index"`
		decisionLine `json:",inline"` // policy's line, without total_bytes
		Unlisted     bool             `json:"unlisted,omitzero"`
	}
	textLine struct {
		Event    string `json:"event"`
		Response *int   `json:"response,omitzero"`
		Index    int64  `json:"index"`
		Text     string `json:"text"`
	}
	errorLine struct {
		Event    string `json:"event"`
		Response *int   `json:"response,omitzero"`
		Error    string `json:"error"`
	}
	endLine struct {
		Event      string         `json:"event"`
		Response   *int           `json:"response,omitzero"`
		Index      int64          `json:"index"`
		ID         string         `json:"id"`
		Name       string         `json:"name"`
		Server     bool           `json:"server,omitzero"`
		Executable bool           `json:"executable"`
		Approved   bool           `json:"approved,omitzero"`
		Declined   bool           `json:"declined,omitzero"`
		Mode       string         `json:"mode,omitzero"`
		Rule       *int           `json:"rule,omitzero"`
		Unlisted   bool           `json:"unlisted,omitzero"`
		Error      *errorField    `json:"error,omitzero"`
		Arguments  jsontext.Value `json:"arguments,omitzero"`
	}
)

func (j *jsonlReport) line(v any) {
	b, _ := json.Marshal(v, jsontext.AllowInvalidUTF8(true))
	j.write(b)
}

// write writes one line of JSON, escaped.
func (j *jsonlReport) write(b []byte) {
	j.buf = render.AppendEscaped(j.buf[:0], b, render.JSONText)
	j.w.Write(append(j.buf, '\n'))
}

func (j *jsonlReport) response(n int, wire string) {
	j.resp = &n
	j.line(responseLine{"response", n, wire})
}

func (j *jsonlReport) start(c fragment.Call) {
	j.line(startLine{"start", j.resp, c.Index, c.ID, c.Name, c.Server})
}

// fragment prints the fragment's JSON Lines object (fragment.AppendJSON,
// as the fragments command prints it) with "event", "response" and
// "index" first.
func (j *jsonlReport) fragment(p *fragment.Progress) error {
	b := append(make([]byte, 0, 64), `{"event":"fragment",`...)
	if j.resp != nil {
		b = strconv.AppendInt(append(b, `"response":`...), int64(*j.resp), 10)
		b = append(b, ',')
	}
	b = strconv.AppendInt(append(b, `"index":`...), int64(p.Call.Index), 10)
	b = append(b, ',')
	brace := len(b)
	var err error
	b, err = p.AppendJSON(b)
	b = append(b[:brace], b[brace+1:]...) // AppendJSON's own "{"
	j.write(b)
	return err
}

func (j *jsonlReport) decision(c fragment.Call, d policy.Decision, at int64, unlisted bool) {
	j.line(replayDecisionLine{"decision", j.resp, c.Index, decisionLine{Mode: d.Mode.String(), Rule: d.Rule, DecidedAtByte: at}, unlisted})
}

func (j *jsonlReport) text(kind string, index int64, text []byte) {
	j.line(textLine{kind, j.resp, index, string(text)})
}

func (j *jsonlReport) streamError(err error) {
	j.line(errorLine{"error", j.resp, message(err)})
}

func (j *jsonlReport) end(r toolcall.Result, unlisted bool) {
	l := endLine{Event: "end", Response: j.resp, Index: r.Call.Index, ID: r.Call.ID, Name: r.Call.Name, Server: r.Call.Server,
		Executable: r.Executable, Approved: r.Approved, Declined: r.Declined, Unlisted: unlisted,
		Arguments: r.Arguments, Error: errorFieldOf(r.Err)}
	if d := r.Verdict.Decision; d.Decided() {
		l.Mode, l.Rule = d.Mode.String(), &d.Rule
	}
	j.line(l)
}

func (j *jsonlReport) close() {}

// textReport prints lines for a person. The model's text is printed as it
// comes, on a line of its own, "block 0 text: ..." (its further lines
// indented by two spaces), until another line is printed. Whatever the
// model or the provider wrote (text, ids, names, arguments, and the error
// messages that quote them) goes through package render's escaper: the
// characters a terminal would act on, or that hide or reorder the text
// shown, are escapes.
type textReport struct {
	w *bufio.Writer
	l labels
	// The text being printed, if open.
	open        bool
	kind        string
	index       int64
	atLineStart bool
}

// linef prints one line, after ending the text being printed.
func (t *textReport) linef(format string, args ...any) {
	t.endText()
	fmt.Fprintf(t.w, format+"\n", args...)
}

func (t *textReport) endText() {
	if t.open && !t.atLineStart {
		t.w.WriteByte('\n')
	}
	t.open = false
}

func (t *textReport) close() { t.endText() }

func (t *textReport) response(n int, wire string) {
	t.l = labelsOf(wire)
	t.linef("response %d: %s", n, wire)
}

// serverNote marks the start of a call that the provider runs.
func serverNote(c fragment.Call) string {
	if c.Server {
		return " (run by the provider)"
	}
	return ""
}

func (t *textReport) start(c fragment.Call) {
	t.linef("%s %s started%s", t.l.callAt(c.Index), ident(c), serverNote(c))
}

func (t *textReport) decision(c fragment.Call, d policy.Decision, at int64, unlisted bool) {
	t.linef("%s decided %s at byte %d", t.l.callAt(c.Index), decisionText(d, unlisted), at)
}

func (t *textReport) text(kind string, index int64, text []byte) {
	if !t.open || t.kind != kind || t.index != index {
		t.endText()
		fmt.Fprintf(t.w, "%s: ", t.l.textAt(kind, index))
		t.open, t.kind, t.index, t.atLineStart = true, kind, index, false
	}
	s := render.Escape(string(text), render.Text)
	for s != "" {
		line, rest, newline := strings.Cut(s, "\n")
		if line != "" && t.atLineStart {
			t.w.WriteString("  ")
		}
		t.w.WriteString(line)
		if newline {
			t.w.WriteByte('\n')
		}
		if line != "" || newline {
			t.atLineStart = newline
		}
		s = rest
	}
}

func (t *textReport) streamError(err error) {
	t.linef("stream error: %s", shown(err))
}

func (t *textReport) end(r toolcall.Result, unlisted bool) {
	status := describe(r).status
	if d := r.Verdict.Decision; d.Decided() {
		status += "; " + decisionText(d, unlisted)
	}
	what := esc(string(r.Arguments))
	if r.Err != nil && (r.Arguments == nil || !errors.Is(r.Err, toolcall.ErrNotApproved)) {
		what = shown(r.Err)
	}
	t.linef("%s %s: %s: %s", t.l.callAt(r.Call.Index), ident(r.Call), status, what)
}
