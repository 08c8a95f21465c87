package render

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// This file is the output side: a writer per call and view (the live view
// on the Renderer's io.Writer, the summary that Partial returns), which
// writes lines with their prefixes, wraps them, colours them, escapes
// argument text (escape.go) and, on the live output, marks every switch
// from one call's text to another's with a continuation header.

// style is how a piece of text is shown when colour is on.
type style uint8

const (
	stPlain style = iota
	stName        // the tool's name: bold
	stDim         // keys, gutters, placeholders, continuation headers
	stEsc         // an escape standing for a character not written raw: reverse video
	stErr         // an error: red
)

// The SGR sequences the renderer writes, and only these, only when colour
// is on.
const (
	sgrReset   = "\x1b[0m"
	sgrBold    = "\x1b[1m"
	sgrDim     = "\x1b[2m"
	sgrReverse = "\x1b[7m"
	sgrRed     = "\x1b[31m"
)

var sgr = [...]string{stPlain: "", stName: sgrBold, stDim: sgrDim, stEsc: sgrReverse, stErr: sgrRed}

// Line prefixes. Only the renderer's own headers, and in the [JSON] style the
// outermost brackets (or a root value that is neither an array nor an
// object, quoted if a string), start at column 0: every other line of
// argument text starts with an indentation, a gutter or a continuation
// mark.
const (
	gutter     = "  │ "                             // a line of a long string
	mark       = "┆ "                               // after an indentation, a line continued: wrapped, or resumed after another call's output
	markIn     = 2                                  // the indentation of the mark in the function-call style and in headers
	indentStep = 2                                  // the JSON style's indentation per level
	maxIndent  = 32                                 // the deepest indentation, in columns: deeper levels are not indented more
	spaces     = "                                " // maxIndent spaces
)

// flushAt is the size at which the live output is written out even in the
// middle of a fragment, so that one huge fragment does not need as much
// memory again.
const flushAt = 32 << 10

// writer writes one view of one call. The live view (r set) writes to the
// [Renderer]'s output, which it shares with the other calls' live views; the
// summary (r nil) appends to buf, without colour, wrapping or headers.
type writer struct {
	r    *Renderer
	call *call
	buf  []byte // the summary's text

	inGroup bool   // in a group of writes (see group)
	mid     bool   // the current line of this view has begun
	prefix  string // written at the start of each new line
	wrapIn  int    // the indentation of the mark that begins a wrapped or resumed line
	from    int    // the column where the current line's text begins
}

// setLine sets the prefix of the lines that begin from now on, and the
// indentation of the mark of their continuations.
func (w *writer) setLine(prefix string, wrapIn int) { w.prefix, w.wrapIn = prefix, wrapIn }

// begin starts a line if none is begun: on the live output, it first takes
// the output for this call (see Renderer.claim).
func (w *writer) begin() {
	if w.r == nil {
		if !w.mid {
			w.buf = append(w.buf, w.prefix...)
			w.mid = true
		}
		return
	}
	w.r.claim(w)
	if !w.mid {
		w.r.prefix(w.prefix)
		w.mid = true
		w.from = w.r.col
	}
}

// endLine ends the current line, if one is begun.
func (w *writer) endLine() {
	if !w.mid {
		return
	}
	w.mid = false
	if w.r == nil {
		w.buf = append(w.buf, '\n')
		return
	}
	if w.r.owner == w.call {
		w.r.lineBreak()
	} // else another call's output ended the line already
}

// emptyLine writes an empty line: the prefix alone, without its trailing
// spaces.
func (w *writer) emptyLine() {
	p := strings.TrimRight(w.prefix, " ")
	if w.r == nil {
		w.buf = append(append(w.buf, p...), '\n')
		return
	}
	w.r.claim(w)
	w.r.prefix(p)
	w.r.lineBreak()
}

// text writes the renderer's own text (no control characters, never from
// the arguments).
func (w *writer) text(s string, st style) {
	w.begin()
	if w.r == nil {
		w.buf = append(w.buf, s...)
		return
	}
	for len(s) > 0 {
		i := 0
		for i < len(s) && s[i] < utf8.RuneSelf {
			i++
		}
		if i > 0 {
			run(w, s[:i], st)
			s = s[i:]
			continue
		}
		c, n := utf8.DecodeRuneInString(s)
		put(w, s[:n], w.r.cols.rune(c), st)
		s = s[n:]
	}
	w.done()
}

// name writes a tool's name or a key in the function-call style: bare if
// bareName allows, else quoted.
func (w *writer) name(s []byte, st style) {
	w.group(func() {
		if bareName(s) {
			w.arg(s, Quoted, st)
			return
		}
		w.text(`"`, st)
		w.arg(s, Quoted, st)
		w.text(`"`, st)
	})
}

