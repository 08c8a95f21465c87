package guard

import (
	"slices"
	"strconv"

	"github.com/argstream/argstream/wire/anthropicstream"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// anthropicRewriter rewrites a Messages stream: a blocked call's block
// becomes a text block, at the same index, holding the notice.
type anthropicRewriter struct {
	r    *anthropicstream.Reader
	open []int64 // the blocks the client has seen start and not stop
}

func (w *anthropicRewriter) complete() bool         { return w.r.Ended() }
func (w *anthropicRewriter) canCancel(*stream) bool { return true }

func (w *anthropicRewriter) emit(s *stream, b *block) error {
	if b.data == nil {
		s.write(b.raw)
		return nil
	}
	switch string(b.typ) {
	case "content_block_start":
		i, err := eventIndex(b.data)
		if err != nil {
			return err
		}
		w.open = append(w.open, i)
		if s.isBlocked(i) {
			w.notice(s, i)
			return nil
		}
	case "content_block_delta":
		if len(b.calls) > 0 && s.isBlocked(b.calls[0]) {
			return nil
		}
	case "content_block_stop":
		i, err := eventIndex(b.data)
		if err != nil {
			return err
		}
		w.open = slices.DeleteFunc(w.open, func(j int64) bool { return j == i })
	case "message_start":
		if s.anyBlocked(b.calls) {
			data, err := rewrite(b.data, func(p jsontext.Pointer) bool {
				i, ok := contentIndex(p)
				return ok && s.isBlocked(i)
			}, func(p jsontext.Pointer, _ jsontext.Value) (jsontext.Value, bool) {
				i, _ := contentIndex(p)
				return textBlock(s.notice(i)), true
			})
			if err != nil {
				return err
			}
			s.writeEvent("message_start", data)
			return nil
		}
	case "message_delta":
		if s.blocked > 0 && !s.anyForwarded() {
			data, err := rewrite(b.data, func(p jsontext.Pointer) bool { return p == "/delta/stop_reason" },
				func(_ jsontext.Pointer, v jsontext.Value) (jsontext.Value, bool) {
					if string(v) == `"tool_use"` {
						return jsontext.Value(`"end_turn"`), true
					}
					return v, true
				})
			if err != nil {
				return err
			}
			s.writeEvent("message_delta", data)
			return nil
		}
	}
	s.write(b.raw)
	return nil
}

// notice writes the text block that stands for the blocked call i.
func (w *anthropicRewriter) notice(s *stream, i int64) {
	start := []byte(`{"type":"content_block_start","index":`)
	start = strconv.AppendInt(start, i, 10)
	start = append(start, `,"content_block":{"type":"text","text":""}}`...)
	s.writeEvent("content_block_start", start)
	delta := []byte(`{"type":"content_block_delta","index":`)
	delta = strconv.AppendInt(delta, i, 10)
	delta = append(delta, `,"delta":{"type":"text_delta","text":`...)
	delta, _ = jsontext.AppendQuote(delta, s.notice(i))
	delta = append(delta, "}}"...)
	s.writeEvent("content_block_delta", delta)
}

func (w *anthropicRewriter) closing(s *stream) {
	for _, i := range w.open {
		stop := []byte(`{"type":"content_block_stop","index":`)
		stop = strconv.AppendInt(stop, i, 10)
		s.writeEvent("content_block_stop", append(stop, '}'))
	}
	w.open = w.open[:0]
	reason := `"end_turn"`
	if s.anyForwarded() {
		reason = `"tool_use"`
	}
	s.writeEvent("message_delta", []byte(`{"type":"message_delta","delta":{"stop_reason":`+reason+`,"stop_sequence":null},"usage":{"output_tokens":0}}`))
	s.writeEvent("message_stop", []byte(`{"type":"message_stop"}`))
}

func (w *anthropicRewriter) failure(s *stream, msg string) {
	data := []byte(`{"type":"error","error":{"type":"api_error","message":`)
	data, _ = jsontext.AppendQuote(data, msg)
	s.writeEvent("error", append(data, "}}"...))
}

// eventIndex reads an event's "index".
func eventIndex(data []byte) (int64, error) {
	var v struct {
		Index int64 `json:"index"`
	}
	err := json.Unmarshal(data, &v)
	return v.Index, err
}

// contentIndex reports whether p is /message/content/N, and N.
func contentIndex(p jsontext.Pointer) (int64, bool) {
	const prefix = "/message/content/"
	if len(p) <= len(prefix) || string(p[:len(prefix)]) != prefix {
		return 0, false
	}
	var n int64
	for _, c := range p[len(prefix):] {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, true
}

// textBlock is a text content block holding text.
func textBlock(text string) jsontext.Value {
	b := []byte(`{"type":"text","text":`)
	b, _ = jsontext.AppendQuote(b, text)
	return append(b, '}')
}
