package sse

import (
	"bytes"
	"errors"
	"io"
	"math/bits"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
)

// ev is an Event in strings, to compare.
type ev struct {
	Type, Data, ID string
}

func (e ev) String() string { return "event:" + e.Type + " data:" + e.Data + " id:" + e.ID }

// readAll reads every event of r.
func readAll(r *Reader) ([]ev, error) {
	var out []ev
	for r.Next() {
		e := r.Event()
		out = append(out, ev{string(e.Type), string(e.Data), string(e.ID)})
	}
	return out, r.Err()
}

// chunkReader returns its input in reads of the sizes in sizes, in turn and
// then again from the first (0 is an empty read).
type chunkReader struct {
	data  []byte
	sizes []int
	i     int
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	n := c.sizes[c.i%len(c.sizes)]
	c.i++
	n = min(n, len(p), len(c.data))
	copy(p, c.data[:n])
	c.data = c.data[n:]
	return n, nil
}

// specCases are the event streams of the WHATWG HTML spec (section 9.2,
// "Server-sent events"), its examples first, and the rules they illustrate.
var specCases = []struct {
	name string
	in   string
	want []ev
	err  error // the category of Err
}{
	{"spec: stock ticker", "data: YHOO\ndata: +2\ndata: 10\n\n", []ev{{Data: "YHOO\n+2\n10"}}, nil},
	{"spec: four blocks",
		": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n",
		[]ev{{Data: "first event", ID: "1"}, {Data: "second event"}}, ErrTruncated},
	{"spec: four blocks, ended", ": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n\n",
		[]ev{{Data: "first event", ID: "1"}, {Data: "second event"}, {Data: " third event"}}, nil},
	{"spec: two events, empty data", "data\n\ndata\ndata\n\ndata:\n", []ev{{Data: ""}, {Data: "\n"}}, ErrTruncated},
	{"spec: the same with a space", "data:test\n\ndata: test\n\n", []ev{{Data: "test"}, {Data: "test"}}, nil},
	{"spec: event types", "event: add\ndata: 73857293\n\nevent: remove\ndata: 2153\n\nevent: add\ndata: 113411\n\n",
		[]ev{{"add", "73857293", ""}, {"remove", "2153", ""}, {"add", "113411", ""}}, nil},

	{"empty stream", "", nil, nil},
	{"only blank lines", "\n\n\r\n\n\r", nil, nil},
	{"a CR no LF follows is ambiguous, even on a blank line", "\n\n\r\n\r\r", nil, ErrAmbiguous},
	{"only comments", ": a\n:b\n\n:\n", nil, nil},
	{"unterminated comment at the end", "data: x\n\n: keep", []ev{{Data: "x"}}, nil},
	{"comment inside an event", "data: a\n: not data\ndata: b\n\n", []ev{{Data: "a\nb"}}, nil},
	{"field without colon is empty", "data\n\n", []ev{{Data: ""}}, nil},
	{"no space after colon", "data:x\n\n", []ev{{Data: "x"}}, nil},
	{"only one space removed", "data:   x  \n\n", []ev{{Data: "  x  "}}, nil},
	{"tab is not removed", "data:\tx\n\n", []ev{{Data: "\tx"}}, nil},
	{"colon in value", "data: a: b:c\n\n", []ev{{Data: "a: b:c"}}, nil},
	{"event type", "event: ping\ndata: {}\n\n", []ev{{Type: "ping", Data: "{}"}}, nil},
	{"last event field wins", "event: a\nevent: b\ndata: x\n\n", []ev{{Type: "b", Data: "x"}}, nil},
	{"empty event field is the default type", "event:\ndata: x\n\n", []ev{{Data: "x"}}, nil},
	{"type is reset after dispatch", "event: a\ndata: 1\n\ndata: 2\n\n", []ev{{"a", "1", ""}, {"", "2", ""}}, nil},
	// The spec drops a block with no data; the SDKs' readers dispatch one
	// that has an event field, with empty data: refused.
	{"an event field and no data", "event: a\n\ndata: 2\n\n", nil, ErrAmbiguous},
	{"an empty event field and no data: not dispatched", "event:\n\ndata: 2\n\n", []ev{{Data: "2"}}, nil},
	{"an id and no data: not dispatched", "id: 7\n\ndata: 2\n\n", []ev{{Data: "2", ID: "7"}}, nil},
	{"only id: not dispatched, id kept", "id: 7\n\ndata: x\n\n", []ev{{Data: "x", ID: "7"}}, nil},
	{"id persists", "id: 1\ndata: a\n\ndata: b\n\nid\ndata: c\n\n", []ev{{"", "a", "1"}, {"", "b", "1"}, {"", "c", ""}}, nil},
	{"id with NUL ignored", "id: 1\ndata: a\n\nid: 2\x003\ndata: b\n\n", []ev{{"", "a", "1"}, {"", "b", "1"}}, nil},
	{"retry ignored", "retry: 1000\ndata: x\n\n", []ev{{Data: "x"}}, nil},
	{"retry alone: no event", "retry: 1000\n\n", nil, nil},
	{"unknown fields ignored", "foo: bar\ndata: x\nDATA: y\ndata : z\ndatum: w\n\n", []ev{{Data: "x"}}, nil},
	{"long unknown field name", "eventeventevent: x\ndata: y\n\n", []ev{{Data: "y"}}, nil},
	{"field names are exact", "Event: x\nevent : y\ndata: z\n\n", []ev{{Data: "z"}}, nil},
	{"CRLF", "event: a\r\ndata: 1\r\ndata: 2\r\n\r\n", []ev{{"a", "1\n2", ""}}, nil},
	// The spec ends a line at a lone CR; the SDKs' readers (bufio.Scanner
	// lines) do not: a CR that no LF follows is refused, where it would be
	// read two ways.
	{"CR", "event: a\rdata: 1\rdata: 2\r\r", nil, ErrAmbiguous},
	{"mixed line ends", "data: 1\r\ndata: 2\r\ndata: 3\n\r\ndata: 4\n\r", []ev{{Data: "1\n2\n3"}, {Data: "4"}}, nil},
	{"LF CR is a line end then a CR", "data: 1\n\rdata: 2\n\n", []ev{{Data: "1"}}, ErrAmbiguous},
	{"a CR inside a data line", "data: a\rb\n\n", nil, ErrAmbiguous},
	{"a CR at the very end ends the line", "data: a\n\r", []ev{{Data: "a"}}, nil},
	// The spec skips a leading BOM; the SDKs' readers keep it in the first
	// field's name: refused.
	{"BOM", "\xEF\xBB\xBFdata: x\n\n", nil, ErrAmbiguous},
	{"BOM then a blank line", "\xEF\xBB\xBF\ndata: x\n\n", nil, ErrAmbiguous},
	{"only a BOM", "\xEF\xBB\xBF", nil, ErrAmbiguous},
	{"second BOM is a field name", "\xEF\xBB\xBF\xEF\xBB\xBFdata: x\n\ndata: y\n\n", nil, ErrAmbiguous},
	{"part of a BOM is a field name", "\xEF\xBBdata: x\n\ndata: y\n\n", []ev{{Data: "y"}}, nil},
	{"BOM not at the start", "data: a\n\n\xEF\xBB\xBFdata: x\n\n", []ev{{Data: "a"}}, nil},
	{"partial BOM is a field name", "\xEF\xBBdata: x\n\ndata: y\n\n", []ev{{Data: "y"}}, nil},
	{"partial BOM at the end", "\xEF\xBB", nil, ErrTruncated},
	{"BOM in data is kept", "data: \xEF\xBB\xBFx\n\n", []ev{{Data: "\xEF\xBB\xBFx"}}, nil},
	{"invalid UTF-8 passes", "data: \xff\xfe\n\n", []ev{{Data: "\xff\xfe"}}, nil},
	{"NUL in data passes", "data: a\x00b\n\n", []ev{{Data: "a\x00b"}}, nil},
	{"DONE", "data: {}\n\ndata: [DONE]\n\n", []ev{{Data: "{}"}, {Data: "[DONE]"}}, nil},

	{"cut in a data line", "data: x\n\ndata: y", []ev{{Data: "x"}}, ErrTruncated},
	{"cut after a data line", "data: x\n\ndata: y\n", []ev{{Data: "x"}}, ErrTruncated},
	{"cut after an event line", "data: x\n\nevent: y\n", []ev{{Data: "x"}}, ErrTruncated},
	{"cut in a field name", "data: x\n\nda", []ev{{Data: "x"}}, ErrTruncated},
	{"cut after CR of the blank line", "data: x\r\n\r", []ev{{Data: "x"}}, nil},
}

