package anthropicsdk_test

// The differential test of wire/anthropicstream against the official SDK
// (invariant 11). The SDK behaviours it relies on, read in
// anthropic-sdk-go v1.84.0:
//
//   - packages/ssestream: lines are split by bufio.Scanner's ScanLines (LF,
//     or CRLF; a bare CR ends no line); a line is cut at its first colon,
//     one space after it dropped; only "event" and "data" fields count (a
//     field name with a BOM before it is unknown); a blank line
//     dispatches the event if it has an event line or data; an event not
//     ended by a blank line at the end of the body is dropped, without an
//     error. Stream.Next skips events named "" (no event line, or an empty
//     one) and "ping", ends with an error on an event named "error" (data
//     or not), skips events whose data is empty, and decodes the others
//     with encoding/json.Unmarshal (which checks the syntax) into
//     MessageStreamEventUnion, whose UnmarshalJSON is apijson's: gjson's
//     Result.Map, in which the FIRST of repeated names wins, names matched
//     exactly (case-sensitively, after unescaping), an int64 read from a
//     string, a float or a bool ("index":"1" is 1), a null member left at
//     its zero value. The event's name is not read again: the data's
//     "type" says what the event is.
//   - Message.Accumulate: message_start replaces the whole message (its
//     content included); content_block_start must have index ==
//     len(content) (else an error), and its block is decoded from the
//     content_block's raw JSON; content_block_delta and content_block_stop
//     must have an index of a started block (else an error); an
//     input_json_delta's partial_json replaces an input that is exactly
//     "{}" and is appended to any other (to a text block's too), whatever
//     the block's type and whether it stopped; a delta of another type is
//     not read for partial_json; at content_block_stop and message_stop an
//     input that is not valid JSON becomes {}.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
	"github.com/anthropics/anthropic-sdk-go/packages/ssestream"
	"github.com/argstream/argstream/sdk/anthropicsdk"
	"github.com/argstream/argstream/sdk/internal/check"
	"github.com/argstream/argstream/sdk/internal/differ"
	"github.com/argstream/argstream/sdk/internal/replay"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire/anthropicstream"
	"github.com/google/go-cmp/cmp"
)

// O, M, S and N shorten the building of event data.
var (
	O = differ.Obj
	M = differ.M
	S = differ.Str
	N = differ.Num
)

// toolTypes are the content block types that are tool calls.
var toolTypes = []string{"tool_use", "server_tool_use", "mcp_tool_use"}

