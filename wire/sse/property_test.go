package sse

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/argstream/argstream/internal/testutil"
	"github.com/google/go-cmp/cmp"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
)

// A block is what a server writes between two blank lines: an event if it
// has data lines, otherwise a block that only sets the type (reset at its
// blank line) or the last event ID.
type block struct {
	Type   string
	Data   []string
	ID     string
	HasID  bool
	Extras int // comment, retry and unknown-field lines among its fields
}

// valueBytes are the bytes values are made of: all but CR and LF, with the
// ones that matter to the format (the colon, the space, NUL for ids, the
// BOM's bytes) well represented.
const valueBytes = "ab: :\x00\xEF\xBB\xBF[DONE]\t{}\"\\é\xff"

func genValue() gopter.Gen {
	return gen.SliceOf(gen.IntRange(0, len(valueBytes)-1)).Map(func(is []int) string {
		b := make([]byte, len(is))
		for k, i := range is {
			b[k] = valueBytes[i]
		}
		return string(b)
	})
}

func genBlock() gopter.Gen {
	return gopter.CombineGens(genValue(), gen.SliceOf(genValue()), genValue(), gen.Bool(), gen.IntRange(0, 3)).
		Map(func(v []any) block {
			return block{Type: v[0].(string), Data: v[1].([]string), ID: v[2].(string), HasID: v[3].(bool), Extras: v[4].(int)}
		})
}

// expect is what the spec makes of blocks: the events, with their last
// event ID.
func expect(blocks []block) []ev {
	var out []ev
	lastID := ""
	for _, b := range blocks {
		if b.HasID && !strings.Contains(b.ID, "\x00") {
			lastID = b.ID
		}
		if len(b.Data) > 0 {
			out = append(out, ev{Type: b.Type, Data: strings.Join(b.Data, "\n"), ID: lastID})
		}
	}
	return out
}

// serialize writes blocks as a server may: each choice (taken in turn from
// choices, cycling) picks a line end (LF, CRLF or CR), how a field is
// written ("name: value", "name:value" when the value allows, "name" when it
// is empty), and where comments, retry and unknown fields go. (A lone CR line
// end and a leading BOM are refused, ErrAmbiguous: TestSpec.)
func serialize(blocks []block, choices []uint8) []byte {
	k := 0
	choose := func(n int) int {
		if len(choices) == 0 {
			return 0
		}
		c := int(choices[k%len(choices)])
		k++
		return c % n
	}
	var sb strings.Builder
	line := func(s string) {
		sb.WriteString(s)
		ends := []string{"\n", "\r\n"}
		sb.WriteString(ends[choose(2)])
	}
	field := func(name, value string) {
		switch c := choose(4); {
		case c == 1 && value != "" && value[0] != ' ':
			line(name + ":" + value)
		case c == 2 && value == "":
			line(name)
		default:
			line(name + ": " + value)
		}
	}
	extra := func() {
		switch choose(4) {
		case 0:
			line(":" + strings.Repeat(" comment", choose(3)))
		case 1:
			line("retry: 3000")
		case 2:
			field("unknown", "x")
		default:
			field("dat", "not data") // a near miss
		}
	}
	for _, b := range blocks {
		for range b.Extras {
			extra()
		}
		if len(b.Data) > 0 && (b.Type != "" || choose(2) == 0) {
			field("event", b.Type) // (an event field with no data is refused: TestSpec)
		}
		if b.HasID {
			field("id", b.ID)
		}
		for _, d := range b.Data {
			if choose(5) == 0 {
				extra()
			}
			field("data", d)
		}
		line("")
	}
	return []byte(sb.String())
}

// nonZero makes sure a read sizes list makes progress.
func nonZero(sizes []int) []int {
	for _, s := range sizes {
		if s > 0 {
			return sizes
		}
	}
	return append(sizes, 1)
}

// TestPropertyRoundTrip: random blocks, written with random line ends,
// field forms and comment lines, read in random read sizes, give back
// exactly their events; and any prefix of the stream gives a prefix of
// them, with at most ErrTruncated.
func TestPropertyRoundTrip(t *testing.T) {
	params := testutil.PropertyParameters(500)
	params.MaxSize = 16 // blocks per stream, lines per block, bytes per value
	properties := gopter.NewProperties(params)
	properties.Property("events survive any serialization and any reads", prop.ForAll(
		func(blocks []block, choices []uint8, sizes []int, cut float64) string {
			in := serialize(blocks, choices)
			want := expect(blocks)
			got, err := readAll(NewReader(&chunkReader{data: in, sizes: nonZero(sizes)}))
			if err != nil {
				return "Err: " + err.Error()
			}
			if diff := cmp.Diff(want, got); diff != "" {
				return "events differ (-want +got):\n" + diff + "\nstream: " + strings.ReplaceAll(string(in), "\r", "\\r")
			}
			prefix := in[:int(cut*float64(len(in)))]
			got, err = readAll(NewReader(&chunkReader{data: prefix, sizes: nonZero(sizes)}))
			if err != nil && !errors.Is(err, ErrTruncated) {
				return "prefix: Err: " + err.Error()
			}
			if len(got) > len(want) || len(got) > 0 && !cmp.Equal(want[:len(got)], got) {
				return "prefix: events are not a prefix of the whole stream's"
			}
			return ""
		},
		gen.SliceOf(genBlock()), gen.SliceOf(gen.UInt8()), gen.SliceOf(gen.IntRange(0, 40)), gen.Float64Range(0, 1)))
	properties.TestingRun(t)
}

