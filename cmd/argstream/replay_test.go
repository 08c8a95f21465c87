package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/internal/testutil/wiretest"
	"github.com/google/go-cmp/cmp"
)

// This file is structured in the following way:
//
//   - running replay, and reading its JSON Lines back (replayed);
//   - what a recording holds, decoded with encoding/json independently of
//     the wire adapters (expectAnthropic, expectChat, expectResponses);
//   - the recordings replayed, auto detection, pipes, several responses;
//   - policies, exit statuses, the text format, usage errors.

const (
	streams    = "../../testdata/llm_streams/"
	replayDir  = "../../testdata/replay/"
	replayRule = replayDir + "rules"
)

// replayCmd runs "argstream replay args..." with stdin.
func replayCmd(stdin io.Reader, args ...string) result {
	var out, errOut bytes.Buffer
	code := run(append([]string{"replay"}, args...), env{stdin: stdin, stdout: &out, stderr: &errOut})
	return result{code, out.String(), errOut.String()}
}

// replayEvent is one line of --format jsonl. Decoding rejects unknown
// fields, so that every field printed is one the documentation lists.
type replayEvent struct {
	Event         string          `json:"event"`
	Response      *int            `json:"response"`
	Wire          string          `json:"wire"`
	Index         *int64          `json:"index"`
	ID            *string         `json:"id"`
	Name          *string         `json:"name"`
	Path          []any           `json:"path"`
	String        *string         `json:"string"`
	Number        *string         `json:"number"`
	Bool          *bool           `json:"bool"`
	Null          bool            `json:"null"`
	Done          bool            `json:"done"`
	Empty         json.RawMessage `json:"empty"`
	Mode          string          `json:"mode"`
	Rule          *int            `json:"rule"`
	DecidedAtByte *int64          `json:"decided_at_byte"`
	Unlisted      bool            `json:"unlisted"`
	Text          *string         `json:"text"`
	Error         errorValue      `json:"error"`
	Executable    *bool           `json:"executable"`
	Approved      bool            `json:"approved"`
	Declined      bool            `json:"declined"`
	Server        bool            `json:"server"`
	Arguments     json.RawMessage `json:"arguments"`
}

// errorValue is an "error": a string in an error line, an object in an
// end line.
type errorValue struct {
	Message, Category        string
	Offset                   *int64
	Pointer                  string
	Line, Column             int
	What, Streamed, Restated string
	Object                   bool
}

