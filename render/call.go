package render

// This file is call: one tool call's sink, which follows the structure of
// its arguments from the fragments (the walker) and reports it to its two
// printers (print.go), the live view and the summary for Partial.

import (
	"bytes"
	"slices"

	"github.com/argstream/argstream/fragment"
)

// call is one tool call's sink. It follows the structure of the arguments
// from the fragments' paths, in the order the fragment grammar fixes
// (package [fragment]), and reports it to its two printers: p[0] the live
// view, p[1] the summary that Partial returns.
//
// Nothing is written before there is a value to show: the opening of an
// array or object, and the separator and key of a member, are written with
// the first value inside them (see show), so that a call whose output is
// cut by another call's is cut at a value, and a short string is written
// with its key.
type call struct {
	r        *Renderer
	id       fragment.Call
	nameText []byte
	label    []byte // not a call but the model's text (Renderer.Text): its label
	p        [2]printer

	headed   bool // the header is written
	finished bool // the root's Done came
	ended    bool // End came
	err      error

	begun     bool    // the root has begun
	rootKind  byte    // then: '{', '[', or 0 for a root that is neither
	rootShown bool    // a root that is neither has begun to be written
	levels    []level // the open arrays and objects, levels[i] at depth i

	// The string being read: a short one is kept until it is complete or
	// turns out long.
	inString, long bool
	str            []byte

	// For Partial: where the summary's members begin, once the root
	// object is written, and end, up to the last top-level member
	// complete, and how many there are.
	start, committed, members int
}

// level is an open array or object.
type level struct {
	kind   byte   // '[' or '{'
	n      int    // members begun
	open   bool   // a member is open
	key    []byte // its key, for an object (a copy)
	shown  bool   // the opening is written
	mShown bool   // the open member's separator and key are written
}

func (c *call) reset(r *Renderer, id fragment.Call) {
	*c = call{
		r: r, id: id,
		nameText: append(c.nameText[:0], id.Name...),
		levels:   c.levels[:0],
		str:      c.str[:0],
		p: [2]printer{
			{w: writer{r: r, call: c}, style: r.cfg.style, blocks: r.cfg.style == FunctionCall},
			{w: writer{call: c, buf: c.p[1].w.buf[:0]}, style: r.cfg.style, summary: true},
		},
	}
}

// header writes the call's header, marked with its index if other calls
// are under way.
func (c *call) header() {
	others := false
	for _, o := range c.r.calls {
		if o != c && o.headed && !o.finished && !o.ended {
			others = true
			break
		}
	}
	c.p[0].header(c.nameText, c.id.Index, others)
	c.headed = true
}

// Push renders one fragment. It never fails: a renderer does not stop the
// call it shows (see [Renderer.Err]).
func (c *call) Push(p *fragment.Progress) error {
	if !c.headed {
		if len(c.nameText) == 0 && p.Call != nil {
			c.nameText = append(c.nameText, p.Call.Name...)
		}
		c.header()
	}
	c.push(&p.Fragment)
	c.r.flush()
	return nil
}

// End shows how the arguments ended: nothing more if they are complete,
// else what had arrived of a short string and the error, on a line of its
// own.
func (c *call) End(err error) {
	if c.ended {
		return
	}
	c.ended, c.err = true, err
	if !c.headed {
		c.header()
	}
	if err != nil {
		if c.inString && !c.long && !c.finished {
			c.show(&c.p[0])
			c.p[0].cut(c.str)
		}
		c.p[0].failed(err)
	} else {
		c.p[0].w.endLine()
	}
	c.r.flush()
}