func TestSpec(t *testing.T) {
	for _, tc := range specCases {
		t.Run(tc.name, func(t *testing.T) {
			for _, size := range []int{1 << 20, 1, 2, 3, 7} {
				r := NewReader(&chunkReader{data: []byte(tc.in), sizes: []int{size}})
				got, err := readAll(r)
				if diff := cmp.Diff(tc.want, got); diff != "" {
					t.Errorf("%q in reads of %d: events differ (-want +got):\n%s", tc.in, size, diff)
				}
				if !errors.Is(err, tc.err) || (err == nil) != (tc.err == nil) {
					t.Errorf("%q in reads of %d: Err() = %v, want %v", tc.in, size, err, tc.err)
				}
				if tc.err == ErrTruncated {
					var e *Error
					if !errors.As(err, &e) || e.Offset != int64(len(tc.in)) {
						t.Errorf("%q: Err() = %#v, want an *Error at the end, byte %d", tc.in, err, len(tc.in))
					}
				}
				if r.Next() {
					t.Errorf("%q: Next after the end returned true", tc.in)
				}
			}
		})
	}
}

// TestCRLFAcrossReads checks that a CR at the end of a read and an LF at the
// start of the next make one line end: otherwise "data: x\r" "\n" "\r\n"
// would be read as a blank line too early, or as two events.
func TestCRLFAcrossReads(t *testing.T) {
	in := "data: a\r\ndata: b\r\n\r\nevent: c\r\ndata: d\r\n\r\n"
	for cut := 1; cut < len(in); cut++ {
		r := NewReader(&chunkReader{data: []byte(in), sizes: []int{cut, len(in)}})
		got, err := readAll(r)
		want := []ev{{Data: "a\nb"}, {Type: "c", Data: "d"}}
		if diff := cmp.Diff(want, got); diff != "" || err != nil {
			t.Errorf("cut at %d: %v, events (-want +got):\n%s", cut, err, diff)
		}
	}
}

