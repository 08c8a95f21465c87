package main

// This file is replay --render: the stream shown as a person sees it
// (package render), at a pace, with the early permission prompt.
//
// Goroutines. Everything runs on the goroutine that runs the wire's reader
// (the "stream goroutine"): the sinks, OnDecision, the pacer's Read, which
// the wire's reader calls between events, when no method of the Response
// is running, and the terminal's keys, which only the pacer's Read and
// the end of a response read, without a goroutine of their own (a key is
// read only once a prompt is on the screen, so that nothing typed before
// it can answer it). Approve and Decline are only ever called from the
// stream goroutine, between events or from OnDecision.
//
// The screen. One prompt at a time is on the screen: the bottom line,
// "Allow block 0 call fs_create_file (toolu_1)? [y/n/e]", drawn after the
// output and drawn again below each new line of it, so that it never
// scrolls away while the stream goes on; the line the renderer has begun
// is held back until its end meanwhile. A key answers the prompt on the
// screen when it was typed; the next call waiting for an answer gets its
// prompt once that one is answered, and what was typed before a prompt
// appears is dropped.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/policy"
	"github.com/argstream/argstream/render"
	"github.com/argstream/argstream/sink"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire/sse"
	"github.com/go-json-experiment/json"
	"github.com/rivo/uniseg"
	"golang.org/x/term"
)

// recordedPace is --pace recorded: 60 tokens a second, about 4 bytes a
// token, of argument and text bytes.
const recordedPace = 240

// errStopped is what the pacer returns once a declined call was the only
// one pending: the replay stops reading, as a client cancels the response.
var errStopped = errors.New("stopped reading: the only pending call was declined")

// parsePace parses --pace: recorded, none, or bytes a second.
func parsePace(s string) (float64, error) {
	switch s {
	case "recorded":
		return recordedPace, nil
	case "none":
		return 0, nil
	}
	n, err := strconv.ParseFloat(s, 64)
	if err != nil || !(n > 0) || n > 1e12 {
		return 0, fmt.Errorf("--pace %s: want recorded, none or bytes a second (a number above 0)", s)
	}
	return n, nil
}

// isTerminal reports whether f is a file on a terminal: anything with an
// Fd method, as [*os.File] has.
func isTerminal(f any) bool {
	file, ok := f.(interface{ Fd() uintptr })
	return ok && term.IsTerminal(int(file.Fd()))
}

// A console is the terminal the prompt reads its answers from: stdin's
// (console_unix.go), or a fake one in tests.
type console interface {
	// wait waits for a key, at most d (no limit if d < 0), or, if in >=
	// 0, until the file descriptor in has bytes to read; key says a key
	// came.
	wait(d time.Duration, in int) (key bool, err error)
	// read reads the keys typed, once wait said there are some; io.EOF at
	// the terminal's end.
	read(p []byte) (int, error)
	// discard drops the keys typed and not yet read.
	discard()
	// restore puts the terminal back as it was.
	restore()
}

// answer is a call's answer to the prompt.
type answer byte

const (
	noAnswer   answer = 0
	allow      answer = 'y'
	decline    answer = 'n'
	edit       answer = 'e'
	noTerminal answer = '-' // declined: no terminal to ask on
)

// prompter shows the stream through a Renderer, paces it, and asks.
type prompter struct {
	r      *render.Renderer
	scr    *screen
	resp   *toolcall.Response // set by run
	labels *labels            // the wire's, set at each response
	con    console            // nil: no terminal, nothing is approved
	inFd   int                // the input's file descriptor if it is a pipe, else -1
	keys   []byte

	queue   []fragment.Call  // the calls asked, awaiting an answer, the first on the screen
	asked   map[int64]answer // every call asked, and its answer
	why     map[int64]string // each call asked: its decision, in words
	ended   map[int64]bool   // calls whose arguments ended
	offsets map[int64]int64  // each call's argument bytes so far
	cancel  context.CancelFunc

	stopped   bool  // the only pending call was declined: stop reading
	stoppedAt int64 // the index of that call

	// The pace.
	rate    float64 // bytes a second; 0: none
	start   time.Time
	payload int64 // argument and text bytes delivered so far
	flush   func()

	// The terminal's size.
	width   func() int // the terminal's width now, 0 if unknown
	resized <-chan os.Signal
}

func newPrompter(r *render.Renderer, scr *screen, con console, rate float64, flush func()) *prompter {
	return &prompter{r: r, scr: scr, con: con, inFd: -1, rate: rate, flush: flush,
		asked: map[int64]answer{}, why: map[int64]string{}, ended: map[int64]bool{}, offsets: map[int64]int64{},
		width: func() int { return 0 }}
}

