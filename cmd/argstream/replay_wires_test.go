package main

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestReplayGeminiOllama: replay tells Gemini's and Ollama's streams from
// their first events (Ollama's JSON lines framed as events), reads each
// call whole, and cuts a file of several responses at each one's end
// (Gemini's finishReason, Ollama's done line).
func TestReplayGeminiOllama(t *testing.T) {
	gemini, err := os.ReadFile("../../wire/geministream/testdata/vercel-ai__google-tool-call.chunks.txt")
	if err != nil {
		t.Fatal(err)
	}
	ollama, err := os.ReadFile("../../wire/ollamastream/testdata/api_md_tools.ndjson")
	if err != nil {
		t.Fatal(err)
	}
	// One line each, ended: the recordings may lack the last line end.
	twice := func(b []byte) string {
		s := strings.TrimSuffix(string(b), "\n") + "\n"
		return s + s
	}
	for _, tc := range []struct {
		name, input, wire string
		want              []string // name and arguments of each call, response by response
	}{
		{"gemini", string(gemini), "gemini", []string{`0 weather {"location":"San Francisco"}`}},
		{"gemini twice", twice(gemini), "gemini", []string{`0 weather {"location":"San Francisco"}`, `1 weather {"location":"San Francisco"}`}},
		{"ollama", string(ollama), "ollama", []string{`0 get_weather {"city":"Tokyo"}`}},
		{"ollama twice", twice(ollama), "ollama", []string{`0 get_weather {"city":"Tokyo"}`, `1 get_weather {"city":"Tokyo"}`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := replayCmd(nil, "--format", "jsonl", writeFile(t, tc.name+".jsonl", tc.input))
			if got.code != exitOK || got.stderr != "" {
				t.Fatalf("exit %d, stderr %q", got.code, got.stderr)
			}
			checkReplayedCalls(t, got.stdout, tc.wire, tc.want)
		})
	}

	// A Vertex AI stream whose calls stream their arguments (partialArgs):
	// each call's arguments are a JSON text built as the values come, and
	// a policy decides on them while they stream.
	vertex, err := os.ReadFile("../../wire/geministream/testdata/vercel-ai__google-stream-tool-call-arguments.chunks.txt")
	if err != nil {
		t.Fatal(err)
	}
	rules := writeFile(t, "rules.json", `{"run": [{"arg": "/location", "const": "Boston", "mode": "skip"}, {"mode": "unattended"}]}`)
	got := replayCmd(nil, "--format", "jsonl", "--rules", rules, writeFile(t, "vertex.jsonl", string(vertex)))
	var ends []string
	for _, ev := range parseEvents(t, got.stdout) {
		if ev.Event == "end" {
			ends = append(ends, fmt.Sprintf("%s %s %s", *ev.Name, ev.Arguments, ev.Mode))
		}
	}
	want := []string{`getWeather {"location":"Boston"} skip`, `getWeather {"location":"San Francisco"} unattended`}
	if got.code == exitUsage || strings.Join(ends, "; ") != strings.Join(want, "; ") {
		t.Errorf("partialArgs: exit %d, calls %q, want %q; stderr %q", got.code, ends, want, got.stderr)
	}
}

// TestReplayBedrock: replay tells AWS event stream frames from their first
// bytes, and reads them as Bedrock's ConverseStream; another wire named for
// them is a usage error.
func TestReplayBedrock(t *testing.T) {
	const file = "../../wire/bedrockstream/testdata/converse-tool-use.bin"
	for _, args := range [][]string{{file}, {"--wire", "bedrock", file}, {"--framing", "eventstream", file}} {
		got := replayCmd(nil, append([]string{"--format", "jsonl"}, args...)...)
		var calls []string
		wireOK := false
		for _, ev := range parseEvents(t, got.stdout) {
			switch ev.Event {
			case "response":
				wireOK = ev.Wire == "bedrock"
			case "end":
				calls = append(calls, fmt.Sprintf("%d %s %s %s %v", *ev.Index, *ev.ID, *ev.Name, ev.Arguments, *ev.Executable))
			}
		}
		if got.code != exitOK || !wireOK || len(calls) != 1 || calls[0] != `1 tooluse_1 read_file {"path":"src/main.go"} true` {
			t.Errorf("%q: exit %d, calls %q, stderr %q", args, got.code, calls, got.stderr)
		}
	}
	got := replayCmd(nil, "--wire", "anthropic", file)
	if got.code != exitUsage || !strings.Contains(got.stderr, "AWS event stream frames are Bedrock's wire, not anthropic: use --wire bedrock") {
		t.Errorf("--wire anthropic: exit %d, stderr %q", got.code, got.stderr)
	}
}