// validAnthropic generates a valid Messages stream: message_start (whose
// content holds, one time in eight, a call given whole, as when a response
// continues a container's programmatic tool calls), maybe a text block,
// then one to three tool blocks, each started in index order, with an
// input {} and input_json_deltas of 1 to 12 bytes (interleaved one time in
// three) or, one time in six, its input whole and no delta, each stopped
// after its last delta; ping events here and there, message_delta,
// message_stop.
func validAnthropic(r *rand.Rand) *differ.Stream {
	s := &differ.Stream{}
	add := func(d *differ.Node) {
		s.Events = append(s.Events, differ.Event{Name: d.Get("type").String(), HasName: true, Data: d})
		if r.IntN(20) == 0 {
			s.Events = append(s.Events, differ.Event{Name: "ping", HasName: true, Data: O(M("type", S("ping")))})
		}
	}
	content := differ.Arr()
	if r.IntN(8) == 0 {
		c := differ.Calls(r, 1, "toolu_whole")[0]
		in, _ := differ.Parse([]byte(c.Args))
		content.Elems = append(content.Elems, O(M("type", S("tool_use")), M("id", S(c.ID)), M("name", S(c.Name)), M("input", in)))
	}
	add(O(M("type", S("message_start")), M("message", O(
		M("id", S("msg_01")), M("type", S("message")), M("role", S("assistant")), M("model", S("claude-sonnet-4-5")),
		M("content", content), M("stop_reason", differ.Null()), M("stop_sequence", differ.Null()),
		M("usage", O(M("input_tokens", N(12)), M("output_tokens", N(1))))))))
	index := int64(len(content.Elems))
	block := func(i int64, b *differ.Node) {
		add(O(M("type", S("content_block_start")), M("index", N(i)), M("content_block", b)))
	}
	delta := func(i int64, typ, member, text string) {
		add(O(M("type", S("content_block_delta")), M("index", N(i)), M("delta", O(M("type", S(typ)), M(member, S(text))))))
	}
	stop := func(i int64) { add(O(M("type", S("content_block_stop")), M("index", N(i)))) }
	if r.IntN(2) == 0 {
		block(index, O(M("type", S("text")), M("text", S(""))))
		for _, p := range differ.Cut(r, "Let me look that up for you.", 1, 12) {
			delta(index, "text_delta", "text", p)
		}
		stop(index)
		index++
	}
	calls := differ.Calls(r, 1+r.IntN(3), "toolu_")
	whole := make([]bool, len(calls))
	for i := range calls {
		whole[i] = r.IntN(6) == 0
		if whole[i] {
			calls[i].Deltas = nil
		}
	}
	typ := func() string {
		if r.IntN(5) == 0 {
			return "server_tool_use"
		}
		return "tool_use"
	}
	started := 0
	startUpTo := func(n int) {
		for ; started <= n; started++ {
			c, i := calls[started], index+int64(started)
			input := O()
			if whole[started] {
				input, _ = differ.Parse([]byte(c.Args))
			}
			block(i, O(M("type", S(typ())), M("id", S(c.ID)), M("name", S(c.Name)), M("input", input)))
			if whole[started] || len(c.Deltas) == 0 {
				stop(i)
			}
		}
	}
	for _, st := range differ.Schedule(r, calls) {
		startUpTo(st.Call)
		c, i := calls[st.Call], index+int64(st.Call)
		delta(i, "input_json_delta", "partial_json", c.Deltas[st.Piece])
		if st.Piece == len(c.Deltas)-1 {
			stop(i)
		}
	}
	startUpTo(len(calls) - 1)
	add(O(M("type", S("message_delta")), M("delta", O(M("stop_reason", S("tool_use")), M("stop_sequence", differ.Null()))),
		M("usage", O(M("output_tokens", N(42))))))
	add(O(M("type", S("message_stop"))))
	return s
}

// events returns the positions of the events of s of the given data type.
func events(s *differ.Stream, types ...string) []int {
	var is []int
	for i, e := range s.Events {
		if slices.Contains(types, e.Type()) {
			is = append(is, i)
		}
	}
	return is
}

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// toolStarts returns the positions of the content_block_start events of
// tool blocks.
func toolStarts(s *differ.Stream) []int {
	var is []int
	for _, i := range events(s, "content_block_start") {
		if slices.Contains(toolTypes, s.Events[i].Data.Get("content_block").Get("type").String()) {
			is = append(is, i)
		}
	}
	return is
}