// reset readies the prompter for the next response.
func (p *prompter) reset() {
	clear(p.asked)
	clear(p.why)
	clear(p.ended)
	clear(p.offsets)
	p.queue = p.queue[:0]
}

// sink wraps the Renderer's sink of call c, to know the call's progress.
func (p *prompter) sink(c fragment.Call) sink.Sink {
	return &watchSink{p: p, index: int64(c.Index), s: p.r.Sink(c)}
}

type watchSink struct {
	p     *prompter
	index int64
	s     sink.Sink
}

func (w *watchSink) Push(pr *fragment.Progress) error {
	if d := pr.Offset - w.p.offsets[w.index]; d > 0 {
		w.p.payload += d
		w.p.offsets[w.index] = pr.Offset
	}
	return w.s.Push(pr)
}

func (w *watchSink) End(err error) {
	w.p.ended[w.index] = true
	w.s.End(err)
}

// text shows the model's text, escaped, wrapped, behind the renderer's
// gutter, under its label ("block 0 text").
func (p *prompter) text(kind string, index int64, text []byte) {
	p.payload += int64(len(text))
	p.r.Text(p.labels.textAt(kind, index), text)
}

// line writes one line of the command's own through the Renderer, which
// wraps it.
func (p *prompter) line(format string, args ...any) {
	fmt.Fprintf(p.r, format+"\n", args...)
}

// who names call c in the command's lines: "block 1 call toolu_1
// fs_create_file", escaped.
func (p *prompter) who(c fragment.Call) string {
	return p.labels.callAt(c.Index) + " " + ident(c)
}

// decided is OnDecision's: an ask shows the call's partial arguments and
// its prompt at once, or, if another call's prompt is on the screen, once
// that one is answered.
func (p *prompter) decided(_ *toolcall.Response, c fragment.Call, d policy.Decision, at int64) {
	if d.Mode != policy.Ask {
		return
	}
	idx := int64(c.Index)
	p.why[idx] = fmt.Sprintf("%s, decided at byte %d", d, at)
	p.asked[idx] = noAnswer
	if p.con == nil {
		p.ask(c)
		p.line("%s", p.promptText(c, "n (no terminal to ask on: not approved)"))
		p.asked[idx] = noTerminal
		p.declined(idx)
		return
	}
	p.queue = append(p.queue, c)
	if len(p.queue) > 1 {
		p.line("? %s asks permission too: its prompt comes once the one shown is answered", p.who(c))
		return
	}
	p.show()
}

// ask shows what call c asks: its partial arguments.
func (p *prompter) ask(c fragment.Call) {
	when := "while its arguments stream"
	if p.ended[int64(c.Index)] {
		when = "its arguments complete"
	}
	p.line("? %s asks permission (%s; %s):\n%s", p.who(c), p.why[int64(c.Index)], when, p.r.Partial(c.Index))
}

// promptText is the prompt of call c, with hint after it, on one line of
// the terminal's width: the call's name and id are shortened in their
// middle if need be (ask showed them whole).
func (p *prompter) promptText(c fragment.Call, hint string) string {
	label := p.labels.callAt(c.Index)
	name, id := []rune(esc(orNone(c.Name, "no name"))), []rune(esc(orNone(c.ID, "no id")))
	text := func() string {
		return fmt.Sprintf("Allow %s %s (%s)? [y/n/e] %s", label, string(name), string(id), hint)
	}
	w := p.width()
	if w <= 0 {
		return text()
	}
	for over := uniseg.StringWidth(text()) - (w - 1); over > 0; over = uniseg.StringWidth(text()) - (w - 1) {
		switch {
		case len(id) > 3:
			id = shorten(id, over)
		case len(name) > 3:
			name = shorten(name, over)
		default:
			return text() // a terminal too narrow for any prompt
		}
	}
	return text()
}

// shorten cuts about n runes out of the middle of rs (more than 3),
// marking the cut with "…".
func shorten(rs []rune, n int) []rune {
	keep := min(max(len(rs)-n-1, 2), len(rs)-2)
	return append(append(rs[:keep/2:keep/2], '…'), rs[len(rs)-(keep-keep/2):]...)
}

// show puts the prompt of the first call of the queue on the screen, after
// dropping what was typed before.
func (p *prompter) show() {
	c := p.queue[0]
	p.ask(c)
	p.scr.setPrompt(p.promptText(c, ""))
	p.flush()
	p.con.discard()
	p.keys = p.keys[:0]
}

