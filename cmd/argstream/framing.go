package main

// This file is how replay finds the events in its input, and what it
// says when the input is not what it reads:
//
//   - the framing: server-sent events, as the HTTP body carries them, or
//     JSON lines, one event's data per line, as vercel/ai records streams
//     (its *.chunks.txt), or AWS event stream frames, told from the first
//     bytes (--framing auto) or named;
//   - jsonlEvents, which frames JSON lines as server-sent events for the
//     wire's reader, or Bedrock's as its frames;
//   - looksLike, which says what the first bytes of an input look like,
//     and what to try, for the messages of an input replay cannot read.

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"github.com/argstream/argstream/internal/tagscan"
	"hash/crc32"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/argstream/argstream/wire/bedrockstream"
	"github.com/argstream/argstream/wire/sse"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// headSize is how much of the start of the input is kept to describe it.
const headSize = 64 << 10

// frame readies rp.body for the framing named (auto, sse or jsonl): for
// JSON lines, the lines are framed as server-sent events. With auto, an
// input whose first byte (after white space and a byte order mark) is "{"
// is JSON lines; any other is server-sent events. An input that is
// neither, by its first line, is refused at once with what it looks like
// (a usage error).
func (rp *replayer) frame(framing string) error {
	br := rp.body.(lineReads).br
	if framing == "auto" && eventStreamPrelude(br) {
		framing = "eventstream"
	}
	if framing == "eventstream" {
		rp.framing, rp.frames = framing, true
		return nil
	}
	first, line := firstLine(br)
	if framing == "auto" {
		framing = "sse"
		if first == '{' {
			framing = "jsonl"
		}
		head, _ := br.Peek(br.Buffered())
		what, try := looksLike(head, true)
		switch {
		case first == 0 && len(line) == 0:
			// empty: the wire's reader says so
		case framing == "jsonl" && !jsontext.Value(bytes.TrimSpace(line)).IsValid() && len(line) < br.Size():
			return fmt.Errorf("%s: not JSON lines: it looks like %s%s", rp.name, what, try)
		case framing == "sse" && !sseLine(line):
			return fmt.Errorf("%s: not server-sent events: it looks like %s%s", rp.name, what, try)
		}
	}
	if framing == "jsonl" {
		j := &jsonlEvents{src: br}
		if bedrockRecording(line) {
			// Bedrock's events as vercel/ai records them: framed again as
			// the AWS event stream messages they came in.
			j.bedrock, rp.frames = true, true
		}
		rp.body = lineReads{bufio.NewReaderSize(j, readSize)}
	}
	rp.framing = framing
	return nil
}

// bedrockLine reads line as one Bedrock event as vercel/ai records them,
// {"TYPE": PAYLOAD}, an object of one member whose value is an object, and
// returns its type and payload.
func bedrockLine(line []byte) (typ string, payload jsontext.Value, ok bool) {
	d := jsontext.NewDecoder(bytes.NewReader(line))
	if t, err := d.ReadToken(); err != nil || t.Kind() != '{' {
		return "", nil, false
	}
	name, err := d.ReadToken()
	if err != nil || name.Kind() != '"' {
		return "", nil, false
	}
	typ = name.String() // the token is the decoder's until its next read
	v, err := d.ReadValue()
	if err != nil || v.Kind() != '{' {
		return "", nil, false
	}
	payload = bytes.Clone(v)
	if t, err := d.ReadToken(); err != nil || t.Kind() != '}' {
		return "", nil, false
	}
	if _, err := d.ReadToken(); err != io.EOF {
		return "", nil, false
	}
	return typ, payload, true
}

// bedrockRecording reports whether line, the first of an input, is one of
// Bedrock's events as vercel/ai records them: a recording of its events.
func bedrockRecording(line []byte) bool {
	typ, _, ok := bedrockLine(bytes.TrimSpace(line))
	return ok && bedrockstream.IsEvent(typ)
}

// eventStreamPrelude reports whether the input begins with the prelude of
// an AWS event stream message (Bedrock's ConverseStream): see prelude.
func eventStreamPrelude(br *bufio.Reader) bool {
	b, _ := br.Peek(12)
	return prelude(b)
}

// prelude reports whether b begins with the prelude of an AWS event stream
// message: a total length of 16 bytes at least, a headers length that fits
// in it, and the CRC-32 of those 8 bytes.
func prelude(b []byte) bool {
	if len(b) < 12 {
		return false
	}
	total, headers := binary.BigEndian.Uint32(b), binary.BigEndian.Uint32(b[4:])
	return total >= 16 && headers <= total-16 && crc32.ChecksumIEEE(b[:8]) == binary.BigEndian.Uint32(b[8:])
}

