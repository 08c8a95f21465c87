package anthropicstream

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/internal/testutil/wiretest"
	"github.com/argstream/argstream/token"
	"github.com/argstream/argstream/toolcall"
	"github.com/google/go-cmp/cmp"
)

// recordings are the Anthropic Messages streams of testdata/llm_streams.
// vercel-ai__openai-compatible__anthropic-fallback-tool-call.sse is Claude
// behind an OpenAI Chat Completions endpoint, not an Anthropic stream.
var recordings = []struct {
	file string
	// noFinalBlankLine: the recording ends after message_stop's data line,
	// without the blank line that dispatches it.
	noFinalBlankLine bool
}{
	{"anthropic-sdk-python__tests-lib-streaming-fixtures__tool_use_response.sse", true},
	{"anthropic-sdk-python__tests-lib-streaming-fixtures__tool_use_invalid_json_response.sse", true},
	{"anthropic-sdk-python__tests-lib-streaming-fixtures__incomplete_partial_json_response.sse", true},
	{"pydantic-ai__cassettes__test_anthropic__test_anthropic_mcp_servers_stream.sse", false},
	{"pydantic-ai__cassettes__test_anthropic__test_anthropic_text_editor_code_execution_tool_stream.sse", false},
}

// anthropicAdapter is Read under the tests that every wire adapter passes.
var anthropicAdapter = wiretest.Adapter{Name: "Read", Read: Read}

func readRecording(t testing.TB, name string) []byte {
	t.Helper()
	return wiretest.Testdata(t, "llm_streams/"+name)
}

// expectedCall is what the stream itself says of one tool call, decoded
// with encoding/json independently of Read.
type expectedCall struct {
	index   int64
	id      string
	name    string
	input   json.RawMessage
	deltas  strings.Builder
	stopped bool
	server  bool // a server_tool_use or mcp_tool_use block: the provider runs it
}

// expect decodes every "data:" line of an SSE stream with encoding/json and
// gathers the tool calls: their ids, names, start inputs, the concatenation
// of their partial_json deltas, and whether they stopped.
func expect(t testing.TB, stream []byte) []*expectedCall {
	t.Helper()
	var calls []*expectedCall
	byIndex := map[int64]*expectedCall{}
	for data := range wiretest.DataLines(t, stream) {
		var ev testutil.AnthropicEvent
		if err := json.Unmarshal([]byte(data), &ev); err != nil {
			t.Fatalf("decoding %q: %v", data, err)
		}
		switch ev.Type {
		case "message_start":
			for i, b := range ev.Message.Content {
				switch b.Type {
				case "tool_use", "server_tool_use", "mcp_tool_use":
					c := &expectedCall{index: int64(i), id: b.ID, name: b.Name, input: b.Input, stopped: true, server: b.Type != "tool_use"}
					calls = append(calls, c)
					byIndex[c.index] = c
				}
			}
		case "content_block_start":
			switch ev.ContentBlock.Type {
			case "tool_use", "server_tool_use", "mcp_tool_use":
				c := &expectedCall{index: ev.Index, id: ev.ContentBlock.ID, name: ev.ContentBlock.Name, input: ev.ContentBlock.Input,
					server: ev.ContentBlock.Type != "tool_use"}
				calls = append(calls, c)
				byIndex[ev.Index] = c
			}
		case "content_block_delta":
			if c := byIndex[ev.Index]; c != nil && ev.Delta.Type == "input_json_delta" {
				c.deltas.WriteString(ev.Delta.PartialJSON)
			}
		case "content_block_stop":
			if c := byIndex[ev.Index]; c != nil {
				c.stopped = true
			}
		}
	}
	return calls
}

// arguments is the expected compact arguments of c, or "" if they are not
// valid JSON.
func (c *expectedCall) arguments() string {
	text := c.deltas.String()
	if text == "" {
		text = string(c.input)
		if text == "" {
			text = "{}"
		}
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, []byte(text)); err != nil {
		return ""
	}
	return buf.String()
}