// declined declines call idx if it is still pending, on the stream
// goroutine, and stops reading if it was the only pending call.
func (p *prompter) declined(idx int64) {
	if done := p.ended[idx]; p.resp.Decline(idx) && !done {
		p.stopped, p.stoppedAt = true, idx
		if p.cancel != nil {
			p.cancel()
		}
	}
}

// key applies a key typed at the prompt on the screen: y, n or e answers
// it (and the next prompt, if any, takes the screen); Enter and spaces are
// nothing; Ctrl-D, or the terminal's end (k 0), answers n, since nothing
// is ever approved without a yes; any other key shows what to type.
func (p *prompter) key(k byte) {
	if len(p.queue) == 0 {
		return
	}
	c := p.queue[0]
	idx := int64(c.Index)
	var a answer
	switch k {
	case 'y', 'Y':
		a = allow
	case 'n', 'N', 0, 4:
		a = decline
	case 'e', 'E':
		a = edit
	case '\r', '\n', ' ':
		return
	default:
		p.scr.setPrompt(p.promptText(c, "(answer y, n or e) "))
		return
	}
	p.scr.setPrompt("")
	p.queue = p.queue[1:]
	p.asked[idx] = a
	switch a {
	case allow:
		p.resp.Approve(idx)
		p.line("→ %s: allowed: it runs once its arguments are complete", p.who(c))
	case edit:
		p.line("→ %s: marked for editing once its arguments are complete", p.who(c))
	default:
		what := "declined"
		if k == 0 || k == 4 {
			what = "declined (the terminal ended: no answer)"
		}
		p.line("→ %s: %s", p.who(c), what)
		p.declined(idx)
	}
	if len(p.queue) > 0 {
		p.show()
	}
}

// keysTyped applies the keys typed since the last look, the first answer
// only: the keys after it were typed before the next prompt appeared.
func (p *prompter) keysTyped() {
	var buf [64]byte
	n, err := p.con.read(buf[:])
	if n == 0 && err != nil {
		p.key(0) // the terminal's end
		return
	}
	for _, k := range buf[:n] {
		before := len(p.queue)
		p.key(k)
		if len(p.queue) != before {
			return // answered: the rest came before the next prompt
		}
	}
}

// poll applies the keys typed, without waiting, and follows a resize.
func (p *prompter) poll() {
	p.resize()
	for len(p.queue) > 0 {
		key, err := p.con.wait(0, -1)
		if !key || err != nil {
			return
		}
		p.keysTyped()
		p.flush()
	}
}

// resize gives the Renderer the terminal's new width after a SIGWINCH.
func (p *prompter) resize() {
	select {
	case <-p.resized:
		if w := p.width(); w > 0 {
			p.r.SetWidth(w)
			if len(p.queue) > 0 {
				p.scr.setPrompt(p.promptText(p.queue[0], ""))
			}
		}
	default:
	}
}

// await waits for the answer of every call still asked, at the end of a
// response.
func (p *prompter) await() {
	for len(p.queue) > 0 {
		p.flush()
		// A while at a time, to follow a resize meanwhile.
		if key, err := p.con.wait(250*time.Millisecond, -1); key || err != nil {
			p.keysTyped()
		}
		p.resize()
	}
	p.flush()
}

// pacer is the input of the wire's reader under --render: before each read
// it flushes the output, applies the keys typed, and waits until the
// argument and text bytes delivered so far are due at the pace, answering
// keys meanwhile; while a prompt waits and the input is a pipe with
// nothing to read yet, it waits for a key or for the input.
type pacer struct {
	p  *prompter
	r  io.Reader
	br interface{ Buffered() int } // r's buffer, if any
}

func (pc pacer) Read(b []byte) (int, error) {
	p := pc.p
	p.flush()
	if p.con != nil {
		p.poll()
	}
	if p.rate > 0 {
		due := p.start.Add(time.Duration(float64(p.payload) / p.rate * float64(time.Second)))
		for wait := time.Until(due); wait > 0 && !p.stopped; wait = time.Until(due) {
			if p.con == nil || len(p.queue) == 0 {
				time.Sleep(min(wait, 50*time.Millisecond))
				p.resize()
				continue
			}
			if key, _ := p.con.wait(wait, -1); key {
				p.keysTyped()
				p.flush()
			}
		}
	}
	for p.con != nil && len(p.queue) > 0 && p.inFd >= 0 && !p.stopped && (pc.br == nil || pc.br.Buffered() == 0) {
		key, err := p.con.wait(-1, p.inFd)
		if !key || err != nil {
			break // the input has bytes
		}
		p.keysTyped()
		p.flush()
	}
	if p.stopped {
		return 0, errStopped
	}
	return pc.r.Read(b)
}