func (e *errorValue) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		return json.Unmarshal(b, &e.Message)
	}
	var f struct {
		Category string `json:"category"`
		Offset   *int64 `json:"offset"`
		Pointer  string `json:"pointer"`
		Line     int    `json:"line"`
		Column   int    `json:"column"`
		What     string `json:"what"`
		Streamed string `json:"streamed"`
		Restated string `json:"restated"`
		Message  string `json:"message"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return err
	}
	if f.Category == "" || f.Message == "" {
		return fmt.Errorf("error %s without category or message", b)
	}
	*e = errorValue{f.Message, f.Category, f.Offset, f.Pointer, f.Line, f.Column, f.What, f.Streamed, f.Restated, true}
	return nil
}

func parseEvents(t *testing.T, stdout string) []replayEvent {
	t.Helper()
	var evs []replayEvent
	for _, line := range lines(stdout) {
		if line == "" {
			continue
		}
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		var ev replayEvent
		if err := dec.Decode(&ev); err != nil {
			t.Fatalf("line %s: %v", line, err)
		}
		evs = append(evs, ev)
	}
	return evs
}

// replayedResponse is what replay reports of one response, or what a
// recording holds of it.
type replayedResponse struct {
	Wire   string
	Calls  []callOutcome
	Texts  map[string]string // "text 0", "thinking 1": the text of an index, concatenated
	Failed bool              // an error line: the stream ended in an error
}

type callOutcome struct {
	Index      int64
	ID, Name   string
	Server     bool   // the provider runs it
	Arguments  string // compact; "" if not valid
	Executable bool
	Truncated  bool // the arguments end too soon
	Invalid    bool // the arguments are otherwise invalid
}

// summarize gathers the responses of replay's JSON Lines, checking the
// order of the lines: a response line first, a call's start line before
// its other lines and once, the end lines last, in index order, one per
// call started, and an error line at most, before them.
func summarize(t *testing.T, evs []replayEvent) []replayedResponse {
	t.Helper()
	var out []replayedResponse
	var cur *replayedResponse
	var started map[int64]bool
	ending := false
	for i, ev := range evs {
		if ev.Event == "response" {
			if cur != nil && len(cur.Calls) != len(started) {
				t.Errorf("response %d: %d calls started, %d ended", len(out)-1, len(started), len(cur.Calls))
			}
			if ev.Response == nil || *ev.Response != len(out) {
				t.Errorf("line %d: response line %+v, want response %d", i, ev, len(out))
			}
			out = append(out, replayedResponse{Wire: ev.Wire, Texts: map[string]string{}})
			cur, started, ending = &out[len(out)-1], map[int64]bool{}, false
			continue
		}
		if cur == nil {
			if ev.Event != "error" {
				t.Errorf("line %d before any response line: %+v", i, ev)
			}
			continue
		}
		if ev.Index == nil && ev.Event != "error" {
			t.Fatalf("line %d: no index: %+v", i, ev)
		}
		if ending && ev.Event != "end" {
			t.Errorf("line %d after an end line: %+v", i, ev)
		}
		switch ev.Event {
		case "start":
			if started[*ev.Index] {
				t.Errorf("line %d: call %d started twice", i, *ev.Index)
			}
			started[*ev.Index] = true
		case "fragment", "decision":
			if !started[*ev.Index] {
				t.Errorf("line %d: %s of call %d before its start", i, ev.Event, *ev.Index)
			}
		case "text", "thinking":
			cur.Texts[fmt.Sprint(ev.Event, " ", *ev.Index)] += *ev.Text
		case "error":
			if ev.Error.Object || ev.Error.Message == "" {
				t.Errorf("line %d: an error line's error is not a message", i)
			}
			if cur.Failed {
				t.Errorf("line %d: a second error line", i)
			}
			cur.Failed = true
		case "end":
			ending = true
			if !started[*ev.Index] {
				t.Errorf("line %d: end of call %d, never started", i, *ev.Index)
			}
			if n := len(cur.Calls); n > 0 && cur.Calls[n-1].Index >= *ev.Index {
				t.Errorf("line %d: end lines not in index order", i)
			}
			c := callOutcome{Index: *ev.Index, ID: *ev.ID, Name: *ev.Name, Server: ev.Server, Arguments: string(ev.Arguments), Executable: *ev.Executable}
			switch {
			case ev.Error.Message != "" && !ev.Error.Object:
				t.Errorf("line %d: an end line's error is not an object", i)
			case ev.Error.Category == "truncated":
				c.Truncated = true
			case ev.Error.Category == "not_approved" && !c.Executable:
				// valid arguments, not approved: in Arguments
			case ev.Error.Category != "":
				c.Invalid = true
			}
			if ev.Error.Category != "" && ev.Error.Category != "not_approved" && ev.Arguments != nil {
				t.Errorf("line %d: both arguments and an error", i)
			}
			cur.Calls = append(cur.Calls, c)
		default:
			t.Errorf("line %d: unknown event %q", i, ev.Event)
		}
	}
	if cur != nil && len(cur.Calls) != len(started) {
		t.Errorf("last response: %d calls started, %d ended", len(started), len(cur.Calls))
	}
	return out
}

// What a recording holds.

// recordedCall gathers one call of a recording.
type recordedCall struct {
	index    int64
	id, name string
	server   bool // a server_tool_use, mcp_tool_use block
	args     strings.Builder
	input    string // Anthropic's content_block_start input
}

// outcome is what toolcall makes of the call's arguments, judged with
// encoding/json: valid (compacted), cut short, or invalid.
func (c *recordedCall) outcome() callOutcome {
	o := callOutcome{Index: c.index, ID: c.id, Name: c.name, Server: c.server}
	text := c.args.String()
	if text == "" {
		text = c.input // Anthropic's input, {} when no deltas came
	}
	var v any
	err := json.Unmarshal([]byte(text), &v)
	var buf bytes.Buffer
	switch {
	case text == "" || err != nil && err.Error() == "unexpected end of JSON input":
		o.Truncated = true
	case err != nil:
		o.Invalid = true
	default:
		json.Compact(&buf, []byte(text))
		o.Arguments, o.Executable = buf.String(), c.name != "" && !c.server
	}
	return o
}

// recording gathers the responses of a recording, one by one.
type recording struct {
	out   []replayedResponse
	cur   *replayedResponse
	calls map[int64]*recordedCall
}

func (r *recording) response(wire string) *replayedResponse {
	if r.cur == nil {
		r.cur = &replayedResponse{Wire: wire, Texts: map[string]string{}}
		r.calls = map[int64]*recordedCall{}
	}
	return r.cur
}

func (r *recording) call(index int64) *recordedCall {
	c := r.calls[index]
	if c == nil {
		c = &recordedCall{index: index}
		r.calls[index] = c
	}
	return c
}

func (r *recording) failed() bool { return r.cur != nil && r.cur.Failed }

// end ends the response in progress, if any. Text that is empty is left
// out: whether an adapter reports empty text is no matter.
func (r *recording) end(failed bool) {
	if r.cur == nil {
		return
	}
	r.cur.Failed = failed
	maps.DeleteFunc(r.cur.Texts, func(_, text string) bool { return text == "" })
	keys := make([]int64, 0, len(r.calls))
	for k := range r.calls {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		r.cur.Calls = append(r.cur.Calls, r.calls[k].outcome())
	}
	r.out = append(r.out, *r.cur)
	r.cur = nil
}

// scanData calls event with the data of each "data:" line of stream, and
// blank at each blank line. (The recordings put each event's data on one
// line.)
func scanData(t *testing.T, stream []byte, event func(data []byte), blank func()) {
	t.Helper()
	sc := bufio.NewScanner(bytes.NewReader(stream))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			blank()
		} else if data, ok := strings.CutPrefix(line, "data:"); ok {
			event([]byte(strings.TrimPrefix(data, " ")))
		}
	}
}

// expectAnthropic reads an Anthropic Messages recording: a response ends
// at message_stop, once its event is dispatched (by a blank line), and is
// complete at the stream's end if a message_delta with a stop_reason came.
func expectAnthropic(t *testing.T, stream []byte) []replayedResponse {
	t.Helper()
	var r recording
	stopped, ended := false, false
	scanData(t, stream, func(data []byte) {
		var ev testutil.AnthropicEvent
		if err := json.Unmarshal(data, &ev); err != nil {
			t.Fatalf("decoding %s: %v", data, err)
		}
		resp := r.response("anthropic")
		switch ev.Type {
		case "message_start":
			for i, b := range ev.Message.Content {
				switch b.Type {
				case "tool_use", "server_tool_use", "mcp_tool_use":
					c := r.call(int64(i))
					c.id, c.name, c.input, c.server = b.ID, b.Name, string(b.Input), b.Type != "tool_use"
				}
			}
		case "content_block_start":
			switch ev.ContentBlock.Type {
			case "tool_use", "server_tool_use", "mcp_tool_use":
				c := r.call(ev.Index)
				c.id, c.name, c.input, c.server = ev.ContentBlock.ID, ev.ContentBlock.Name, string(ev.ContentBlock.Input), ev.ContentBlock.Type != "tool_use"
			}
		case "content_block_delta":
			switch ev.Delta.Type {
			case "input_json_delta":
				r.call(ev.Index).args.WriteString(ev.Delta.PartialJSON)
			case "text_delta":
				resp.Texts[fmt.Sprint("text ", ev.Index)] += ev.Delta.Text
			case "thinking_delta":
				resp.Texts[fmt.Sprint("thinking ", ev.Index)] += ev.Delta.Thinking
			}
		case "message_delta":
			ended = ended || ev.Delta.StopReason != ""
		case "message_stop":
			stopped = true
		}
	}, func() {
		if stopped {
			r.end(false)
			stopped, ended = false, false
		}
	})
	r.end(!ended) // a response not ended by a dispatched message_stop
	return r.out
}

// expectChat reads an OpenAI Chat Completions recording, choice 0: a
// response ends at [DONE], and is complete at the stream's end if a
// finish_reason came. Call index, id and name are the tool call's; text
// and reasoning (reasoning_content or reasoning) are the choice's.
func expectChat(t *testing.T, stream []byte) []replayedResponse {
	t.Helper()
	var r recording
	done, finished := false, false
	scanData(t, stream, func(data []byte) {
		if string(data) == "[DONE]" {
			done = true
			return
		}
		var ev testutil.ChatChunk
		if err := json.Unmarshal(data, &ev); err != nil {
			t.Fatalf("decoding %s: %v", data, err)
		}
		resp := r.response("openai-chat")
		if ev.Error != nil {
			resp.Failed = true
		}
		for _, ch := range ev.Choices {
			if ch.Index != 0 {
				continue
			}
			finished = finished || ch.FinishReason != nil
			if d := ch.Delta.Content; d != nil {
				resp.Texts["text 0"] += *d
			}
			for _, d := range []*string{ch.Delta.ReasoningContent, ch.Delta.Reasoning} {
				if d != nil {
					resp.Texts["thinking 0"] += *d
				}
			}
			for _, tc := range ch.Delta.ToolCalls {
				c := r.call(tc.Index)
				if c.id == "" {
					c.id = tc.ID
				}
				if c.name == "" {
					c.name = tc.Function.Name
				}
				c.args.WriteString(tc.Function.Arguments)
			}
		}
	}, func() {
		if done {
			r.end(r.failed())
			done, finished = false, false
		}
	})
	r.end(!finished || r.failed())
	return r.out
}

// expectResponses reads an OpenAI Responses recording: a response ends at
// response.completed. A call is a function_call output item: its index is
// its output_index, its id the call_id (the id a tool result answers).
func expectResponses(t *testing.T, stream []byte) []replayedResponse {
	t.Helper()
	var r recording
	completed := false
	scanData(t, stream, func(data []byte) {
		var ev struct {
			Type        string `json:"type"`
			OutputIndex int64  `json:"output_index"`
			Delta       string `json:"delta"`
			Item        struct {
				Type   string `json:"type"`
				CallID string `json:"call_id"`
				Name   string `json:"name"`
			} `json:"item"`
		}
		if err := json.Unmarshal(data, &ev); err != nil {
			t.Fatalf("decoding %s: %v", data, err)
		}
		resp := r.response("openai-responses")
		switch ev.Type {
		case "response.output_item.added":
			if ev.Item.Type == "function_call" {
				c := r.call(ev.OutputIndex)
				c.id, c.name = ev.Item.CallID, ev.Item.Name
			}
		case "response.function_call_arguments.delta":
			r.call(ev.OutputIndex).args.WriteString(ev.Delta)
		case "response.output_text.delta":
			resp.Texts[fmt.Sprint("text ", ev.OutputIndex)] += ev.Delta
		case "response.reasoning_summary_text.delta", "response.reasoning_text.delta":
			resp.Texts[fmt.Sprint("thinking ", ev.OutputIndex)] += ev.Delta
		case "error", "response.failed":
			resp.Failed = true
		case "response.completed":
			completed = true
		}
	}, func() {
		if completed {
			r.end(r.failed())
			completed = false
		}
	})
	r.end(true)
	return r.out
}

// shippedRecording is one recording of testdata/llm_streams, framed as
// server-sent events.
type shippedRecording struct {
	file   string
	wire   string
	expect func(*testing.T, []byte) []replayedResponse
}

// recordings lists every recording, with its wire (INDEX.md says which).
var recordings = []shippedRecording{
	{"anthropic-sdk-python__tests-lib-streaming-fixtures__incomplete_partial_json_response.sse", "anthropic", expectAnthropic},
	{"anthropic-sdk-python__tests-lib-streaming-fixtures__tool_use_invalid_json_response.sse", "anthropic", expectAnthropic},
	{"anthropic-sdk-python__tests-lib-streaming-fixtures__tool_use_response.sse", "anthropic", expectAnthropic},
	{"pydantic-ai__cassettes__test_anthropic__test_anthropic_mcp_servers_stream.sse", "anthropic", expectAnthropic},
	{"pydantic-ai__cassettes__test_anthropic__test_anthropic_text_editor_code_execution_tool_stream.sse", "anthropic", expectAnthropic},
	{"vercel-ai__anthropic__anthropic-code-execution-20250825.2.chunks.txt", "anthropic", expectAnthropic},
	{"vercel-ai__anthropic__anthropic-json-tool.1.chunks.txt", "anthropic", expectAnthropic},
	{"vercel-ai__anthropic__anthropic-programmatic-tool-calling.1.chunks.txt", "anthropic", expectAnthropic},
	{"vercel-ai__anthropic__anthropic-tool-no-args.chunks.txt", "anthropic", expectAnthropic},
	{"vercel-ai__anthropic__anthropic-tool-search-deferred-regex.chunks.txt", "anthropic", expectAnthropic},

	{"openai-python__test_parse_multiple_pydantic_tools__f82268f2.sse", "openai-chat", expectChat},
	{"openai-python__test_parse_strict_tools__a247c49c.sse", "openai-chat", expectChat},
	{"pydantic-ai__cassettes__test_openai__test_run_stream_sync_streams_real_model.sse", "openai-chat", expectChat},
	{"vercel-ai__openai-compatible__anthropic-fallback-tool-call.sse", "openai-chat", expectChat},
	{"vercel-ai__deepseek__deepseek-tool-call.chunks.txt", "openai-chat", expectChat},
	{"vercel-ai__mistral__mistral-incremental-tool-call.chunks.txt", "openai-chat", expectChat},

	{"pydantic-ai__cassettes__test_openai_responses__test_openai_responses_stream.sse", "openai-responses", expectResponses},
	{"vercel-ai__azure__azure-tool-call.1.chunks.txt", "openai-responses", expectResponses},
	{"vercel-ai__openai__responses__openai-reasoning-encrypted-content.1.chunks.txt", "openai-responses", expectResponses},
	{"vercel-ai__openai__responses__openai-tool-search.1.chunks.txt", "openai-responses", expectResponses},
	// Appended: the tests above name recordings by position.
	{"vercel-ai__mistral__stream-tool-deltas.sse", "openai-chat", expectChat},
}

// TestReplayRecordingsListed: the table above has every recording.
func TestReplayRecordingsListed(t *testing.T) {
	entries, err := os.ReadDir(streams)
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, e := range entries {
		if n := e.Name(); strings.HasSuffix(n, ".sse") || strings.HasSuffix(n, ".chunks.txt") {
			files = append(files, n)
		}
	}
	var listed []string
	for _, r := range recordings {
		listed = append(listed, r.file)
	}
	slices.Sort(files)
	slices.Sort(listed)
	if diff := cmp.Diff(files, listed); diff != "" {
		t.Errorf("recordings (-files +listed):\n%s", diff)
	}
}

// stream returns the recording as server-sent events. A vercel/ai chunk
// file (the framing stripped) is framed again, with the "event:" lines of
// the APIs that send them and, for Chat Completions, the final
// "data: [DONE]" that the framing took away.
func (rec shippedRecording) stream(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile(streams + rec.file)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(rec.file, ".chunks.txt") {
		return data
	}
	framed, err := wiretest.SSEFromChunks(data, rec.wire != "openai-chat")
	if err != nil {
		t.Fatal(err)
	}
	if rec.wire == "openai-chat" {
		framed = wiretest.AppendSSE(framed, wiretest.SSEEvent{Data: "[DONE]"})
	}
	return framed
}

// path returns the name of a file holding the recording's stream.
func (rec shippedRecording) path(t *testing.T) string {
	t.Helper()
	if !strings.HasSuffix(rec.file, ".chunks.txt") {
		return streams + rec.file
	}
	return writeFile(t, rec.file+".sse", string(rec.stream(t)))
}

// checkRecording replays a recording and compares what replay reports with
// what the recording holds.
func checkRecording(t *testing.T, rec shippedRecording) {
	got := replayCmd(nil, "--format", "jsonl", rec.path(t))
	evs := parseEvents(t, got.stdout)
	want := rec.expect(t, rec.stream(t))
	if len(want) == 0 {
		t.Fatal("no response in the recording")
	}
	gotResp := summarize(t, evs)
	if diff := cmp.Diff(want, gotResp); diff != "" {
		t.Errorf("responses (-recorded +replayed):\n%s", diff)
	}
	checkFragments(t, evs)
	wantCode := exitOK
	for _, r := range want {
		for _, c := range r.Calls {
			if !c.Executable && !c.Server {
				wantCode = exitInvalid
			}
		}
		if r.Failed {
			wantCode = exitInvalid
		}
	}
	if got.code != wantCode || (wantCode == exitOK) != (got.stderr == "") {
		t.Errorf("exit %d, stderr %q; want exit %d", got.code, got.stderr, wantCode)
	}
}

// Every Anthropic recording replayed gives its calls, its text, and its
// end: the anthropic-sdk-python recordings end without the blank line
// that dispatches message_stop, after message_delta's stop_reason: the
// message has ended, and the cut event is dropped.
func TestReplayAnthropicRecordings(t *testing.T) {
	calls := 0
	for _, rec := range recordings {
		if rec.wire != "anthropic" {
			continue
		}
		t.Run(rec.file, func(t *testing.T) {
			for _, r := range rec.expect(t, rec.stream(t)) {
				calls += len(r.Calls)
			}
			checkRecording(t, rec)
		})
	}
	if calls < 15 {
		t.Errorf("%d calls in the Anthropic recordings, want more", calls)
	}
}

// TestReplayOpenAIRecordings: every OpenAI recording replayed gives its
// calls.
func TestReplayOpenAIRecordings(t *testing.T) {
	for _, rec := range recordings {
		if rec.wire == "anthropic" {
			continue
		}
		t.Run(rec.file, func(t *testing.T) { checkRecording(t, rec) })
	}
}

// fragmentLine is a fragment line without its "event" and "index".
type fragmentLine struct {
	Path   []any
	String *string
	Number *string
	Bool   *bool
	Null   bool
	Done   bool
	Empty  json.RawMessage
}

// mergeStrings joins the adjacent string pieces of one value, which
// depend on where the deltas were cut.
func mergeStrings(frags []fragmentLine) []fragmentLine {
	var out []fragmentLine
	for _, f := range frags {
		if n := len(out); n > 0 && f.String != nil && out[n-1].String != nil && cmp.Equal(f.Path, out[n-1].Path) {
			s := *out[n-1].String + *f.String
			out[n-1].String = &s
			continue
		}
		out = append(out, f)
	}
	return out
}

// checkFragments: the fragment lines of each call with valid arguments are
// those that "fragments --format jsonl" prints for its arguments, but for
// where string values are cut.
func checkFragments(t *testing.T, evs []replayEvent) {
	t.Helper()
	var byIndex map[int64][]fragmentLine
	for _, ev := range evs {
		switch ev.Event {
		case "response":
			byIndex = map[int64][]fragmentLine{}
		case "fragment":
			byIndex[*ev.Index] = append(byIndex[*ev.Index], fragmentLine{ev.Path, ev.String, ev.Number, ev.Bool, ev.Null, ev.Done, ev.Empty})
		case "end":
			if ev.Arguments == nil {
				continue
			}
			ref := invoke(string(ev.Arguments), "fragments", "--format", "jsonl")
			var want []fragmentLine
			for _, r := range parseEvents(t, ref.stdout) {
				want = append(want, fragmentLine{r.Path, r.String, r.Number, r.Bool, r.Null, r.Done, r.Empty})
			}
			if diff := cmp.Diff(mergeStrings(want), mergeStrings(byIndex[*ev.Index])); diff != "" {
				t.Errorf("call %d: fragments (-fragments command +replay):\n%s", *ev.Index, diff)
			}
		}
	}
}

// Auto detection tells each wire from the recordings, and replays them as
// the wire named does: the events read to tell the wire are read again,
// none lost. The output is the same however the input's bytes arrive.
func TestReplayAutoDetection(t *testing.T) {
	for _, rec := range recordings {
		t.Run(rec.file, func(t *testing.T) {
			file := rec.path(t)
			auto := replayCmd(nil, "--format", "jsonl", file)
			evs := parseEvents(t, auto.stdout)
			if len(evs) == 0 || evs[0].Event != "response" || evs[0].Wire != rec.wire {
				t.Fatalf("first line %+v, want the response line of wire %s", evs, rec.wire)
			}
			named := replayCmd(nil, "--format", "jsonl", "--wire", rec.wire, file)
			if named != auto {
				t.Errorf("--wire %s:\n%+v\nauto:\n%+v", rec.wire, named, auto)
			}
			stream := rec.stream(t)
			readers := map[string]io.Reader{
				"one byte": iotest.OneByteReader(bytes.NewReader(stream)),
				"half":     iotest.HalfReader(bytes.NewReader(stream)),
				"random":   wiretest.RandomReads(bytes.NewReader(stream), 7, 40),
			}
			for name, r := range readers {
				got := replayCmd(r, "--format", "jsonl")
				if got.code != auto.code || got.stdout != auto.stdout {
					t.Errorf("stdin read %s: exit %d, stdout\n%s\nwant exit %d, stdout\n%s", name, got.code, got.stdout, auto.code, auto.stdout)
				}
			}
		})
	}
}

// sseOf frames event data, JSON text or objects to marshal, as server-sent
// events, each with an "event:" line when its data has a "type"
// (wiretest.TypedSSE).
func sseOf(events ...any) string {
	var data []string
	for _, ev := range events {
		d, ok := ev.(string)
		if !ok {
			raw, err := json.Marshal(ev)
			if err != nil {
				panic(err)
			}
			d = string(raw)
		}
		data = append(data, d)
	}
	return wiretest.TypedSSE(data...)
}

type obj = map[string]any

// Anthropic events.
var (
	msgStart = obj{"type": "message_start", "message": obj{"id": "msg_1", "type": "message", "role": "assistant", "content": []any{}}}
	msgStop  = obj{"type": "message_stop"}
)

func toolStart(i int, id, name string) obj {
	return obj{"type": "content_block_start", "index": i, "content_block": obj{"type": "tool_use", "id": id, "name": name, "input": obj{}}}
}

func toolDelta(i int, partial string) obj {
	return obj{"type": "content_block_delta", "index": i, "delta": obj{"type": "input_json_delta", "partial_json": partial}}
}

func textStart(i int) obj {
	return obj{"type": "content_block_start", "index": i, "content_block": obj{"type": "text", "text": ""}}
}

func textDelta(i int, text string) obj {
	return obj{"type": "content_block_delta", "index": i, "delta": obj{"type": "text_delta", "text": text}}
}

func blockStop(i int) obj { return obj{"type": "content_block_stop", "index": i} }

// toolCall is the events of one whole tool call, its arguments in deltas
// of 7 bytes.
func toolCall(i int, name, args string) []any {
	evs := []any{toolStart(i, fmt.Sprint("toolu_", i), name)}
	for _, d := range testutil.SplitEvery([]byte(args), 7) {
		evs = append(evs, toolDelta(i, string(d)))
	}
	return append(evs, blockStop(i))
}

// anthropicResponse is a whole response of the given calls, each a tool
// name and its arguments, at indexes 0, 1, ...
func anthropicResponse(calls ...[2]string) string {
	evs := []any{msgStart}
	for i, c := range calls {
		evs = append(evs, toolCall(i, c[0], c[1])...)
	}
	return sseOf(append(evs, msgStop)...)
}

// sniff tells each wire from the events that tell it, however late among
// the first 16, and nothing from the others.
func TestReplaySniff(t *testing.T) {
	chunk := `{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant"}}]}`
	filler := `{"x":1}`
	// The events, as each wire frames them: with an event line or not.
	ev := func(typ, data string) string { return wiretest.SSE(wiretest.SSEEvent{Type: typ, Data: data}) }
	data := wiretest.DataSSE
	for _, c := range []struct {
		name, stream, want string
	}{
		{"anthropic event field", ev("ping", `{}`), "anthropic"},
		{"anthropic data type only", data(`{"type":"message_start","message":{}}`), "anthropic"},
		{"anthropic content block", data(`{"type":"content_block_delta","index":0}`), "anthropic"},
		{"anthropic error", ev("error", `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`), "anthropic"},
		{"chat object", data(chunk), "openai-chat"},
		{"chat choices only", data(`{"choices":[]}`), "openai-chat"},
		{"chat error", data(`{"error":{"message":"boom","code":500}}`), "openai-chat"},
		{"chat done", data(`[DONE]`), "openai-chat"},
		{"responses event field", ev("response.created", `{}`), "openai-responses"},
		{"responses data type", data(`{"type":"response.output_text.delta","delta":"x"}`), "openai-responses"},
		{"responses error", ev("error", `{"type":"error","code":"x","message":"boom"}`), "openai-responses"},
		{"after comments and fillers", ": hello\n\n" + strings.Repeat(data(filler), 15) + data(chunk), "openai-chat"},
		{"the 17th event is too late", strings.Repeat(data(filler), 16) + data(chunk), ""},
		{"not JSON", data(`hello`), ""},
		{"unknown type", ev("message", `{"type":"message"}`), ""},
		{"an error type alone", ev("error", `{}`), ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := c.stream
			if c.want != "" {
				in += ev("ping", `{}`) // not read
			}
			head, told, _, _ := sniff(lineReads{bufio.NewReader(strings.NewReader(in))}, "auto")
			if told != c.want {
				t.Errorf("wire %q, want %q", told, c.want)
			}
			// What was read, to be read again, stops at the event that
			// told the wire.
			if c.want != "" && string(head) != c.stream || !strings.HasPrefix(in, string(head)) {
				t.Errorf("read %q of %q", head, in)
			}
		})
	}
}

