package openaisdk_test

// The differential tests of wire/openaistream against the official SDK
// (invariant 11), for Chat Completions and for Responses. The SDK
// behaviours they rely on, read in openai-go/v3 v3.96.0:
//
//   - packages/ssestream: lines are split by bufio.Scanner's ScanLines (LF,
//     or CRLF; a bare CR ends no line); a line is cut at its first colon,
//     one space after it dropped; only "event" and "data" fields count (a
//     field name with a BOM before it is unknown); a blank line dispatches
//     the event only if it has data (an event line alone is forgotten); an
//     event not ended by a blank line at the end of the body is dropped,
//     without an error. The event's name is never read (but for the
//     "thread." events of the Assistants API): the data's "type" says
//     what it is. Stream.Next ends the stream, without an error, at data
//     that BEGINS with "[DONE]" ("[DONE]x" included); ends it with an error
//     if gjson finds a top-level "error" member, whatever its value
//     ("error": null included); else decodes the data with
//     encoding/json.Unmarshal (which checks the syntax) into the event type,
//     whose UnmarshalJSON is apijson's: gjson's Result.Map, in which the
//     FIRST of repeated names wins, names matched exactly (case-sensitively,
//     after unescaping), an int64 read from a string, a float or a bool, a
//     null member left at its zero value. Stream.Next does not stop at
//     response.completed: the loop reads on to the end of the body.
//   - ChatCompletionAccumulator.AddChunk: rejects (returns false, changing
//     nothing) a chunk whose id is not the first chunk's, a choice index
//     outside 0..127, a tool call index below -1 or more than 128 past the
//     calls so far; reads tool call index -1 as 0; a tool call's position
//     in Message.ToolCalls is its index (the slice grows to fit, with empty
//     calls in the gaps); a non-empty id or type REPLACES the call's (the
//     last wins), a function name and arguments are APPENDED (a name
//     repeated in two deltas is written twice); an element typed "custom"
//     is accumulated like any other, its type "custom"; each choice of a
//     chunk is accumulated, the same choice twice included.
//   - Responses: the stream's events are not accumulated by the SDK (its
//     ResponseAccumulator is for the WebSocket events). A user takes the
//     calls from the function_call items of response.output_item.added and
//     the response.function_call_arguments.delta events (by output_index, or
//     by item_id), or from the arguments of
//     response.function_call_arguments.done, or from the items of
//     response.output_item.done, or from the output of response.completed;
//     the item's typed fields come from AsFunctionCall, apijson again. An
//     "error" event (type "error") is not a stream error in openai-go: the
//     loop sees it as an event.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/argstream/argstream/sdk/internal/check"
	"github.com/argstream/argstream/sdk/internal/differ"
	"github.com/argstream/argstream/sdk/internal/replay"
	"github.com/argstream/argstream/sdk/openaisdk"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire"
	"github.com/argstream/argstream/wire/openaistream"
	"github.com/argstream/argstream/wire/sse"
	"github.com/google/go-cmp/cmp"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/ssestream"
	"github.com/openai/openai-go/v3/responses"
)

// O, M, S and N shorten the building of event data.
var (
	O = differ.Obj
	M = differ.M
	S = differ.Str
	N = differ.Num
)

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

func perClass() int {
	if testing.Short() {
		return 20
	}
	return 100
}