// TestReplayCohere: replay tells Cohere's v2 chat stream from its first
// events, as SSE with event names or as the recordings' JSON lines, reads
// its calls as they stream, and cuts a file of several responses at each
// one's message-end.
func TestReplayCohere(t *testing.T) {
	chunks, err := os.ReadFile("../../wire/coherestream/testdata/vercel-ai__cohere-tool-call.chunks.txt")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.TrimSuffix(string(chunks), "\n") + "\n"
	var named strings.Builder
	for line := range strings.Lines(lines) {
		typ := strings.SplitN(strings.SplitN(line, `"type":"`, 2)[1], `"`, 2)[0]
		fmt.Fprintf(&named, "event: %s\ndata: %s\n", typ, line)
	}
	one := []string{`0 weather {"location":"San Francisco"}`, `0 cityAttractions {"city":"San Francisco"}`}
	two := append(append([]string{}, one...), `1 weather {"location":"San Francisco"}`, `1 cityAttractions {"city":"San Francisco"}`)
	for _, tc := range []struct {
		name, input string
		args        []string
		want        []string
	}{
		{"json lines", lines, nil, one},
		{"json lines twice", lines + lines, nil, two},
		{"sse", named.String(), nil, one},
		{"sse twice", named.String() + named.String(), nil, two},
		{"sse, --wire cohere", named.String(), []string{"--wire", "cohere"}, one},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append(append([]string{"--format", "jsonl"}, tc.args...), writeFile(t, strings.ReplaceAll(tc.name, " ", "_")+".txt", tc.input))
			got := replayCmd(nil, args...)
			if got.code != exitOK || got.stderr != "" {
				t.Fatalf("exit %d, stderr %q", got.code, got.stderr)
			}
			checkReplayedCalls(t, got.stdout, "cohere", tc.want)
			if !strings.Contains(got.stdout, `{"event":"thinking","response":0,"index":0,"text":"I"}`) {
				t.Error("the tool plan was not reported as thinking")
			}
		})
	}
}

// checkReplayedCalls checks replay's JSON lines: every response read as
// wire, every call executable, and the calls, "RESPONSE NAME ARGUMENTS",
// those of want in order.
func checkReplayedCalls(t *testing.T, stdout, wire string, want []string) {
	t.Helper()
	var calls []string
	for _, ev := range parseEvents(t, stdout) {
		switch ev.Event {
		case "response":
			if ev.Wire != wire {
				t.Errorf("response %d read as %q, want %q", *ev.Response, ev.Wire, wire)
			}
		case "end":
			if ev.Executable == nil || !*ev.Executable {
				t.Errorf("call %+v not executable", ev)
			}
			calls = append(calls, fmt.Sprintf("%d %s %s", *ev.Response, *ev.Name, ev.Arguments))
		}
	}
	if strings.Join(calls, "; ") != strings.Join(want, "; ") {
		t.Errorf("calls %q, want %q", calls, want)
	}
}

// TestReplayUnread: the calls of a response that replay does not read, an
// output item the client runs (its input a structure of the Responses
// API's own) or a call in a Chat choice other than the first, are no
// policy's: replay says so, and its exit status is 1, whatever else it
// read.
func TestReplayUnread(t *testing.T) {
	patch := `{"id":"apc_1","type":"apply_patch_call","status":"completed","call_id":"call_1","operation":{"type":"delete_file","path":"important.txt"}}`
	for _, tc := range []struct {
		name, stream, want string
	}{
		{"a Responses item the client runs", strings.Join([]string{
			`{"type":"response.created","response":{"id":"resp_1","object":"response","status":"in_progress","output":[]}}`,
			`{"type":"response.output_item.added","output_index":0,"item":` + strings.Replace(patch, `"completed"`, `"in_progress"`, 1) + `}`,
			`{"type":"response.output_item.done","output_index":0,"item":` + patch + `}`,
			`{"type":"response.completed","response":{"id":"resp_1","object":"response","status":"completed","output":[` + patch + `]}}`,
		}, "\n") + "\n", "response 0: an output item is a call the client runs whose input replay does not read"},
		{"a Chat call in the second choice", "data: " + strings.Join([]string{
			`{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":"a"}},{"index":1,"delta":{"role":"assistant"}}]}`,
			`{"id":"c","object":"chat.completion.chunk","choices":[{"index":1,"delta":{"tool_calls":[{"index":0,"id":"call_b","type":"function","function":{"name":"g","arguments":"{}"}}]}}]}`,
			`{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"stop"},{"index":1,"delta":{},"finish_reason":"tool_calls"}]}`,
			`[DONE]`,
		}, "\n\ndata: ") + "\n\n", "response 0: tool calls in a choice other than the first, which replay does not read"},
	} {
		got := replayCmd(strings.NewReader(tc.stream))
		if got.code != exitInvalid || !strings.Contains(got.stderr, tc.want) || !strings.Contains(got.stdout, "response 0: ") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want %d and %q", tc.name, got.code, got.stdout, got.stderr, exitInvalid, tc.want)
		}
	}
}

