package openaistream

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/argstream/argstream/internal/testutil/wiretest"
	"github.com/argstream/argstream/toolcall"
	"github.com/google/go-cmp/cmp"
)

// The Responses API streams of testdata/llm_streams. A recording may hold
// several responses one after the other (the requests of an agent loop):
// ReadResponses returns at the first one's response.completed, so each
// response is also cut out (responsesParts) and read on its own.
var responsesRecordings = []struct {
	file   string
	chunks bool // a vercel-ai *.chunks.txt: one data payload per line
	// calls is the number of calls of each response: a check of the
	// expectations themselves, which are computed from the stream.
	calls []int
}{
	{"pydantic-ai__cassettes__test_openai_responses__test_openai_responses_stream.sse", false, []int{1, 0}},
	{"vercel-ai__azure__azure-tool-call.1.chunks.txt", true, []int{1}},
	{"vercel-ai__openai__responses__openai-reasoning-encrypted-content.1.chunks.txt", true, []int{1, 1, 1, 0}},
	{"vercel-ai__openai__responses__openai-tool-search.1.chunks.txt", true, []int{1}},
}

// responsesStreamCase is one SSE stream to read, made from a recording.
type responsesStreamCase struct {
	name   string
	stream []byte
	// part is the response of the recording the stream holds, or -1 for
	// the whole recording, which ReadResponses reads to the first
	// response.completed.
	part int
}

// responsesParts cuts a recording into its responses: a chunks file before
// each response.created payload, a pydantic-ai file at each interaction's
// comment line.
func responsesParts(t testing.TB, data []byte, chunks bool) [][]byte {
	t.Helper()
	var parts [][]byte
	var cur []byte
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		line := sc.Bytes()
		newPart := bytes.HasPrefix(line, []byte(": interaction "))
		if chunks {
			newPart = bytes.HasPrefix(line, []byte(`{"type":"response.created"`))
		}
		if newPart && len(cur) > 0 {
			parts = append(parts, cur)
			cur = nil
		}
		cur = append(append(cur, line...), '\n')
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return append(parts, cur)
}

// responsesStreams returns every stream made of the recordings: whole and
// cut into responses, chunk files framed with and without "event:" lines.
func responsesStreams(t testing.TB) []responsesStreamCase {
	t.Helper()
	var out []responsesStreamCase
	for _, rec := range responsesRecordings {
		data := readRecording(t, rec.file)
		parts := responsesParts(t, data, rec.chunks)
		if len(parts) != len(rec.calls) {
			t.Fatalf("%s: %d responses, want %d", rec.file, len(parts), len(rec.calls))
		}
		frames := []bool{true}
		if rec.chunks {
			frames = []bool{true, false}
		}
		for _, eventField := range frames {
			frame := func(b []byte) []byte {
				if !rec.chunks {
					return b
				}
				s, err := wiretest.SSEFromChunks(b, eventField)
				if err != nil {
					t.Fatal(err)
				}
				return s
			}
			name := rec.file
			if rec.chunks && !eventField {
				name += " (no event field)"
			}
			if len(parts) == 1 {
				out = append(out, responsesStreamCase{name, frame(data), -1})
			}
			for i, p := range parts {
				out = append(out, responsesStreamCase{name + " response " + string(rune('0'+i)), frame(p), i})
			}
		}
	}
	return out
}

