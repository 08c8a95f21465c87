package main

// This file is replay --render: the stream shown as a person sees it
// (package render), at a pace, with the early permission prompt.
//
// Goroutines. Everything that touches the toolcall.Response, the Renderer
// and the output runs on the goroutine that runs the wire's reader (the
// "stream goroutine"): the sinks, OnDecision, and the pacer's Read, which the
// wire's reader calls between events, when no method of the Response is
// running. One other goroutine reads the terminal, a line at a time, and
// sends each answer on a channel; only the stream goroutine receives from
// it, in the pacer's Read (while it waits for the pace, and before each
// read) and at the end of a response. So Decline is only ever called from
// the stream goroutine, between events or from OnDecision.

import (
	"bufio"
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

// isTerminal reports whether f is an *os.File on a terminal.
func isTerminal(f any) bool {
	file, ok := f.(*os.File)
	return ok && term.IsTerminal(int(file.Fd()))
}

// answer is a call's answer to the prompt.
type answer byte

const (
	noAnswer   answer = 0
	allow      answer = 'y'
	decline    answer = 'n'
	edit       answer = 'e'
	noTerminal answer = '-' // declined: stdin is not a terminal
)

// prompter shows the stream through a Renderer, paces it, and asks.
type prompter struct {
	r           *render.Renderer
	resp        *toolcall.Response // set by run
	interactive bool
	answers     chan string // lines from the terminal; closed at its end
	reading     bool        // the terminal's goroutine was started
	stdin       io.Reader

	queue   []int64          // the calls asked, awaiting an answer, in order
	asked   map[int64]answer // every call asked, and its answer
	ended   map[int64]bool   // calls whose arguments ended
	offsets map[int64]int64  // each call's argument bytes so far
	cancel  context.CancelFunc
	// The model's text being shown, if textOpen.
	textOpen  bool
	textKind  string
	textIndex int64
	textLines int    // lines of it written
	textBuf   []byte // its line not yet written

	stopped   bool  // the only pending call was declined: stop reading
	stoppedAt int64 // the index of that call

	// The pace.
	rate    float64 // bytes a second; 0: none
	start   time.Time
	payload int64 // argument and text bytes delivered so far
	flush   func()
}

func newPrompter(r *render.Renderer, stdin io.Reader, rate float64, flush func()) *prompter {
	return &prompter{r: r, stdin: stdin, interactive: isTerminal(stdin), rate: rate, flush: flush,
		asked: map[int64]answer{}, ended: map[int64]bool{}, offsets: map[int64]int64{}}
}

// reset readies the prompter for the next response.
func (p *prompter) reset() {
	clear(p.asked)
	clear(p.ended)
	clear(p.offsets)
	p.queue = p.queue[:0]
}

// sink wraps the Renderer's sink of call c, to know the call's progress.
func (p *prompter) sink(c fragment.Call) sink.Sink {
	p.endText()
	return &watchSink{p: p, index: int64(c.Index), s: p.r.Sink(c)}
}

type watchSink struct {
	p     *prompter
	index int64
	s     sink.Sink
}

func (w *watchSink) Push(pr *fragment.Progress) error {
	w.p.endText()
	if d := pr.Offset - w.p.offsets[w.index]; d > 0 {
		w.p.payload += d
		w.p.offsets[w.index] = pr.Offset
	}
	return w.s.Push(pr)
}

func (w *watchSink) End(err error) {
	w.p.endText()
	w.p.ended[w.index] = true
	w.s.End(err)
}

// text shows the model's text, escaped, a line at a time (the Renderer
// starts each write of the command's own on a line of its own): "text
// INDEX: ...", its further lines indented by two spaces. The line being
// written is held until its end, or until a call's output or another line
// of the command's takes the output.
func (p *prompter) text(kind string, index int64, text []byte) {
	p.payload += int64(len(text))
	if !p.textOpen || p.textKind != kind || p.textIndex != index {
		p.endText()
		p.textOpen, p.textKind, p.textIndex, p.textLines = true, kind, index, 0
	}
	p.textBuf = append(p.textBuf, text...)
	if i := bytes.LastIndexByte(p.textBuf, '\n'); i >= 0 {
		p.writeText(string(p.textBuf[:i]))
		p.textBuf = append(p.textBuf[:0], p.textBuf[i+1:]...)
	}
}

// writeText writes lines of the text being shown.
func (p *prompter) writeText(s string) {
	var b strings.Builder
	for line := range strings.SplitSeq(s, "\n") {
		if p.textLines == 0 {
			fmt.Fprintf(&b, "%s %d: ", p.textKind, p.textIndex)
		} else {
			b.WriteString("  ")
		}
		b.WriteString(esc(line))
		b.WriteByte('\n')
		p.textLines++
	}
	io.WriteString(p.r, b.String())
}

// endText ends the text being shown, if any, writing its last line.
func (p *prompter) endText() {
	if p.textOpen && len(p.textBuf) > 0 {
		p.writeText(string(p.textBuf))
	}
	p.textOpen, p.textBuf = false, p.textBuf[:0]
}

// line writes one line of the command's own through the Renderer, after
// the text being shown.
func (p *prompter) line(format string, args ...any) {
	p.endText()
	fmt.Fprintf(p.r, format+"\n", args...)
}

// decided is OnDecision's: an ask shows the prompt at once.
func (p *prompter) decided(_ *toolcall.Response, c fragment.Call, d policy.Decision, at int64) {
	if d.Mode != policy.Ask {
		return
	}
	idx := int64(c.Index)
	when := "while its arguments stream"
	if p.ended[idx] {
		when = "its arguments complete"
	}
	p.line("? call %d asks permission (%s, decided at byte %d):\n%s", c.Index, d, at, p.r.Partial(c.Index))
	p.asked[idx] = noAnswer
	if !p.interactive {
		p.line("Allow? [y/n/e] n (stdin is not a terminal: not approved)")
		p.asked[idx] = noTerminal
		p.declined(idx)
		return
	}
	p.line("Allow? [y/n/e] (%s; answer, then Enter)", when)
	p.queue = append(p.queue, idx)
	if !p.reading {
		p.reading = true
		p.answers = make(chan string)
		go readAnswers(p.stdin, p.answers)
	}
}

// readAnswers sends each line of the terminal on ch, and closes ch at its
// end. It runs on its own goroutine, and touches nothing else.
func readAnswers(in io.Reader, ch chan<- string) {
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		ch <- sc.Text()
	}
	close(ch)
}