func want(calls []*expectedCall) []wiretest.CallOutcome {
	var out []wiretest.CallOutcome
	for _, c := range calls {
		g := wiretest.CallOutcome{Index: c.index, ID: c.id, Name: c.name, Server: c.server}
		switch args := c.arguments(); {
		case !c.stopped:
			g.Truncated = true
		case args == "":
			g.Syntax = true
		default:
			g.Arguments, g.Executable = args, !c.server
		}
		out = append(out, g)
	}
	return out
}

func TestRecordings(t *testing.T) {
	for _, rec := range recordings {
		t.Run(rec.file, func(t *testing.T) {
			stream := readRecording(t, rec.file)
			wantCalls := want(expect(t, stream))
			if len(wantCalls) == 0 {
				t.Fatal("no tool call in the recording")
			}
			got := anthropicAdapter.Run(toolcall.New(), bytes.NewReader(stream))
			// Without the blank line after message_stop (noFinalBlankLine),
			// that event is cut off after message_delta's stop_reason:
			// dropped, as the SDKs drop it, and the message has ended all
			// the same (Reader.Ended).
			anthropicAdapter.CheckEnd(t, got.Err, false)
			if diff := cmp.Diff(wantCalls, got.Calls); diff != "" {
				t.Errorf("results (-want +got):\n%s", diff)
			}
			t.Logf("%+v", got.Calls)
		})
	}
}

// TestRecordingsCompleted: the anthropic-sdk-python recordings, with the
// final blank line they lack, read without error to the same calls.
func TestRecordingsCompleted(t *testing.T) {
	for _, rec := range recordings {
		if !rec.noFinalBlankLine {
			continue
		}
		stream := append(readRecording(t, rec.file), "\n\n"...)
		resp := toolcall.New()
		if err := Read(context.Background(), bytes.NewReader(stream), resp); err != nil {
			t.Fatalf("%s: Read = %v", rec.file, err)
		}
		if diff := cmp.Diff(want(expect(t, stream)), wiretest.Outcomes(resp.End())); diff != "" {
			t.Errorf("%s: results (-want +got):\n%s", rec.file, diff)
		}
	}
}

// TestCutBeforeTheStopReason: a stream cut off before message_delta's
// stop_reason is truncated; cut off after it, in the only event that may
// follow, it is not.
func TestCutBeforeTheStopReason(t *testing.T) {
	stream := readRecording(t, recordings[0].file) // cut off in message_stop
	i := bytes.Index(stream, []byte("event: message_delta"))
	for _, tc := range []struct {
		cut       []byte
		truncated bool
	}{
		{stream[:i+30], true}, // in message_delta
		{stream[:i], true},    // before it
		{stream, false},       // in message_stop
		{append(stream[:len(stream):len(stream)], "\n\n"...), false},
	} {
		resp := toolcall.New()
		err := Read(context.Background(), bytes.NewReader(tc.cut), resp)
		if got := errors.Is(err, io.ErrUnexpectedEOF); got != tc.truncated {
			t.Errorf("cut at byte %d: Read = %v, want truncated %v", len(tc.cut), err, tc.truncated)
		}
		if res := resp.End(); len(res) != 1 || !res[0].Executable {
			t.Errorf("cut at byte %d: %+v, want the stopped call executable", len(tc.cut), res)
		}
	}
}

func TestRecordingsNegative(t *testing.T) {
	resp := toolcall.New()
	_ = Read(context.Background(), bytes.NewReader(readRecording(t, recordings[1].file)), resp)
	res := resp.End()
	if len(res) != 1 || res[0].Executable || res[0].Err == nil || errors.Is(res[0].Err, token.ErrTruncated) {
		t.Errorf("invalid JSON: %+v, want one non-executable call with a syntax error", res)
	}
	var se *token.SyntaxError
	if !errors.As(res[0].Err, &se) {
		t.Errorf("invalid JSON: err %v is not a *token.SyntaxError", res[0].Err)
	}

	resp.Reset()
	_ = Read(context.Background(), bytes.NewReader(readRecording(t, recordings[2].file)), resp)
	res = resp.End()
	if len(res) != 1 || res[0].Executable || !errors.Is(res[0].Err, token.ErrTruncated) {
		t.Errorf("incomplete: %+v, want one truncated call", res)
	}
}