// push follows f through the structure. Fragments out of the grammar's
// order, which no Stream delivers, are ignored.
func (c *call) push(f *fragment.Fragment) {
	if c.finished || c.ended {
		return
	}
	path := f.Path
	n := len(path)
	if !c.begun {
		c.begun = true
		if n > 0 {
			c.rootKind = kindOf(path[0])
		}
	}
	// Along the path: the arrays and objects that begin, and the members
	// that begin in each.
	for i := 0; i < n; i++ {
		if i == len(c.levels) {
			c.levels = slices.Grow(c.levels, 1)[:i+1]
			lv := &c.levels[i]
			*lv = level{kind: kindOf(path[i]), key: lv.key[:0]}
		}
		lv := &c.levels[i]
		if !lv.open {
			lv.open, lv.mShown = true, false
			lv.n++
			lv.key = append(lv.key[:0], path[i].Key...)
		}
	}
	switch {
	case len(c.levels) > n+1:
		return // a value inside is open
	case len(c.levels) == n+1: // the array or object at the path
		if f.Kind != fragment.Done {
			return
		}
		c.both(func(p *printer) {
			c.show(p)
			p.close(c.levels[n].kind, n)
		})
		c.levels = c.levels[:n]
		c.valueDone(n)
		return
	}
	switch f.Kind {
	case fragment.Null, fragment.False, fragment.True, fragment.Number:
		c.both(func(p *printer) {
			c.show(p)
			p.scalar(f.Text)
		})
	case fragment.String:
		c.stringPiece(f.Text)
	case fragment.Done:
		switch {
		case f.Empty != fragment.NotEmpty:
			c.both(func(p *printer) {
				c.show(p)
				p.empty(f.Empty, n)
			})
		case c.inString && c.long:
			c.inString = false
			c.p[0].longEnd()
			c.p[1].longEnd()
		case c.inString:
			c.inString = false
			c.both(func(p *printer) {
				c.show(p)
				p.shortString(c.str)
			})
		}
		c.valueDone(n)
	}
}

// both calls fn with each printer, the live view first.
func (c *call) both(fn func(p *printer)) {
	fn(&c.p[0])
	fn(&c.p[1])
}

func kindOf(s fragment.Segment) byte {
	if s.IsIndex() {
		return '['
	}
	return '{'
}

// show writes on p, before a value's first output, what of the path to it
// is not written yet: the root's opening, and for each open array or
// object its opening and the separator and key of its open member.
func (c *call) show(p *printer) {
	summary := p.summary
	if c.rootKind == 0 {
		if !c.rootShown {
			p.open(0, 0)
			c.rootShown = summary
		}
		return
	}
	for i := range c.levels {
		lv := &c.levels[i]
		if !lv.shown {
			p.open(lv.kind, i)
			if summary {
				lv.shown = true
				if i == 0 {
					c.start = len(p.w.buf)
					c.committed = c.start
				}
			}
		}
		if lv.open && !lv.mShown {
			p.member(i, lv.key, lv.kind == '{', lv.n == 1)
			lv.mShown = summary
		}
	}
}

// stringPiece takes the next piece of a string: kept while the string may
// still be short, written once it is known to be long.
func (c *call) stringPiece(text []byte) {
	if !c.inString {
		c.inString, c.long, c.str = true, false, c.str[:0]
	}
	if c.long {
		c.p[0].piece(text)
		c.p[1].piece(text)
		return
	}
	if bytes.IndexByte(text, '\n') < 0 && len(c.str)+len(text) <= c.r.cfg.inline {
		c.str = append(c.str, text...)
		return
	}
	c.long = true
	c.both(func(p *printer) {
		c.show(p)
		p.longBegin()
		p.piece(c.str)
		p.piece(text)
	})
}

// valueDone ends the value at depth: the root, or a member of the
// container at depth-1.
func (c *call) valueDone(depth int) {
	if depth == 0 {
		c.finished = true
		c.p[0].rootDone(c.rootKind == 0)
		c.p[1].rootDone(c.rootKind == 0)
		return
	}
	lv := &c.levels[depth-1]
	lv.open = false
	if depth == 1 && lv.kind == '{' {
		c.committed = len(c.p[1].w.buf)
		c.members++
	}
}

// topOpen reports whether a member of the root object is open, for
// Partial: its key is c.levels[0].key.
func (c *call) topOpen() bool {
	return !c.finished && c.rootKind == '{' && len(c.levels) > 0 && c.levels[0].open
}
