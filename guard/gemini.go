package guard

import (
	"github.com/argstream/argstream/wire/geministream"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// geminiRewriter rewrites a Gemini stream: a blocked call's first
// functionCall part becomes a text part holding the notice, in its place,
// and its other parts (Vertex AI's partialArgs, streamed) are left out.
// A whole call comes in one part of one event, and is decided within it;
// a streamed one is held, as on the other wires, until its decision. The
// upstream is never cancelled for a block (canCancel).
type geminiRewriter struct {
	r       *geministream.Reader
	noticed map[int64]bool // the blocked calls whose notice went out
}

func (w *geminiRewriter) complete() bool { return w.r.Ended() }

// canCancel: never. A call blocked is whole already (it comes in one
// part), so cancelling saves no token of it, and would lose what follows
// (the other calls, the usage).
func (w *geminiRewriter) canCancel(*stream) bool { return false }

func (w *geminiRewriter) emit(s *stream, b *block) error {
	if b.data == nil || !s.anyBlocked(b.calls) {
		s.write(b.raw)
		return nil
	}
	// The event's calls, b.calls, are those of the functionCall parts of
	// candidate 0 (the first element), in order: a part with a name
	// starts the next one, a part without continues the last.
	k := -1
	data, err := rewrite(b.data, func(p jsontext.Pointer) bool {
		return p.Parent() == "/candidates/0/content/parts"
	}, func(_ jsontext.Pointer, v jsontext.Value) (jsontext.Value, bool) {
		var part struct {
			FunctionCall *struct {
				Name string `json:"name"`
			} `json:"functionCall"`
		}
		if json.Unmarshal(v, &part) != nil || part.FunctionCall == nil {
			return v, true
		}
		if part.FunctionCall.Name != "" || k < 0 {
			k++
		}
		i := b.calls[min(k, len(b.calls)-1)]
		switch {
		case !s.isBlocked(i):
			return v, true
		case w.noticed[i]:
			return nil, false
		}
		if w.noticed == nil {
			w.noticed = map[int64]bool{}
		}
		w.noticed[i] = true
		return textPart(s.notice(i)), true
	})
	if err != nil {
		return err
	}
	s.writeEvent("", data)
	return nil
}

// textPart is a Gemini text part holding text, a notice.
func textPart(text string) jsontext.Value {
	b, _ := jsontext.AppendQuote([]byte(`{"text":`), text)
	return append(b, '}')
}

// closing ends the client's stream as Gemini ends one: a last event with
// candidate 0's finishReason.
func (w *geminiRewriter) closing(s *stream) {
	s.writeEvent("", []byte(`{"candidates":[{"content":{"role":"model","parts":[]},"finishReason":"STOP","index":0}]}`))
}

// failure writes Gemini's error object, as it sends one when a stream fails
// after it began.
func (w *geminiRewriter) failure(s *stream, msg string) {
	data := []byte(`{"error":{"code":500,"message":`)
	data, _ = jsontext.AppendQuote(data, msg)
	s.writeEvent("", append(data, `,"status":"INTERNAL"}}`...))
}