func recordings(t testing.TB, wire replay.Wire) []*differ.Stream {
	files, err := replay.Files(wire)
	if err != nil {
		t.Fatal(err)
	}
	var recs []*differ.Stream
	for _, f := range files {
		bodies, err := replay.Bodies(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range bodies {
			s, err := differ.ParseSSE(b)
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			recs = append(recs, s)
		}
	}
	return recs
}

func newClient(body []byte) openai.Client {
	return openai.NewClient(option.WithAPIKey("test"), option.WithHTTPClient(differ.Client(body)), option.WithMaxRetries(0))
}

// canonical returns body with the data of each event read by encoding/json
// v1 (the reader of a user's own structs: names matched
// case-insensitively, with Unicode folding, the last of repeated names
// winning, objects merged) and written again by write, events framed by
// the SDK's own SSE decoder (so that only the JSON is read another way).
// Data beginning with [DONE] is left as it is; data that encoding/json
// cannot decode becomes "{", which ends the SDK's loop with an error, as
// the decoding error would.
func canonical(body []byte, decode func(data []byte) (*differ.Node, error)) []byte {
	dec := ssestream.NewDecoder(&http.Response{
		Header: http.Header{"Content-Type": {"text/event-stream"}},
		Body:   io.NopCloser(bytes.NewReader(body)),
	})
	var out bytes.Buffer
	for dec.Next() {
		ev := dec.Event()
		data := string(ev.Data)
		if !strings.HasPrefix(data, "[DONE]") {
			if n, err := decode(ev.Data); err != nil {
				data = "{\n"
			} else {
				data = n.JSON(differ.Style{}) + "\n"
			}
		}
		for _, line := range strings.Split(strings.TrimSuffix(data, "\n"), "\n") {
			out.WriteString("data: " + line + "\n")
		}
		out.WriteString("\n")
	}
	return out.Bytes()
}

// opt sets name in n to v if v is not nil.
func opt[T any](n *differ.Node, name string, v *T, node func(T) *differ.Node) {
	if v != nil {
		n.Set(name, node(*v))
	}
}

func raw(m json.RawMessage) *differ.Node { return differ.RawJSON(string(m)) }

// # Chat Completions

// validChat generates a valid Chat Completions stream of choice 0: a role
// chunk, maybe text, then one to three calls, each announced by an element
// with its index, id, type and name, its arguments in deltas of 1 to 12
// bytes (interleaved one time in three, several elements in a chunk one
// time in four), a finish_reason chunk, maybe a usage chunk, [DONE].
func validChat(r *rand.Rand) *differ.Stream {
	s := &differ.Stream{}
	chunk := func(choices ...*differ.Node) {
		s.Events = append(s.Events, differ.Event{Data: O(M("id", S("chatcmpl-1")), M("object", S("chat.completion.chunk")),
			M("created", N(1700000000)), M("model", S("gpt-5")), M("choices", differ.Arr(choices...)))})
	}
	choice := func(delta, finish *differ.Node) *differ.Node {
		return O(M("index", N(0)), M("delta", delta), M("finish_reason", finish))
	}
	chunk(choice(O(M("role", S("assistant")), M("content", differ.Null())), differ.Null()))
	if r.IntN(3) == 0 {
		for _, p := range differ.Cut(r, "Checking.", 1, 12) {
			chunk(choice(O(M("content", S(p))), differ.Null()))
		}
	}
	calls := differ.Calls(r, 1+r.IntN(3), "call_")
	var pending []*differ.Node
	flush := func() {
		if len(pending) > 0 {
			chunk(choice(O(M("tool_calls", differ.Arr(pending...))), differ.Null()))
			pending = nil
		}
	}
	for _, st := range differ.Schedule(r, calls) {
		c := calls[st.Call]
		if st.Piece == 0 {
			first := O(M("index", N(int64(st.Call))), M("id", S(c.ID)), M("type", S("function")),
				M("function", O(M("name", S(c.Name)), M("arguments", S("")))))
			if r.IntN(2) == 0 {
				first.Get("function").Set("arguments", S(c.Deltas[0]))
				pending = append(pending, first)
				if r.IntN(4) != 0 {
					flush()
				}
				continue
			}
			pending = append(pending, first)
			if r.IntN(4) != 0 {
				flush()
			}
		}
		pending = append(pending, O(M("index", N(int64(st.Call))), M("function", O(M("arguments", S(c.Deltas[st.Piece]))))))
		if r.IntN(4) != 0 {
			flush()
		}
	}
	flush()
	chunk(choice(O(), S("tool_calls")))
	if r.IntN(2) == 0 {
		chunk()
		s.Events[len(s.Events)-1].Data.Set("usage", O(M("prompt_tokens", N(10)), M("completion_tokens", N(20)), M("total_tokens", N(30))))
	}
	s.Events = append(s.Events, differ.Event{RawData: "[DONE]"})
	return s
}

// toolCallElems returns the tool_calls elements of the stream, with their
// event.
func toolCallElems(s *differ.Stream) (events []int, elems []*differ.Node) {
	for i, e := range s.Events {
		if e.Data == nil {
			continue
		}
		for _, ch := range e.Data.Get("choices").Items() {
			for _, tc := range ch.Get("delta").Get("tool_calls").Items() {
				events, elems = append(events, i), append(elems, tc)
			}
		}
	}
	return events, elems
}

// chatMutations are the classes of Chat Completions: a call's id or name
// restated in a later delta (the same or another), elements of type
// custom, indexes out of order, negative, sparse or of another call, an
// element without its index (read by ReadChat, refused by a gateway:
// errIndexless), the chosen choice twice or under another index, a chunk of another id, the
// deprecated function_call beside tool_calls.
func chatMutations() []differ.Mutation {
	return []differ.Mutation{
		{Class: "restate-call", Apply: func(r *rand.Rand, s *differ.Stream) (string, bool) {
			evs, elems := toolCallElems(s)
			var later []int
			for i, tc := range elems {
				if tc.Get("id") == nil {
					later = append(later, i)
				}
			}
			if len(later) == 0 {
				return "", false
			}
			k := pick(r, later)
			tc := elems[k]
			var first *differ.Node
			for _, e := range elems[:k] {
				if e.Get("index").Raw == tc.Get("index").Raw && e.Get("id") != nil {
					first = e
				}
			}
			if first == nil {
				return "", false
			}
			switch r.IntN(4) {
			case 0:
				tc.Get("function").Set("name", S(first.Get("function").Get("name").String()))
				return fmt.Sprintf("event %d: the call's name repeated", evs[k]), true
			case 1:
				tc.Get("function").Set("name", S("write_file"))
				return fmt.Sprintf("event %d: the call named write_file", evs[k]), true
			case 2:
				tc.Set("id", S(first.Get("id").String()))
				return fmt.Sprintf("event %d: the call's id repeated", evs[k]), true
			}
			tc.Set("id", S("call_other"))
			return fmt.Sprintf("event %d: the call's id call_other", evs[k]), true
		}},
		{Class: "custom-type", Apply: func(r *rand.Rand, s *differ.Stream) (string, bool) {
			evs, elems := toolCallElems(s)
			if len(elems) == 0 {
				return "", false
			}
			k := r.IntN(len(elems))
			if r.IntN(2) == 0 {
				elems[k].Set("type", S("custom"))
				return fmt.Sprintf("event %d: an element of type custom", evs[k]), true
			}
			ch := s.Events[evs[k]].Data.Get("choices").Elems[0]
			tcs := ch.Get("delta").Get("tool_calls")
			tcs.Elems = append(tcs.Elems, O(M("index", N(7)), M("id", S("call_custom")), M("type", S("custom")),
				M("function", O(M("name", S("run_command")), M("arguments", S(`{"cmd":"id"}`))))))
			return fmt.Sprintf("event %d: a call #7 of type custom with a function name and arguments", evs[k]), true
		}},
		{Class: "call-index", Apply: func(r *rand.Rand, s *differ.Stream) (string, bool) {
			evs, elems := toolCallElems(s)
			if len(elems) == 0 {
				return "", false
			}
			k := r.IntN(len(elems))
			v := pick(r, []string{"-1", "0", "1", "2", "5", "200", "1.0", "-2"})
			elems[k].Set("index", differ.RawJSON(v))
			return fmt.Sprintf("event %d: a tool call index %s", evs[k], v), true
		}},
		{Class: "no-index", Apply: func(r *rand.Rand, s *differ.Stream) (string, bool) {
			evs, elems := toolCallElems(s)
			if len(elems) == 0 {
				return "", false
			}
			k := r.IntN(len(elems))
			elems[k].Delete("index")
			return fmt.Sprintf("event %d: a tool call without an index", evs[k]), true
		}},
		{Class: "choice-twice", Apply: func(r *rand.Rand, s *differ.Stream) (string, bool) {
			evs, _ := toolCallElems(s)
			if len(evs) == 0 {
				return "", false
			}
			i := pick(r, evs)
			chs := s.Events[i].Data.Get("choices")
			chs.Elems = append(chs.Elems, chs.Elems[0].Clone())
			return fmt.Sprintf("event %d: its choice twice", i), true
		}},
		{Class: "choice-index", Apply: func(r *rand.Rand, s *differ.Stream) (string, bool) {
			evs, _ := toolCallElems(s)
			if len(evs) == 0 {
				return "", false
			}
			i := pick(r, evs)
			ch := s.Events[i].Data.Get("choices").Elems[0]
			if r.IntN(2) == 0 {
				ch.Delete("index")
				return fmt.Sprintf("event %d: a choice without index", i), true
			}
			ch.Set("index", N(1))
			return fmt.Sprintf("event %d: the choice has index 1", i), true
		}},
		{Class: "chunk-id", Apply: func(r *rand.Rand, s *differ.Stream) (string, bool) {
			evs, _ := toolCallElems(s)
			if len(evs) == 0 {
				return "", false
			}
			i := pick(r, evs)
			s.Events[i].Data.Set("id", S("chatcmpl-other"))
			return fmt.Sprintf("event %d: a chunk of id chatcmpl-other", i), true
		}},
		{Class: "function-call", Apply: func(r *rand.Rand, s *differ.Stream) (string, bool) {
			evs, _ := toolCallElems(s)
			if len(evs) == 0 {
				return "", false
			}
			i := pick(r, evs)
			d := s.Events[i].Data.Get("choices").Elems[0].Get("delta")
			d.Set("function_call", O(M("name", S("run_command")), M("arguments", S(`{"cmd":"id"}`))))
			return fmt.Sprintf("event %d: a deprecated function_call beside tool_calls", i), true
		}},
	}
}

// errIndexless is the differential's refusal of a stream with a call
// without an index ([openaistream.ChatReader.Indexless]): ReadChat reads
// it, and a gateway refuses it, since the SDKs number those calls
// otherwise.
var errIndexless = errors.New("a call without an index")

// indexless reports whether a ChatReader finds a call without an index in
// body.
func indexless(body []byte) bool {
	r := openaistream.NewChatReader(toolcall.New())
	rd := sse.NewReader(bytes.NewReader(body))
	for !r.Done() && rd.Next() {
		if r.Event(rd.Event()) != nil {
			break
		}
	}
	return r.Indexless()
}

func chatWire(t testing.TB) *differ.Wire {
	return &differ.Wire{
		Name:       "chat",
		Malformed:  openaistream.ErrMalformed,
		Valid:      validChat,
		Recordings: recordings(t, replay.Chat),
		Mutations:  append(differ.Mutations(), chatMutations()...),
		Argstream: func(body []byte) differ.Argstream {
			resp := toolcall.New()
			err := openaistream.ReadChat(context.Background(), bytes.NewReader(body), resp)
			if err == nil && indexless(body) {
				err = errIndexless
			}
			return differ.Argstream{Err: err, Results: differ.Results(resp.End())}
		},
		Readings: func(body []byte) []differ.Reading {
			return []differ.Reading{
				accumulateChat("sdk Chat+ChatCompletionAccumulator", body),
				accumulateChat("sdk Chat+ChatCompletionAccumulator, data read by encoding/json v1", canonical(body, chatV1)),
			}
		},
	}
}

var errRejected = errors.New("ChatCompletionAccumulator.AddChunk rejected a chunk")

var chatParams = openai.ChatCompletionNewParams{
	Model:    openai.ChatModelGPT5_4,
	Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Go.")},
}

// accumulateChat reads body as a user of the SDK does: each chunk of
// client.Chat.Completions.NewStreaming added to a ChatCompletionAccumulator
// (the loop ends if AddChunk rejects one), the calls being the tool calls
// of choice 0 of the accumulated completion (but the empty ones that fill
// the gaps of sparse indexes).
func accumulateChat(reader string, body []byte) differ.Reading {
	client := newClient(body)
	stream := client.Chat.Completions.NewStreaming(context.Background(), chatParams)
	defer stream.Close()
	var acc openai.ChatCompletionAccumulator
	var err error
	for stream.Next() {
		if !acc.AddChunk(stream.Current()) {
			err = errRejected
			break
		}
	}
	if err == nil {
		err = stream.Err()
	}
	rd := differ.Reading{Reader: reader, Err: err}
	if len(acc.Choices) > 0 {
		for j, tc := range acc.Choices[0].Message.ToolCalls {
			if tc.ID == "" && tc.Type == "" && tc.Function.Name == "" && tc.Function.Arguments == "" {
				continue
			}
			rd.Calls = append(rd.Calls, differ.SDKCall{Index: int64(j), ID: tc.ID, Name: tc.Function.Name, Args: tc.Function.Arguments, Type: tc.Type})
		}
	}
	return rd
}

// The members of a chunk that the accumulator reads, for encoding/json v1.
type (
	v1Chunk struct {
		ID      string           `json:"id"`
		Choices []v1Choice       `json:"choices"`
		Error   *json.RawMessage `json:"error"`
	}
	v1Choice struct {
		Index        int64   `json:"index"`
		Delta        v1Delta `json:"delta"`
		FinishReason *string `json:"finish_reason"`
	}
	v1Delta struct {
		Role      string       `json:"role"`
		Content   *string      `json:"content"`
		Refusal   *string      `json:"refusal"`
		ToolCalls []v1ToolCall `json:"tool_calls"`
	}
	v1ToolCall struct {
		Index    int64      `json:"index"`
		ID       string     `json:"id"`
		Type     string     `json:"type"`
		Function v1Function `json:"function"`
	}
	v1Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	}
)

