package main

// This file is replay's reports: the reporter interface, through which
// the replay says what it sees, and its two formats, JSON Lines
// (jsonlReport) and text for a person (textReport).

import (
	"bufio"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/policy"
	"github.com/argstream/argstream/render"
	"github.com/argstream/argstream/toolcall"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

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
// ([render.JSONText]): the values are the same, and the lines are safe to
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

// fragment prints the fragment's JSON Lines object
// ([fragment.Fragment.AppendJSON], as the fragments command prints it) with
// "event", "response" and "index" first.
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
// messages that quote them) goes through package [render]'s escaper: the
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
