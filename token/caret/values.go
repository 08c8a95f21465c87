package caret

import (
	"bytes"
	"strconv"

	"github.com/argstream/argstream/internal/lifecycle"
)

// The readers of a parameter's value, once its key line has ended: its
// first byte (valueStart, bracket: a "[" may begin a list), one-line values
// and list elements (text, endLine), lists (listLine, element, endList) and
// multi-line values (body, endBody).

// valueStart reads the first byte of a one-line value: a "[" may begin a
// list.
func (t *Tokenizer) valueStart(b []byte, i int, base int64) (int, error) {
	if b[i] == '[' {
		t.lc.State = sBracket
		return i + 1, nil
	}
	t.lc.State = sValue
	return i, t.args.Value(t.key, t.keyAt, t.at)
}

// bracket reads what follows "KEY: [": the line end of a list, or more of
// a value that begins with "[".
func (t *Tokenizer) bracket(b []byte, i int, base int64) (int, error) {
	c, pos := b[i], base+int64(i)
	if c == '\n' {
		t.cr = false
		if err := t.args.List(t.key, t.keyAt, t.at); err != nil {
			return i, err
		}
		t.newline(pos + 1)
		t.lc.State, t.n = sListLine, 0
		return i + 1, nil
	}
	if c == '\r' && !t.cr {
		t.cr = true
		return i + 1, nil
	}
	piece := t.lits[:1] // "["
	if t.cr {
		piece, t.cr = t.lits[:2], false // "[\r"
	}
	if err := t.args.Value(t.key, t.keyAt, t.at); err != nil {
		return i, err
	}
	t.lc.State = sValue
	return i, t.args.Text(piece, pos)
}

// text streams the rest of a one-line value or list element from b[i:];
// at its line end, it ends the value and moves to state next.
func (t *Tokenizer) text(b []byte, i int, base int64, next lifecycle.State) (int, error) {
	if t.cr { // a '\r' held back at the end of the last chunk
		t.cr = false
		if b[i] == '\n' {
			return i + 1, t.endLine(base+int64(i)-1, base+int64(i)+1, next)
		}
		if err := t.args.Text(t.lits[1:2], base+int64(i)); err != nil {
			return i, err
		}
	}
	j := bytes.IndexByte(b[i:], '\n')
	if j < 0 {
		end := len(b)
		if b[end-1] == '\r' {
			end, t.cr = end-1, true
		}
		return len(b), t.args.Text(b[i:end], base+int64(end))
	}
	j += i
	end := j
	if end > i && b[end-1] == '\r' {
		end--
	}
	if err := t.args.Text(b[i:end], base+int64(end)); err != nil {
		return j, err
	}
	return j + 1, t.endLine(base+int64(end), base+int64(j)+1, next)
}

// endLine ends a one-line value whose text ends at end and whose line ends
// before next, and moves to state s.
func (t *Tokenizer) endLine(end, next int64, s lifecycle.State) error {
	if err := t.args.EndText(end); err != nil {
		return err
	}
	t.newline(next)
	t.lc.State = s
	return nil
}

// listLine reads the start of a line in a list: an empty line, the "]"
// that ends the list, or an element. The bytes that may be "]" or a
// closing fence "^^^" (an error) are held back.
func (t *Tokenizer) listLine(b []byte, i int, base int64) (int, error) {
	c, pos := b[i], base+int64(i)
	if t.cr {
		t.cr = false
		if c == '\n' {
			if t.n == 0 { // an empty line
				t.newline(pos + 1)
				return i + 1, nil
			}
			return i + 1, t.endList(pos + 1)
		}
		piece := t.lits[1:2] // "\r"
		if t.n > 0 {
			piece = t.lits[2:4] // "]\r"
		}
		return t.element(i, piece, pos)
	}
	if t.n == 0 {
		switch c {
		case '\n':
			t.newline(pos + 1)
		case '\r':
			t.cr = true
		case ']', '^':
			t.n, t.hold = 1, c
		default:
			return t.element(i, nil, pos)
		}
		return i + 1, nil
	}
	if t.hold == ']' {
		switch c {
		case '\n':
			return i + 1, t.endList(pos + 1)
		case '\r':
			t.cr = true
			return i + 1, nil
		case ' ', '\t':
			return i, t.syntax(pos, t.keyPointer(), "white space after the \"]\" that ends the list "+strconv.Quote(string(t.key))+" (the marker is exact)")
		}
		return t.element(i, t.lits[2:3], pos) // "]"
	}
	if c == '^' {
		if t.n++; t.n == 3 {
			return i, t.syntax(t.lineAt, t.keyPointer(), "closing fence in the list "+strconv.Quote(string(t.key))+
				", which is not closed (a line \"]\" ends it)")
		}
		return i + 1, nil
	}
	return t.element(i, t.lits[4:4+t.n], pos) // "^" or "^^"
}