// final is what becomes of call r under --render, o without a prompt:
// whether it was asked, and answered.
func (p *prompter) final(r toolcall.Result, o outcome) outcome {
	a, asked := p.asked[int64(r.Call.Index)]
	switch {
	case !asked || r.Call.Server:
		return o
	case a == decline:
		return outcome{"declined", true}
	case a == noTerminal:
		return outcome{"not approved, no terminal", true}
	case a == edit && (r.Err == nil || errors.Is(r.Err, toolcall.ErrNotApproved)):
		return outcome{"marked for editing: complete, not run as streamed", false}
	}
	return o
}

// screen is the output of the Renderer under --render, in front of the
// command's buffered stdout. While a prompt waits, it is the screen's last
// line: every complete line of output goes above it (the prompt is erased,
// the lines written, the prompt drawn again), and the line begun is held
// back until its end, or until the prompt goes.
type screen struct {
	w      io.Writer
	prompt string // the prompt on the screen, "" for none
	held   []byte // the line begun while the prompt is shown
}

func (s *screen) Write(b []byte) (int, error) {
	if s.prompt == "" {
		return s.w.Write(b)
	}
	s.held = append(s.held, b...)
	i := bytes.LastIndexByte(s.held, '\n')
	if i < 0 {
		return len(b), nil
	}
	io.WriteString(s.w, eraseLine)
	s.w.Write(s.held[:i+1])
	s.held = s.held[:copy(s.held, s.held[i+1:])]
	_, err := io.WriteString(s.w, s.prompt)
	return len(b), err
}

// eraseLine takes the cursor to the start of its line and erases the
// line: the prompt, drawn without a newline.
const eraseLine = "\r\x1b[K"

// setPrompt puts prompt on the screen's last line in place of the one
// there, or, if prompt is "", takes it away and writes the line held.
func (s *screen) setPrompt(prompt string) {
	if s.prompt != "" {
		io.WriteString(s.w, eraseLine)
	}
	s.prompt = prompt
	if prompt == "" {
		s.w.Write(s.held)
		s.held = s.held[:0]
		return
	}
	io.WriteString(s.w, prompt)
}

// unread reports, once the replay stopped reading, what was never
// streamed. For a recording (a regular file), it reads the rest of the
// file without processing it, to count its bytes and, for a provider's
// wire, the argument bytes of the declined call and of the other calls
// (argBytes); for a text (wire ""), whose calls' bytes are not told apart,
// the input bytes alone. A live input (a pipe, a terminal) is not read
// any further: the bytes read are counted, and the rest was never read.
func (rp *replayer) unread(wire string, declined int64) {
	const stopped = "stopped reading: the declined call was the only one pending\n"
	if !rp.regular {
		rp.prompt.line(stopped+"never streamed: the rest of the input, never read (%d bytes were read)", rp.in.n)
		return
	}
	var ct byteCount
	if wire == "" {
		io.Copy(&ct, rp.rest)
		rp.prompt.line(stopped+"never streamed: %d bytes of the input", int64(ct))
		return
	}
	args, _ := argBytes(wire, io.TeeReader(rp.rest, &ct))
	io.Copy(&ct, rp.rest) // what the event reader left
	var others int64
	for i, n := range args {
		if i != declined {
			others += n
		}
	}
	rp.prompt.line(stopped+"never streamed: %d argument bytes of %s, %d of later calls; %d bytes of the input",
		args[declined], rp.labels.callAt(declined), others, int64(ct))
}

type byteCount int64

func (c *byteCount) Write(p []byte) (int, error) {
	*c += byteCount(len(p))
	return len(p), nil
}

// argBytes counts the argument bytes, by call index, that the events of r
// hold (the decoded text of the argument deltas: Anthropic's
// input_json_delta partial_json, Chat Completions' tool_calls arguments,
// the Responses API's function_call_arguments delta).
func argBytes(wire string, r io.Reader) (map[int64]int64, error) {
	counts := map[int64]int64{}
	rd := sse.NewReader(r)
	for rd.Next() {
		ev := rd.Event()
		switch wire {
		case "anthropic":
			var d struct {
				Type  string `json:"type"`
				Index int64  `json:"index"`
				Delta struct {
					PartialJSON string `json:"partial_json"`
				} `json:"delta"`
			}
			if json.Unmarshal(ev.Data, &d) == nil && d.Type == "content_block_delta" {
				counts[d.Index] += int64(len(d.Delta.PartialJSON))
			}
		case "openai-chat":
			var d struct {
				Choices []struct {
					Delta struct {
						ToolCalls []struct {
							Index    int64 `json:"index"`
							Function struct {
								Arguments string `json:"arguments"`
							} `json:"function"`
						} `json:"tool_calls"`
					} `json:"delta"`
				} `json:"choices"`
			}
			if json.Unmarshal(ev.Data, &d) == nil {
				for _, c := range d.Choices {
					for _, tc := range c.Delta.ToolCalls {
						counts[tc.Index] += int64(len(tc.Function.Arguments))
					}
				}
			}
		case "openai-responses":
			var d struct {
				Type        string `json:"type"`
				OutputIndex int64  `json:"output_index"`
				Delta       string `json:"delta"`
			}
			if json.Unmarshal(ev.Data, &d) == nil && strings.HasSuffix(d.Type, "_call_arguments.delta") {
				counts[d.OutputIndex] += int64(len(d.Delta))
			}
		}
	}
	return counts, rd.Err()
}