// declined declines call idx if it is still pending, on the stream
// goroutine, and stops reading if it was the only pending call.
func (p *prompter) declined(idx int64) {
	if p.ended[idx] {
		return // complete already: it is simply not run
	}
	if p.resp.Decline(idx) {
		p.stopped, p.stoppedAt = true, idx
		if p.cancel != nil {
			p.cancel()
		}
	}
}

// apply applies one line from the terminal to the first call awaiting an
// answer.
func (p *prompter) apply(line string, ok bool) {
	if len(p.queue) == 0 {
		return
	}
	idx := p.queue[0]
	a := decline // the terminal's end: never approve silently
	if ok {
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "y", "yes":
			a = allow
		case "n", "no":
			a = decline
		case "e", "edit":
			a = edit
		default:
			p.line("Allow? [y/n/e] (call %d: answer y, n or e, then Enter)", idx)
			return
		}
	}
	p.queue = p.queue[1:]
	p.asked[idx] = a
	switch a {
	case allow:
		p.resp.Approve(idx)
		p.line("→ call %d allowed: it runs once its arguments are complete", idx)
	case edit:
		p.line("→ call %d marked for editing once its arguments are complete", idx)
	default:
		p.line("→ call %d declined", idx)
		p.declined(idx)
	}
}

// poll applies the answers that have come, without waiting.
func (p *prompter) poll() {
	for len(p.queue) > 0 {
		select {
		case line, ok := <-p.answers:
			p.apply(line, ok)
		default:
			return
		}
	}
}

// await waits for the answer of every call still asked, at the end of a
// response.
func (p *prompter) await() {
	p.endText()
	for len(p.queue) > 0 {
		p.flush()
		line, ok := <-p.answers
		p.apply(line, ok)
	}
}

// pacer is the input of the wire's reader under --render: before each read
// it flushes the output, applies the answers, and waits until the argument
// and text bytes delivered so far are due at the pace.
type pacer struct {
	p *prompter
	r io.Reader
}

func (pc pacer) Read(b []byte) (int, error) {
	p := pc.p
	p.flush()
	p.poll()
	if p.rate > 0 {
		due := p.start.Add(time.Duration(float64(p.payload) / p.rate * float64(time.Second)))
		for wait := time.Until(due); wait > 0 && !p.stopped; wait = time.Until(due) {
			if len(p.queue) == 0 {
				time.Sleep(wait)
				break
			}
			t := time.NewTimer(wait)
			select {
			case line, ok := <-p.answers:
				p.apply(line, ok)
				p.flush()
			case <-t.C:
			}
			t.Stop()
		}
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
	case a == edit && r.Err == nil || errors.Is(r.Err, toolcall.ErrNotApproved) && a == edit:
		return outcome{"marked for editing: complete, not run as streamed", false}
	}
	return o
}

// unread reports, once the replay stopped reading, what was never
// streamed: the bytes of the input left unread, which it reads without
// processing them, to count them (for a pipe, until the producer closes
// it), and among them, for a provider's wire, the argument bytes of the
// declined call and of the other calls (argBytes); for a text (wire ""),
// whose calls' bytes are not told apart, the input bytes alone.
func (rp *replayer) unread(wire string, declined int64) {
	const stopped = "stopped reading: the declined call was the only one pending\n"
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
	rp.prompt.line(stopped+"never streamed: %d argument bytes of call %d, %d of later calls; %d bytes of the input", args[declined], declined, others, int64(ct))
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
	rr.p.line("%s %s: %s%s", rr.t.l.callAt(r.Call.Index), ident(r.Call), status, extra)
}

func (rr *renderReport) close() {}