// element begins a list element at the line's start, with the bytes held
// back (piece, ending at pos), and goes on reading it at b[i].
func (t *Tokenizer) element(i int, piece []byte, pos int64) (int, error) {
	t.n, t.lc.State = 0, sElement
	if err := t.args.Element(t.lineAt); err != nil {
		return i, err
	}
	return i, t.args.Text(piece, pos)
}

// endList ends the list at a line "]" whose line ends before next.
func (t *Tokenizer) endList(next int64) error {
	t.n, t.lc.State = 0, sLine
	if err := t.args.EndList(t.lineAt + 1); err != nil {
		return err
	}
	t.newline(next)
	return nil
}

// body reads the lines of a multi-line value from b[i:], streaming them as
// the value's text. Only what may still be the value's last line end and
// the end marker "--- KEY" after it is held back: the line end (t.le bytes
// from t.heldAt) and the t.n bytes of the marker read since (and t.cr,
// the '\r' of the marker's own line end) while t.lineStart; otherwise a
// '\r' at the end of the last chunk (t.cr). Lines ([textargs.Lines]) is
// brought up to date at each piece of text, after it is read, and at the
// end of b.
func (t *Tokenizer) body(b []byte, i int, base int64) (int, error) {
	// b[run:] is text not yet reported; Lines has counted b[:cnt]; the
	// bytes held back begin at b[hs], or before b if hs < 0.
	run, cnt, hs := i, i, -1
	marker := t.mark[2 : len(t.mark)-1] // "--- KEY"
	for i < len(b) {
		if t.lineStart {
			for t.n < len(marker) && i < len(b) && b[i] == marker[t.n] {
				t.n++
				i++
			}
			if i == len(b) {
				break
			}
			if t.n == len(marker) {
				if b[i] == '\n' {
					return i + 1, t.endBody(b, run, cnt, hs, i, base)
				}
				if b[i] == '\r' && !t.cr {
					t.cr = true
					i++
					continue
				}
			}
			// Not the end marker: what was held back is text.
			if hs < 0 {
				t.count(b[cnt:i], base+int64(cnt))
				cr := 0
				if t.cr {
					cr = 1
				}
				if err := t.args.Text(t.mark[2-t.le:2+t.n+cr], base+int64(i)); err != nil {
					return i, err
				}
				run, cnt = i, i
			}
			t.lineStart, t.n, t.cr = false, 0, false
		} else if t.cr { // a '\r' held back at the end of the last chunk
			t.cr = false
			if b[i] == '\n' {
				t.lineStart, t.le, t.n = true, 2, 0
				i++
				continue
			}
			if err := t.args.Text(t.lits[1:2], base+int64(i)); err != nil {
				return i, err
			}
		}
		j := bytes.IndexByte(b[i:], '\n')
		if j < 0 {
			end := len(b)
			if b[end-1] == '\r' {
				end, t.cr, t.heldAt = end-1, true, base+int64(end-1)
			}
			return len(b), t.emit(b, run, end, base)
		}
		j += i
		le := 1
		if j > i && b[j-1] == '\r' {
			le = 2
		}
		hs = j + 1 - le
		t.lineStart, t.le, t.n, t.heldAt = true, le, 0, base+int64(hs)
		i = j + 1
	}
	// At the end of b, in a line's start: report the text before what is
	// held back, and count the lines of the rest.
	if hs >= 0 {
		if err := t.emit(b, run, hs, base); err != nil {
			return i, err
		}
		cnt = hs
	}
	t.count(b[cnt:], base+int64(cnt))
	return i, nil
}

// endBody ends the multi-line value at its end marker's line end, b[i]:
// the text before the held back line end is reported, and the value ends
// where that line end begins.
func (t *Tokenizer) endBody(b []byte, run, cnt, hs, i int, base int64) error {
	if hs >= 0 {
		if err := t.emit(b, run, hs, base); err != nil {
			return err
		}
		cnt = hs
	}
	if err := t.args.EndText(t.heldAt); err != nil {
		return err
	}
	t.count(b[cnt:i+1], base+int64(cnt))
	t.lineStart, t.n, t.cr, t.le = false, 0, false, 0
	t.lc.State = sLine
	return nil
}
