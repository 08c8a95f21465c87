// Package handrolledtest runs [handrolled.Tokenizer] and
// [jsontoken.Tokenizer] side by side on the same chunks and reports any
// difference: the differential harness that handrolled's tests and fuzz
// targets share.
package handrolledtest

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/argstream/argstream/internal/handrolled"
	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/token"
	"github.com/argstream/argstream/token/jsontoken"
	"github.com/google/go-cmp/cmp"
)

// Tokenizer is what both tokenizers offer.
type Tokenizer interface {
	token.Tokenizer
	Offset() int64
}

// Result is how a tokenizer went through one input.
type Result struct {
	Events     []token.Event // copies
	Err        error         // the first error from Feed or Close, or nil
	ErrAt      int           // the chunk whose Feed returned Err, len(chunks) for Close
	Offset     int64         // Offset() at the end
	AfterErr   []error       // Feed and Close again after Err, or Feed after Close
	SecondDone error         // a second Close
}

// ErrStop is what the handler returns to stop a tokenizer, in [RunStop].
var ErrStop = errors.New("handrolledtest: stop")

// Run feeds chunks to the tokenizer that newTok makes and closes it.
func Run(newTok func(token.Handler) Tokenizer, chunks [][]byte) Result {
	return RunStop(newTok, chunks, -1)
}

// RunStop is [Run] with a handler that returns [ErrStop] for event number stop
// (counting from 0), if stop >= 0.
func RunStop(newTok func(token.Handler) Tokenizer, chunks [][]byte, stop int) Result {
	var r Result
	tok := newTok(token.HandlerFunc(func(e token.Event) error {
		if r.Err != nil {
			r.Events = append(r.Events, token.Event{Kind: 0, Offset: -1}) // an event after the error
		}
		var data []byte // nil for no data, as for empty data
		if len(e.Data) > 0 {
			data = bytes.Clone(e.Data)
		}
		r.Events = append(r.Events, token.Event{Kind: e.Kind, Data: data, Escaped: bytes.Clone(e.Escaped), Offset: e.Offset})
		if len(r.Events) == stop+1 {
			return ErrStop // the event just recorded is refused
		}
		return nil
	}))
	r.ErrAt = len(chunks)
	for i, c := range chunks {
		if r.Err = tok.Feed(c); r.Err != nil {
			r.ErrAt = i
			break
		}
	}
	if r.Err == nil {
		r.Err = tok.Close()
	}
	r.Offset = tok.Offset()
	if r.Err != nil {
		r.AfterErr = []error{tok.Feed([]byte(" ")), tok.Close()}
	} else {
		r.AfterErr = []error{tok.Feed([]byte(" "))}
		r.SecondDone = tok.Close()
	}
	return r
}

// Reference runs [jsontoken.Tokenizer].
func Reference(chunks [][]byte, opts ...token.Option) Result {
	return RunStop(newJSON(opts), chunks, -1)
}

// Handrolled runs [handrolled.Tokenizer].
func Handrolled(chunks [][]byte, opts ...token.Option) Result {
	return RunStop(newHandrolled(opts), chunks, -1)
}

func newJSON(opts []token.Option) func(token.Handler) Tokenizer {
	return func(h token.Handler) Tokenizer { return jsontoken.New(h, opts...) }
}

func newHandrolled(opts []token.Option) func(token.Handler) Tokenizer {
	return func(h token.Handler) Tokenizer { return handrolled.New(h, opts...) }
}

// Diff runs both tokenizers on chunks and describes how they differ, or
// returns "" if they do not. It also checks what both must get right on
// their own: no empty string data, no event after an error, and an error
// that is a [*token.SyntaxError] wrapping one category.
func Diff(chunks [][]byte, opts ...token.Option) string {
	return DiffStop(chunks, -1, opts...)
}