// TestDispatchWithoutWaiting checks that an event is given as soon as its
// blank line is read, without waiting for more input: a blank line that
// ends at a CR is one, and a reader that blocks after it must not block
// Next.
func TestDispatchWithoutWaiting(t *testing.T) {
	for _, in := range []string{"data: x\n\n", "data: x\r\n\r\n", "data: x\r\n\r"} {
		pr, pw := io.Pipe()
		go func() { pw.Write([]byte(in)) }() // then blocks nothing: the pipe stays open
		r := NewReader(pr)
		if !r.Next() || string(r.Event().Data) != "x" {
			t.Errorf("%q: Next = false (%v)", in, r.Err())
		}
		pw.Close()
	}
}

// TestAppendToData: appending to an event's Data copies it, and leaves
// the stream after it as it came, whether the Reader copied the data or
// handed it over from its read buffer.
func TestAppendToData(t *testing.T) {
	for _, in := range []string{"data: a\n\ndata: b\n\n", "data: a\ndata: a\n\ndata: b\n\n", "data: a\r\n\r\ndata: b\n\n"} {
		r := NewReader(strings.NewReader(in))
		if !r.Next() {
			t.Fatalf("%q: %v", in, r.Err())
		}
		first := string(r.Event().Data)
		_ = append(r.Event().Data, "\n\ndata: XXXXXXXX"...)
		if !r.Next() || string(r.Event().Data) != "b" {
			t.Errorf("%q: after an append to %q, the next event is %q (%v)", in, first, r.Event().Data, r.Err())
		}
	}
}

