package main

// This file says in words what became of a call (a toolcall.Result), for
// the text report, the summary lines of --render and the messages on
// stderr, and as fields for JSON Lines; and it holds the one way the
// command shows what a model wrote: package render's escaper.

import (
	"errors"
	"fmt"

	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/policy"
	"github.com/argstream/argstream/render"
	"github.com/argstream/argstream/token"
	"github.com/argstream/argstream/toolcall"
)

// esc returns s, which a model or a provider may have written (a tool's
// name, an id, an error message that quotes them), as one line of text
// with every character that could act on a terminal, or hide or reorder
// text, shown as an escape ([render.Line]).
func esc(s string) string { return render.Escape(s, render.Line) }

// shown is an error's message as the command's text lines show it.
func shown(err error) string { return esc(message(err)) }

// labels name the indexes of one wire's calls and texts, which are the
// provider's (a content block, a tool call, a choice, an output item) and
// not a count: "block 1 call", "choice 0 text".
type labels struct{ call, text string }

var wireLabels = map[string]labels{
	"anthropic":        {"block %d call", "block %d %s"},
	"openai-chat":      {"tool call %d", "choice %d %s"},
	"openai-responses": {"item %d call", "item %d %s"},
	"cohere":           {"tool call %d", "content %d %s"},
}

// textLabels are those of the calls written in an assistant's text
// (--syntax), numbered from 0 in the order they come, and of its prose.
var textLabels = labels{"call %d", "%[2]s"}

func labelsOf(wire string) labels {
	if l, ok := wireLabels[wire]; ok {
		return l
	}
	return textLabels
}

func (l labels) callAt(index int64) string { return fmt.Sprintf(l.call, index) }

func (l labels) textAt(kind string, index int64) string {
	return fmt.Sprintf(l.text, index, kind)
}

// ident is a call's id and tool name as a line shows them, escaped.
func ident(c fragment.Call) string {
	return esc(orNone(c.ID, "no id")) + " " + esc(orNone(c.Name, "no name"))
}

// outcome is what became of a call, in words.
type outcome struct {
	// status is what a person needs to know first: "approved", "needs
	// approval, not approved (no answer)", "run by the provider",
	// "truncated"...
	status string
	// problem says the call should have run and may not: the exit status
	// is then 1. A call the provider runs is not the caller's problem.
	problem bool
}

// describe says what became of r. A call that the caller may run says how
// it was allowed; one that it may not says why, from its error first.
func describe(r toolcall.Result) outcome {
	var mm *toolcall.MismatchError
	var se *token.SyntaxError
	v := r.Verdict
	switch {
	case r.Call.Server:
		return outcome{status: "run by the provider, not by the caller"}
	case r.Executable && r.Approved:
		return outcome{status: "approved"}
	case r.Executable && v.Decided():
		return outcome{status: "allowed by the policy"}
	case r.Executable:
		return outcome{status: "complete (no policy)"}
	case r.Declined:
		return outcome{"declined", true}
	case errors.As(r.Err, &mm):
		return outcome{"refused: restated differently (" + mm.What + ")", true}
	case errors.Is(r.Err, toolcall.ErrNotApproved):
		return outcome{"needs approval, not approved (no answer)", true}
	case errors.Is(r.Err, token.ErrTruncated):
		return outcome{"truncated", true}
	case errors.As(r.Err, &se):
		return outcome{"invalid arguments", true}
	case errors.Is(r.Err, toolcall.ErrAfterStop):
		return outcome{"refused: argument bytes after its end", true}
	case errors.Is(r.Err, toolcall.ErrLateName):
		return outcome{"refused: its tool name came after its arguments began", true}
	case r.Err != nil:
		return outcome{"failed", true}
	case r.Call.Name == "":
		return outcome{"refused: no tool name", true}
	case v.Decided() && v.Mode == policy.Skip:
		return outcome{"refused by the policy (skip)", true}
	}
	return outcome{"not executable", true}
}

// decisionText is a decision as the text lines show it: "ask (rule 2)",
// "ask (implicit)", "ask (unlisted tool)".
func decisionText(d policy.Decision, unlisted bool) string {
	if unlisted {
		return d.Mode.String() + " (unlisted tool)"
	}
	return d.String()
}

// errorField is an end line's "error": the category of the error, and
// where it is for invalid arguments, so that a program need not read the
// message, which is for people.
type errorField struct {
	Category string `json:"category"`
	Offset   *int64 `json:"offset,omitzero"`
	Pointer  string `json:"pointer,omitzero"`
	Line     int    `json:"line,omitzero"`
	Column   int    `json:"column,omitzero"`
	What     string `json:"what,omitzero"` // a restatement: name, id, server or arguments
	Streamed string `json:"streamed,omitzero"`
	Restated string `json:"restated,omitzero"`
	Message  string `json:"message"`
}

// categories name the categories of [token.SyntaxError] and the errors of
// package [toolcall].
var categories = []struct {
	err  error
	name string
}{
	{token.ErrTruncated, "truncated"},
	{token.ErrSyntax, "syntax"},
	{token.ErrTrailingData, "trailing_data"},
	{token.ErrDuplicateKey, "duplicate_key"},
	{token.ErrCaseFoldedKey, "case_folded_key"},
	{token.ErrNULInKey, "nul_in_key"},
	{token.ErrInvalidUTF8, "invalid_utf8"},
	{token.ErrInvalidEscape, "invalid_escape"},
	{token.ErrTooDeep, "too_deep"},
	{token.ErrTooLarge, "too_large"},
	{token.ErrSchema, "schema"},
	{toolcall.ErrDeclined, "declined"},
	{toolcall.ErrNotApproved, "not_approved"},
	{toolcall.ErrAfterStop, "after_stop"},
	{toolcall.ErrLateName, "late_name"},
	{toolcall.ErrRestated, "restated"},
}

func errorFieldOf(err error) *errorField {
	if err == nil {
		return nil
	}
	f := &errorField{Category: "other", Message: message(err)}
	for _, c := range categories {
		if errors.Is(err, c.err) {
			f.Category = c.name
			break
		}
	}
	var se *token.SyntaxError
	if errors.As(err, &se) {
		off := se.Offset
		f.Offset, f.Pointer, f.Line, f.Column = &off, string(se.Pointer), se.Line, se.Column
	}
	var mm *toolcall.MismatchError
	if errors.As(err, &mm) {
		f.What, f.Streamed, f.Restated = mm.What, mm.Streamed, mm.Restated
	}
	return f
}
