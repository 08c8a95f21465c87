package differ

import (
	"bytes"
	"fmt"
	"strings"
)

// Event is one server-sent event of a Stream.
type Event struct {
	// Name is the value of the event's "event:" line, written if HasName.
	Name    string
	HasName bool
	// Data is the event's data, written in Style; if nil, RawData is
	// written as it is. A data text with newlines takes several data lines.
	Data    *Node
	RawData string
	Style   Style
	// NoData writes no data line: a block of an "event:" line alone.
	NoData bool
	// Prefix is written before the event's first line: a BOM, comment
	// lines.
	Prefix string
	// EOL, if not "", ends this event's lines in place of the stream's.
	EOL string
	// NoSpace writes "event:x" and "data:x", without the space.
	NoSpace bool
}

// Stream is a provider's streamed response body, as events to mutate.
type Stream struct {
	Events []Event
	// EOL ends every line; "\n" if "".
	EOL string
	// BOM writes a UTF-8 byte order mark first.
	BOM bool
	// Cut, if not 0, cuts the body to its first Cut bytes.
	Cut int
}

// BOM is the UTF-8 byte order mark.
const BOM = "\uFEFF"

// Clone returns a deep copy of s.
func (s *Stream) Clone() *Stream {
	c := *s
	c.Events = make([]Event, len(s.Events))
	for i, e := range s.Events {
		e.Data = e.Data.Clone()
		c.Events[i] = e
	}
	return &c
}

// Bytes writes s as a text/event-stream body.
func (s *Stream) Bytes() []byte {
	var b bytes.Buffer
	if s.BOM {
		b.WriteString(BOM)
	}
	for _, e := range s.Events {
		eol := s.EOL
		if e.EOL != "" {
			eol = e.EOL
		}
		if eol == "" {
			eol = "\n"
		}
		sp := " "
		if e.NoSpace {
			sp = ""
		}
		b.WriteString(e.Prefix)
		if e.HasName {
			b.WriteString("event:" + sp + e.Name + eol)
		}
		if !e.NoData {
			text := e.RawData
			if e.Data != nil {
				text = e.Data.JSON(e.Style)
			}
			for _, line := range strings.Split(text, "\n") {
				b.WriteString("data:" + sp + line + eol)
			}
		}
		b.WriteString(eol)
	}
	out := b.Bytes()
	if s.Cut > 0 && s.Cut < len(out) {
		out = out[:s.Cut]
	}
	return out
}

// Type returns the "type" member of the event's data, "" if none.
func (e *Event) Type() string { return e.Data.Get("type").String() }

// ParseSSE reads a body of LF-ended lines (the recordings) into a Stream:
// its comment lines are kept as the Prefix of the next event, its data
// parsed as JSON where it is JSON (else kept raw, as "[DONE]"). A last
// event without its blank line is given one.
func ParseSSE(body []byte) (*Stream, error) {
	s := &Stream{}
	text := string(body)
	if strings.HasPrefix(text, BOM) {
		s.BOM, text = true, text[len(BOM):]
	}
	var cur Event
	var data []string
	hasData, prefix := false, ""
	dispatch := func() {
		if hasData || cur.HasName {
			cur.Prefix, prefix = prefix, ""
			raw := strings.Join(data, "\n")
			if n, err := Parse([]byte(raw)); err == nil {
				cur.Data = n
			} else {
				cur.RawData = raw
			}
			cur.NoData = !hasData
			s.Events = append(s.Events, cur)
		}
		cur, data, hasData = Event{}, nil, false
	}
	for _, line := range strings.Split(text, "\n") {
		if line == "" {
			dispatch()
			continue
		}
		name, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch name {
		case "":
			prefix += line + "\n"
		case "event":
			cur.Name, cur.HasName = value, true
		case "data":
			data, hasData = append(data, value), true
		default:
			return nil, fmt.Errorf("differ: unexpected line %q", line)
		}
	}
	dispatch()
	return s, nil
}