func TestEventIsBorrowedAndClone(t *testing.T) {
	r := NewReader(strings.NewReader("event: a\ndata: 1\n\nevent: b\ndata: 2\n\n"))
	r.Next()
	kept := r.Event().Clone()
	borrowed := r.Event()
	r.Next()
	if string(kept.Type) != "a" || string(kept.Data) != "1" {
		t.Errorf("Clone = %q %q, want a 1", kept.Type, kept.Data)
	}
	_ = borrowed // may be overwritten: that is the contract, not checked
	if e := (Event{Data: []byte("[DONE]")}); !e.IsDone() {
		t.Error("IsDone([DONE]) = false")
	}
	if e := (Event{Data: []byte("[DONE] ")}); e.IsDone() {
		t.Error("IsDone([DONE] ) = true")
	}
}

func TestWithMaxEventSize(t *testing.T) {
	const max = 32
	line := "data: " + strings.Repeat("x", max-7) + "\n" // max bytes exactly
	for _, tc := range []struct {
		name   string
		in     string
		events int
		offset int64 // of ErrEventTooLarge; -1 for none
		line   int64
	}{
		{"at the limit", line + "\n" + line + "\n", 2, -1, 0},
		{"at the limit, CRLF blank line", line + "\r\n" + line + "\r\n", 2, -1, 0},
		{"one over in the value", "data: " + strings.Repeat("x", max-6) + "\n\n", 0, max, 1},
		{"one over at the line end", "data: " + strings.Repeat("x", max-7) + "x\n\n", 0, max, 1},
		{"over in the second event", line + "\n" + "data: a\ndata: " + strings.Repeat("y", max) + "\n\n", 1, int64(len(line)) + 1 + max, 4},
		{"comments count", ": " + strings.Repeat("c", max) + "\ndata: x\n\n", 0, max, 1},
		{"unknown field names count", strings.Repeat("n", max+1) + "\n\n", 0, max, 1},
		{"a long comment alone", strings.Repeat(":", 3*max), 0, max, 1},
		{"blank lines do not count", strings.Repeat("\n", 3*max) + line + "\n", 1, -1, 0},
		{"over at a CRLF's LF", "data: " + strings.Repeat("x", max-7) + "\r\n\r\n", 0, max, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, size := range []int{1 << 20, 1, 5} {
				r := NewReader(&chunkReader{data: []byte(tc.in), sizes: []int{size}}, WithMaxEventSize(max))
				got, err := readAll(r)
				if len(got) != tc.events {
					t.Errorf("reads of %d: %d events, want %d", size, len(got), tc.events)
				}
				if tc.offset < 0 {
					if err != nil {
						t.Errorf("reads of %d: %v", size, err)
					}
					continue
				}
				var e *Error
				if !errors.As(err, &e) || e.Err != ErrEventTooLarge || e.Offset != tc.offset || e.Line != tc.line || e.Limit != max {
					t.Errorf("reads of %d: Err() = %#v, want ErrEventTooLarge at byte %d, line %d", size, err, tc.offset, tc.line)
				} else if msg := err.Error(); !strings.Contains(msg, "32 bytes") || !strings.Contains(msg, "byte "+itoa(tc.offset)) {
					t.Errorf("message %q does not say the limit and the offset", msg)
				}
				if cap(r.data) > 2*max+readSize {
					t.Errorf("the reader holds %d bytes", cap(r.data))
				}
			}
		})
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// TestDefaultLimit checks that the default limit holds, and that an event a
// little under it passes.
func TestDefaultLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("32 MB")
	}
	big := "data: " + strings.Repeat("x", DefaultMaxEventSize-7) + "\n\n"
	r := NewReader(strings.NewReader(big))
	if !r.Next() || len(r.Event().Data) != DefaultMaxEventSize-7 || r.Next() || r.Err() != nil {
		t.Fatalf("an event of exactly the limit: %v", r.Err())
	}
	r = NewReader(io.MultiReader(strings.NewReader(big[:len(big)-2]), strings.NewReader("yy\n\n")))
	if r.Next() || !errors.Is(r.Err(), ErrEventTooLarge) {
		t.Fatalf("an event over the limit: %v", r.Err())
	}
}

