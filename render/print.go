package render

import (
	"strconv"

	"github.com/argstream/argstream/fragment"
)

// printer turns the structure of one call's arguments, as the call's
// walker (call.push) reports it, into one view's text: the live view, in
// the renderer's style, or the summary that Partial returns, in the same
// style with every string quoted on its line.
//
// The walker reports, for each value: open and close for an array or an
// object (a root that is neither gets open with kind 0), member for each
// member or item when its output begins, then scalar, shortString,
// longBegin with pieces and longEnd, or empty; and rootDone at the end.
type printer struct {
	w       writer
	style   Style
	blocks  bool // long strings as blocks below the call: the live function-call view
	inBlock bool
	summary bool
}

// header writes the call's first line: "Calling tool NAME", with the
// call's index when other calls are under way.
func (p *printer) header(name []byte, index int64, others bool) {
	w := &p.w
	w.setLine("", markIn)
	if len(name) == 0 {
		w.text("Calling an unnamed tool", stPlain)
	} else {
		w.text("Calling tool ", stPlain)
		w.name(name, stName)
	}
	if others {
		w.text(" [call "+strconv.FormatInt(index, 10)+"]", stDim)
	}
	if p.style == JSON {
		w.endLine()
	}
}

// open begins an array ('['), an object ('{') or, with kind 0, a root
// value that is neither, at depth (the length of its path).
func (p *printer) open(kind byte, depth int) {
	w := &p.w
	if p.style == JSON {
		switch kind {
		case '{':
			w.text("{", stPlain)
		case '[':
			w.text("[", stPlain)
		}
		return
	}
	if depth == 0 {
		w.text("(", stPlain) // the arguments of the call
		if kind == '[' {
			w.text("[", stPlain)
		}
		return
	}
	if kind == '[' {
		w.text("[", stPlain)
	} else {
		w.text("{", stPlain)
	}
}

// member begins a member of the object (isKey, with its key), or an item
// of the array, at depth.
func (p *printer) member(depth int, key []byte, isKey, first bool) {
	w := &p.w
	if p.style == JSON {
		if !first {
			w.text(",", stPlain)
		}
		w.endLine()
		w.setLine(indent(depth+1), len(indent(depth+1)))
		if isKey {
			w.group(func() {
				w.text(`"`, stDim)
				w.arg(key, JSONQuoted, stDim)
				w.text(`"`, stDim)
			})
			w.text(": ", stPlain)
		}
		return
	}
	if !first && w.mid {
		w.text(", ", stPlain)
	} // else a new line after a block: the line break separates
	if isKey {
		w.name(key, stDim)
		w.text(": ", stPlain)
	}
}

func (p *printer) quoteMode() Mode {
	if p.style == JSON {
		return JSONQuoted
	}
	return Quoted
}

// scalar writes a number, true, false or null.
func (p *printer) scalar(text []byte) { p.w.arg(text, p.quoteMode(), stPlain) }

// shortString writes a whole string on the current line.
func (p *printer) shortString(text []byte) {
	p.w.text(`"`, stPlain)
	p.w.arg(text, p.quoteMode(), stPlain)
	p.w.text(`"`, stPlain)
}

// longBegin begins a long string: below the call as a block in the live
// function-call view, else quoted on the current line.
func (p *printer) longBegin() {
	w := &p.w
	if !p.blocks {
		w.text(`"`, stPlain)
		return
	}
	w.text("…", stDim)
	w.endLine()
	w.setLine(gutter, markIn)
	p.inBlock = true
}

// piece writes the next piece of a long string.
func (p *printer) piece(text []byte) {
	if p.inBlock {
		p.w.arg(text, Text, stPlain)
		return
	}
	p.w.arg(text, p.quoteMode(), stPlain)
}

// longEnd ends a long string. After a block, the call goes on on a new,
// indented line.
func (p *printer) longEnd() {
	w := &p.w
	if !p.inBlock {
		w.text(`"`, stPlain)
		return
	}
	p.inBlock = false
	w.endLine()
	w.setLine(spaces[:markIn], markIn)
}

// empty writes "", [] or {}; a root {} in the function-call style is the
// empty argument list.
func (p *printer) empty(e fragment.Empty, depth int) {
	if p.style == FunctionCall && depth == 0 && e == fragment.EmptyObject {
		return
	}
	p.w.text(e.JSON(), stPlain)
}

// close ends the array or object at depth.
func (p *printer) close(kind byte, depth int) {
	w := &p.w
	end := "}"
	if kind == '[' {
		end = "]"
	}
	if p.style == JSON {
		w.endLine()
		w.setLine(indent(depth), len(indent(depth+1)))
		w.text(end, stPlain)
		return
	}
	if depth == 0 && kind == '{' {
		end = ")"
	} else if depth == 0 {
		end = "])"
	}
	w.text(end, stPlain)
}

// rootDone ends the arguments; leaf says the root was not an array or
// object.
func (p *printer) rootDone(leaf bool) {
	if p.style == FunctionCall && leaf {
		p.w.text(")", stPlain)
	}
	if !p.summary {
		p.w.endLine()
	}
}

// cut writes what arrived of a short string that the arguments' end cut
// off: an opening quote and its text.
func (p *printer) cut(text []byte) {
	p.w.text(`"`, stPlain)
	p.w.arg(text, p.quoteMode(), stPlain)
}

// failed reports the error that ended the arguments, on a line of its own.
func (p *printer) failed(err error) {
	w := &p.w
	p.inBlock = false
	w.endLine()
	w.setLine(spaces[:markIn], markIn)
	w.text("✗ ", stErr)
	w.arg([]byte(err.Error()), Text, stErr)
	w.endLine()
}

// indent is the indentation of the [JSON] style's lines at depth, at most
// maxIndent columns.
func indent(depth int) string { return spaces[:min(depth*indentStep, maxIndent)] }