func chatV1(data []byte) (*differ.Node, error) {
	var c v1Chunk
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, err
	}
	choices := differ.Arr()
	for _, ch := range c.Choices {
		d := O()
		if ch.Delta.Role != "" {
			d.Set("role", S(ch.Delta.Role))
		}
		opt(d, "content", ch.Delta.Content, S)
		opt(d, "refusal", ch.Delta.Refusal, S)
		if ch.Delta.ToolCalls != nil {
			tcs := differ.Arr()
			for _, tc := range ch.Delta.ToolCalls {
				e := O(M("index", N(tc.Index)))
				if tc.ID != "" {
					e.Set("id", S(tc.ID))
				}
				if tc.Type != "" {
					e.Set("type", S(tc.Type))
				}
				e.Set("function", O(M("name", S(tc.Function.Name)), M("arguments", S(tc.Function.Arguments))))
				tcs.Elems = append(tcs.Elems, e)
			}
			d.Set("tool_calls", tcs)
		}
		chn := O(M("index", N(ch.Index)), M("delta", d))
		opt(chn, "finish_reason", ch.FinishReason, S)
		choices.Elems = append(choices.Elems, chn)
	}
	n := O(M("id", S(c.ID)), M("object", S("chat.completion.chunk")), M("choices", choices))
	opt(n, "error", c.Error, raw)
	return n, nil
}