// writeBytes writes s to the command's stdin one byte per write.
func (p *piped) writeBytes(t *testing.T, s string) {
	t.Helper()
	for i := range len(s) {
		p.write(t, s[i:i+1])
	}
}

// waitFor returns the lines printed up to the first one that satisfies
// ok, failing the test if it does not come.
func (p *piped) waitFor(t *testing.T, while string, ok func(replayEvent) bool) []replayEvent {
	t.Helper()
	var evs []replayEvent
	for {
		ev := parseEvents(t, p.line(t, while))
		evs = append(evs, ev...)
		if len(ev) == 1 && ok(ev[0]) {
			return evs
		}
	}
}

// firstEventEnd returns the offset just after the first event of stream
// whose data contains substr.
func firstEventEnd(t *testing.T, stream []byte, substr string) int {
	t.Helper()
	i := bytes.Index(stream, []byte(substr))
	if i < 0 {
		t.Fatalf("no %q in the stream", substr)
	}
	j := bytes.Index(stream[i:], []byte("\n\n"))
	return i + j + 2
}

// The wire is told, and the response line printed, from the first event
// alone: written one byte at a time into a pipe, it is on stdout before
// any more input comes.
func TestReplayPipeDetects(t *testing.T) {
	for _, rec := range []shippedRecording{recordings[4], recordings[10], recordings[16]} {
		t.Run(rec.wire, func(t *testing.T) {
			stream := rec.stream(t)
			first := firstEventEnd(t, stream, "data:")
			p := startPiped(t, "replay", "--format", "jsonl")
			p.writeBytes(t, string(stream[:first]))
			evs := p.waitFor(t, "after the first event", func(ev replayEvent) bool { return true })
			if evs[0].Event != "response" || evs[0].Wire != rec.wire {
				t.Errorf("first line %+v, want the response line of %s", evs[0], rec.wire)
			}
		})
	}
}

