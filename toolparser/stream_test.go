package toolparser_test

import (
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/argstream/argstream/dialect"
	"github.com/argstream/argstream/internal/testutil/wiretest"
	"github.com/argstream/argstream/toolparser"
	"github.com/argstream/argstream/wire/sse"
)

// streamOut rewrites the upstream stream and returns the data of the
// events the client reads.
func streamOut(t *testing.T, upstream string) []string {
	t.Helper()
	body := toolparser.Stream(dialect.Qwen, io.NopCloser(strings.NewReader(upstream)), toolparser.WithTools(testTools))
	defer body.Close()
	var out []string
	rd := sse.NewReader(body)
	for rd.Next() {
		if ev := rd.Event(); ev.IsEvent() {
			out = append(out, string(ev.Data))
		}
	}
	if err := rd.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

const qwenCall = "<tool_call>\n<function=write_file>\n<parameter=path>\nsrc/a.go\n</parameter>\n<parameter=count>\n3\n</parameter>\n</function>\n</tool_call>"

// TestStream: an upstream's raw text, cut anywhere into deltas, reaches
// the client as the chunks of a server that parses tool calls, with the
// upstream's envelope, then [DONE].
func TestStream(t *testing.T) {
	text := "I will write it. " + qwenCall + " Done."
	for cut := range len(text) + 1 {
		out := streamOut(t, wiretest.DataSSE(wiretest.RawChat([]string{text[:cut], text[cut:]}, "stop")...))
		if out[len(out)-1] != "[DONE]" {
			t.Fatalf("cut %d: %q", cut, out)
		}
		for i := range out[:len(out)-1] {
			out[i] = strings.Replace(out[i], `"id":"chatcmpl-raw"`, `"id":"chatcmpl-9"`, 1)
			out[i] = strings.Replace(out[i], `"model":"raw-model"`, `"model":"m"`, 1)
		}
		m, err := accumulate(out[:len(out)-1])
		if err != nil {
			t.Fatalf("cut %d: %v", cut, err)
		}
		if m.Content != "I will write it.  Done." || len(m.Calls) != 1 || m.Calls[0].Name != "write_file" ||
			m.Calls[0].Args != `{"path":"src/a.go","count":3}` || m.Finish != "tool_calls" || !strings.HasPrefix(m.Calls[0].ID, "call_") {
			t.Fatalf("cut %d: %+v", cut, m)
		}
	}
}

// TestStreamPassesOn: reasoning goes out as reasoning_content; comments,
// and the usage chunk after the finish_reason, go out as they came.
func TestStreamPassesOn(t *testing.T) {
	head := wiretest.RawChatHead
	up := ": keep-alive\n\n" + wiretest.DataSSE(
		head+`"choices":[{"index":0,"delta":{"role":"assistant","reasoning_content":"Hmm."},"finish_reason":null}]}`,
		head+`"choices":[{"index":0,"delta":{"content":"Yes."},"finish_reason":null}]}`,
		head+`"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`,
		head+`"choices":[],"usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}}`,
		"[DONE]")
	body := toolparser.Stream(dialect.Qwen, io.NopCloser(strings.NewReader(up)))
	got, err := io.ReadAll(body)
	if err != nil {
		t.Fatal(err)
	}
	want := ": keep-alive\n\n" + wiretest.DataSSE(
		head+`"choices":[{"index":0,"delta":{"role":"assistant","reasoning_content":"Hmm."},"finish_reason":null}]}`,
		head+`"choices":[{"index":0,"delta":{"content":"Yes."},"finish_reason":null}]}`,
		head+`"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`,
		head+`"choices":[],"usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}}`,
		"[DONE]")
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestStreamFails: what cannot be written ends the client's stream with
// an error event the SDKs raise, after what went out before, and nothing
// else; an upstream's error event goes out as it came.
func TestStreamFails(t *testing.T) {
	head := wiretest.RawChatHead
	for _, c := range []struct {
		name, upstream, want string
	}{
		{"a call that fails", wiretest.DataSSE(wiretest.RawChat([]string{strings.Replace(qwenCall, "3", "three", 1)}, "stop")...), "tool call 0 (\\\"write_file\\\")"},
		{"a call left open", wiretest.DataSSE(wiretest.RawChat([]string{qwenCall[:40]}, "length")...), "unexpected end of input"},
		{"the upstream's own tool calls", wiretest.DataSSE(head + `"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]},"finish_reason":null}]}`), "tool parser must be off"},
		{"a stream cut short", wiretest.DataSSE(wiretest.RawChat([]string{"Hello"}, "stop")[:2]...), "ended before its finish_reason"},
		{"a malformed chunk", wiretest.DataSSE(head + `"choices":[{"index":0,"delta":{"content":1},"finish_reason":null}]}`), "malformed"},
		{"text after the finish_reason", wiretest.DataSSE(head+`"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`,
			head+`"choices":[{"index":0,"delta":{"content":"<tool_call>"},"finish_reason":null}]}`), "text after the message's end"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := streamOut(t, c.upstream)
			last := out[len(out)-1]
			if !strings.HasPrefix(last, `{"error":{"message":`) || !strings.Contains(last, c.want) || !strings.Contains(last, `"type":"argstream_tool_parser_error"`) {
				t.Errorf("the last event %s, want an error saying %s", last, c.want)
			}
			for _, d := range out[:len(out)-1] {
				if c.name != "text after the finish_reason" && strings.Contains(d, "finish_reason\":\"") || strings.Contains(d, "[DONE]") {
					t.Errorf("an end before the error: %s", d)
				}
			}
		})
	}
	errEvent := `{"error":{"message":"overloaded","type":"server_error"}}`
	out := streamOut(t, wiretest.DataSSE(wiretest.RawChat([]string{"Hi"}, "stop")[1], errEvent))
	if len(out) != 2 || out[1] != errEvent {
		t.Errorf("the upstream's error: %q", out)
	}
}

// TestStreamClose: Close closes the upstream's body, and so does the end
// of a stream that failed.
func TestStreamClose(t *testing.T) {
	for _, up := range []string{wiretest.DataSSE(wiretest.RawChat([]string{"Hi"}, "stop")...), wiretest.DataSSE(`{"x`)} {
		rc := &closeCount{Reader: strings.NewReader(up)}
		body := toolparser.Stream(dialect.XML, rc)
		io.ReadAll(body)
		body.Close()
		body.Close()
		if rc.n == 0 {
			t.Errorf("%q: the upstream's body was not closed", up)
		}
	}
}

type closeCount struct {
	io.Reader
	n int
}

func (c *closeCount) Close() error { c.n++; return nil }

// TestWhole: a whole response's messages are rewritten; one with a call
// that fails, or with tool_calls of its own, is an error.
func TestWhole(t *testing.T) {
	out, err := toolparser.Whole(dialect.Qwen, []byte(wiretest.RawChatWhole("Hi. "+qwenCall, "stop")), toolparser.WithTools(testTools),
		toolparser.WithCallIDs(func() string { return "call_x" }))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"choices":[{"index":0,"message":{"role":"assistant","content":"Hi. ","tool_calls":[{"id":"call_x","type":"function","function":{"name":"write_file","arguments":"{\"path\":\"src/a.go\",\"count\":3}"}}]},"finish_reason":"tool_calls","logprobs":null}],"id":"chatcmpl-raw","object":"chat.completion","created":1700000000,"model":"raw-model","usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}}`
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	out, err = toolparser.Whole(dialect.Qwen, []byte(wiretest.RawChatWhole(qwenCall, "stop")))
	if err != nil || !strings.Contains(string(out), `"content":null`) || !strings.Contains(string(out), `\"count\":\"3\"`) {
		t.Errorf("no text, no tools: %s %v", out, err)
	}
	for _, bad := range []string{
		wiretest.RawChatWhole(strings.Replace(qwenCall, "3", "three", 1), "stop"),
		`{"choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]},"finish_reason":"tool_calls"}]}`,
		`{"choices":[{"index":0,"message":{"content":"a","content":"b"}}]}`,
	} {
		if out, err := toolparser.Whole(dialect.Qwen, []byte(bad), toolparser.WithTools(testTools)); err == nil {
			t.Errorf("%s: %s", bad, out)
		} else if strings.Contains(bad, "three") && !errors.Is(err, toolparser.ErrCall) {
			t.Errorf("%s: %v", bad, err)
		}
	}
}

// TestStreamDoneWithoutFinish: [DONE] with no finish_reason before it ends
// the message as stop.
func TestStreamDoneWithoutFinish(t *testing.T) {
	data := wiretest.RawChat([]string{"Hi"}, "stop")
	out := streamOut(t, wiretest.DataSSE(data[0], data[1], data[3]))
	if len(out) != 3 || !strings.Contains(out[1], `"finish_reason":"stop"`) || out[2] != "[DONE]" {
		t.Errorf("%q", out)
	}
}

// TestWholeChoices: each choice of a whole response is rewritten.
func TestWholeChoices(t *testing.T) {
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	body := `{"id":"c","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":` + q("A "+qwenCall) + `},"finish_reason":"stop"},` +
		`{"index":1,"message":{"role":"assistant","content":"B"},"finish_reason":"length"}]}`
	out, err := toolparser.Whole(dialect.Qwen, []byte(body), toolparser.WithTools(testTools), toolparser.WithCallIDs(func() string { return "call_1" }))
	want := `{"choices":[{"index":0,"message":{"role":"assistant","content":"A ","tool_calls":[{"id":"call_1","type":"function","function":{"name":"write_file","arguments":"{\"path\":\"src/a.go\",\"count\":3}"}}]},"finish_reason":"tool_calls"},` +
		`{"index":1,"message":{"role":"assistant","content":"B"},"finish_reason":"length"}],"id":"c","object":"chat.completion"}`
	if err != nil || string(out) != want {
		t.Errorf("%s %v\nwant %s", out, err, want)
	}
}