// TestSplits: every split of a recording into reads gives the same results.
func TestSplits(t *testing.T) {
	resp := toolcall.New()
	for _, rec := range recordings {
		anthropicAdapter.CheckSplits(t, rec.file, readRecording(t, rec.file), func(rd io.Reader) wiretest.Got {
			return anthropicAdapter.Run(resp, rd)
		})
	}
}

// chunkRecordings are the Anthropic recordings of vercel/ai, one data
// payload per line; several hold more than one message (response).
var chunkRecordings = []string{
	"vercel-ai__anthropic__anthropic-code-execution-20250825.2.chunks.txt",
	"vercel-ai__anthropic__anthropic-json-tool.1.chunks.txt",
	"vercel-ai__anthropic__anthropic-programmatic-tool-calling.1.chunks.txt",
	"vercel-ai__anthropic__anthropic-tool-no-args.chunks.txt",
	"vercel-ai__anthropic__anthropic-tool-search-deferred-regex.chunks.txt",
}

// messages cuts a chunk recording into its messages: the lines up to and
// including each message_stop.
func messages(t testing.TB, chunks []byte) [][]byte {
	var out [][]byte
	var cur []byte
	for line := range bytes.Lines(chunks) {
		cur = append(cur, line...)
		if wiretest.JSONType(t, bytes.TrimSpace(line)) == "message_stop" {
			out = append(out, cur)
			cur = nil
		}
	}
	if len(bytes.TrimSpace(cur)) > 0 {
		t.Fatalf("%d bytes after the last message_stop", len(cur))
	}
	return out
}

// TestChunkRecordings: each message of the vercel/ai recordings, framed as
// the API sends it (with and without event lines) and read whole or in
// random reads, gives the calls the recording holds.
func TestChunkRecordings(t *testing.T) {
	calls := 0
	for _, name := range chunkRecordings {
		for m, msg := range messages(t, readRecording(t, name)) {
			// Without event lines, as vercel/ai records them, a stream is
			// read differently by the SDKs (they skip every event): refused.
			if err := Read(context.Background(), bytes.NewReader(sseFromChunks(t, msg, false)), toolcall.New()); !errors.Is(err, ErrMalformed) {
				t.Errorf("%s message %d without event lines: Read = %v, want ErrMalformed", name, m, err)
			}
			for _, eventField := range []bool{true} {
				stream := sseFromChunks(t, msg, eventField)
				wantCalls := want(expect(t, stream))
				resp := toolcall.New()
				for i, rd := range []io.Reader{bytes.NewReader(stream), wiretest.RandomReads(bytes.NewReader(stream), uint64(m), 64)} {
					resp.Reset()
					if err := Read(context.Background(), rd, resp); err != nil {
						t.Fatalf("%s message %d, reader %d: Read = %v", name, m, i, err)
					}
					if diff := cmp.Diff(wantCalls, wiretest.Outcomes(resp.End())); diff != "" {
						t.Errorf("%s message %d, event lines %v, reader %d (-want +got):\n%s", name, m, eventField, i, diff)
					}
				}
				if eventField {
					calls += len(wantCalls)
				}
			}
		}
	}
	// 3 + 1 + 2 + 1 + 3 calls, as INDEX.md counts them; the tool-search
	// recording's other two are server_tool_use blocks, calls here too.
	if calls < 10 {
		t.Errorf("%d calls in the chunk recordings, want at least 10", calls)
	}
}