// TestPropertyRaw: with WithRaw, the Raws of the blocks Next returns and
// Rest at the end are the stream, byte for byte, whatever the reads; the
// events among the blocks are the events read without WithRaw; and a
// stream cut anywhere gives back what it read, too.
func TestPropertyRaw(t *testing.T) {
	params := testutil.PropertyParameters(500)
	params.MaxSize = 16
	properties := gopter.NewProperties(params)
	properties.Property("raw blocks are the stream", prop.ForAll(
		func(blocks []block, choices []uint8, sizes []int, cut float64) string {
			in := serialize(blocks, choices)
			for _, data := range [][]byte{in, in[:int(cut*float64(len(in)))]} {
				plain, perr := readAll(NewReader(&chunkReader{data: data, sizes: nonZero(sizes)}))
				r := NewReader(&chunkReader{data: data, sizes: nonZero(sizes)}, WithRaw())
				var joined []byte
				var events []ev
				for r.Next() {
					e := r.Event()
					joined = append(joined, e.Raw...)
					if e.IsEvent() {
						events = append(events, ev{string(e.Type), string(e.Data), string(e.ID)})
					} else if len(e.Data) != 0 || len(e.Type) != 0 {
						return "a block that is no event has a type or data"
					}
				}
				joined = append(joined, r.Rest()...)
				if !bytes.Equal(joined, data) {
					return fmt.Sprintf("raw %q, stream %q", joined, data)
				}
				if !cmp.Equal(plain, events) || (perr == nil) != (r.Err() == nil) {
					return fmt.Sprintf("events %v %v, without WithRaw %v %v", events, r.Err(), plain, perr)
				}
			}
			return ""
		},
		gen.SliceOf(genBlock()), gen.SliceOf(gen.UInt8()), gen.SliceOf(gen.IntRange(0, 40)), gen.Float64Range(0, 1)))
	properties.TestingRun(t)
}

// TestRawBlocks: a keep-alive comment is a block of its own, given at once;
// the blank lines after an event belong to the block after it.
func TestRawBlocks(t *testing.T) {
	in := ": keep-alive\n\n\n\ndata: a\n\nretry: 10\n\ndata: b\n\n\ndata: c\n\n: tail"
	r := NewReader(strings.NewReader(in), WithRaw())
	var got []string
	for r.Next() {
		e := r.Event()
		got = append(got, fmt.Sprintf("%v %q", e.IsEvent(), e.Raw))
	}
	got = append(got, fmt.Sprintf("rest %q %v", r.Rest(), r.Err()))
	want := []string{`false ": keep-alive\n\n"`, `true "\n\ndata: a\n\n"`, `false "retry: 10\n\n"`,
		`true "data: b\n\n"`, `true "\ndata: c\n\n"`, `rest ": tail" <nil>`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// readCounter counts the reads of the stream under it.
type readCounter struct {
	r io.Reader
	n int
}

func (c *readCounter) Read(p []byte) (int, error) {
	c.n++
	return c.r.Read(p)
}

// TestPropertyReady: with WithRaw, whenever Ready says so, Next returns
// without reading; and after a read that held several whole blocks, Ready
// says so for each but the last, whatever the framing.
func TestPropertyReady(t *testing.T) {
	params := testutil.PropertyParameters(500)
	params.MaxSize = 16
	properties := gopter.NewProperties(params)
	properties.Property("Ready means no read", prop.ForAll(
		func(blocks []block, choices []uint8, sizes []int) string {
			in := serialize(blocks, choices)
			c := &readCounter{r: &chunkReader{data: in, sizes: nonZero(sizes)}}
			r := NewReader(c, WithRaw())
			for {
				ready, before := r.Ready(), c.n
				more := r.Next()
				if ready && c.n != before {
					return fmt.Sprintf("Ready, then Next read, at byte %d of %q", r.off, in)
				}
				if !more {
					break
				}
			}
			// The whole stream in one read: every block but the first is
			// Ready after the one before it.
			if len(in) > readSize {
				return ""
			}
			n := 0
			for r := NewReader(bytes.NewReader(in), WithRaw()); r.Next(); {
				n++
			}
			c = &readCounter{r: bytes.NewReader(in)}
			r = NewReader(c, WithRaw())
			for i := 0; i+1 < n && r.Next(); i++ {
				if !r.Ready() {
					return fmt.Sprintf("not Ready after block %d of %d, with %q buffered", i, n, in[r.off:])
				}
			}
			if n > 1 && c.n != 1 {
				return fmt.Sprintf("%d reads for blocks buffered whole", c.n)
			}
			return ""
		},
		gen.SliceOf(genBlock()), gen.SliceOf(gen.UInt8()), gen.SliceOf(gen.IntRange(0, 40))))
	properties.TestingRun(t)
}