// DiffStop is [Diff] with handlers that refuse event number stop (see
// [RunStop]): both tokenizers must stop there and return the handler's error
// from then on.
func DiffStop(chunks [][]byte, stop int, opts ...token.Option) string {
	want := RunStop(newJSON(opts), chunks, stop)
	got := RunStop(newHandrolled(opts), chunks, stop)
	var out []string
	// reflect.DeepEqual agrees with cmp.Diff on events (exported fields
	// only; nil and empty slices differ) and costs a fraction of it: most
	// comparisons find nothing, and cmp describes only those that do.
	if !reflect.DeepEqual(want.Events, got.Events) {
		out = append(out, "events (-jsontoken +handrolled):\n"+cmp.Diff(want.Events, got.Events))
	}
	if d := DiffError(want.Err, got.Err); d != "" {
		out = append(out, "error: "+d)
	}
	if want.ErrAt != got.ErrAt {
		out = append(out, fmt.Sprintf("error from chunk %d, handrolled from %d", want.ErrAt, got.ErrAt))
	}
	if want.Offset != got.Offset {
		out = append(out, fmt.Sprintf("Offset() %d, handrolled %d", want.Offset, got.Offset))
	}
	for i := range want.AfterErr {
		if d := DiffError(want.AfterErr[i], got.AfterErr[i]); d != "" {
			out = append(out, fmt.Sprintf("call %d after the end: %s", i, d))
		}
	}
	if d := DiffError(want.SecondDone, got.SecondDone); d != "" {
		out = append(out, "second Close: "+d)
	}
	for _, r := range []struct {
		name string
		res  Result
	}{{"jsontoken.Tokenizer", want}, {"handrolled", got}} {
		if msg := check(r.res); msg != "" {
			out = append(out, r.name+": "+msg)
		}
	}
	return strings.Join(out, "\n")
}

// check checks what a [Result] must satisfy on its own.
func check(r Result) string {
	for _, e := range r.Events {
		if e.Kind == 0 {
			return "event after the error"
		}
		if e.Kind == token.StringData && len(e.Data) == 0 {
			return "empty StringData"
		}
		if e.Escaped != nil {
			if err := testutil.CheckEscaped(e.Data, e.Escaped); err != nil {
				return fmt.Sprintf("%v: %v", e.Kind, err)
			}
		}
	}
	if r.Err == nil || r.Err == ErrStop {
		return ""
	}
	var se *token.SyntaxError
	if !errors.As(r.Err, &se) {
		return fmt.Sprintf("error %v (%T) is not a *token.SyntaxError", r.Err, r.Err)
	}
	n := 0
	for _, cat := range Categories {
		if errors.Is(r.Err, cat) {
			n++
		}
	}
	if n != 1 || se.Detail == "" || se.Syntax == "" {
		return fmt.Sprintf("error %#v wraps %d categories", se, n)
	}
	return ""
}

// Categories are the error categories of package [token].
var Categories = []error{token.ErrSyntax, token.ErrTruncated, token.ErrTrailingData, token.ErrDuplicateKey,
	token.ErrCaseFoldedKey, token.ErrNULInKey, token.ErrInvalidUTF8, token.ErrInvalidEscape, token.ErrTooDeep,
	token.ErrTooLarge}

// DiffError compares two errors: for *token.SyntaxErrors, what a program
// may rely on (the syntax, the offset, the pointer and the category, not
// the message, which is for people and differs between the tokenizers);
// otherwise the same error.
func DiffError(want, got error) string {
	var ws, gs *token.SyntaxError
	wok, gok := errors.As(want, &ws), errors.As(got, &gs)
	switch {
	case wok && gok:
		if ws.Syntax != gs.Syntax || ws.Offset != gs.Offset || ws.Pointer != gs.Pointer || ws.Err != gs.Err {
			return fmt.Sprintf("jsontoken %#v, handrolled %#v", ws, gs)
		}
		return ""
	case want != got && !(want != nil && got != nil && want.Error() == got.Error() && wok == gok):
		return fmt.Sprintf("jsontoken %v, handrolled %v", want, got)
	}
	return ""
}
