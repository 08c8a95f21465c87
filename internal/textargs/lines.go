package textargs

import (
	"bytes"

	"github.com/argstream/argstream/token"
)

// Lines follows a tokenizer through its input in lines, so that its errors
// can say line and column as well as byte offset. The tokenizer reports
// each line end it passes ([Lines.Newline], or [Lines.Count] over a run of
// text); an error at an offset on the current line or the one before, or at
// the [Lines.Mark], is then located.
// The zero value is ready: line 1 begins at offset 0.
type Lines struct {
	line      int   // the current line, from 0
	start     int64 // the offset of its first byte
	prevStart int64 // the offset of the line before's first byte

	markAt         int64 // an earlier offset to locate: a value's start
	markLine, mark int   // its line (from 1) and column; markLine 0: none
}

// Reset goes back to the start of the input.
func (l *Lines) Reset() { *l = Lines{} }

// Newline says a line ends and the next begins at offset next.
func (l *Lines) Newline(next int64) { l.line, l.prevStart, l.start = l.line+1, l.start, next }

// Count reads b, a run of the input whose first byte is at offset base, for
// its line ends.
func (l *Lines) Count(b []byte, base int64) {
	n := bytes.Count(b, newline)
	if n == 0 {
		return
	}
	last := bytes.LastIndexByte(b, '\n')
	l.prevStart = l.start
	if n > 1 {
		l.prevStart = base + int64(bytes.LastIndexByte(b[:last], '\n')) + 1
	}
	l.line += n
	l.start = base + int64(last) + 1
}

var newline = []byte{'\n'}

// Mark remembers the position of offset at, on the current line, so that
// an error found there later is located.
func (l *Lines) Mark(at int64) {
	l.markAt, l.markLine, l.mark = at, l.line+1, int(at-l.start)+1
}

// Locate fills in err's Line and Column, if err is a [*token.SyntaxError]
// without them at an offset [Lines] can place, and returns err.
func (l *Lines) Locate(err error) error {
	se, ok := err.(*token.SyntaxError)
	if !ok || se.Line > 0 {
		return err
	}
	switch {
	case se.Offset >= l.start:
		se.Line, se.Column = l.line+1, int(se.Offset-l.start)+1
	case se.Offset >= l.prevStart && l.line > 0:
		se.Line, se.Column = l.line, int(se.Offset-l.prevStart)+1
	case se.Offset == l.markAt && l.markLine > 0:
		se.Line, se.Column = l.markLine, l.mark
	}
	return err
}