// TestDifferentialChat: on every generated stream of every class,
// wire/openaistream's ReadChat refuses the stream or reads the calls the
// SDK reads.
func TestDifferentialChat(t *testing.T) {
	chatWire(t).Test(t, perClass())
}

// FuzzDifferentialChat checks the property of TestDifferentialChat on any
// bytes; its seeds are streams of every class.
func FuzzDifferentialChat(f *testing.F) {
	w := chatWire(f)
	for _, c := range w.Seeds(2) {
		f.Add(c.Class, c.Body)
	}
	for _, d := range chatDivergences {
		f.Add(d.class, []byte(d.body))
	}
	f.Fuzz(func(t *testing.T, class string, body []byte) {
		if err := w.Check(differ.Case{Class: class, Body: body}); err != nil {
			t.Error(err)
		}
	})
}

// # Responses

// validResponses generates a valid Responses stream: response.created and
// in_progress, maybe a message item with text, then one to three
// function_call items, each added (in output_index order), its arguments
// in function_call_arguments.delta events of 1 to 12 bytes (interleaved
// one time in three), function_call_arguments.done and output_item.done
// after its last delta, and response.completed with every item.
func validResponses(r *rand.Rand) *differ.Stream {
	s := &differ.Stream{}
	seq := int64(0)
	add := func(typ string, ms ...differ.Member) {
		d := O(append([]differ.Member{M("type", S(typ)), M("sequence_number", N(seq))}, ms...)...)
		seq++
		s.Events = append(s.Events, differ.Event{Name: typ, HasName: true, Data: d})
	}
	response := func(status string, output *differ.Node) *differ.Node {
		return O(M("id", S("resp_1")), M("object", S("response")), M("created_at", N(1700000000)), M("status", S(status)),
			M("model", S("gpt-5")), M("output", output))
	}
	add("response.created", M("response", response("in_progress", differ.Arr())))
	add("response.in_progress", M("response", response("in_progress", differ.Arr())))
	var done []*differ.Node
	index := int64(0)
	if r.IntN(3) == 0 {
		msg := func(status string, content *differ.Node) *differ.Node {
			return O(M("id", S("msg_1")), M("type", S("message")), M("status", S(status)), M("role", S("assistant")), M("content", content))
		}
		add("response.output_item.added", M("output_index", N(index)), M("item", msg("in_progress", differ.Arr())))
		text := "Let me check."
		for _, p := range differ.Cut(r, text, 1, 12) {
			add("response.output_text.delta", M("item_id", S("msg_1")), M("output_index", N(index)), M("content_index", N(0)), M("delta", S(p)))
		}
		add("response.output_text.done", M("item_id", S("msg_1")), M("output_index", N(index)), M("content_index", N(0)), M("text", S(text)))
		item := msg("completed", differ.Arr(O(M("type", S("output_text")), M("text", S(text)), M("annotations", differ.Arr()))))
		add("response.output_item.done", M("output_index", N(index)), M("item", item))
		done = append(done, item)
		index++
	}
	calls := differ.Calls(r, 1+r.IntN(3), "call_")
	item := func(i int, status, args string) *differ.Node {
		c := calls[i]
		return O(M("id", S(fmt.Sprintf("fc_%d", i))), M("type", S("function_call")), M("status", S(status)),
			M("arguments", S(args)), M("call_id", S(c.ID)), M("name", S(c.Name)))
	}
	items := make([]*differ.Node, len(calls))
	for _, st := range differ.Schedule(r, calls) {
		c, oi := calls[st.Call], index+int64(st.Call)
		if st.Piece == 0 {
			add("response.output_item.added", M("output_index", N(oi)), M("item", item(st.Call, "in_progress", "")))
		}
		add("response.function_call_arguments.delta", M("item_id", S(fmt.Sprintf("fc_%d", st.Call))), M("output_index", N(oi)), M("delta", S(c.Deltas[st.Piece])))
		if st.Piece == len(c.Deltas)-1 {
			add("response.function_call_arguments.done", M("item_id", S(fmt.Sprintf("fc_%d", st.Call))), M("output_index", N(oi)), M("arguments", S(c.Args)))
			items[st.Call] = item(st.Call, "completed", c.Args)
			add("response.output_item.done", M("output_index", N(oi)), M("item", items[st.Call]))
		}
	}
	for _, it := range items {
		done = append(done, it.Clone())
	}
	add("response.completed", M("response", response("completed", differ.Arr(done...))))
	return s
}