// renderReport is the reporter of --render: the Renderer shows the calls,
// the prompter the model's text and the prompts; it adds the responses,
// stream errors, and a summary line per call.
type renderReport struct {
	t textReport // for its ident, never written to
	p *prompter
}

func (rr *renderReport) response(n int, wire string) {
	rr.t.l = labelsOf(wire)
	rr.p.labels = &rr.t.l
	rr.p.line("── response %d (%s)", n, wire)
}

func (rr *renderReport) start(fragment.Call) {}

func (rr *renderReport) decision(fragment.Call, policy.Decision, int64, bool) {}

func (rr *renderReport) text(kind string, index int64, text []byte) { rr.p.text(kind, index, text) }

func (rr *renderReport) streamError(err error) {
	rr.p.line("stream error: %s", shown(err))
}

func (rr *renderReport) end(r toolcall.Result, unlisted bool) {
	status := rr.p.final(r, describe(r)).status
	if d := r.Verdict.Decision; d.Decided() {
		status += "; " + decisionText(d, unlisted)
	}
	got := rr.p.offsets[int64(r.Call.Index)]
	extra := ""
	if r.Err != nil && !r.Declined && !errors.Is(r.Err, toolcall.ErrNotApproved) {
		extra = fmt.Sprintf(" (%s; %d argument bytes received)", shown(r.Err), got)
	}
	rr.p.line("%s: %s%s", rr.p.who(r.Call), status, extra)
}

// close ends the last line of the output.
func (rr *renderReport) close() { rr.p.r.Write(nil) }

// setupRender readies --render: the Renderer on the screen in front of
// the output, its colour and width, the prompt's console (stdin's
// terminal, its echo off until stop), the resize signal, and the pacer in
// front of the input. stop puts the terminal back as it was; it is also
// done on a panic, and on SIGINT, SIGTERM and SIGHUP (console_unix.go).
func (rp *replayer) setupRender(e env, src *source, opts []render.Option, rate float64, width int) (stop func(), err error) {
	con := e.console
	if con == nil {
		if con, err = openConsole(e); err != nil {
			return nil, &ioError{"stdin", err}
		}
	}
	restore := func() {}
	if con != nil {
		restore = con.restore
	}
	out, _ := e.stdout.(interface{ Fd() uintptr })
	tty := isTerminal(e.stdout)
	opts = append(opts, render.WithColor(tty && os.Getenv("NO_COLOR") == ""))
	if tty {
		opts = append(opts, render.WithTerminal(out.Fd()))
	}
	size := func() int { return 0 }
	if tty {
		size = func() int {
			w, _, err := term.GetSize(int(out.Fd()))
			if err != nil {
				return 0
			}
			return w
		}
	}
	switch cols, err := strconv.Atoi(os.Getenv("COLUMNS")); {
	case width >= 0:
		opts = append(opts, render.WithWidth(width))
	case tty:
	case err == nil && cols > 0:
		opts = append(opts, render.WithWidth(cols))
	}
	scr := &screen{w: rp.in.out}
	p := newPrompter(render.New(scr, opts...), scr, con, rate, func() { rp.in.flush() })
	p.width = size
	if width >= 0 {
		p.width = func() int { return width }
	}
	stopResize := func() {}
	if tty && width < 0 {
		p.resized, stopResize = watchResize()
	}
	if f, ok := src.r.(*os.File); ok && src.size < 0 {
		p.inFd = int(f.Fd())
	}
	rp.prompt, rp.rep = p, &renderReport{t: textReport{w: rp.in.out}, p: p}
	lr, _ := rp.body.(lineReads)
	rp.rest, rp.body = rp.body, pacer{p: p, r: rp.body, br: lr.br}
	return func() {
		stopResize()
		restore()
	}, nil
}
