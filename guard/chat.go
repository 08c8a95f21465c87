package guard

import (
	"strconv"

	"github.com/argstream/argstream/internal/chatchunk"
	"github.com/argstream/argstream/wire/openaistream"
	"github.com/go-json-experiment/json/jsontext"
)

// chatRewriter rewrites a Chat Completions stream: a blocked call's
// tool_calls elements are left out, a content delta holding the notice
// comes in its place, and the indexes of the calls after it are one less,
// so that the gateway makes no gap in them: the SDKs' accumulators index
// their calls by it (openai-go would make an empty call of a missing one).
type chatRewriter struct {
	r       *openaistream.ChatReader
	index   map[int64]int64 // a forwarded call's index -> the client's
	noticed map[int64]bool  // the blocked calls whose notice went out
	head    []byte          // the first chunk's id, object, created and model members
}

func (w *chatRewriter) complete() bool         { return w.r.Done() || w.r.Finished() }
func (w *chatRewriter) canCancel(*stream) bool { return true }

func (w *chatRewriter) emit(s *stream, b *block) error {
	if b.data == nil || string(b.data) == "[DONE]" {
		s.write(b.raw)
		return nil
	}
	if w.head == nil {
		w.head = chatchunk.Head(b.data)
	}
	change := s.blocked > 0 && !s.anyForwarded() // a finish_reason to rewrite
	for _, i := range b.calls {
		if s.isBlocked(i) {
			if !w.noticed[i] {
				if w.noticed == nil {
					w.noticed = map[int64]bool{}
				}
				w.noticed[i] = true
				w.notice(s, i)
			}
			change = true
			continue
		}
		to, ok := w.index[i]
		if !ok {
			// The client's index: one less for each call of a lower index
			// blocked (whose fates are known: their events came first).
			to = i
			for j, c := range s.calls {
				if j < i && c.fate == fateBlock {
					to--
				}
			}
			w.index[i] = to
		}
		change = change || to != i
	}
	if !change {
		s.write(b.raw)
		return nil
	}
	data, err := rewrite(b.data, isChatRewritten, func(p jsontext.Pointer, v jsontext.Value) (jsontext.Value, bool) {
		if p.LastToken() == "finish_reason" {
			if string(v) == `"tool_calls"` && !s.anyForwarded() {
				return jsontext.Value(`"stop"`), true
			}
			return v, true
		}
		i, err := eventIndex(v)
		if err != nil || s.isBlocked(i) {
			return nil, false
		}
		if to := w.index[i]; to != i {
			out, err := rewrite(v, func(p jsontext.Pointer) bool { return p == "/index" },
				func(jsontext.Pointer, jsontext.Value) (jsontext.Value, bool) {
					return strconv.AppendInt(nil, to, 10), true
				})
			if err == nil {
				return out, true
			}
		}
		return v, true
	})
	if err != nil {
		return err
	}
	s.writeEvent("", data)
	return nil
}

// isChatRewritten selects a chunk's tool_calls elements and finish_reasons.
func isChatRewritten(p jsontext.Pointer) bool {
	var n int
	for range p.Tokens() {
		n++
	}
	switch n {
	case 3: // /choices/N/finish_reason
		return p.LastToken() == "finish_reason" && p.Parent().Parent() == "/choices"
	case 5: // /choices/N/delta/tool_calls/M
		return p.Parent().LastToken() == "tool_calls" && p.Parent().Parent().LastToken() == "delta"
	}
	return false
}

// notice writes the chunk whose content stands for the blocked call i.
func (w *chatRewriter) notice(s *stream, i int64) {
	data := w.chunk()
	data = append(data, `"choices":[{"index":0,"delta":{"content":`...)
	data, _ = jsontext.AppendQuote(data, "\n\n"+s.notice(i)) // apart from the text before it
	data = append(data, `},"finish_reason":null}]}`...)
	s.writeEvent("", data)
}

// chunk begins a chunk of the stream's id, object, created and model.
func (w *chatRewriter) chunk() []byte {
	return append([]byte{'{'}, w.head...)
}

func (w *chatRewriter) closing(s *stream) {
	reason := `"stop"`
	if s.anyForwarded() {
		reason = `"tool_calls"`
	}
	data := append(w.chunk(), `"choices":[{"index":0,"delta":{},"finish_reason":`+reason+`}]}`...)
	s.writeEvent("", data)
	s.writeEvent("", []byte("[DONE]"))
}

func (w *chatRewriter) failure(s *stream, msg string) {
	s.writeEvent("", chatchunk.AppendError(nil, "argstream_gateway_error", msg))
}
