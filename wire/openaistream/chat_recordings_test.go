package openaistream

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/internal/testutil/wiretest"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire"
	"github.com/argstream/argstream/wire/internal/adapter"
	"github.com/argstream/argstream/wire/sse"
	gocmp "github.com/google/go-cmp/cmp"
)

// chatRecordings are the Chat Completions streams of testdata/llm_streams,
// with what each is known to hold, which the expectation computed from the
// stream must agree with.
var chatRecordings = []struct {
	file string
	// chunks: a vercel/ai *.chunks.txt file, data payloads without framing
	// and without [DONE]: framed again, the stream ends after finish_reason.
	chunks bool
	// noFinalBlankLine: the recording ends with [DONE]'s data line, without
	// the blank line that dispatches it.
	noFinalBlankLine bool
	names            []string // the calls' tool names, in index order
	first            int64    // the first call's index
	text, thinking   string   // the start of the text and of the reasoning
}{
	{"openai-python__test_parse_multiple_pydantic_tools__f82268f2.sse", false, false, []string{"GetWeatherArgs", "get_stock_price"}, 0, "", ""},
	{"openai-python__test_parse_strict_tools__a247c49c.sse", false, false, []string{"get_weather"}, 0, "", ""},
	// Two interactions: ReadChat stops at the first [DONE], before the
	// second one's text ("The capital of the UK is London.").
	{"pydantic-ai__cassettes__test_openai__test_run_stream_sync_streams_real_model.sse", false, false, []string{"get_capital"}, 0, "", ""},
	{"vercel-ai__openai-compatible__anthropic-fallback-tool-call.sse", false, true, []string{"read_file"}, 1, "Reading it.", ""},
	{"vercel-ai__deepseek__deepseek-tool-call.chunks.txt", true, false, []string{"weather"}, 0, "", "The user is asking"},
	// The second chunk has "name": "", which must not erase the name.
	{"vercel-ai__mistral__mistral-incremental-tool-call.chunks.txt", true, false, []string{"webSearchTool"}, 0, "", ""},
	// Mistral's API: a whole call without an index, and the finish_reason
	// and usage in its chunk.
	{"vercel-ai__mistral__stream-tool-deltas.sse", false, false, []string{"test-tool"}, 0, "", ""},
}