// arg writes argument text (a value, a key, a name, an error message) as
// mode m shows it (see [Mode]): nothing escaped reaches the output raw.
func (w *writer) arg(b []byte, m Mode, st style) {
	if w.r == nil {
		w.begin()
		w.buf = appendEscaped(w.buf, b, m)
		return
	}
	r := w.r
	for len(b) > 0 {
		if m == Text && b[0] == '\n' {
			if w.mid {
				w.endLine()
			} else {
				w.emptyLine()
			}
			b = b[1:]
			continue
		}
		w.begin() // before the escape below: a continuation header uses r.esc
		// A run of printable ASCII, the common case, is written in slices
		// as wide as the line's room.
		i := 0
		for i < len(b) && b[i] >= 0x20 && b[i] < 0x7f && (!m.quoting() || b[i] != '"' && b[i] != '\\') {
			i++
		}
		if i > 0 {
			run(w, b[:i], st)
			b = b[i:]
			continue
		}
		esc, n, k := unit(r.esc[:0], b, m)
		r.esc = esc
		switch k {
		case plain:
			c, _ := utf8.DecodeRune(b[:n])
			put(w, b[:n], r.cols.rune(c), st)
		case escape:
			est := stEsc
			if n == 1 && (b[0] == '"' || b[0] == '\\') {
				est = st // quoting, not a hidden character
			}
			put(w, esc, len(esc), est)
			if est == stEsc {
				r.plain() // each escape a span of its own, however the text came
			}
		case tab:
			run(w, spaces[:tabStop-(r.col-w.from)%tabStop], st)
		}
		b = b[n:]
	}
	w.done()
}

// run writes printable ASCII of w's, wrapping where the line is full
// (see full). The line must be begun.
func run[T string | []byte](w *writer, b T, st style) {
	r := w.r
	for len(b) > 0 {
		n := len(b)
		if r.limit > 0 {
			if r.col >= r.limit {
				r.full(w)
			}
			if room := r.limit - r.col; room > 0 {
				n = min(n, room)
			} else if i := index(b, ' '); i >= 0 {
				n = i + 1 // a line past the width goes on to its next space
			}
		}
		col := r.col
		span(r, b[:n], st)
		r.col += r.cols.ascii(b[n-1], n)
		if i := lastIndex(b[:n], ' '); i >= 0 && col+i > w.from {
			r.spaceAt(w, len(r.out)-n+i+1, col+i+1)
		}
		b = b[n:]
	}
	r.maybeFlush()
}

func lastIndex[T string | []byte](b T, c byte) int {
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] == c {
			return i
		}
	}
	return -1
}

func index[T string | []byte](b T, c byte) int {
	for i := 0; i < len(b); i++ {
		if b[i] == c {
			return i
		}
	}
	return -1
}

// put writes one unit of w's text, cols columns wide, on the current line
// or, if it is full, on a new one (see full). The line must be begun.
func put[T string | []byte](w *writer, s T, cols int, st style) {
	r := w.r
	if r.limit > 0 && cols > 0 && r.col+cols > r.limit {
		r.full(w)
	}
	span(r, s, st)
	r.col += cols
	if len(s) > 0 && s[len(s)-1] < utf8.RuneSelf {
		r.cols.ascii(s[len(s)-1], 1) // an escape: ASCII
	}
	r.maybeFlush()
}

// holdZone is how near the end of a terminal's line a word must begin to
// be held back (see spaceAt): at most this many columns, and at most a
// quarter of the line.
const holdZone = 20

// spaceAt notes that w's line may break at out[at:], after a space, at
// column col. On a terminal, a word that begins there, in the last
// columns of the line, is held back from the output until it ends (a
// space, the line's end) or the line fills: then it moves, whole, to the
// next line, so that a line breaks at a space rather than in a word. A
// word that begins earlier is written as it comes, and cut at the width
// if it does not fit.
func (r *Renderer) spaceAt(w *writer, at, col int) {
	r.spaceEnd = col
	r.hold = -1
	if r.hard && r.limit-col <= min(holdZone, r.limit/4) {
		r.hold, r.holdCol, r.holdSt, r.holdW = at, col, r.cur, w
	}
}

// full is called when the text of w that comes next does not fit on the
// line. At the start of a word (after a space), the line breaks there; a
// word held back (see spaceAt) moves to the next line. Otherwise, on a
// terminal (hard), the line is cut in the middle of the word: a terminal
// would otherwise wrap it itself, and the rest would start at column 0; on
// an output that is not a terminal, the word goes on past the width, and
// the line breaks at the next space: words are never cut.
func (r *Renderer) full(w *writer) {
	switch {
	case r.col <= w.from:
		// nothing of w's on the line: a new one would not help
	case r.hold >= 0 && r.holdW == w && r.hold < len(r.out):
		r.moveWord(w)
	case r.hard || r.spaceEnd == r.col:
		r.wrapLine(w)
	}
}

