package main

import (
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
)

// chatResponse is a Chat Completions stream of id with one call, ended by
// its finish_reason, then [DONE] if done.
func chatResponse(id, name, args string, done bool) string {
	events := []any{
		fmt.Sprintf(`{"id":%q,"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_%s","type":"function","function":{"name":%q,"arguments":%s}}]}}]}`, id, id, name, quoteJSONString(args)),
		fmt.Sprintf(`{"id":%q,"object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`, id),
		fmt.Sprintf(`{"id":%q,"object":"chat.completion.chunk","choices":[],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`, id),
	}
	if done {
		events = append(events, "[DONE]")
	}
	return sseOf(events...)
}

// responsesResponse is a Responses API stream with one call, then [DONE]
// if done.
func responsesResponse(id, name, args string, done bool) string {
	item := func(status, a string) string {
		return fmt.Sprintf(`{"id":"fc_%s","type":"function_call","status":%q,"arguments":%s,"call_id":"call_%s","name":%q}`, id, status, quoteJSONString(a), id, name)
	}
	events := []any{
		fmt.Sprintf(`{"type":"response.created","response":{"id":%q,"status":"in_progress","output":[]}}`, id),
		fmt.Sprintf(`{"type":"response.output_item.added","output_index":0,"item":%s}`, item("in_progress", "")),
		fmt.Sprintf(`{"type":"response.function_call_arguments.delta","item_id":"fc_%s","output_index":0,"delta":%s}`, id, quoteJSONString(args)),
		fmt.Sprintf(`{"type":"response.output_item.done","output_index":0,"item":%s}`, item("completed", args)),
		fmt.Sprintf(`{"type":"response.completed","response":{"id":%q,"status":"completed","output":[%s]}}`, id, item("completed", args)),
	}
	if done {
		events = append(events, "[DONE]")
	}
	return sseOf(events...)
}

// Responses one after the other in one input are replayed one by one,
// whatever the wire, with or without the end markers each wire may send,
// as they arrive a byte at a time.
func TestReplayResponsesInOneInput(t *testing.T) {
	want := []string{`0 executable=true {"a":1}`, `0 executable=true {"b":2}`, `0 executable=true {"c":3}`}
	for _, c := range []struct{ name, input string }{
		{"chat, [DONE]", chatResponse("c1", "f", `{"a":1}`, true) + chatResponse("c2", "f", `{"b":2}`, true) + chatResponse("c3", "f", `{"c":3}`, true)},
		{"chat, no [DONE]", chatResponse("c1", "f", `{"a":1}`, false) + chatResponse("c2", "f", `{"b":2}`, false) + chatResponse("c3", "f", `{"c":3}`, false)},
		{"responses, [DONE]", responsesResponse("r1", "f", `{"a":1}`, true) + responsesResponse("r2", "f", `{"b":2}`, true) + responsesResponse("r3", "f", `{"c":3}`, true)},
		{"responses, no [DONE]", responsesResponse("r1", "f", `{"a":1}`, false) + responsesResponse("r2", "f", `{"b":2}`, true) + responsesResponse("r3", "f", `{"c":3}`, false)},
		{"anthropic, a ping after message_stop", anthropicResponse([2]string{"f", `{"a":1}`}) + sseOf(obj{"type": "ping"}) +
			anthropicResponse([2]string{"f", `{"b":2}`}) + anthropicResponse([2]string{"f", `{"c":3}`})},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := replayCmd(iotest.OneByteReader(strings.NewReader(c.input)), "--format", "jsonl")
			evs := parseEvents(t, got.stdout)
			if diff := cmp.Diff(want, ends(evs)); diff != "" || got.code != exitOK {
				t.Errorf("exit %d, stderr %s (-want +got):\n%s", got.code, got.stderr, diff)
			}
			if n := responses(evs); n != 3 {
				t.Errorf("%d responses, want 3", n)
			}
		})
	}
}

// Within one response, a chunk of another id before any finish_reason is
// not the start of another response: the stream is malformed.
func TestReplayChatIDChangesMidResponse(t *testing.T) {
	first := `{"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"f","arguments":"{\"a\":"}}]}}]}`
	other := `{"id":"c2","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"1}"}}]},"finish_reason":"tool_calls"}]}`
	got := replayCmd(strings.NewReader(sseOf(first, other, "[DONE]")), "--format", "jsonl")
	if got.code != exitInvalid || !strings.Contains(got.stderr, "malformed") {
		t.Errorf("exit %d, stderr %s", got.code, got.stderr)
	}
	if n := responses(parseEvents(t, got.stdout)); n != 1 {
		t.Errorf("%d responses, want 1", n)
	}
}

// The cut gives a response's bytes as they came, and the next response's
// first event is kept for it: nothing is lost or read twice.
func TestResponseCutKeepsEveryByte(t *testing.T) {
	a, b := anthropicResponse([2]string{"f", `{"a":1}`})+": a comment\n\n", anthropicResponse([2]string{"g", `{}`})
	c := newResponseCut("anthropic", iotest.OneByteReader(strings.NewReader(a+b)))
	got, err := io.ReadAll(c)
	if err != nil {
		t.Fatal(err)
	}
	// The comment after message_stop is read with the next event, which
	// tells the response ended: it is given with this response.
	if string(got) != a || !strings.HasPrefix(b, string(c.next)) || len(c.next) == 0 {
		t.Errorf("got %q, next %q", got, c.next)
	}
}

// responses counts the response lines.
func responses(evs []replayEvent) int {
	n := 0
	for _, ev := range evs {
		if ev.Event == "response" {
			n++
		}
	}
	return n
}