// responsesRecEvent is the part of a Responses event that calls and text
// need, decoded with encoding/json independently of ReadResponses.
type responsesRecEvent struct {
	Type        string `json:"type"`
	OutputIndex *int64 `json:"output_index"`
	ItemID      string `json:"item_id"`
	Delta       string `json:"delta"`
	Arguments   string `json:"arguments"`
	Item        struct {
		Type      string          `json:"type"`
		ID        string          `json:"id"`
		CallID    string          `json:"call_id"`
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"item"`
}

// responsesExpected is what a stream says, up to its first
// response.completed: its calls, and its text and reasoning per
// output_index.
type responsesExpected struct {
	calls     []wiretest.CallOutcome
	completed bool
	text      map[int64]string
	thinking  map[int64]string
}

type responsesExpCall struct {
	index     int64
	id, name  string
	deltas    strings.Builder
	gotDeltas bool
	done      string
	stopped   bool
	itemArgs  string
}

// responsesExpect decodes every "data:" line of stream with encoding/json,
// up to the first response.completed or response.incomplete, and computes
// what ReadResponses must give.
func responsesExpect(t testing.TB, stream []byte) responsesExpected {
	t.Helper()
	exp := responsesExpected{text: map[int64]string{}, thinking: map[int64]string{}}
	calls := map[int64]*responsesExpCall{}
	var order []int64
	for data := range wiretest.DataLines(t, stream) {
		if exp.completed {
			break
		}
		var ev responsesRecEvent
		if err := json.Unmarshal([]byte(data), &ev); err != nil {
			t.Fatalf("decoding %q: %v", data, err)
		}
		var idx int64
		switch {
		case ev.OutputIndex != nil:
			idx = *ev.OutputIndex
		case strings.HasPrefix(ev.Type, "response.output_"), strings.HasPrefix(ev.Type, "response.function_call_"), strings.HasSuffix(ev.Type, ".delta"):
			t.Fatalf("an event without output_index in a recording: %q", data)
		}
		get := func() *responsesExpCall {
			c := calls[idx]
			if c == nil {
				c = &responsesExpCall{index: idx}
				calls[idx] = c
				order = append(order, idx)
			}
			return c
		}
		switch ev.Type {
		case "response.output_item.added", "response.output_item.done":
			if ev.Item.Type != "function_call" {
				continue
			}
			c := get()
			c.id, c.name = ev.Item.CallID, ev.Item.Name
			if ev.Type == "response.output_item.done" {
				c.stopped = true
			}
			var args string
			if err := json.Unmarshal(ev.Item.Arguments, &args); err != nil {
				t.Fatalf("function_call arguments %s: %v", ev.Item.Arguments, err)
			}
			if c.itemArgs == "" {
				c.itemArgs = args
			}
		case "response.function_call_arguments.delta":
			c := get()
			c.deltas.WriteString(ev.Delta)
			c.gotDeltas = true
		case "response.function_call_arguments.done":
			c := get()
			c.done = ev.Arguments
			c.stopped = true
		case "response.output_text.delta":
			exp.text[idx] += ev.Delta
		case "response.reasoning_summary_text.delta":
			exp.thinking[idx] += ev.Delta
		case "response.completed", "response.incomplete":
			exp.completed = true
		}
	}
	slices.Sort(order)
	for _, idx := range order {
		c := calls[idx]
		args := c.deltas.String()
		if !c.gotDeltas || args == "" {
			args = c.itemArgs
			if args == "" {
				args = c.done
			}
		}
		o := wiretest.CallOutcome{Index: c.index, ID: c.id, Name: c.name}
		var buf bytes.Buffer
		switch err := json.Compact(&buf, []byte(args)); {
		case !c.stopped:
			o.Truncated = true
		case err != nil:
			o.Syntax = true
		default:
			o.Arguments, o.Executable = buf.String(), true
		}
		exp.calls = append(exp.calls, o)
	}
	return exp
}

// responsesAdapter is ReadResponses under the tests that every wire
// adapter passes.
var responsesAdapter = wiretest.Adapter{Name: "ReadResponses", Read: ReadResponses}

func TestResponsesRecordings(t *testing.T) {
	resp := toolcall.New()
	for _, rec := range responsesRecordings {
		data := readRecording(t, rec.file)
		if got, want := len(responsesParts(t, data, rec.chunks)), len(rec.calls); got != want {
			t.Errorf("%s: %d responses, want %d", rec.file, got, want)
		}
		if len(rec.calls) > 1 && !rec.chunks {
			// Read as one stream, the events after the first
			// response.completed are ones the SDKs read on: refused.
			if g := responsesAdapter.Run(resp, bytes.NewReader(data)); !errors.Is(g.Err, ErrMalformed) {
				t.Errorf("%s read whole: %v, want ErrMalformed", rec.file, g.Err)
			}
		}
	}
	for _, sc := range responsesStreams(t) {
		t.Run(sc.name, func(t *testing.T) {
			exp := responsesExpect(t, sc.stream)
			if !exp.completed {
				t.Fatal("no response.completed in the stream")
			}
			g := responsesAdapter.Run(resp, bytes.NewReader(sc.stream))
			if g.Err != nil {
				t.Fatalf("ReadResponses = %v", g.Err)
			}
			if diff := cmp.Diff(exp.calls, g.Calls); diff != "" {
				t.Errorf("results (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(exp.text, g.Text); diff != "" {
				t.Errorf("text (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(exp.thinking, g.Thinking); diff != "" {
				t.Errorf("thinking (-want +got):\n%s", diff)
			}
			t.Logf("%+v", g.Calls)
		})
	}
}

// TestResponsesRecordingsKnown checks the recordings against what a reader
// sees in them, so that the expectations computed above are not empty by
// mistake.
func TestResponsesRecordingsKnown(t *testing.T) {
	resp := toolcall.New()
	for _, sc := range responsesStreams(t) {
		g := responsesAdapter.Run(resp, bytes.NewReader(sc.stream))
		got, text, thinking := g.Calls, g.Text, g.Thinking
		for _, rec := range responsesRecordings {
			if !strings.HasPrefix(sc.name, rec.file) {
				continue
			}
			part := max(sc.part, 0)
			if len(got) != rec.calls[part] {
				t.Errorf("%s: %d calls, want %d", sc.name, len(got), rec.calls[part])
			}
		}
		for _, o := range got {
			if !o.Executable || !strings.HasPrefix(o.ID, "call_") || o.Name == "" {
				t.Errorf("%s: call %+v, want an executable call with a call_id and a name", sc.name, o)
			}
		}
		switch {
		case strings.Contains(sc.name, "tool-search"):
			// The tool_search_call at output_index 0 is not a call.
			if len(got) != 1 || got[0].Index != 2 || got[0].Name != "get_weather" {
				t.Errorf("%s: %+v, want only get_weather at index 2", sc.name, got)
			}
		case strings.Contains(sc.name, "reasoning-encrypted-content") && sc.part <= 0:
			if !strings.HasPrefix(thinking[0], "**Calculating step-by-step") || got[0].Arguments != `{"a":12,"b":7,"op":"add"}` {
				t.Errorf("%s: thinking %v, calls %+v", sc.name, thinking, got)
			}
		case strings.Contains(sc.name, "reasoning-encrypted-content") && sc.part == 3:
			if text[0] != "The final result is **570**." {
				t.Errorf("%s: text %v", sc.name, text)
			}
		case strings.Contains(sc.name, "pydantic") && sc.part == 1:
			if text[0] != "The capital of France is Paris." {
				t.Errorf("%s: text %v", sc.name, text)
			}
		}
	}
}

// TestResponsesSplits: every split of a recording into reads gives the same
// results.
func TestResponsesSplits(t *testing.T) {
	resp := toolcall.New()
	for _, sc := range responsesStreams(t) {
		responsesAdapter.CheckSplits(t, sc.name, sc.stream, func(rd io.Reader) wiretest.Got {
			return responsesAdapter.Run(resp, rd)
		})
	}
}