// responsesEvents returns the positions of the events of s whose data type
// is one of types.
func responsesEvents(s *differ.Stream, types ...string) []int {
	var is []int
	for i, e := range s.Events {
		if slices.Contains(types, e.Type()) {
			is = append(is, i)
		}
	}
	return is
}

// alterArgs returns arguments other than args: other JSON, the same with
// white space (JSON-equal), or cut short.
func alterArgs(r *rand.Rand, args string) (string, string) {
	switch r.IntN(3) {
	case 0:
		return `{"path":"/etc/passwd"}`, "other JSON"
	case 1:
		var b bytes.Buffer
		if json.Indent(&b, []byte(args), "", " ") == nil && b.String() != args {
			return b.String(), "the same JSON, indented"
		}
	}
	return args[:len(args)/2], "cut short"
}

// restate changes the function_call item at it: its arguments, name or
// call_id.
func restate(r *rand.Rand, it *differ.Node) string {
	switch r.IntN(4) {
	case 0:
		it.Set("name", S("write_file"))
		return "named write_file"
	case 1:
		it.Set("call_id", S("call_other"))
		return "with call_id call_other"
	}
	a, what := alterArgs(r, it.Get("arguments").String())
	it.Set("arguments", S(a))
	return "with arguments " + what
}

// responsesMutations are the classes of the Responses API: a call restated
// otherwise by function_call_arguments.done, output_item.done or
// response.completed (other arguments, name or call_id; a call missing or
// added), a delta whose item_id or output_index is another call's, a call
// with no output_item.added or with it after its first delta.
func responsesMutations() []differ.Mutation {
	fcItem := func(s *differ.Stream, i int) *differ.Node {
		if it := s.Events[i].Data.Get("item"); it.Get("type").String() == "function_call" {
			return it
		}
		return nil
	}
	return []differ.Mutation{
		{Class: "restate-args-done", Apply: func(r *rand.Rand, s *differ.Stream) (string, bool) {
			is := responsesEvents(s, "response.function_call_arguments.done")
			if len(is) == 0 {
				return "", false
			}
			i := pick(r, is)
			d := s.Events[i].Data
			a, what := alterArgs(r, d.Get("arguments").String())
			d.Set("arguments", S(a))
			return fmt.Sprintf("event %d: function_call_arguments.done with %s", i, what), true
		}},
		{Class: "restate-item-done", Apply: func(r *rand.Rand, s *differ.Stream) (string, bool) {
			var is []int
			for _, i := range responsesEvents(s, "response.output_item.done") {
				if fcItem(s, i) != nil {
					is = append(is, i)
				}
			}
			if len(is) == 0 {
				return "", false
			}
			i := pick(r, is)
			return fmt.Sprintf("event %d: output_item.done %s", i, restate(r, fcItem(s, i))), true
		}},
		{Class: "restate-completed", Apply: func(r *rand.Rand, s *differ.Stream) (string, bool) {
			is := responsesEvents(s, "response.completed")
			if len(is) == 0 {
				return "", false
			}
			i := is[len(is)-1]
			out := s.Events[i].Data.Get("response").Get("output")
			var fcs []int
			for j, it := range out.Items() {
				if it.Get("type").String() == "function_call" {
					fcs = append(fcs, j)
				}
			}
			switch {
			case r.IntN(4) == 0:
				out.Elems = append(out.Elems, O(M("id", S("fc_extra")), M("type", S("function_call")), M("status", S("completed")),
					M("arguments", S(`{"cmd":"id"}`)), M("call_id", S("call_extra")), M("name", S("run_command"))))
				return fmt.Sprintf("event %d: response.completed with a function_call that did not stream", i), true
			case len(fcs) == 0:
				return "", false
			case r.IntN(3) == 0:
				j := pick(r, fcs)
				out.Elems = slices.Delete(out.Elems, j, j+1)
				return fmt.Sprintf("event %d: response.completed without the call at output %d", i, j), true
			}
			j := pick(r, fcs)
			return fmt.Sprintf("event %d: response.completed's output %d %s", i, j, restate(r, out.Elems[j])), true
		}},
		{Class: "delta-item-id", Apply: func(r *rand.Rand, s *differ.Stream) (string, bool) {
			is := responsesEvents(s, "response.function_call_arguments.delta")
			ids := map[string]bool{}
			for _, i := range is {
				ids[s.Events[i].Data.Get("item_id").String()] = true
			}
			if len(ids) < 2 {
				return "", false
			}
			i := pick(r, is)
			d := s.Events[i].Data
			for id := range ids {
				if id != d.Get("item_id").String() {
					d.Set("item_id", S(id))
					return fmt.Sprintf("event %d: a delta of output_index %s with item_id %s, another call's", i, d.Get("output_index").Raw, id), true
				}
			}
			return "", false
		}},
		{Class: "delta-output-index", Apply: func(r *rand.Rand, s *differ.Stream) (string, bool) {
			is := responsesEvents(s, "response.function_call_arguments.delta")
			if len(is) == 0 {
				return "", false
			}
			i := pick(r, is)
			d := s.Events[i].Data
			v := pick(r, []int64{0, 1, 2, 3, 9})
			d.Set("output_index", N(v))
			return fmt.Sprintf("event %d: a delta of item %s with output_index %d", i, d.Get("item_id").String(), v), true
		}},
		{Class: "no-added", Apply: func(r *rand.Rand, s *differ.Stream) (string, bool) {
			var is []int
			for _, i := range responsesEvents(s, "response.output_item.added") {
				if fcItem(s, i) != nil {
					is = append(is, i)
				}
			}
			if len(is) == 0 {
				return "", false
			}
			i := pick(r, is)
			if r.IntN(2) == 0 {
				s.Events = slices.Delete(s.Events, i, i+1)
				return fmt.Sprintf("event %d (output_item.added of a call) dropped", i), true
			}
			e := s.Events[i]
			at := min(i+2, len(s.Events))
			s.Events = slices.Insert(s.Events, at, e)
			s.Events = slices.Delete(s.Events, i, i+1)
			return fmt.Sprintf("event %d (output_item.added of a call) moved after the next event", i), true
		}},
	}
}