// A call's start line and its first fragment are on stdout while the
// stream is still coming, written one byte at a time into a pipe; the
// rest follows, and the replay ends as the file's does.
func TestReplayPipeBeforeEOF(t *testing.T) {
	for _, c := range []struct {
		rec        shippedRecording
		firstDelta string // in the data of an argument delta that makes a fragment
	}{
		{recordings[4], `"partial_json":" \"creat"`},
		{recordings[11], `"arguments":"San"`},
		{recordings[17], `"delta":"San"`},
	} {
		t.Run(c.rec.wire, func(t *testing.T) {
			stream := c.rec.stream(t)
			cut := firstEventEnd(t, stream, c.firstDelta)
			p := startPiped(t, "replay", "--format", "jsonl")
			p.writeBytes(t, string(stream[:cut]))
			evs := p.waitFor(t, "while the arguments stream", func(ev replayEvent) bool {
				return ev.Event == "start" || ev.Event == "error"
			})
			if last := evs[len(evs)-1]; last.Event != "start" {
				t.Fatalf("line %+v, want a start line", last)
			}
			if ev := p.waitFor(t, "while the arguments stream", func(replayEvent) bool { return true }); ev[0].Event != "fragment" {
				t.Errorf("line %+v after the start line, want a fragment", ev[0])
			}
			p.write(t, string(stream[cut:]))
			code, _ := p.wait(t)
			if want := replayCmd(bytes.NewReader(stream)); code != want.code {
				t.Errorf("exit %d, want %d", code, want.code)
			}
		})
	}
}

