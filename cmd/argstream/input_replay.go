package main

// This file is replay's input: reads that flush the output before they may
// wait (arrival), cut at line ends so that an event is read up to its end
// and no further (lineReads); and the events at a response's start, kept
// to be read again (tape), and the wire they tell (sniff, for --wire
// auto). How the events are framed is framing.go's; where a response ends
// is cut.go's.

import (
	"bufio"
	"bytes"
	"io"

	"github.com/argstream/argstream/wire"
	"github.com/argstream/argstream/wire/sse"
)

// Bounds on what --wire auto reads to tell the wire: the events, and their
// bytes (a Responses API stream's first event repeats the request's
// instructions and tools, which may be large).
const (
	sniffEvents = 16
	sniffBytes  = sse.DefaultMaxEventSize
)

// arrival reads the input and, before each read, which may wait for the
// producer, flushes the output: what the bytes received so far produce is
// out before the command waits for more. It keeps the input's error (not
// [io.EOF]) and the output's, which it returns as its own read error, to
// stop the adapter.
type arrival struct {
	r        io.Reader
	n        int64  // the bytes read
	head     []byte // the first headSize bytes read, to describe the input
	out      *bufio.Writer
	readErr  error
	flushErr error
}

// flush writes the output out, and keeps its first error.
func (a *arrival) flush() error {
	if a.flushErr == nil {
		a.flushErr = a.out.Flush()
	}
	return a.flushErr
}

func (a *arrival) Read(p []byte) (int, error) {
	if err := a.flush(); err != nil {
		return 0, err
	}
	n, err := a.r.Read(p)
	a.n += int64(n)
	if len(a.head) < headSize {
		a.head = append(a.head, p[:min(n, headSize-len(a.head))]...)
	}
	if err != nil && err != io.EOF && a.readErr == nil {
		a.readErr = err
	}
	return n, err
}

// failed reports whether the input could not be read or the output not
// written.
func (a *arrival) failed() bool { return a.readErr != nil || a.flushErr != nil }

// lineReads returns what its reader holds, up to the first line end (CR or
// LF) at most, per read. An adapter returns at the end of its response,
// which is a blank line: reading a line at a time, it has then read no byte
// of what follows, and the next response starts with the next read.
type lineReads struct{ br *bufio.Reader }

func (l lineReads) Read(p []byte) (int, error) {
	if l.br.Buffered() == 0 {
		if _, err := l.br.Peek(1); err != nil {
			return 0, err
		}
	}
	b, _ := l.br.Peek(l.br.Buffered())
	if i := bytes.IndexAny(b, "\r\n"); i >= 0 {
		b = b[:i+1]
	}
	n := copy(p, b)
	l.br.Discard(n)
	return n, nil
}

// tape keeps every byte read through it.
type tape struct {
	r   io.Reader
	buf []byte
}

func (t *tape) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	t.buf = append(t.buf, p[:n]...)
	return n, err
}

// sniff reads the events at the start of a response from body, keeping the
// bytes it reads (head), until it knows the wire: with wire "auto", the one
// an event tells (wireOf), looking at sniffEvents events and sniffBytes
// bytes at most; otherwise wire, at the first event. It returns the wire,
// or "" if none was told, the events read, and the error of the sse Reader
// if the stream ended or failed first. The adapter then reads head again,
// followed by the rest of body: no byte is lost or read twice from the
// input.
func sniff(body io.Reader, wire string) (head []byte, told string, events int, err error) {
	t := &tape{r: body}
	rd := sse.NewReader(t)
	for rd.Next() {
		events++
		if wire != "auto" {
			return t.buf, wire, events, nil
		}
		if w := wireOf(rd.Event()); w != "" {
			return t.buf, w, events, nil
		}
		if events == sniffEvents || len(t.buf) >= sniffBytes {
			break
		}
	}
	return t.buf, "", events, rd.Err()
}

// wireOf tells the wire of a stream from one of its events, as package
// wire does for the gateway, if replay reads it, or returns "".
func wireOf(ev sse.Event) string {
	if k := wire.OfEvent(ev); k != wire.Unknown {
		if _, ok := wireReaders[k.String()]; ok {
			return k.String()
		}
	}
	return ""
}