func responsesWire(t testing.TB) *differ.Wire {
	return &differ.Wire{
		Name:       "responses",
		Malformed:  openaistream.ErrMalformed,
		Valid:      validResponses,
		Recordings: recordings(t, replay.Responses),
		Mutations:  append(differ.Mutations(), responsesMutations()...),
		Argstream: func(body []byte) differ.Argstream {
			resp := toolcall.New()
			err := openaistream.ReadResponses(context.Background(), bytes.NewReader(body), resp)
			return differ.Argstream{Err: err, Results: differ.Results(resp.End())}
		},
		Readings: func(body []byte) []differ.Reading {
			rs := readResponses("sdk Responses", body)
			return append(rs, readResponses("sdk Responses, data read by encoding/json v1", canonical(body, responsesV1))...)
		},
	}
}

var responsesParams = responses.ResponseNewParams{
	Model: openai.ChatModelGPT5_4,
	Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("Go.")},
}

// readResponses reads body through client.Responses.NewStreaming to the
// end of the stream, and returns the five readings of its calls a user may
// make (see the file's comment): the deltas by output_index, the deltas by
// item_id, the arguments of function_call_arguments.done (for the calls
// that have one), the items of output_item.done (for the calls that have
// one), the output of response.completed (or response.incomplete; absent
// if none came). An "error" or "response.failed" event ends the loop with
// an error.
func readResponses(reader string, body []byte) []differ.Reading {
	client := newClient(body)
	stream := client.Responses.NewStreaming(context.Background(), responsesParams)
	defer stream.Close()
	type call struct {
		differ.SDKCall
		itemID          string
		byIndex, byItem strings.Builder
		argsDone        *string
		itemDone        *differ.SDKCall
	}
	var calls []*call
	var extraDone []differ.SDKCall // output_item.done of calls never added
	var final []differ.SDKCall
	gotFinal := false
	var err error
	find := func(pred func(*call) bool) *call {
		for _, c := range calls {
			if pred(c) {
				return c
			}
		}
		return nil
	}
	fc := func(index int64, it responses.ResponseOutputItemUnion) differ.SDKCall {
		f := it.AsFunctionCall()
		return differ.SDKCall{Index: index, ID: f.CallID, Name: f.Name, Args: f.Arguments}
	}
loop:
	for stream.Next() {
		ev := stream.Current()
		switch ev.Type {
		case "response.output_item.added":
			if ev.Item.Type == "function_call" {
				c := &call{SDKCall: fc(ev.OutputIndex, ev.Item), itemID: ev.Item.ID}
				c.Args = ""
				calls = append(calls, c)
			}
		case "response.function_call_arguments.delta":
			if c := find(func(c *call) bool { return c.Index == ev.OutputIndex }); c != nil {
				c.byIndex.WriteString(ev.Delta)
			}
			if c := find(func(c *call) bool { return c.itemID == ev.ItemID }); c != nil {
				c.byItem.WriteString(ev.Delta)
			}
		case "response.function_call_arguments.done":
			if c := find(func(c *call) bool { return c.Index == ev.OutputIndex }); c != nil {
				a := ev.Arguments
				c.argsDone = &a
			}
		case "response.output_item.done":
			if ev.Item.Type == "function_call" {
				d := fc(ev.OutputIndex, ev.Item)
				if c := find(func(c *call) bool { return c.Index == ev.OutputIndex }); c != nil {
					c.itemDone = &d
				} else {
					extraDone = append(extraDone, d)
				}
			}
		case "response.completed", "response.incomplete":
			gotFinal, final = true, nil
			for j, it := range ev.Response.Output {
				if it.Type == "function_call" {
					final = append(final, fc(int64(j), it))
				}
			}
		case "error", "response.failed":
			err = fmt.Errorf("%s event: %s", ev.Type, ev.RawJSON())
			break loop
		}
	}
	if err == nil {
		err = stream.Err()
	}
	readings := make([]differ.Reading, 5)
	for k, name := range []string{"deltas by output_index", "deltas by item_id", "function_call_arguments.done", "output_item.done", "response.completed"} {
		readings[k] = differ.Reading{Reader: reader + ", " + name, Err: err}
	}
	for _, c := range calls {
		one := func(args string) differ.SDKCall { d := c.SDKCall; d.Args = args; return d }
		readings[0].Calls = append(readings[0].Calls, one(c.byIndex.String()))
		readings[1].Calls = append(readings[1].Calls, one(c.byItem.String()))
		if c.argsDone != nil {
			readings[2].Calls = append(readings[2].Calls, one(*c.argsDone))
		} else {
			readings[2].Calls = append(readings[2].Calls, one(c.byIndex.String()))
		}
		if c.itemDone != nil {
			readings[3].Calls = append(readings[3].Calls, *c.itemDone)
		} else {
			readings[3].Calls = append(readings[3].Calls, one(c.byIndex.String()))
		}
	}
	readings[3].Calls = append(readings[3].Calls, extraDone...)
	readings[4].Calls, readings[4].Absent = final, !gotFinal
	return readings
}