// moveWord moves the output after the word held back to a new line of
// w's.
func (r *Renderer) moveWord(w *writer) {
	r.word = append(r.word[:0], r.out[r.hold:]...)
	end, cols, last, st := r.cur, r.col-r.holdCol, r.cols, r.holdSt
	r.out, r.cur, r.col = r.out[:r.hold], st, r.holdCol
	r.wrapLine(w) // ends the line, and with it its style and the hold
	if st != stPlain {
		r.out = append(r.out, sgr[st]...)
	}
	r.out = append(r.out, r.word...)
	r.cur, r.col, r.cols = end, r.col+cols, last
}

// span appends s in style st, switching the output's style if it is not
// st already.
//
// Where styles end is decided by what is written, never by how the
// arguments were cut into chunks: a style ends after each escape, at each
// line break, and at the end of each write (text, arg) that is not part
// of a group (a key, a name: see writer.group), so that a write never
// leaves the terminal styled.
func span[T string | []byte](r *Renderer, s T, st style) {
	if len(s) == 0 {
		return
	}
	if r.color && st != r.cur {
		r.plain()
		r.out = append(r.out, sgr[st]...)
		r.cur = st
	}
	r.out = append(r.out, s...)
}

// plain ends the output's style, if any.
func (r *Renderer) plain() {
	if r.cur != stPlain {
		r.out = append(r.out, sgrReset...)
		r.cur = stPlain
	}
}

// done ends a write of w's: its style ends unless a group goes on.
func (w *writer) done() {
	if w.r != nil && !w.inGroup {
		w.r.plain()
	}
}

// group writes a key or a name, several writes, in one span of style st.
func (w *writer) group(fn func()) {
	outer := w.inGroup
	w.inGroup = true
	fn()
	w.inGroup = outer
	w.done()
}

// claim takes the live output for w's call. If another call wrote last,
// its line is ended and a continuation header names the call whose text
// follows (unless nothing of it was written yet: its own header comes
// first); a line of w's that was cut resumes after the wrap mark.
func (r *Renderer) claim(w *writer) {
	c := w.call
	if r.owner == c {
		return
	}
	if r.col > 0 {
		r.lineBreak()
	}
	r.owner = c
	if c.label != nil {
		h := &r.hdr
		*h = writer{r: r, call: c, wrapIn: markIn}
		h.group(func() {
			h.text("⋯ ", stDim)
			h.text(string(c.label)+" continued", stDim)
		})
		h.endLine()
	} else if c.headed {
		h := &r.hdr
		*h = writer{r: r, call: c, wrapIn: markIn}
		h.group(func() {
			h.text("⋯ ", stDim)
			h.name(c.nameText, stDim)
			r.num = strconv.AppendInt(append(r.num[:0], " [call "...), int64(c.id.Index), 10)
			r.num = append(r.num, "] continued"...)
			run(h, r.num, stDim)
		})
		h.endLine()
	}
	if w.mid {
		r.mark(w.wrapIn)
		w.from = r.col
	}
}

// prefix writes a line prefix at the start of a line: its indentation,
// and its mark or gutter, dimmed.
func (r *Renderer) prefix(p string) {
	in := len(p) - len(strings.TrimLeft(p, " "))
	span(r, p[:in], stPlain)
	span(r, p[in:], stDim)
	r.plain()
	r.col += width(p)
	r.cols.reset()
}

// mark writes the start of a continued line: n spaces and the mark.
func (r *Renderer) mark(n int) {
	r.prefix(spaces[:min(n, maxIndent)])
	r.prefix(mark)
}

// wrapLine ends a full line of w and starts its continuation.
func (r *Renderer) wrapLine(w *writer) {
	r.lineBreak()
	r.mark(w.wrapIn)
	w.from = r.col
}

// lineBreak ends the output's current line.
func (r *Renderer) lineBreak() {
	r.plain()
	r.out = append(r.out, '\n')
	r.col, r.spaceEnd, r.hold = 0, -1, -1
	r.cols.reset()
}

func (r *Renderer) maybeFlush() {
	if len(r.out) >= flushAt {
		r.flush()
	}
}

// flush writes the output gathered so far, but for a word held back (see
// spaceAt) while it may still move: once it is too long to fit on a line
// of its own, it is written, and cut at the width. In the middle of a
// write (maybeFlush), the output may end styled; between writes, it does
// not.
func (r *Renderer) flush() {
	keep := 0
	if r.hold >= 0 {
		if in := min(r.holdW.wrapIn, maxIndent) + width(mark); in+r.col-r.holdCol >= r.limit {
			r.hold = -1 // it cannot move
		} else {
			keep = len(r.out) - r.hold
		}
	}
	n := len(r.out) - keep
	if n == 0 {
		return
	}
	if r.err == nil {
		_, r.err = r.w.Write(r.out[:n])
	}
	r.out = r.out[:copy(r.out, r.out[n:])]
	if r.hold >= 0 {
		r.hold = 0
	}
}