// Several responses in one input, however framed (CR, CRLF or LF line
// ends, comments, data split over lines), are replayed one after another.
func TestReplaySeveralResponses(t *testing.T) {
	// Two recordings, one after the other.
	a, b := recordings[3], recordings[4]
	both := append(a.stream(t), b.stream(t)...)
	got := replayCmd(bytes.NewReader(both), "--format", "jsonl")
	want := append(expectAnthropic(t, a.stream(t)), expectAnthropic(t, b.stream(t))...)
	if diff := cmp.Diff(want, summarize(t, parseEvents(t, got.stdout))); diff != "" || got.code != exitOK {
		t.Errorf("exit %d, stderr %s (-want +got):\n%s", got.code, got.stderr, diff)
	}

	// The 15 messages of a recording, framed at random.
	rec := recordings[7]
	want = expectAnthropic(t, rec.stream(t))
	if len(want) != 15 {
		t.Fatalf("%d responses in %s, want 15", len(want), rec.file)
	}
	chunks, err := os.ReadFile(streams + rec.file)
	if err != nil {
		t.Fatal(err)
	}
	var events []wiretest.SSEEvent
	for _, line := range lines(string(chunks)) {
		if strings.TrimSpace(line) == "" {
			continue
		}
		var typed struct{ Type string }
		if err := json.Unmarshal([]byte(line), &typed); err != nil {
			t.Fatal(err)
		}
		events = append(events, wiretest.SSEEvent{Type: typed.Type, Data: line})
	}
	// Seeds 5 and 9 split the placeholder input {} of a content_block_start
	// over two data lines ("{\n}").
	for seed := range uint64(14) {
		// The SDKs skip an event without its name: Anthropic's events keep it.
		framed := wiretest.FrameSSE(events, false, rand.New(rand.NewPCG(seed, 3)))
		got := replayCmd(wiretest.RandomReads(bytes.NewReader(framed), seed, 100), "--format", "jsonl")
		if diff := cmp.Diff(want, summarize(t, parseEvents(t, got.stdout))); diff != "" || got.code != exitOK {
			t.Errorf("seed %d: exit %d, stderr %s (-want +got):\n%s", seed, got.code, got.stderr, diff)
		}
	}
}

// decisions returns the decision lines, as "INDEX MODE RULE AT [unlisted]".
func decisions(evs []replayEvent) []string {
	var out []string
	for _, ev := range evs {
		if ev.Event == "decision" {
			s := fmt.Sprintf("%d %s %d %d", *ev.Index, ev.Mode, *ev.Rule, *ev.DecidedAtByte)
			if ev.Unlisted {
				s += " unlisted"
			}
			out = append(out, s)
		}
	}
	return out
}

// The rules of testdata/replay/rules decide the calls of the README's
// recording as soon as "path" is complete: ask for a create, unattended
// for a view.
func TestReplayRulesDir(t *testing.T) {
	rec := recordings[4]
	got := replayCmd(nil, "--format", "jsonl", "--rules-dir", replayRule, rec.path(t))
	evs := parseEvents(t, got.stdout)
	// Where "path" ends in each call's arguments, as recorded.
	var at []int
	for _, r := range rec.expect(t, rec.stream(t)) {
		for _, c := range r.Calls {
			var args strings.Builder
			scanData(t, rec.stream(t), func(data []byte) {
				var ev struct {
					Index int64
					Delta struct {
						PartialJSON string `json:"partial_json"`
					}
				}
				json.Unmarshal(data, &ev)
				if ev.Index == c.Index {
					args.WriteString(ev.Delta.PartialJSON)
				}
			}, func() {})
			s := args.String()
			i := strings.Index(s, `"/tmp/hello.txt"`)
			at = append(at, i+len(`"/tmp/hello.txt"`))
		}
	}
	want := []string{
		fmt.Sprintf("1 ask 2 %d", at[0]),
		fmt.Sprintf("2 unattended 1 %d", at[1]),
		fmt.Sprintf("6 unattended 1 %d", at[2]),
	}
	if diff := cmp.Diff(want, decisions(evs)); diff != "" || got.code != exitOK {
		t.Errorf("exit %d, stderr %s, decisions (-want +got):\n%s", got.code, got.stderr, diff)
	}
	// Every call of the recording is a server tool's: the provider runs
	// it, and it is never the caller's to run (not a problem: exit 0).
	for _, ev := range evs {
		if ev.Event == "end" && (ev.Mode == "" || ev.Rule == nil || *ev.Executable || !ev.Server) {
			t.Errorf("end line %+v: want the decision, run by the provider, not executable", ev)
		}
	}

	// code_execution has no file: ask, decided at the start, unlisted.
	rec = recordings[7]
	got = replayCmd(nil, "--format", "jsonl", "--rules-dir", replayRule, rec.path(t))
	evs = parseEvents(t, got.stdout)
	// The 13 responses after the first continue the container: each
	// holds a rollDie call whole in message_start, at position 0.
	want = []string{"1 ask -1 0 unlisted", "2 unattended 0 19"}
	for range 13 {
		want = append(want, "0 unattended 0 19")
	}
	if diff := cmp.Diff(want, decisions(evs)); diff != "" || got.code != exitOK {
		t.Errorf("exit %d, stderr %s, decisions (-want +got):\n%s", got.code, got.stderr, diff)
	}
}