// anthropicMutations are the classes of the Messages wire: a block started
// twice (a restatement, under another name or id or not), indexes out of
// order or of another block, deltas of another type carrying a
// partial_json, an input_json_delta to a text block or after its block's
// stop, a second message_start, a tool block whose start has a whole
// input and deltas too, and an input placeholder written "{ }".
func anthropicMutations() []differ.Mutation {
	return []differ.Mutation{
		{Class: "restart-block", Apply: func(r *rand.Rand, s *differ.Stream) (string, bool) {
			starts := toolStarts(s)
			if len(starts) == 0 {
				return "", false
			}
			i := pick(r, starts)
			e := s.Events[i]
			e.Data = e.Data.Clone()
			b := e.Data.Get("content_block")
			what := "unchanged"
			switch r.IntN(4) {
			case 1:
				b.Set("name", S("write_file")) // another tool
				what = "named write_file"
			case 2:
				b.Set("id", S("toolu_other"))
				what = "with id toolu_other"
			case 3:
				b.Set("input", O(M("path", S("/etc/passwd"))))
				what = `with input {"path":"/etc/passwd"}`
			}
			at := i + 1 + r.IntN(len(s.Events)-i)
			s.Events = slices.Insert(s.Events, at, e)
			return fmt.Sprintf("the start of event %d again as event %d, %s", i, at, what), true
		}},
		{Class: "block-index", Apply: func(r *rand.Rand, s *differ.Stream) (string, bool) {
			is := events(s, "content_block_start", "content_block_delta", "content_block_stop")
			if len(is) == 0 {
				return "", false
			}
			i := pick(r, is)
			d := s.Events[i].Data
			old := d.Get("index")
			v := pick(r, []int64{0, 1, 2, 3, 5, 1 << 40})
			d.Set("index", N(v))
			return fmt.Sprintf("event %d (%s) has index %d, not %s", i, s.Events[i].Type(), v, old.Raw), true
		}},
		{Class: "unknown-delta-partial", Apply: func(r *rand.Rand, s *differ.Stream) (string, bool) {
			is := events(s, "content_block_delta")
			if len(is) == 0 {
				return "", false
			}
			i := pick(r, is)
			d := s.Events[i].Data.Get("delta")
			typ := pick(r, []string{"text_delta", "thinking_delta", "citations_delta", "signature_delta", "input_json", "foo_delta", ""})
			d.Set("type", S(typ))
			if d.Get("partial_json") == nil {
				d.Set("partial_json", S(`{"injected":1}`))
			}
			return fmt.Sprintf("event %d: a delta of type %q with a partial_json", i, typ), true
		}},
		{Class: "delta-to-text-block", Apply: func(r *rand.Rand, s *differ.Stream) (string, bool) {
			var text []int64
			for _, i := range events(s, "content_block_start") {
				if s.Events[i].Data.Get("content_block").Get("type").String() == "text" {
					text = append(text, indexOf(s.Events[i].Data))
				}
			}
			is := events(s, "content_block_delta")
			if len(text) == 0 || len(is) == 0 {
				return "", false
			}
			at := pick(r, is) + 1
			ix := pick(r, text)
			s.Events = slices.Insert(s.Events, at, differ.Event{Name: "content_block_delta", HasName: true,
				Data: O(M("type", S("content_block_delta")), M("index", N(ix)), M("delta", O(M("type", S("input_json_delta")), M("partial_json", S(`{"x":1}`)))))})
			return fmt.Sprintf("an input_json_delta to text block %d as event %d", ix, at), true
		}},
		{Class: "delta-after-stop", Apply: func(r *rand.Rand, s *differ.Stream) (string, bool) {
			is := events(s, "content_block_stop")
			if len(is) == 0 {
				return "", false
			}
			i := pick(r, is)
			ix := indexOf(s.Events[i].Data)
			at := i + 1 + r.IntN(len(s.Events)-i)
			s.Events = slices.Insert(s.Events, at, differ.Event{Name: "content_block_delta", HasName: true,
				Data: O(M("type", S("content_block_delta")), M("index", N(ix)), M("delta", O(M("type", S("input_json_delta")), M("partial_json", S(" ")))))})
			return fmt.Sprintf("an input_json_delta of white space to block %d after its stop, as event %d of %d", ix, at, len(s.Events)), true
		}},
		{Class: "second-message-start", Apply: func(r *rand.Rand, s *differ.Stream) (string, bool) {
			is := events(s, "message_start")
			if len(is) == 0 {
				return "", false
			}
			e := s.Events[is[0]]
			e.Data = e.Data.Clone()
			at := 1 + r.IntN(len(s.Events))
			s.Events = slices.Insert(s.Events, at, e)
			return fmt.Sprintf("message_start again as event %d", at), true
		}},
		{Class: "input-and-deltas", Apply: func(r *rand.Rand, s *differ.Stream) (string, bool) {
			starts := toolStarts(s)
			if len(starts) == 0 {
				return "", false
			}
			i := pick(r, starts)
			b := s.Events[i].Data.Get("content_block")
			in := pick(r, []*differ.Node{O(M("a", N(1))), differ.RawJSON(`{"a":`), differ.Arr(), S("{}")})
			b.Set("input", in)
			return fmt.Sprintf("event %d: the block's input is %s", i, in.JSON(differ.Style{})), true
		}},
		{Class: "input-space", Apply: func(r *rand.Rand, s *differ.Stream) (string, bool) {
			starts := toolStarts(s)
			if len(starts) == 0 {
				return "", false
			}
			i := pick(r, starts)
			b := s.Events[i].Data.Get("content_block")
			raw := pick(r, []string{"{ }", "{\n}", " {}"})
			if b.Get("input").JSON(differ.Style{}) != "{}" {
				return "", false
			}
			b.Set("input", differ.RawJSON(raw))
			return fmt.Sprintf("event %d: the block's input {} written %q", i, raw), true
		}},
	}
}