// The members of a Responses event that the readings use, for
// encoding/json v1.
type (
	v1REvent struct {
		Type        string           `json:"type"`
		OutputIndex int64            `json:"output_index"`
		ItemID      *string          `json:"item_id"`
		Delta       *string          `json:"delta"`
		Arguments   *string          `json:"arguments"`
		Item        *v1Item          `json:"item"`
		Response    *v1Response      `json:"response"`
		Code        *json.RawMessage `json:"code"`
		Message     *json.RawMessage `json:"message"`
		Error       *json.RawMessage `json:"error"`
	}
	v1Item struct {
		ID        string           `json:"id"`
		Type      string           `json:"type"`
		CallID    *string          `json:"call_id"`
		Name      *string          `json:"name"`
		Arguments *json.RawMessage `json:"arguments"`
	}
	v1Response struct {
		Output []v1Item         `json:"output"`
		Error  *json.RawMessage `json:"error"`
	}
)

func (it v1Item) node() *differ.Node {
	n := O(M("id", S(it.ID)), M("type", S(it.Type)))
	opt(n, "call_id", it.CallID, S)
	opt(n, "name", it.Name, S)
	opt(n, "arguments", it.Arguments, raw)
	return n
}

func responsesV1(data []byte) (*differ.Node, error) {
	var e v1REvent
	if err := json.Unmarshal(data, &e); err != nil {
		return nil, err
	}
	n := O(M("type", S(e.Type)), M("output_index", N(e.OutputIndex)))
	opt(n, "item_id", e.ItemID, S)
	opt(n, "delta", e.Delta, S)
	opt(n, "arguments", e.Arguments, S)
	if e.Item != nil {
		n.Set("item", e.Item.node())
	}
	if rp := e.Response; rp != nil {
		out := differ.Arr()
		for _, it := range rp.Output {
			out.Elems = append(out.Elems, it.node())
		}
		rn := O(M("output", out))
		opt(rn, "error", rp.Error, raw)
		n.Set("response", rn)
	}
	opt(n, "code", e.Code, raw)
	opt(n, "message", e.Message, raw)
	opt(n, "error", e.Error, raw)
	return n, nil
}