func TestReadErrors(t *testing.T) {
	boom := errors.New("boom")
	r := NewReader(io.MultiReader(strings.NewReader("data: a\n\ndata: b"), iotest.ErrReader(boom)))
	got, err := readAll(r)
	var e *Error
	if len(got) != 1 || !errors.Is(err, boom) || !errors.As(err, &e) || e.Offset != 16 || e.Line != 3 {
		t.Errorf("got %v, %#v; want one event and boom at byte 16, line 3", got, err)
	}
	if !strings.Contains(err.Error(), "boom") || !strings.Contains(err.Error(), "byte 16") {
		t.Errorf("message %q", err)
	}

	// Data and an error in the same Read: the data is read first.
	r = NewReader(iotest.DataErrReader(strings.NewReader("data: a\n\n")))
	if got, err := readAll(r); len(got) != 1 || err != nil {
		t.Errorf("DataErrReader: %v, %v", got, err)
	}

	// A reader that never makes progress.
	r = NewReader(emptyReader{})
	if r.Next() || !errors.Is(r.Err(), io.ErrNoProgress) {
		t.Errorf("empty reads: %v", r.Err())
	}

	// Closing the underlying reader stops Next.
	pr, pw := io.Pipe()
	r = NewReader(pr)
	go func() {
		pw.Write([]byte("data: a\n\n"))
		pw.Write([]byte("data: b"))
		pr.Close()
	}()
	if got, err := readAll(r); len(got) != 1 || !errors.Is(err, io.ErrClosedPipe) {
		t.Errorf("closed: %v, %v", got, err)
	}
}

type emptyReader struct{}

func (emptyReader) Read([]byte) (int, error) { return 0, nil }

func TestReset(t *testing.T) {
	r := NewReader(strings.NewReader("id: 1\nevent: a\ndata: x"), WithMaxEventSize(100))
	readAll(r)
	r.Reset(strings.NewReader("\xEF\xBB\xBFdata: y\n\n"))
	got, err := readAll(r)
	if len(got) != 0 || !errors.Is(err, ErrAmbiguous) {
		t.Errorf("after Reset, a BOM at the start of the new stream: %v %v, want ErrAmbiguous", err, got)
	}
	r.Reset(strings.NewReader("data: " + strings.Repeat("z", 100) + "\n\n"))
	if _, err := readAll(r); !errors.Is(err, ErrEventTooLarge) {
		t.Errorf("Reset keeps the limit: %v", err)
	}
}

// TestAllocs checks that a Reader reads a steady stream of events without
// allocating, once its buffers have grown.
func TestAllocs(t *testing.T) {
	var stream bytes.Buffer
	const events = 1000
	for i := range events {
		stream.WriteString("event: content_block_delta\nid: ")
		stream.WriteString(itoa(int64(i)))
		stream.WriteString("\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"pa\"}}\n")
		stream.WriteString(": a comment\r\ndata: second line\r\n\r\n")
	}
	src := &chunkReader{}
	r := NewReader(src)
	sizes := []int{7, 100, 1, 4096}
	run := func() {
		*src = chunkReader{data: stream.Bytes(), sizes: sizes}
		r.Reset(src)
		n := 0
		for r.Next() {
			n++
		}
		if n != events || r.Err() != nil {
			t.Fatalf("%d events, %v", n, r.Err())
		}
	}
	run() // grows the buffers
	allocs := testing.AllocsPerRun(20, run)
	t.Logf("%.0f allocations for %d events: %.4f per event", allocs, events, allocs/events)
	if allocs != 0 {
		t.Errorf("%.0f allocations per stream of %d events, want 0", allocs, events)
	}
}

// TestLongLineMemory: an event of one long data line (a whole tool call's
// arguments, as Gemini sends one) costs a fresh Reader a buffer that
// doubles as it grows, from the 4 KiB of a read: 10 allocations for 1 MiB
// and a few bytes (and the Reader's own, and the bytes.Reader), where
// append's growth by a quarter took 20, copying the data each time.
func TestLongLineMemory(t *testing.T) {
	const size = 1 << 20
	in := []byte("data: {\"a\":\"" + strings.Repeat("x", size) + "\"}\n\n")
	allocs := testing.AllocsPerRun(5, func() {
		r := NewReader(bytes.NewReader(in))
		if !r.Next() || len(r.Event().Data) != size+8 {
			t.Fatalf("no event of %d bytes: %v", size+8, r.Err())
		}
	})
	if want := float64(bits.Len(size/readSize) + 5); allocs > want {
		t.Errorf("%.0f allocations to read an event of %d bytes, want at most %.0f", allocs, size, want)
	}
}