func indexOf(d *differ.Node) int64 {
	var n int64
	if v := d.Get("index"); v != nil {
		fmt.Sscan(v.Raw, &n)
	}
	return n
}

// anthropicWire is the differential test's wire.
func anthropicWire(t testing.TB) *differ.Wire {
	files, err := replay.Files(replay.Anthropic)
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
	return &differ.Wire{
		Name:       "anthropic",
		Malformed:  anthropicstream.ErrMalformed,
		Valid:      validAnthropic,
		Recordings: recs,
		Mutations:  append(differ.Mutations(), anthropicMutations()...),
		Argstream:  readArgstream,
		Readings:   readSDK,
	}
}

func readArgstream(body []byte) differ.Argstream {
	resp := toolcall.New()
	err := anthropicstream.Read(context.Background(), bytes.NewReader(body), resp)
	return differ.Argstream{Err: err, Results: differ.Results(resp.End())}
}

// readSDK reads body as a user of the SDK does: client.Messages.NewStreaming
// and Message.Accumulate of each event, the calls being the tool blocks of
// the accumulated message; the same with client.Beta.Messages and
// BetaMessage.Accumulate; and the first once more on the body with each
// event's data decoded by encoding/json v1 (the reader of a user's own
// structs: names matched case-insensitively, with Unicode folding, the last
// of repeated names winning, objects merged) and written again.
func readSDK(body []byte) []differ.Reading {
	return []differ.Reading{
		accumulate("sdk Messages+Accumulate", body),
		accumulateBeta(body),
		accumulate("sdk Messages+Accumulate, data read by encoding/json v1", canonicalV1(body)),
	}
}

func newClient(body []byte) anthropic.Client {
	return anthropic.NewClient(option.WithAPIKey("test"), option.WithHTTPClient(differ.Client(body)), option.WithMaxRetries(0))
}

var params = anthropic.MessageNewParams{
	Model:     anthropic.ModelClaudeSonnet4_6,
	MaxTokens: 1024,
	Messages:  []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("Go."))},
}

func accumulate(reader string, body []byte) differ.Reading {
	client := newClient(body)
	stream := client.Messages.NewStreaming(context.Background(), params)
	defer stream.Close()
	var msg anthropic.Message
	var err error
	for stream.Next() {
		if err = msg.Accumulate(stream.Current()); err != nil {
			break
		}
	}
	if err == nil {
		err = stream.Err()
	}
	rd := differ.Reading{Reader: reader, Err: err}
	for i, b := range msg.Content {
		if slices.Contains(toolTypes, b.Type) {
			rd.Calls = append(rd.Calls, differ.SDKCall{Index: int64(i), ID: b.ID, Name: b.Name, Args: string(b.Input)})
		}
	}
	return rd
}

