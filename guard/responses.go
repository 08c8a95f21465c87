package guard

import (
	"slices"
	"strconv"

	"github.com/argstream/argstream/wire/openaistream"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// responsesRewriter rewrites a Responses API stream: a blocked call's item
// becomes a message item, at the same output_index, holding the notice,
// in its events and in the final response's output.
type responsesRewriter struct {
	r        *openaistream.ResponsesReader
	response []byte           // response.created's response, for a response.completed the gateway writes
	items    map[int64][]byte // the items done so far, by output_index, for the same
	open     []int64          // the items the client has seen added and not done
}

func (w *responsesRewriter) complete() bool { return w.r.Ended() }

// canCancel: the gateway can end the stream itself only when no item is
// still streaming, whose end it could not write, and when every
// output_index below the largest seen is known: the response.completed it
// writes lists the items by position, which readers take for their
// output_index (an item the model numbered past one not come yet would
// move down a place).
func (w *responsesRewriter) canCancel(s *stream) bool {
	last := int64(-1)
	for _, i := range w.open {
		if !s.isBlocked(i) {
			return false
		}
		last = max(last, i)
	}
	for i := range w.items {
		last = max(last, i)
	}
	for i := range s.calls {
		last = max(last, i)
	}
	for i := range last {
		if _, done := w.items[i]; !done && !slices.Contains(w.open, i) && s.calls[i] == nil {
			return false
		}
	}
	return true
}

func (w *responsesRewriter) emit(s *stream, b *block) error {
	if b.data == nil {
		s.write(b.raw)
		return nil
	}
	if s.anyBlocked(b.calls) && !isEnd(b.typ) {
		// A blocked call's event: its added event stands for the notice,
		// its others go nowhere.
		if string(b.typ) == "response.output_item.added" {
			w.notice(s, b.calls[0])
		}
		return nil
	}
	switch string(b.typ) {
	case "response.created":
		var v struct {
			Response jsontext.Value `json:"response"`
		}
		if json.Unmarshal(b.data, &v) == nil && v.Response.Kind() == '{' {
			w.response = append(w.response[:0], v.Response...)
		}
	case "response.output_item.added":
		if i, err := eventOutputIndex(b.data); err == nil {
			w.open = append(w.open, i)
		}
	case "response.output_item.done":
		var v struct {
			Index int64          `json:"output_index"`
			Item  jsontext.Value `json:"item"`
		}
		if err := json.Unmarshal(b.data, &v); err != nil {
			return err
		}
		w.open = slices.DeleteFunc(w.open, func(j int64) bool { return j == v.Index })
		if w.items == nil {
			w.items = map[int64][]byte{}
		}
		w.items[v.Index] = append([]byte(nil), v.Item...)
	case "response.completed", "response.incomplete":
		if s.blocked > 0 {
			data, err := rewrite(b.data, func(p jsontext.Pointer) bool {
				i, ok := outputIndex(p)
				return ok && s.isBlocked(i)
			}, func(p jsontext.Pointer, _ jsontext.Value) (jsontext.Value, bool) {
				i, _ := outputIndex(p)
				return noticeItem(i, s.notice(i), "completed"), true
			})
			if err != nil {
				return err
			}
			s.writeEvent(string(b.typ), data)
			return nil
		}
	}
	s.write(b.raw)
	return nil
}

func isEnd(typ []byte) bool {
	return string(typ) == "response.completed" || string(typ) == "response.incomplete"
}

// notice writes the events of the message item that stands for the
// blocked call i, whole.
func (w *responsesRewriter) notice(s *stream, i int64) {
	text := s.notice(i)
	id := noticeID(i)
	head := func(typ string) []byte {
		b := []byte(`{"type":"` + typ + `","item_id":`)
		b, _ = jsontext.AppendQuote(b, id)
		b = append(b, `,"output_index":`...)
		b = strconv.AppendInt(b, i, 10)
		return append(b, `,"content_index":0`...)
	}
	part := func(text string) []byte {
		b := []byte(`{"type":"output_text","text":`)
		b, _ = jsontext.AppendQuote(b, text)
		return append(b, `,"annotations":[]}`...)
	}
	added := []byte(`{"type":"response.output_item.added","output_index":`)
	added = strconv.AppendInt(added, i, 10)
	added = append(added, `,"item":`...)
	added = append(added, noticeItem(i, "", "in_progress")...)
	s.writeEvent("response.output_item.added", append(added, '}'))
	s.writeEvent("response.content_part.added", append(append(head("response.content_part.added"), `,"part":`...), append(part(""), '}')...))
	delta, _ := jsontext.AppendQuote(append(head("response.output_text.delta"), `,"delta":`...), text)
	s.writeEvent("response.output_text.delta", append(delta, '}'))
	done, _ := jsontext.AppendQuote(append(head("response.output_text.done"), `,"text":`...), text)
	s.writeEvent("response.output_text.done", append(done, '}'))
	s.writeEvent("response.content_part.done", append(append(head("response.content_part.done"), `,"part":`...), append(part(text), '}')...))
	itemDone := []byte(`{"type":"response.output_item.done","output_index":`)
	itemDone = strconv.AppendInt(itemDone, i, 10)
	itemDone = append(itemDone, `,"item":`...)
	itemDone = append(itemDone, noticeItem(i, text, "completed")...)
	s.writeEvent("response.output_item.done", append(itemDone, '}'))
	if w.items == nil {
		w.items = map[int64][]byte{}
	}
	w.items[i] = noticeItem(i, text, "completed")
}

func noticeID(i int64) string { return "msg_argstream_" + strconv.FormatInt(i, 10) }

// noticeItem is the message item of the notice of the call i; text "" for
// the item as added, with no content yet.
func noticeItem(i int64, text, status string) jsontext.Value {
	b := []byte(`{"id":`)
	b, _ = jsontext.AppendQuote(b, noticeID(i))
	b = append(b, `,"type":"message","status":"`+status+`","role":"assistant","content":[`...)
	if text != "" {
		b = append(b, `{"type":"output_text","text":`...)
		b, _ = jsontext.AppendQuote(b, text)
		b = append(b, `,"annotations":[]}`...)
	}
	return append(b, "]}"...)
}

// closing writes response.completed: the response of response.created,
// with the items done so far as its output.
func (w *responsesRewriter) closing(s *stream) {
	var out []byte
	out = append(out, '[')
	var idx []int64
	for i := range w.items {
		idx = append(idx, i)
	}
	slices.Sort(idx)
	for k, i := range idx {
		if k > 0 {
			out = append(out, ',')
		}
		out = append(out, w.items[i]...)
	}
	out = append(out, ']')
	response := w.response
	if response == nil {
		response = []byte(`{"id":"resp_argstream","object":"response"}`)
	}
	set := func(name string, v []byte) {
		r, err := rewrite(response, func(p jsontext.Pointer) bool { return p == jsontext.Pointer("/"+name) },
			func(jsontext.Pointer, jsontext.Value) (jsontext.Value, bool) { return v, true })
		if err == nil && !slices.Equal(r, response) {
			response = r
			return
		}
		// No such member: add it.
		response = append(append(response[:len(response)-1:len(response)-1], `,"`+name+`":`...), append(v, '}')...)
	}
	set("status", []byte(`"completed"`))
	set("output", out)
	data := append([]byte(`{"type":"response.completed","response":`), response...)
	s.writeEvent("response.completed", append(data, '}'))
}

func (w *responsesRewriter) failure(s *stream, msg string) {
	data := []byte(`{"type":"error","code":"argstream_gateway_error","message":`)
	data, _ = jsontext.AppendQuote(data, msg)
	s.writeEvent("error", append(data, `,"param":null}`...))
}

// eventOutputIndex reads an event's "output_index".
func eventOutputIndex(data []byte) (int64, error) {
	var v struct {
		Index int64 `json:"output_index"`
	}
	err := json.Unmarshal(data, &v)
	return v.Index, err
}

// outputIndex reports whether p is /response/output/N, and N.
func outputIndex(p jsontext.Pointer) (int64, bool) {
	if p.Parent() != "/response/output" {
		return 0, false
	}
	n, err := strconv.ParseInt(p.LastToken(), 10, 64)
	return n, err == nil
}