// chatRecording returns the SSE stream of a recording.
func chatRecording(t testing.TB, file string, chunks bool) []byte {
	t.Helper()
	b := readRecording(t, file)
	if !chunks {
		return b
	}
	b, err := wiretest.SSEFromChunks(b, false)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// chatExpected is what a stream says, computed with encoding/json: the
// calls, the text and reasoning of the chosen choice, and whether the
// stream is complete ([DONE], or a finish_reason).
type chatExpected struct {
	calls          []wiretest.CallOutcome
	text, thinking string
	done, finished bool
}

// chatExpect decodes every data line of an SSE stream whose events are one
// data line each, up to the first [DONE], and gathers the chosen choice's
// calls (first non-empty id and name, concatenated arguments), text and
// reasoning. The arguments must be complete: the recordings' are.
func chatExpect(t testing.TB, stream []byte, choice int64) chatExpected {
	t.Helper()
	var e chatExpected
	type call struct {
		index    int64
		id, name string
		args     strings.Builder
	}
	var calls []*call
	byIndex := map[int64]*call{}
	for data := range wiretest.DataLines(t, stream) {
		if data == "[DONE]" {
			e.done = true
			break
		}
		var chunk testutil.ChatChunk
		if err := json.Unmarshal([]byte(data), &chunk); err != nil {
			t.Fatalf("decoding %q: %v", data, err)
		}
		for _, ch := range chunk.Choices {
			if ch.Index != choice {
				continue
			}
			d := ch.Delta
			for _, s := range []*string{d.ReasoningContent, d.Reasoning} {
				if s != nil && *s != "" {
					e.thinking += *s
					break
				}
			}
			for _, s := range []*string{d.Content, d.Refusal} {
				if s != nil {
					e.text += *s
				}
			}
			for _, tc := range d.ToolCalls {
				if tc.Type != "" && tc.Type != "function" {
					continue
				}
				c := byIndex[tc.Index]
				if c == nil {
					if tc.ID == "" && tc.Function.Name == "" && tc.Function.Arguments == "" {
						continue
					}
					c = &call{index: tc.Index}
					calls = append(calls, c)
					byIndex[tc.Index] = c
				}
				if c.id == "" {
					c.id = tc.ID
				}
				if c.name == "" {
					c.name = tc.Function.Name
				}
				c.args.WriteString(tc.Function.Arguments)
			}
			if ch.FinishReason != nil && *ch.FinishReason != "" {
				e.finished = true
			}
		}
	}
	for _, c := range calls {
		var compact bytes.Buffer
		if err := json.Compact(&compact, []byte(c.args.String())); err != nil {
			t.Fatalf("call %d: arguments %q: %v", c.index, c.args.String(), err)
		}
		e.calls = append(e.calls, wiretest.CallOutcome{Index: c.index, ID: c.id, Name: c.name, Arguments: compact.String(), Executable: true})
	}
	slices.SortFunc(e.calls, func(a, b wiretest.CallOutcome) int { return cmp.Compare(a.Index, b.Index) })
	return e
}

// chatAdapter is ReadChat under the tests that every wire adapter passes.
var chatAdapter = wiretest.Adapter{Name: "ReadChat", Read: ReadChat, Choices: 3}

// chatRead reads rd into resp (Reset first), and checks that the text and
// reasoning came for the chosen choice only.
func chatRead(t testing.TB, rd io.Reader, resp *toolcall.Response, opts ...wire.Option) wiretest.Got {
	t.Helper()
	g := chatAdapter.Run(resp, rd, opts...)
	want := adapter.NewConfig(opts).Choice
	for i := range g.Text {
		if i != want {
			t.Errorf("OnText index %d, want %d", i, want)
		}
	}
	for i := range g.Thinking {
		if i != want {
			t.Errorf("OnThinking index %d, want %d", i, want)
		}
	}
	return g
}

func TestChatRecordings(t *testing.T) {
	resp := toolcall.New()
	for _, rec := range chatRecordings {
		t.Run(rec.file, func(t *testing.T) {
			stream := chatRecording(t, rec.file, rec.chunks)
			want := chatExpect(t, stream, 0)
			if want.done == rec.chunks || !want.finished {
				t.Fatalf("the recording has [DONE] %v, a finish_reason %v", want.done, want.finished)
			}
			var names []string
			for _, c := range want.calls {
				names = append(names, c.Name)
			}
			if !slices.Equal(names, rec.names) || want.calls[0].Index != rec.first ||
				!strings.HasPrefix(want.text, rec.text) || !strings.HasPrefix(want.thinking, rec.thinking) {
				t.Fatalf("the expectation: calls %+v, text %q, thinking %q; the recording is known to hold %v from index %d, text %q, thinking %q",
					want.calls, want.text, want.thinking, rec.names, rec.first, rec.text, rec.thinking)
			}
			got := chatRead(t, bytes.NewReader(stream), resp)
			// Without the blank line after [DONE] (noFinalBlankLine), that
			// event is cut off after the finish_reason: dropped, as the
			// SDKs drop it, and the response is complete all the same.
			chatAdapter.CheckEnd(t, got.Err, false)
			if diff := gocmp.Diff(want.calls, got.Calls); diff != "" {
				t.Errorf("calls (-want +got):\n%s", diff)
			}
			if got.Text[0] != want.text || got.Thinking[0] != want.thinking {
				t.Errorf("text %q, thinking %q; want %q, %q", got.Text[0], got.Thinking[0], want.text, want.thinking)
			}
			t.Logf("%+v; text %q; %d bytes of thinking", got.Calls, got.Text[0], len(got.Thinking[0]))
		})
	}
}

// TestChatRecordingsCompleted: the recordings that lack the blank line
// after [DONE], with it, read without error to the same calls.
func TestChatRecordingsCompleted(t *testing.T) {
	resp := toolcall.New()
	for _, rec := range chatRecordings {
		if !rec.noFinalBlankLine {
			continue
		}
		stream := append(chatRecording(t, rec.file, rec.chunks), '\n')
		got := chatRead(t, bytes.NewReader(stream), resp)
		if got.Err != nil {
			t.Fatalf("%s: ReadChat = %v", rec.file, got.Err)
		}
		if diff := gocmp.Diff(chatExpect(t, stream, 0).calls, got.Calls); diff != "" {
			t.Errorf("%s: calls (-want +got):\n%s", rec.file, diff)
		}
	}
}

// TestChatRecordingsNotFinished: the chunk recordings without their last
// chunk, which has the finish_reason, end before the stream is complete;
// their calls, whose arguments are all there, are executable all the same.
func TestChatRecordingsNotFinished(t *testing.T) {
	resp := toolcall.New()
	for _, rec := range chatRecordings {
		if !rec.chunks {
			continue
		}
		chunks := bytes.TrimRight(readRecording(t, rec.file), "\n")
		chunks = chunks[:bytes.LastIndexByte(chunks, '\n')+1]
		stream, err := wiretest.SSEFromChunks(chunks, false)
		if err != nil {
			t.Fatal(err)
		}
		want := chatExpect(t, stream, 0)
		if want.finished {
			t.Fatalf("%s: a finish_reason before the last chunk", rec.file)
		}
		got := chatRead(t, bytes.NewReader(stream), resp)
		if !errors.Is(got.Err, io.ErrUnexpectedEOF) || errors.Is(got.Err, sse.ErrTruncated) {
			t.Errorf("%s: ReadChat = %v, want an error wrapping io.ErrUnexpectedEOF only", rec.file, got.Err)
		}
		if diff := gocmp.Diff(want.calls, got.Calls); diff != "" {
			t.Errorf("%s: calls (-want +got):\n%s", rec.file, diff)
		}
	}
}

// chatFailingReader returns its error once r is exhausted.
type chatFailingReader struct {
	r   io.Reader
	err error
}

func (f *chatFailingReader) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	if err == io.EOF {
		err = f.err
	}
	return n, err
}

// TestChatDoneReadsNoFurther: ReadChat returns at [DONE] without another
// Read of the body, which would fail here.
func TestChatDoneReadsNoFurther(t *testing.T) {
	rec := chatRecordings[0]
	stream := chatRecording(t, rec.file, rec.chunks)
	rd := &chatFailingReader{iotest.OneByteReader(bytes.NewReader(stream)), errors.New("read past [DONE]")}
	got := chatRead(t, rd, toolcall.New())
	if got.Err != nil {
		t.Fatalf("ReadChat = %v", got.Err)
	}
	if diff := gocmp.Diff(chatExpect(t, stream, 0).calls, got.Calls); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
}

// TestChatSplits: every split of a recording into reads gives the same
// results.
func TestChatSplits(t *testing.T) {
	resp := toolcall.New()
	for _, rec := range chatRecordings {
		chatAdapter.CheckSplits(t, rec.file, chatRecording(t, rec.file, rec.chunks), func(rd io.Reader) wiretest.Got {
			return chatRead(t, rd, resp)
		})
	}
}