func accumulateBeta(body []byte) differ.Reading {
	client := newClient(body)
	stream := client.Beta.Messages.NewStreaming(context.Background(), anthropic.BetaMessageNewParams{
		Model:     anthropic.ModelClaudeSonnet4_6,
		MaxTokens: 1024,
		Messages:  []anthropic.BetaMessageParam{anthropic.NewBetaUserMessage(anthropic.NewBetaTextBlock("Go."))},
	})
	defer stream.Close()
	var msg anthropic.BetaMessage
	var err error
	for stream.Next() {
		if err = msg.Accumulate(stream.Current()); err != nil {
			break
		}
	}
	if err == nil {
		err = stream.Err()
	}
	rd := differ.Reading{Reader: "sdk Beta.Messages+Accumulate", Err: err}
	for i, b := range msg.Content {
		if slices.Contains(toolTypes, b.Type) {
			rd.Calls = append(rd.Calls, differ.SDKCall{Index: int64(i), ID: b.ID, Name: b.Name, Args: string(b.Input)})
		}
	}
	return rd
}

// The members of an event that Accumulate reads, for encoding/json v1.
type (
	v1Event struct {
		Type         string          `json:"type"`
		Index        int64           `json:"index"`
		Message      *v1Message      `json:"message"`
		ContentBlock *v1Block        `json:"content_block"`
		Delta        *v1Delta        `json:"delta"`
		Error        json.RawMessage `json:"error"`
	}
	v1Message struct {
		Content []v1Block `json:"content"`
	}
	v1Block struct {
		Type  string          `json:"type"`
		ID    string          `json:"id"`
		Name  string          `json:"name"`
		Input json.RawMessage `json:"input"`
		Text  *string         `json:"text"`
	}
	v1Delta struct {
		Type        string  `json:"type"`
		PartialJSON *string `json:"partial_json"`
		Text        *string `json:"text"`
		Thinking    *string `json:"thinking"`
		StopReason  *string `json:"stop_reason"`
	}
)

// node writes v again, its inputs as they came (json.Marshal would
// compact them, and Accumulate compares an input with "{}" as text).
func (v v1Event) node() *differ.Node {
	n := O(M("type", S(v.Type)), M("index", N(v.Index)))
	if m := v.Message; m != nil {
		content := differ.Arr()
		for _, b := range m.Content {
			content.Elems = append(content.Elems, b.node())
		}
		n.Set("message", O(M("content", content)))
	}
	if v.ContentBlock != nil {
		n.Set("content_block", v.ContentBlock.node())
	}
	if d := v.Delta; d != nil {
		dn := O(M("type", S(d.Type)))
		for _, f := range []struct {
			name string
			v    *string
		}{{"partial_json", d.PartialJSON}, {"text", d.Text}, {"thinking", d.Thinking}, {"stop_reason", d.StopReason}} {
			if f.v != nil {
				dn.Set(f.name, S(*f.v))
			}
		}
		n.Set("delta", dn)
	}
	if v.Error != nil {
		n.Set("error", differ.RawJSON(string(v.Error)))
	}
	return n
}

func (b v1Block) node() *differ.Node {
	n := O(M("type", S(b.Type)))
	if b.ID != "" {
		n.Set("id", S(b.ID))
	}
	if b.Name != "" {
		n.Set("name", S(b.Name))
	}
	if b.Input != nil {
		n.Set("input", differ.RawJSON(string(b.Input)))
	}
	if b.Text != nil {
		n.Set("text", S(*b.Text))
	}
	return n
}

// canonicalV1 returns body with the data of each event the SDK decodes
// read by encoding/json v1 into v1Event and written again, events framed
// by the SDK's own SSE decoder (so that only the JSON is read another
// way). Data that encoding/json cannot decode into v1Event becomes "{",
// which ends the SDK's loop with an error, as the decoding error would.
func canonicalV1(body []byte) []byte {
	dec := ssestream.NewDecoder(&http.Response{
		Header: http.Header{"Content-Type": {"text/event-stream"}},
		Body:   io.NopCloser(bytes.NewReader(body)),
	})
	var out bytes.Buffer
	for dec.Next() {
		ev := dec.Event()
		data := string(ev.Data)
		switch ev.Type {
		case "", "ping", "error": // not decoded by the SDK
		default:
			if strings.TrimSuffix(data, "\n") == "" {
				break
			}
			var v v1Event
			if err := json.Unmarshal(ev.Data, &v); err != nil {
				data = "{\n"
			} else {
				data = v.node().JSON(differ.Style{}) + "\n"
			}
		}
		if ev.Type != "" {
			out.WriteString("event: " + ev.Type + "\n")
		}
		if data != "" {
			for _, line := range strings.Split(strings.TrimSuffix(data, "\n"), "\n") {
				out.WriteString("data: " + line + "\n")
			}
		}
		out.WriteString("\n")
	}
	return out.Bytes()
}