// firstLine returns the first byte of the input that is not white space
// or a byte order mark, 0 if there is none, and the line it begins (as
// much of it as the buffer holds), without consuming them.
func firstLine(br *bufio.Reader) (first byte, line []byte) {
	start := -1
	for n := 1; n <= br.Size(); n++ {
		b, err := br.Peek(n)
		if len(b) < n {
			if start >= 0 {
				return first, b[start:]
			}
			return 0, nil
		}
		if start < 0 {
			c := b[n-1]
			bom := n <= 3 && bytes.HasPrefix([]byte("\xef\xbb\xbf"), b[:n])
			if !bom && c != ' ' && c != '\t' && c != '\r' && c != '\n' {
				start, first = n-1, c
			}
		} else if c := b[n-1]; c == '\n' || c == '\r' {
			return first, b[start : n-1]
		}
		if err != nil {
			break
		}
	}
	if start >= 0 {
		b, _ := br.Peek(br.Buffered())
		return first, b[start:]
	}
	return 0, nil
}

// sseLine reports whether line can begin server-sent events: a comment,
// or one of the fields data, event, id and retry.
func sseLine(line []byte) bool {
	if bytes.HasPrefix(line, []byte(":")) {
		return true
	}
	name, _, _ := bytes.Cut(line, []byte(":"))
	switch string(name) {
	case "data", "event", "id", "retry":
		return true
	}
	return false
}

// jsonlEvents reads JSON lines from src, and gives each non-blank line as
// the data of one server-sent event, named by the data's "type" if it has
// one (an Anthropic or Responses event) and unnamed otherwise (a Chat
// Completions chunk), as the provider sent it before the framing was
// stripped. A line that is not a JSON object fails the reading, with
// its number. The lines are read one at a time, as the wire's reader
// needs them, so that no byte of the next response is read early.
type jsonlEvents struct {
	src     *bufio.Reader
	bedrock bool   // each line a Bedrock event, given as an AWS event stream message
	out     []byte // the event being given
	line    []byte
	n       int // lines read
	err     error
}

func (j *jsonlEvents) Read(p []byte) (int, error) {
	for len(j.out) == 0 {
		if j.err != nil {
			return 0, j.err
		}
		j.line = j.line[:0]
		for {
			b, err := j.src.ReadSlice('\n')
			j.line = append(j.line, b...)
			if err == bufio.ErrBufferFull {
				continue
			}
			if err != nil {
				j.err = err
			}
			break
		}
		if len(j.line) == 0 {
			continue
		}
		j.n++
		data := bytes.TrimSpace(j.line)
		if len(data) == 0 {
			continue
		}
		if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
			// As the SSE reader refuses one at the stream's start (and
			// looksLike would read the line again, as JSON lines).
			j.err = fmt.Errorf("JSON lines: line %d begins with a byte order mark: remove it", j.n)
			return 0, j.err
		}
		if data[0] != '{' {
			what, try := looksLike(data, false)
			j.err = fmt.Errorf("JSON lines: line %d is not a JSON object: it looks like %s%s", j.n, what, try)
			return 0, j.err
		}
		if j.bedrock {
			typ, payload, ok := bedrockLine(data)
			if !ok {
				j.err = fmt.Errorf("JSON lines: line %d is not one Bedrock event, {\"TYPE\": {...}}", j.n)
				return 0, j.err
			}
			j.out = bedrockstream.AppendEvent(j.out[:0], typ, payload)
			continue
		}
		var d struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(data, &d) != nil || strings.ContainsAny(d.Type, "\r\n") {
			d.Type = "" // the wire's reader says what is wrong with it
		}
		// Anthropic's and the Responses API's events carry their type as
		// their name: the SDKs skip an event without one.
		var err error
		if j.out, err = sse.AppendEvent(j.out[:0], d.Type, data); err != nil {
			j.err = fmt.Errorf("JSON lines: line %d: %w", j.n, err)
			return 0, j.err
		}
	}
	n := copy(p, j.out)
	j.out = j.out[:copy(j.out, j.out[n:])]
	return n, nil
}

// looksLike says what the first bytes of an input look like, and what to
// try instead ("" if nothing): server-sent events or JSON lines of a wire,
// one JSON document, a JSON array, plain text with tool calls written in
// it, plain text, compressed or binary data. whole says head is the input's
// start; else it is a line from its middle.
func looksLike(head []byte, whole bool) (what, try string) {
	trimmed := bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n")
	switch {
	case len(trimmed) == 0:
		return "nothing: it is empty", ""
	case bytes.HasPrefix(head, []byte{0x1f, 0x8b}):
		return "gzip-compressed data", " (decompress it first: gunzip -c FILE | argstream replay)"
	case whole && prelude(head):
		return framingName["eventstream"] + " of bedrock", " (--wire bedrock)"
	case !utf8.Valid(trimmed[:min(len(trimmed), 1024)]) && utf8.FullRune(trimmed) || bytes.IndexByte(trimmed, 0) >= 0:
		return "binary data", ""
	case trimmed[0] == '[' && !bytes.HasPrefix(trimmed, []byte("[TOOL_CALLS]")):
		return "a JSON array", " (argstream fragments --chunks FILE reads an array of argument deltas)"
	case trimmed[0] == '{':
		if first, _, _ := bytes.Cut(trimmed, []byte("\n")); bedrockRecording(first) {
			return "JSON lines of bedrock", " (--wire bedrock)"
		}
		if w := jsonlWire(head); w != "" {
			return "JSON lines of " + w, " (--wire " + w + ")"
		}
		return "one JSON document, perhaps a call's arguments", " (argstream fragments, aggregate and policy read bare arguments)"
	case sseLine(trimmed):
		if w := sseWire(head); w != "" {
			return "server-sent events of " + w, " (--wire " + w + ")"
		}
		return "server-sent events of no wire replay knows", " (the wires are anthropic, openai-chat, openai-responses, gemini, ollama and cohere)"
	}
	if syn := calledIn(trimmed); syn != "" {
		return "an assistant's text with tool calls in " + syn + " syntax", " (--syntax " + syn + ")"
	}
	if !whole {
		return "plain text", ""
	}
	return "plain text", " (replay reads a provider's stream, or with --syntax SYNTAX an assistant's text; argstream fragments reads bare arguments)"
}