// TestReplayJSONLinesBOM: a byte order mark at the start of a JSON line,
// as an editor may save a recording, is an error that says so (it made
// the detection of JSON lines read the line again, and again, until the
// stack overflowed).
func TestReplayJSONLinesBOM(t *testing.T) {
	line := `{"candidates":[{"content":{"parts":[{"text":"hi"}]},"finishReason":"STOP"}]}` + "\n"
	for _, tc := range []struct {
		input string
		args  []string
		want  string
	}{
		{"\xef\xbb\xbf" + line, nil, "JSON lines: line 1 begins with a byte order mark"},
		{"\xef\xbb\xbf" + line, []string{"--framing", "jsonl", "--wire", "gemini"}, "JSON lines: line 1 begins with a byte order mark"},
		{line + "\xef\xbb\xbf" + line, nil, "JSON lines: line 2 begins with a byte order mark"},
	} {
		got := replayCmd(strings.NewReader(tc.input), tc.args...)
		if got.code != exitInvalid || !strings.Contains(got.stderr, tc.want) {
			t.Errorf("%q %q: exit %d, stderr %q; want %d and %q", tc.args, tc.input, got.code, got.stderr, exitInvalid, tc.want)
		}
	}
}

// TestReplayBedrockJSONLines: Bedrock's events recorded as JSON lines, as
// the Vercel AI SDK records them ({"TYPE": PAYLOAD} a line), are told as
// Bedrock's and replayed as its frames; a line of another shape among them
// is an error that says so.
func TestReplayBedrockJSONLines(t *testing.T) {
	const file = "../../wire/bedrockstream/testdata/vercel-ai__issue-11409-kimi-k2-thinking-glob-search.chunks.txt"
	want := []string{`0 glob_search {"pattern":"**/*cursor*"}`}
	for _, args := range [][]string{nil, {"--wire", "bedrock"}, {"--framing", "jsonl"}} {
		got := replayCmd(nil, append(append([]string{"--format", "jsonl"}, args...), file)...)
		if got.code != exitOK {
			t.Errorf("%q: exit %d, stderr %q", args, got.code, got.stderr)
			continue
		}
		checkReplayedCalls(t, got.stdout, "bedrock", want)
	}
	body, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	bad := bytes.Replace(body, []byte(`{"contentBlockStop":{"contentBlockIndex":3}}`), []byte(`{"contentBlockStop":{"contentBlockIndex":3},"x":1}`), 1)
	// The input is what it was read as: no hint of another framing.
	if got := replayCmd(bytes.NewReader(bad)); got.code != exitInvalid || !strings.Contains(got.stderr, `line 12 is not one Bedrock event`) ||
		strings.Contains(got.stderr, "the input looks like") {
		t.Errorf("a line of two members: exit %d, stderr %q", got.code, got.stderr)
	}
	// Nor for frames cut short, which were said to look like binary data.
	frames, err := os.ReadFile("../../wire/bedrockstream/testdata/converse-tool-use.bin")
	if err != nil {
		t.Fatal(err)
	}
	if got := replayCmd(bytes.NewReader(frames[:len(frames)/2])); got.code != exitInvalid || !strings.Contains(got.stderr, "stream ended before messageStop") ||
		strings.Contains(got.stderr, "the input looks like") {
		t.Errorf("frames cut short: exit %d, stderr %q", got.code, got.stderr)
	}
}
