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

// Line prefixes. Only the renderer's own headers, and in the JSON style the
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
// Renderer's output, which it shares with the other calls' live views; the
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
		put(w, s[:n], runeWidth(c), st)
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
// mode m shows it (see Mode): nothing escaped reaches the output raw.
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
			put(w, b[:n], width(b[:n]), st)
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

// run writes printable ASCII of w's, wrapping where the line is full. The
// line must be begun.
func run[T string | []byte](w *writer, b T, st style) {
	r := w.r
	for len(b) > 0 {
		n := len(b)
		if r.limit > 0 {
			room := r.limit - r.col
			if room <= 0 && r.col > w.from {
				r.wrapLine(w)
				room = r.limit - r.col
			}
			n = min(n, max(room, 1))
		}
		span(r, b[:n], st)
		r.col += n
		b = b[n:]
	}
	r.maybeFlush()
}

// put writes one unit of w's text, cols columns wide, on the current line
// or, if it is full, on a new one. The line must be begun.
func put[T string | []byte](w *writer, s T, cols int, st style) {
	r := w.r
	if r.limit > 0 && r.col+cols > r.limit && r.col > w.from {
		r.wrapLine(w)
	}
	span(r, s, st)
	r.col += cols
	r.maybeFlush()
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
	if c.headed {
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
	for _, c := range p {
		r.col += runeWidth(c)
	}
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
	r.col = 0
}

func (r *Renderer) maybeFlush() {
	if len(r.out) >= flushAt {
		r.flush()
	}
}

// flush writes the output gathered so far. In the middle of a write
// (maybeFlush), the output may end styled; between writes, it does not.
func (r *Renderer) flush() {
	if len(r.out) == 0 {
		return
	}
	if r.err == nil {
		_, r.err = r.w.Write(r.out)
	}
	r.out = r.out[:0]
}