// TestDifferentialAnthropic: on every generated stream of every class,
// wire/anthropicstream refuses the stream or reads the calls the SDK reads.
func TestDifferentialAnthropic(t *testing.T) {
	anthropicWire(t).Test(t, perClass(t))
}

func perClass(t *testing.T) int {
	if testing.Short() {
		return 20
	}
	return 100
}

// FuzzDifferentialAnthropic checks the property of TestDifferentialAnthropic
// on any bytes; its seeds are streams of every class.
func FuzzDifferentialAnthropic(f *testing.F) {
	w := anthropicWire(f)
	for _, c := range w.Seeds(2) {
		f.Add(c.Class, c.Body)
	}
	for _, d := range anthropicDivergences {
		f.Add(d.class, []byte(d.body))
	}
	f.Fuzz(func(t *testing.T, class string, body []byte) {
		if err := w.Check(differ.Case{Class: class, Body: body}); err != nil {
			t.Error(err)
		}
	})
}

// viaFeed reads body through the SDK's client.Messages (or Beta.Messages)
// with Feed (FeedBeta), the glue, and returns the outcomes of End.
func viaFeed(body []byte, beta bool) ([]check.Outcome, error) {
	client := newClient(body)
	resp := toolcall.New()
	var err error
	if beta {
		stream := client.Beta.Messages.NewStreaming(context.Background(), anthropic.BetaMessageNewParams{
			Model: anthropic.ModelClaudeSonnet4_6, MaxTokens: 1024,
			Messages: []anthropic.BetaMessageParam{anthropic.NewBetaUserMessage(anthropic.NewBetaTextBlock("Go."))},
		})
		for stream.Next() && err == nil {
			err = anthropicsdk.FeedBeta(resp, stream.Current())
		}
		stream.Close()
	} else {
		stream := client.Messages.NewStreaming(context.Background(), params)
		for stream.Next() && err == nil {
			err = anthropicsdk.Feed(resp, stream.Current())
		}
		stream.Close()
	}
	return check.Outcomes(resp.End()), err
}

// TestGlueDifferentialAnthropic: on every generated stream that
// wire/anthropicstream's Read accepts (returns nil), Feed and FeedBeta
// driven by the SDK's events give the same results as Read.
func TestGlueDifferentialAnthropic(t *testing.T) {
	w := anthropicWire(t)
	base := differ.Seed(t)
	for _, m := range w.Mutations {
		t.Run(m.Class, func(t *testing.T) {
			failed, accepted := 0, 0
			for i := range uint64(perClass(t)) {
				c, ok := w.Case(m, base+i)
				if !ok {
					continue
				}
				raw := toolcall.New()
				if anthropicstream.Read(context.Background(), bytes.NewReader(c.Body), raw) != nil {
					continue
				}
				accepted++
				want := check.Outcomes(raw.End())
				for _, beta := range []bool{false, true} {
					got, err := viaFeed(c.Body, beta)
					diff := cmp.Diff(want, got)
					if err == nil && diff == "" {
						continue
					}
					if failed++; failed <= 3 {
						t.Errorf("class %s (%s), seed %d, beta %v: Feed: %v; (-Read +Feed):\n%s\nstream: %q", c.Class, c.Note, c.Seed, beta, err, diff, c.Body)
					}
				}
			}
			if failed > 0 {
				t.Errorf("%d readings of %d accepted streams differ (DIFFER_SEED=%d)", failed, accepted, base)
			}
		})
	}
}
