package ollamastream

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
)

// MaxLineSize is the limit on the size of one line of a stream that [Read]
// reads, its end of line excluded: 16 MiB, as package sse's
// DefaultMaxEventSize. A longer line is an error wrapping [bufio.ErrTooLong],
// read no further.
const MaxLineSize = 16 << 20

// lineReader reads the lines of a body, each at most max bytes long, into
// one buffer that grows to the longest line (and to no more than max plus
// one read).
type lineReader struct {
	r     io.Reader
	max   int
	buf   []byte
	start int   // the first byte not yet returned
	end   int   // the end of the bytes read
	scan  int   // where the search for '\n' resumes, from start
	n     int64 // lines returned
	err   error // the body's error, io.EOF at its end
}

// reset readies l to read r, keeping its buffer.
func (l *lineReader) reset(r io.Reader) {
	l.r, l.start, l.end, l.scan, l.n, l.err = r, 0, 0, 0, 0, nil
	if l.max <= 0 {
		l.max = MaxLineSize
	}
}

// next returns the next line, its end of line ("\n") excluded and
// terminated true, or, at the end of the body, the bytes after the last
// end of line, terminated false, if there are any. The line is borrowed
// until the next call. It returns io.EOF at the end of the body, an error
// wrapping bufio.ErrTooLong for a line longer than l.max, and the body's
// other errors.
func (l *lineReader) next() (line []byte, terminated bool, err error) {
	for {
		if i := bytes.IndexByte(l.buf[l.start+l.scan:l.end], '\n'); i >= 0 {
			j := l.start + l.scan + i
			if j-l.start > l.max {
				return nil, false, l.tooLong()
			}
			line = l.buf[l.start:j]
			l.start, l.scan = j+1, 0
			l.n++
			return line, true, nil
		}
		l.scan = l.end - l.start
		if l.scan > l.max {
			return nil, false, l.tooLong()
		}
		if l.err != nil {
			if l.start == l.end {
				return nil, false, l.err
			}
			line = l.buf[l.start:l.end]
			l.start, l.scan = l.end, 0
			l.n++
			return line, false, nil
		}
		l.fill()
	}
}

// fill reads more of the body into l.buf, moving the unread bytes to its
// beginning and growing it when they fill it.
func (l *lineReader) fill() {
	if l.start > 0 {
		l.end = copy(l.buf, l.buf[l.start:l.end])
		l.start = 0
	}
	if l.end == len(l.buf) {
		n := max(2*len(l.buf), 4096)
		n = min(n, l.max+1+4096)
		if n <= len(l.buf) {
			n = len(l.buf) + 4096
		}
		buf := make([]byte, n)
		copy(buf, l.buf[:l.end])
		l.buf = buf
	}
	for range 100 {
		k, err := l.r.Read(l.buf[l.end:])
		if k < 0 || k > len(l.buf)-l.end {
			l.err = fmt.Errorf("ollama: the body's Read returned %d bytes", k)
			return
		}
		l.end += k
		if err != nil {
			l.err = err
			return
		}
		if k > 0 {
			return
		}
	}
	l.err = io.ErrNoProgress
}

func (l *lineReader) tooLong() error {
	l.err = fmt.Errorf("ollama: line %d is longer than %d bytes: %w", l.n+1, l.max, bufio.ErrTooLong)
	l.start, l.end, l.scan = 0, 0, 0
	return l.err
}