// A tool name comes from the model: it is only ever a key among the files
// listed in DIR. No name reaches a file outside DIR, or inside one of its
// subdirectories, or one not named exactly TOOLNAME.json.
func TestReplayRulesDirHostileNames(t *testing.T) {
	top := t.TempDir()
	dir := filepath.Join(top, "rules")
	unattended := `{"run": "unattended"}`
	for name, content := range map[string]string{
		"rules/ok.json":         unattended,
		"rules/README.md":       "not rules",
		"rules/sub/secret.json": unattended,
		"secret.json":           unattended,
		"rules.json":            unattended,
	} {
		p := filepath.Join(top, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	names := []string{
		"ok", // the control: its file is there
		"../secret", "../secret.json", "../rules", "sub/secret", "sub/../ok",
		filepath.Join(top, "secret"), filepath.Join(dir, "ok"), "./ok", "ok.json", "ok\x00", "ok\x00.json",
		"OK", "ok ", "README", "README.md", ".", "..", "/",
	}
	var calls [][2]string
	for _, n := range names {
		calls = append(calls, [2]string{n, `{"a": 1}`})
	}
	got := replayCmd(strings.NewReader(anthropicResponse(calls...)), "--format", "jsonl", "--rules-dir", dir)
	want := []string{"0 unattended 0 0"}
	for i := 1; i < len(names); i++ {
		want = append(want, fmt.Sprintf("%d ask -1 0 unlisted", i))
	}
	// The unlisted calls are asked, and without a prompt never approved:
	// exit 1, each said on stderr.
	if diff := cmp.Diff(want, decisions(parseEvents(t, got.stdout))); diff != "" || got.code != exitInvalid ||
		strings.Count(got.stderr, "not executable: needs approval, not approved (no answer)\n") != len(names)-1 {
		t.Errorf("exit %d, stderr %s, decisions (-want +got):\n%s", got.code, got.stderr, diff)
	}
}

// --rules applies one policy to every tool; without rules, no decision.
func TestReplayRules(t *testing.T) {
	stream := anthropicResponse(
		[2]string{"fs_create_file", `{"path": "src/a.rs", "content": "x"}`},
		[2]string{"anything", `{"path": "/etc/passwd"}`},
	)
	got := replayCmd(strings.NewReader(stream), "--format", "jsonl", "--rules", policyData+"fs_create_file.rules.json")
	if diff := cmp.Diff([]string{"0 unattended 0 19", "1 ask 1 22"}, decisions(parseEvents(t, got.stdout))); diff != "" || got.code != exitInvalid ||
		got.stderr != "argstream: stdin: block 1 call (toolu_1 anything): not executable: needs approval, not approved (no answer)\n" {
		t.Errorf("exit %d, stderr %s, decisions (-want +got):\n%s", got.code, got.stderr, diff)
	}
	got = replayCmd(strings.NewReader(stream), "--format", "jsonl")
	evs := parseEvents(t, got.stdout)
	if d := decisions(evs); len(d) != 0 || got.code != exitOK {
		t.Errorf("no rules: exit %d, decisions %q", got.code, d)
	}
	for _, ev := range evs {
		if ev.Event == "end" && (ev.Mode != "" || ev.Rule != nil || !*ev.Executable) {
			t.Errorf("no rules: end line %+v", ev)
		}
	}
}

// A rules directory that cannot be loaded is a usage error, each bad file
// named, with nothing on stdout.
func TestReplayRulesDirErrors(t *testing.T) {
	stream := anthropicResponse([2]string{"ok", `{}`})
	mkdir := func(files map[string]string) string {
		dir := t.TempDir()
		for name, content := range files {
			p := filepath.Join(dir, name)
			if content == "DIR" {
				if err := os.Mkdir(p, 0o755); err != nil {
					t.Fatal(err)
				}
				continue
			}
			if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	bad := mkdir(map[string]string{"ok.json": `{"run": "ask"}`, "a.json": `{"run": [{"mode": "sometimes"}]}`, "b.json": `not json`})
	empty := mkdir(nil)
	for _, c := range []struct {
		name string
		args []string
		msgs []string
	}{
		{"invalid rules", []string{"--rules-dir", bad}, []string{
			"argstream: " + filepath.Join(bad, "a.json") + `: rule 0: "mode": unknown mode "sometimes"`,
			"argstream: " + filepath.Join(bad, "b.json") + ": ",
		}},
		{"no directory", []string{"--rules-dir", filepath.Join(empty, "nope")}, []string{"argstream: " + filepath.Join(empty, "nope") + ": "}},
		{"a file, not a directory", []string{"--rules-dir", policyData + "shell.rules.json"}, []string{"shell.rules.json: "}},
		{"a directory named .json", []string{"--rules-dir", mkdir(map[string]string{"x.json": "DIR"})}, []string{"x.json: "}},
		{"no tool name", []string{"--rules-dir", mkdir(map[string]string{".json": `{"run": "ask"}`})}, []string{".json: no tool name"}},
		{"both", []string{"--rules-dir", empty, "--rules", policyData + "shell.rules.json"}, []string{"argstream: --rules and --rules-dir exclude each other"}},
		{"bad --rules", []string{"--rules", policyData + "invalid.rules.json"}, []string{"invalid.rules.json: rule 1"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := replayCmd(strings.NewReader(stream), c.args...)
			if got.code != exitUsage || got.stdout != "" {
				t.Errorf("exit %d, stdout %q", got.code, got.stdout)
			}
			for _, m := range c.msgs {
				if !strings.Contains(got.stderr, m) {
					t.Errorf("stderr %s\nwant %s", got.stderr, m)
				}
			}
		})
	}
	// An empty directory: every call gets ask, with a warning; without a
	// prompt, nothing is approved.
	got := replayCmd(strings.NewReader(stream), "--format", "jsonl", "--rules-dir", empty)
	if d := decisions(parseEvents(t, got.stdout)); got.code != exitInvalid || !slices.Equal(d, []string{"0 ask -1 0 unlisted"}) ||
		got.stderr != "argstream: "+empty+": warning: no TOOLNAME.json file: every call gets ask\n"+
			"argstream: stdin: block 0 call (toolu_0 ok): not executable: needs approval, not approved (no answer)\n" {
		t.Errorf("empty dir: exit %d, decisions %q, stderr %q", got.code, d, got.stderr)
	}
}

// ends returns the end lines, compactly.
func ends(evs []replayEvent) []string {
	var out []string
	for _, ev := range evs {
		if ev.Event == "end" {
			s := fmt.Sprintf("%d executable=%v", *ev.Index, *ev.Executable)
			if ev.Mode != "" {
				s += fmt.Sprintf(" %s/%d", ev.Mode, *ev.Rule)
			}
			if ev.Arguments != nil {
				s += " " + string(ev.Arguments)
			}
			if ev.Error.Message != "" {
				s += " error: " + ev.Error.Message
			}
			out = append(out, s)
		}
	}
	return out
}

func errorLines(evs []replayEvent) []string {
	var out []string
	for _, ev := range evs {
		if ev.Event == "error" {
			out = append(out, ev.Error.Message)
		}
	}
	return out
}

// Exit 0 only when every response is complete and every call executable;
// 1 otherwise, each reason on stderr; the calls are reported in any case.
func TestReplayExitStatus(t *testing.T) {
	skipRules := writeFile(t, "skip.json", `{"run": [{"arg": "/path", "pattern": "^/etc/", "mode": "skip"}, {"mode": "ask"}], "paths": ["/path"]}`)
	overloaded := `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`
	for _, c := range []struct {
		name   string
		stream string
		args   []string
		code   int
		ends   []string
		errors []string // the error lines
		stderr []string
	}{
		{"complete", anthropicResponse([2]string{"t", `{"a": 1}`}), nil, exitOK,
			[]string{`0 executable=true {"a":1}`}, nil, nil},
		{"ask is not approved without a prompt", anthropicResponse([2]string{"t", `{"path": "a"}`}), []string{"--rules", skipRules}, exitInvalid,
			[]string{`0 executable=false ask/1 {"path":"a"} error: toolcall: the call needs approval and was not approved`}, nil,
			[]string{"argstream: stdin: block 0 call (toolu_0 t): not executable: needs approval, not approved (no answer)\n"}},
		{"skip", anthropicResponse([2]string{"t", `{"path": "/etc/passwd"}`}, [2]string{"t", `{}`}), []string{"--rules", skipRules}, exitInvalid,
			[]string{`0 executable=false skip/0 {"path":"/etc/passwd"}`, `1 executable=false ask/1 {} error: toolcall: the call needs approval and was not approved`}, nil,
			[]string{"argstream: stdin: block 0 call (toolu_0 t): not executable: refused by the policy (skip)\n"}},
		{"invalid arguments", anthropicResponse([2]string{"t", `{"a": 1}`}, [2]string{"t", `{"a": 1, "a": 2}`}), nil, exitInvalid,
			[]string{`0 executable=true {"a":1}`, `1 executable=false error: invalid JSON at byte 9 ("/a"): duplicate object key "a"`}, nil,
			[]string{`argstream: stdin: block 1 call (toolu_1 t): not executable: invalid arguments: invalid JSON at byte 9 ("/a"): duplicate object key "a"` + "\n"}},
		{"truncated arguments", anthropicResponse([2]string{"t", `{"a": [1, 2`}), nil, exitInvalid,
			[]string{`0 executable=false error: invalid JSON at byte 11 ("/a/1"): unexpected end of input in number`}, nil,
			[]string{"block 0 call (toolu_0 t): not executable: truncated: invalid JSON at byte 11"}},
		{"no name", sseOf(`{"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{}"}}]}}]}`,
			`{"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`, "[DONE]"), nil, exitInvalid,
			[]string{`0 executable=false {}`}, nil, []string{"tool call 0 ((no id) (no name)): not executable: refused: no tool name"}},
		{"provider error", sseOf(append(append([]any{msgStart}, toolCall(0, "t", `{"a": 1}`)...), toolStart(1, "toolu_1", "t"), toolDelta(1, `{"b"`), overloaded, toolDelta(1, `: 2}`))...), nil, exitInvalid,
			[]string{`0 executable=true {"a":1}`, `1 executable=false error: invalid JSON at byte 4 ("/b"): unexpected end of input (1 unclosed)`},
			[]string{"anthropic: error event: overloaded_error: Overloaded"},
			[]string{"argstream: stdin: anthropic: error event: overloaded_error: Overloaded\n", "block 1 call (toolu_1 t): not executable: truncated"}},
		{"stream cut short", sseOf(append([]any{msgStart}, toolCall(0, "t", `{"a": 1}`)...)...), nil, exitInvalid,
			[]string{`0 executable=true {"a":1}`}, []string{"anthropic: stream ended before message_stop: unexpected EOF"},
			[]string{"argstream: stdin: anthropic: stream ended before message_stop: unexpected EOF\n"}},
		{"cut in an event", sseOf(msgStart, toolStart(0, "toolu_0", "t"), toolDelta(0, `{"a": `)) + "data: {\"type\":\"content_block_stop\"", nil, exitInvalid,
			[]string{`0 executable=false error: invalid JSON at byte 6 ("/a"): unexpected end of input (1 unclosed)`},
			[]string{"anthropic: stream ended before message_stop: unexpected EOF: sse: stream ends in the middle of an event at byte "}, nil},
		{"malformed event", sseOf(msgStart, toolStart(0, "toolu_0", "t"), `{"type":"content_block_delta","index":"zero"}`), nil, exitInvalid,
			[]string{`0 executable=false error: invalid JSON at byte 0: unexpected end of input before any value`},
			[]string{"anthropic: malformed event: event 3: "}, nil},
		{"no event", ": just a comment\n\n", nil, exitInvalid, nil, []string{"the stream has no event"},
			[]string{"argstream: stdin: the stream has no event\n"}},
		{"empty, wire named", "", []string{"--wire", "anthropic"}, exitInvalid, nil,
			[]string{"anthropic: stream ended before message_stop: unexpected EOF"}, nil},
		{"a second response cut short", anthropicResponse([2]string{"t", `{}`}) + sseOf(msgStart, toolStart(0, "toolu_0", "t")), nil, exitInvalid,
			[]string{`0 executable=true {}`, `0 executable=false error: invalid JSON at byte 0: unexpected end of input before any value`},
			[]string{"anthropic: stream ended before message_stop: unexpected EOF"},
			[]string{"argstream: stdin: response 1: anthropic: stream ended", "argstream: stdin: response 1, block 0 call (toolu_0 t): not executable: truncated"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := replayCmd(strings.NewReader(c.stream), append([]string{"--format", "jsonl"}, c.args...)...)
			evs := parseEvents(t, got.stdout)
			if got.code != c.code {
				t.Errorf("exit %d, want %d; stderr %s", got.code, c.code, got.stderr)
			}
			if diff := cmp.Diff(c.ends, ends(evs)); diff != "" {
				t.Errorf("end lines (-want +got):\n%s", diff)
			}
			errs := errorLines(evs)
			if len(errs) != len(c.errors) {
				t.Errorf("error lines %q, want %q", errs, c.errors)
			}
			for i := range min(len(errs), len(c.errors)) {
				if !strings.HasPrefix(errs[i], c.errors[i]) {
					t.Errorf("error line %q, want %q", errs[i], c.errors[i])
				}
			}
			for _, m := range c.stderr {
				if !strings.Contains(got.stderr, m) {
					t.Errorf("stderr %s\nwant %s", got.stderr, m)
				}
			}
			if (got.code == exitOK) != (got.stderr == "") {
				t.Errorf("exit %d, stderr %q", got.code, got.stderr)
			}
		})
	}
}

// The shipped recordings that are not complete exit 1, with the error.
func TestReplayNegativeRecordings(t *testing.T) {
	for _, c := range []struct {
		rec        shippedRecording
		what, call string
	}{
		{recordings[0], "truncated", `invalid JSON at byte 149 ("/lines_of_text/4"): unexpected end of input in string`},
		{recordings[1], "invalid arguments", `invalid JSON at byte 30 ("/unit"): invalid character 'c' at start of value`},
	} {
		got := replayCmd(nil, "--format", "jsonl", c.rec.path(t))
		evs := parseEvents(t, got.stdout)
		e := ends(evs)
		if got.code != exitInvalid || len(e) != 1 || !strings.HasSuffix(e[0], "executable=false error: "+c.call) ||
			!strings.Contains(got.stderr, "not executable: "+c.what+": "+c.call) {
			t.Errorf("%s: exit %d, ends %q, stderr %s", c.rec.file, got.code, e, got.stderr)
		}
	}
}

// An input that cannot be read: exit 2, after the calls are reported.
func TestReplayReadError(t *testing.T) {
	stdin := io.MultiReader(strings.NewReader(sseOf(append([]any{msgStart}, toolCall(0, "t", `{"a": 1}`)...)...)), iotest.ErrReader(errors.New("connection reset")))
	got := replayCmd(stdin, "--format", "jsonl")
	if got.code != exitUsage || got.stderr != "argstream: stdin: connection reset\n" || !slices.Equal(ends(parseEvents(t, got.stdout)), []string{`0 executable=true {"a":1}`}) {
		t.Errorf("exit %d, stderr %q, stdout %s", got.code, got.stderr, got.stdout)
	}
	// Before the wire is told.
	got = replayCmd(iotest.ErrReader(errors.New("connection reset")))
	if got.code != exitUsage || got.stderr != "argstream: stdin: connection reset\n" || got.stdout != "" {
		t.Errorf("exit %d, stderr %q, stdout %s", got.code, got.stderr, got.stdout)
	}
	// An output that cannot be written: exit 2, and nothing more is read.
	var errOut bytes.Buffer
	stream := strings.NewReader(strings.Repeat(anthropicResponse([2]string{"t", `{}`}), 1000)) // several reads of readSize
	code := run([]string{"replay", "--format", "jsonl"}, env{stdin: stream, stdout: failingWriter{}, stderr: &errOut})
	if code != exitUsage || errOut.String() != "argstream: stdout: disk full\n" || stream.Len() == 0 {
		t.Errorf("unwritable stdout: exit %d, stderr %q, %d bytes left unread", code, errOut.String(), stream.Len())
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// The text format, line for line.
func TestReplayText(t *testing.T) {
	dir := t.TempDir()
	rules := `{"run": [{"arg": "/path", "pattern": "^/etc/", "mode": "skip"}, {"arg": "/path", "prefix": "src/", "mode": "unattended"}, {"mode": "ask"}], "paths": ["/path"]}`
	if err := os.WriteFile(filepath.Join(dir, "fs_create_file.json"), []byte(rules), 0o644); err != nil {
		t.Fatal(err)
	}
	evs := []any{msgStart, textStart(0), textDelta(0, "Hello\n"), textDelta(0, "wor\x1b[2Jld"), textDelta(0, "\n\nbye\u202e"), blockStop(0)}
	evs = append(evs, toolCall(1, "fs_create_file", `{"path": "src/a.rs", "content": "x"}`)...)
	evs = append(evs, textStart(2), textDelta(2, "and\n"), blockStop(2))
	evs = append(evs, toolCall(3, "fs_create_file", `{"path": "/etc/passwd", "content": ""}`)...)
	evs = append(evs, toolCall(4, "shell\x07", `{"cmd": "ls\u0085"}`)...)
	evs = append(evs, toolStart(5, "toolu_5", "fs_create_file"), toolDelta(5, `{"path": "src/b.rs", "content": "`), msgStop)
	got := replayCmd(strings.NewReader(sseOf(evs...)), "--rules-dir", dir)
	want := `response 0: anthropic
block 0 text: Hello
  wor\x1b[2Jld

  bye\u202e
block 1 call toolu_1 fs_create_file started
block 1 call decided unattended (rule 1) at byte 19
block 2 text: and
block 3 call toolu_3 fs_create_file started
block 3 call decided skip (rule 0) at byte 22
block 4 call toolu_4 shell\x07 started
block 4 call decided ask (unlisted tool) at byte 0
block 5 call toolu_5 fs_create_file started
block 5 call decided unattended (rule 1) at byte 19
block 1 call toolu_1 fs_create_file: allowed by the policy; unattended (rule 1): {"path":"src/a.rs","content":"x"}
block 3 call toolu_3 fs_create_file: refused by the policy (skip); skip (rule 0): {"path":"/etc/passwd","content":""}
block 4 call toolu_4 shell\x07: needs approval, not approved (no answer); ask (unlisted tool): {"cmd":"ls\u0085"}
block 5 call toolu_5 fs_create_file: truncated; unattended (rule 1): invalid JSON at byte 33 ("/content"): unexpected end of input in string
`
	if diff := cmp.Diff(lines(want), lines(got.stdout)); diff != "" {
		t.Errorf("text (-want +got):\n%s", diff)
	}
	wantErr := `argstream: stdin: block 3 call (toolu_3 fs_create_file): not executable: refused by the policy (skip)
argstream: stdin: block 4 call (toolu_4 shell\x07): not executable: needs approval, not approved (no answer)
argstream: stdin: block 5 call (toolu_5 fs_create_file): not executable: truncated: invalid JSON at byte 33 ("/content"): unexpected end of input in string
`
	if got.code != exitInvalid || got.stderr != wantErr {
		t.Errorf("exit %d, stderr\n%s\nwant\n%s", got.code, got.stderr, wantErr)
	}
}

// Usage errors exit 2 with nothing on stdout.
func TestReplayUsage(t *testing.T) {
	file := streams + recordings[4].file
	filler := wiretest.DataSSE(`{"x": 1}`)
	undecided := writeFile(t, "undecided.sse", strings.Repeat(filler, 20))
	few := writeFile(t, "few.sse", strings.Repeat(filler, 3))
	one := writeFile(t, "one.sse", filler)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--wire", "mistral", file}, "argstream: --wire mistral: want auto, anthropic, openai-chat, openai-responses, gemini, ollama, bedrock or cohere\n"},
		{[]string{"--format", "rfd", file}, "argstream: --format rfd: want text or jsonl\n"},
		{[]string{file, file}, "argstream: more than one FILE: "},
		{[]string{"--split", "3", file}, "argstream: flag provided but not defined: --split\n"},
		{[]string{streams + "nope.sse"}, "argstream: " + streams + "nope.sse: "},
		{[]string{undecided}, "argstream: " + undecided + ": cannot tell the wire from the first 16 events: it looks like server-sent events of no wire replay knows (the wires are anthropic, openai-chat, openai-responses, gemini, ollama and cohere): use --wire anthropic, openai-chat, openai-responses, gemini, ollama or cohere\n"},
		{[]string{few}, "argstream: " + few + ": cannot tell the wire from its 3 events: it looks like server-sent events of no wire replay knows"},
		{[]string{one}, "argstream: " + one + ": cannot tell the wire from its only event: it looks like server-sent events of no wire replay knows"},
		{[]string{"--framing", "xml", file}, "argstream: --framing xml: want auto, sse, jsonl or eventstream\n"},
		{[]string{"--syntax", "caret", "--framing", "sse", file}, "argstream: --syntax excludes --framing"},
		{[]string{"--width", "40", file}, "argstream: --width needs --render\n"},
	} {
		got := replayCmd(nil, c.args...)
		if got.code != exitUsage || got.stdout != "" || !strings.HasPrefix(got.stderr, c.want) || strings.Count(got.stderr, "\n") != 1 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2, stderr %q", c.args, got.code, got.stdout, got.stderr, c.want)
		}
	}
	// Flags after FILE, and "-" for stdin.
	want := replayCmd(nil, "--format", "jsonl", "--rules-dir", replayRule, file)
	stream, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if got := replayCmd(bytes.NewReader(stream), "-", "--rules-dir", replayRule, "--format=jsonl"); got.stdout != want.stdout || got.code != exitOK {
		t.Errorf("flags after -: %+v", got)
	}
}

// TestReplayShippedExample runs the README's main command: a shipped
// recording replayed with the shipped rules directory.
func TestReplayShippedExample(t *testing.T) {
	got := invoke("", "replay", "--rules-dir", replayRule, streams+recordings[4].file)
	for _, want := range []string{
		"response 0: anthropic\n",
		"block 1 call srvtoolu_01Xd8YZU6yAcvd5JbLCTRfFi text_editor_code_execution started (run by the provider)\nblock 1 call decided ask (rule 2) at byte 46\n",
		`block 2 call srvtoolu_01F3VxYFjEyogm8Ynuc75zfs text_editor_code_execution: run by the provider, not by the caller; unattended (rule 1): {"command":"view","path":"/tmp/hello.txt"}` + "\n",
	} {
		if !strings.Contains(got.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, got.stdout)
		}
	}
	if got.code != exitOK || got.stderr != "" {
		t.Errorf("exit %d, stderr %q", got.code, got.stderr)
	}
}

// An input that is not a provider's stream is said to be what it looks
// like, with what to try: at once (exit 2) when its first line is neither
// server-sent events nor JSON lines; after the error that ends the first
// response when it is another wire's stream than the one named.
func TestReplayLooksLike(t *testing.T) {
	chat := streams + recordings[10].file
	for _, c := range []struct {
		name  string
		input string // a file, or the input's text
		args  []string
		code  int
		want  string
	}{
		{"README", "../../README.md", nil, exitUsage, "not server-sent events: it looks like plain text (replay reads a provider's stream, or with --syntax SYNTAX an assistant's text; argstream fragments reads bare arguments)"},
		{"arguments", "../../testdata/examples/fs_modify_file.json", nil, exitUsage, "cannot tell the wire from its only event: it looks like one JSON document, perhaps a call's arguments (argstream fragments, aggregate and policy read bare arguments)"},
		{"pretty arguments", "{\n  \"path\": \"a\"\n}\n", nil, exitUsage, "not JSON lines: it looks like one JSON document, perhaps a call's arguments (argstream fragments, aggregate and policy read bare arguments)"},
		{"array", `["{\"a\"", ": 1}"]`, nil, exitUsage, "not server-sent events: it looks like a JSON array (argstream fragments --chunks FILE reads an array of argument deltas)"},
		{"caret text", "Let me write it.\n^^^write_file\npath: a\n^^^\n", nil, exitUsage, "it looks like an assistant's text with tool calls in caret syntax (--syntax caret)"},
		{"qwen text", "Ok.\n<tool_call>\n<function=f>\n</function>\n</tool_call>", nil, exitUsage, "(--syntax qwen)"},
		{"hermes text", "Ok.\n<tool_call>\n{\"name\": \"f\", \"arguments\": {}}\n</tool_call>", nil, exitUsage, "(--syntax hermes)"},
		{"glm text", "Ok.<tool_call>f\n<arg_key>a</arg_key>", nil, exitUsage, "(--syntax glm45)"},
		{"mistral text", "[TOOL_CALLS]f[ARGS]{}", nil, exitUsage, "(--syntax mistral)"},
		{"deepseek-v3 text", "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>f\n```json\n{}\n```<｜tool▁call▁end｜>", nil, exitUsage, "(--syntax deepseek-v3)"},
		{"deepseek-v31 text", "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>f<｜tool▁sep｜>{}", nil, exitUsage, "(--syntax deepseek-v31)"},
		{"dsml text", "<｜DSML｜function_calls>", nil, exitUsage, "(--syntax deepseek-dsml)"},
		{"kimi text", "<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0", nil, exitUsage, "(--syntax kimi-k2)"},
		{"minimax text", "x <minimax:tool_call>", nil, exitUsage, "(--syntax minimax-m2)"},
		{"harmony text", "<|channel|>analysis<|message|>hm<|end|>", nil, exitUsage, "(--syntax harmony)"},
		{"a document about the markers", "Models write `[TOOL_CALLS]` and `<tool_call>f`\n```\n<|channel|>\n```\n", nil, exitUsage, "it looks like plain text"},
		{"gzip", "\x1f\x8b\x08\x00junk", nil, exitUsage, "gzip-compressed data"},
		{"chat read as anthropic", chat, []string{"--wire", "anthropic"}, exitInvalid, "the input looks like server-sent events of openai-chat, and was read as anthropic's stream in server-sent events (--wire openai-chat)"},
		{"anthropic read as responses", streams + recordings[4].file, []string{"--wire", "openai-responses"}, exitInvalid, "the input looks like server-sent events of anthropic, and was read as openai-responses's stream in server-sent events (--wire anthropic)"},
		{"JSON lines read as SSE", streams + "vercel-ai__deepseek__deepseek-tool-call.chunks.txt", []string{"--framing", "sse", "--wire", "openai-chat"}, exitInvalid, "the input looks like JSON lines of openai-chat, and was read as openai-chat's stream in server-sent events (--framing auto)"},
		{"not a JSON line", "{\"type\":\"message_start\",\"message\":{}}\nevent: ping\n", nil, exitInvalid, "JSON lines: line 2 is not a JSON object: it looks like server-sent events"},
	} {
		t.Run(c.name, func(t *testing.T) {
			file := c.input
			if _, err := os.Stat(file); err != nil {
				file = writeFile(t, "input", c.input)
			}
			got := replayCmd(nil, append(c.args, file)...)
			if got.code != c.code || !strings.Contains(got.stderr, c.want) {
				t.Errorf("exit %d (want %d), stderr:\n%s\nwant %q", got.code, c.code, got.stderr, c.want)
			}
			if c.code == exitUsage && got.stdout != "" {
				t.Errorf("stdout %q", got.stdout)
			}
		})
	}
}

// The recordings of vercel/ai, one JSON event per line, are replayed as
// they are (their framing told from their first byte, or named), as the
// same events framed as server-sent events are.
func TestReplayJSONLines(t *testing.T) {
	n := 0
	for _, rec := range recordings {
		if !strings.HasSuffix(rec.file, ".chunks.txt") {
			continue
		}
		n++
		t.Run(rec.file, func(t *testing.T) {
			framed := replayCmd(nil, "--format", "jsonl", rec.path(t))
			for _, args := range [][]string{nil, {"--framing", "jsonl"}, {"--wire", rec.wire}} {
				got := replayCmd(nil, append(append([]string{"--format", "jsonl"}, args...), streams+rec.file)...)
				if got != framed {
					t.Errorf("%q: exit %d, stdout\n%s\nstderr %s\nwant exit %d, stdout\n%s", args, got.code, got.stdout, got.stderr, framed.code, framed.stdout)
				}
			}
			// As they arrive through a pipe, a byte at a time.
			data, err := os.ReadFile(streams + rec.file)
			if err != nil {
				t.Fatal(err)
			}
			if got := replayCmd(iotest.OneByteReader(bytes.NewReader(data)), "--format", "jsonl"); got != framed {
				t.Errorf("one byte at a time: exit %d, stderr %s", got.code, got.stderr)
			}
		})
	}
	if n != 10 {
		t.Errorf("%d JSON lines recordings, want 10", n)
	}
}

// The last line of the text report ends with a newline, even when the
// model's text is the last thing and has none.
func TestReplayTextEndsWithNewline(t *testing.T) {
	stream := sseOf(msgStart, textStart(0), textDelta(0, "no newline at the end"), blockStop(0), msgStop)
	for _, args := range [][]string{nil, {"--render", "function_call", "--pace", "none"}} {
		got := replayCmd(strings.NewReader(stream), args...)
		if got.code != exitOK || !strings.HasSuffix(got.stdout, "no newline at the end\n") {
			t.Errorf("%q: exit %d, stdout %q", args, got.code, got.stdout)
		}
	}
}