// TestDifferentialResponses: on every generated stream of every class,
// wire/openaistream's ReadResponses refuses the stream or reads the calls
// the SDK's readings read, which must agree.
func TestDifferentialResponses(t *testing.T) {
	responsesWire(t).Test(t, perClass())
}

// FuzzDifferentialResponses checks the property of
// TestDifferentialResponses on any bytes; its seeds are streams of every
// class.
func FuzzDifferentialResponses(f *testing.F) {
	w := responsesWire(f)
	for _, c := range w.Seeds(2) {
		f.Add(c.Class, c.Body)
	}
	for _, d := range responsesDivergences {
		f.Add(d.class, []byte(d.body))
	}
	f.Fuzz(func(t *testing.T, class string, body []byte) {
		if err := w.Check(differ.Case{Class: class, Body: body}); err != nil {
			t.Error(err)
		}
	})
}

// # The glue

// viaChatGlue reads body through the SDK's client.Chat.Completions with
// FeedChat, and returns the outcomes of End.
func viaChatGlue(body []byte) ([]check.Outcome, error) {
	client := newClient(body)
	stream := client.Chat.Completions.NewStreaming(context.Background(), chatParams)
	defer stream.Close()
	resp := toolcall.New()
	var err error
	for stream.Next() && err == nil {
		err = openaisdk.FeedChat(resp, stream.Current(), 0)
	}
	return check.Outcomes(resp.End()), err
}

// viaResponsesGlue reads body through the SDK's client.Responses with
// FeedResponses, and returns the outcomes of End.
func viaResponsesGlue(body []byte) ([]check.Outcome, error) {
	client := newClient(body)
	stream := client.Responses.NewStreaming(context.Background(), responsesParams)
	defer stream.Close()
	resp := toolcall.New()
	var err error
	for stream.Next() && err == nil {
		err = openaisdk.FeedResponses(resp, stream.Current())
	}
	return check.Outcomes(resp.End()), err
}

// glueTest checks, on every generated stream of w that the raw adapter
// accepts (returns nil), that the glue driven by the SDK's events gives
// the same results as the raw adapter.
func glueTest(t *testing.T, w *differ.Wire, read func(context.Context, io.Reader, *toolcall.Response, ...wire.Option) error, glue func([]byte) ([]check.Outcome, error)) {
	base := differ.Seed(t)
	for _, m := range w.Mutations {
		t.Run(m.Class, func(t *testing.T) {
			failed, accepted := 0, 0
			for i := range uint64(perClass()) {
				c, ok := w.Case(m, base+i)
				if !ok {
					continue
				}
				raw := toolcall.New()
				if read(context.Background(), bytes.NewReader(c.Body), raw) != nil {
					continue
				}
				accepted++
				want := check.Outcomes(raw.End())
				got, err := glue(c.Body)
				if diff := cmp.Diff(want, got); err != nil || diff != "" {
					if failed++; failed <= 3 {
						t.Errorf("class %s (%s), seed %d: glue: %v; (-raw adapter +glue):\n%s\nstream: %q", c.Class, c.Note, c.Seed, err, diff, c.Body)
					}
				}
			}
			if failed > 0 {
				t.Errorf("%d of %d accepted streams read otherwise by the glue (DIFFER_SEED=%d)", failed, accepted, base)
			}
		})
	}
}

// TestGlueDifferentialChat: FeedChat reads what ReadChat reads, on the
// generated streams ReadChat accepts.
func TestGlueDifferentialChat(t *testing.T) {
	// Calls without an index: ReadChat reads them as new calls, the SDK
	// files them at index 0, and FeedChat follows the SDK (a gateway
	// refuses them: errIndexless).
	read := func(ctx context.Context, rd io.Reader, resp *toolcall.Response, opts ...wire.Option) error {
		body, err := io.ReadAll(rd)
		if err != nil {
			return err
		}
		if indexless(body) {
			return errIndexless
		}
		return openaistream.ReadChat(ctx, bytes.NewReader(body), resp, opts...)
	}
	glueTest(t, chatWire(t), read, viaChatGlue)
}

// TestGlueDifferentialResponses: FeedResponses reads what ReadResponses
// reads, on the generated streams ReadResponses accepts.
func TestGlueDifferentialResponses(t *testing.T) {
	glueTest(t, responsesWire(t), openaistream.ReadResponses, viaResponsesGlue)
}