// textMarkers are the special tokens that only a model's raw output holds,
// and the syntax each says; the first found wins.
var textMarkers = []struct{ mark, syntax string }{
	{"<｜tool▁call▁begin｜>function<｜tool▁sep｜>", "deepseek-v3"},
	{"<｜tool▁calls▁begin｜>", "deepseek-v31"},
	{"<｜DSML｜", "deepseek-dsml"},
	{"<|tool_calls_section_begin|>", "kimi-k2"},
	{"<|tool_call_section_begin|>", "kimi-k2"},
	{"<minimax:tool_call>", "minimax-m2"},
	{"[TOOL_CALLS]", "mistral"},
	{"<|channel|>", "harmony"},
}

// calledIn returns the syntax of the tool calls written in text, or "".
// Special tokens say it wherever they are in a line, <tool_call>
// (Qwen3-Coder's, Hermes', GLM's) by what follows it, a caret block or
// XML tag at a line's start; none counts in a Markdown code block or code
// span (where a document would show one).
func calledIn(text []byte) string {
	fence := false
	for line := range strings.SplitSeq(string(text), "\n") {
		if strings.HasPrefix(line, "```") {
			fence = !fence
			continue
		}
		if fence {
			continue
		}
		inCode := func(i int) bool { return strings.Count(line[:i], "`")%2 == 1 } // in a code span
		for _, m := range textMarkers {
			if i := strings.Index(line, m.mark); i >= 0 && !inCode(i) {
				return m.syntax
			}
		}
		if i := strings.Index(line, "<tool_call>"); i >= 0 && !inCode(i) {
			if syn := afterToolCall(text[bytes.Index(text, []byte(line))+i+len("<tool_call>"):]); syn != "" {
				return syn
			}
		}
		for _, s := range []struct{ mark, syntax string }{{"<tool:", "xml"}, {"^^^", "caret"}} {
			if strings.HasPrefix(line, s.mark) {
				return s.syntax
			}
		}
	}
	return ""
}

// afterToolCall tells Qwen3-Coder's, Hermes' and GLM's calls apart by what
// follows their <tool_call>.
func afterToolCall(after []byte) string {
	after = bytes.TrimLeft(after, " \t\r\n")
	switch {
	case bytes.HasPrefix(after, []byte("<function=")):
		return "qwen"
	case bytes.HasPrefix(bytes.TrimLeft(after[min(1, len(after)):], " \t\r\n"), []byte(`"name"`)) && after[0] == '{':
		return "hermes"
	}
	n := 0
	for n < len(after) && tagscan.Dotted.Allows(after[n]) { // a tool name's bytes
		n++
	}
	if n > 0 && n < len(after) && (after[n] == '\n' || after[n] == '<') {
		return "glm45"
	}
	return ""
}

// sseWire is the wire that the events of head tell, or "".
func sseWire(head []byte) string {
	rd := sse.NewReader(bytes.NewReader(head))
	for i := 0; i < sniffEvents && rd.Next(); i++ {
		if w := wireOf(rd.Event()); w != "" {
			return w
		}
	}
	return ""
}

// jsonlWire is the wire that the JSON lines of head tell, or "".
func jsonlWire(head []byte) string {
	framed, err := io.ReadAll(&jsonlEvents{src: bufio.NewReader(bytes.NewReader(head))})
	if err != nil && !errors.Is(err, io.EOF) && len(framed) == 0 {
		return ""
	}
	return sseWire(framed)
}

// hint is what replay says, after the error that ended the first
// response, when the input looks like another wire's than the one read,
// or like no wire's stream at all.
func (rp *replayer) hint(wire string) string {
	what, try := looksLike(rp.in.head, true)
	framed := strings.HasPrefix(what, framingName[rp.framing])
	switch {
	case strings.HasSuffix(what, " of "+wire) && framed:
		return ""
	case strings.HasSuffix(what, " of "+wire):
		try = " (--framing auto)"
	}
	return fmt.Sprintf("the input looks like %s, and was read as %s's stream in %s%s", what, wire, framingName[rp.framing], try)
}

var framingName = map[string]string{"sse": "server-sent events", "jsonl": "JSON lines", "eventstream": "AWS event stream frames"}
