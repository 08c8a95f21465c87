package guard

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/argstream/argstream/internal/testutil/wiretest"
	"github.com/argstream/argstream/policy"
	"github.com/argstream/argstream/wire"
)

// eventReader returns one event's bytes per Read, and counts the reads.
type eventReader struct {
	events [][]byte
	reads  int
}

func (r *eventReader) Read(p []byte) (int, error) {
	if r.reads >= len(r.events) {
		return 0, io.EOF
	}
	if len(p) < len(r.events[r.reads]) {
		panic("a read buffer smaller than an event")
	}
	n := copy(p, r.events[r.reads])
	r.reads++
	return n, nil
}

func (r *eventReader) Close() error { return nil }

// frame frames each event on its own, for an eventReader.
func frame(events []wiretest.SSEEvent) [][]byte {
	var out [][]byte
	for _, ev := range events {
		out = append(out, wiretest.AppendSSE(nil, ev))
	}
	return out
}

// TestTiming: what is not held reaches the client with the read of the
// upstream that brought it, and a call decided mid-block reaches it with
// the read that decided it (the one that completed "path"), not at its
// end: nothing is buffered past what its decision needs.
func TestTiming(t *testing.T) {
	pol := mustPolicy(t, `{"run": [{"arg": "/path", "prefix": "src/", "mode": "unattended"}, {"mode": "skip"}], "paths": ["/path"]}`)
	deltas := []string{`{"pa`, `th": "src/ma`, `in.go", "con`, `tent": "package main`, `\n"}`}
	const decidedBy = 2                                        // the delta that ends the path's value
	needle := strings.ReplaceAll(deltas[decidedBy], `"`, `\"`) // as the events hold it
	for _, k := range kinds {
		t.Run(k.String(), func(t *testing.T) {
			plan := wiretest.WirePlan{Calls: []wiretest.WireCall{{Index: 1, ID: "call_1", Name: "write", Deltas: deltas}}}
			for d := -1; d <= len(deltas); d++ {
				plan.Steps = append(plan.Steps, wiretest.WireStep{Call: 0, Delta: d})
			}
			var events []wiretest.SSEEvent
			switch k {
			case wire.Anthropic:
				_, events = wiretest.EncodeAnthropic(plan, rand.New(rand.NewPCG(1, 1)))
			case wire.OpenAIChat:
				events = wiretest.EncodeChat(plan, rand.New(rand.NewPCG(1, 1)))
			default:
				events = wiretest.EncodeResponses(plan, rand.New(rand.NewPCG(1, 1)))
			}
			// Remove the events the encoders add at random, for a known
			// order: find the call's start and deltas.
			up := &eventReader{events: frame(events)}
			g := New(Config{Policy: func(string) *policy.Policy { return pol }})
			rc := g.Filter(k, up, nil)
			buf := make([]byte, 1<<16)
			var got []byte
			arrived := map[int]int{} // upstream event -> the upstream reads when it reached the client
			for {
				n, err := rc.Read(buf)
				got = append(got, buf[:n]...)
				for i, ev := range up.events {
					if _, ok := arrived[i]; !ok && bytes.Contains(got, ev) {
						arrived[i] = up.reads
					}
				}
				if err == io.EOF {
					break
				}
			}
			if !bytes.Equal(got, bytes.Join(up.events, nil)) {
				t.Fatalf("the client read\n%s", got)
			}
			start, decided := -1, -1
			for i, ev := range events {
				if start < 0 && (strings.Contains(ev.Data, `"call_1"`) || strings.Contains(ev.Data, `"fc_1"`)) {
					start = i
				}
				if strings.Contains(ev.Data, needle) && decided < 0 {
					decided = i
				}
			}
			for i := range events {
				want := i + 1 // its own read
				if i >= start && i < decided {
					want = decided + 1 // held until the deciding delta's read
				}
				if arrived[i] != want {
					t.Errorf("event %d (%s) reached the client after %d upstream reads, want %d", i, events[i].Data, arrived[i], want)
				}
			}
		})
	}
}

// TestSlowClient: the upstream is read as the client reads, no further.
func TestSlowClient(t *testing.T) {
	var events []wiretest.SSEEvent
	for i := range 1000 {
		events = append(events, wiretest.SSEEvent{Data: fmt.Sprintf(`{"id":"c","choices":[{"index":0,"delta":{"content":"word %d "}}]}`, i)})
	}
	up := &eventReader{events: frame(events)}
	rc := New(Config{}).Filter(wire.OpenAIChat, up, nil)
	buf := make([]byte, 10)
	for range 3 {
		rc.Read(buf)
	}
	if up.reads > 1 {
		t.Errorf("the upstream was read %d times for 30 bytes of the client's", up.reads)
	}
}

// TestClientGoesAway: closing the client's body cancels the upstream.
func TestClientGoesAway(t *testing.T) {
	cancelled := false
	rc := New(Config{}).Filter(wire.OpenAIChat, io.NopCloser(strings.NewReader(wiretest.DataSSE("{}"))), func() { cancelled = true })
	rc.Close()
	if !cancelled {
		t.Error("the upstream was not cancelled")
	}
}

// TestFailClosed: what the gateway cannot read ends the client's stream
// with the wire's error event, which the client's reader takes for an
// error, and the upstream is cancelled; what was held is never released.
func TestFailClosed(t *testing.T) {
	skipLate := mustPolicy(t, `{"run": [{"arg": "/path", "prefix": "src/", "mode": "unattended"}, {"mode": "skip"}], "paths": ["/path"]}`)
	msgStart, toolStart := wiretest.TypedSSE(messageStartData), wiretest.TypedSSE(toolStartData)
	delta := func(s string) string { return wiretest.TypedSSE(inputDelta(s)) }
	for _, tc := range []struct {
		name     string
		k        wire.Kind
		stream   string
		notHeld  string // what must not reach the client
		provider bool   // the provider's own error event, forwarded
	}{
		{"a repeated member", wire.Anthropic, msgStart + toolStart + delta(`"{\"path\":\"src/"`) +
			wiretest.TypedSSE(`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"x","partial_json":"y"}}`), "tool_use", false},
		{"the stream cut mid-event", wire.Anthropic, msgStart + toolStart + delta(`"{\"path\":\"src/a\"}"`) + "event: content_block_stop\ndata: {", "", false},
		{"the stream ended before message_stop", wire.Anthropic, msgStart + toolStart + delta(`"{\"pa"`), "tool_use", false},
		{"arguments that fail after the call was forwarded", wire.Anthropic, msgStart + toolStart + delta(`"{\"path\":\"src/a\","`) + delta(`"}"`), "", false},
		{"an event over the limit", wire.OpenAIChat, wiretest.DataSSE(`{"id":"c","choices":[{"index":0,"delta":{"content":"` + strings.Repeat("x", 2000) + `"}}]}`), "xxxx", false},
		{"a provider's error event", wire.Anthropic, msgStart + toolStart + delta(`"{\"pa"`) + wiretest.TypedSSE(`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`), "tool_use", true},
		{"a BOM", wire.OpenAIResponses, "\ufeffevent: response.created\ndata: {\"type\":\"response.created\",\"response\":{}}\n\n", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cancelled := false
			g := New(Config{Policy: func(string) *policy.Policy { return skipLate }, MaxEventSize: 1000})
			rc := g.Filter(tc.k, io.NopCloser(strings.NewReader(tc.stream)), func() { cancelled = true })
			out, err := io.ReadAll(rc)
			if err != nil {
				t.Fatal(err)
			}
			if !cancelled {
				t.Error("the upstream was not cancelled")
			}
			if tc.notHeld != "" && strings.Contains(string(out), tc.notHeld) {
				t.Errorf("the client read %q:\n%s", tc.notHeld, out)
			}
			_, _, err = readClient(tc.k, out)
			var pe *wire.ProviderError
			switch {
			case !errors.As(err, &pe):
				t.Errorf("the client's reader: %v, want the provider's error event\n%s", err, out)
			case pe.Wire != tc.k:
				t.Errorf("the provider's error %+v came on %v, want %v", pe, pe.Wire, tc.k)
			case tc.provider && pe.Wire == wire.Anthropic && pe.Type != "overloaded_error":
				t.Errorf("the provider's error became %+v", pe)
			case !tc.provider && !strings.Contains(pe.Message, "argstream gateway"):
				t.Errorf("error %v, want the gateway's", err)
			}
		})
	}
}

// TestSuspectPathAskBlocked: with ask blocked, an unattended call whose
// policy declares paths is held until its arguments end, since a suspect
// path among them makes it an ask: then it is blocked, with its notice,
// and otherwise it goes. With ask forwarded, it goes at its decision.
func TestSuspectPathAskBlocked(t *testing.T) {
	pol := mustPolicy(t, `{"run": "unattended", "paths": ["/path"]}`)
	stream := func(path string) string {
		return wiretest.TypedSSE(messageStartData, toolStartData, inputDelta(`"{\"path\": \""`), inputDelta(`"`+path+`\"}"`),
			`{"type":"content_block_stop","index":0}`, `{"type":"message_stop"}`)
	}
	for _, tc := range []struct {
		path     string
		blockAsk bool
		runs     bool
	}{
		{"~/.ssh/authorized_keys", false, true},
		{"~/.ssh/authorized_keys", true, false},
		{"src/main.go", true, true},
		{"src/main.go", false, true},
	} {
		g := New(Config{Policy: func(string) *policy.Policy { return pol }, BlockAsk: tc.blockAsk})
		in := stream(tc.path)
		out, _ := filterAll(t, g, wire.Anthropic, []byte(in))
		res, text, err := readClient(wire.Anthropic, out)
		if err != nil {
			t.Errorf("%s, ask blocked %v: the client's stream ends with %v\n%s", tc.path, tc.blockAsk, err, out)
		}
		if runs := len(res) == 1 && res[0].Executable; runs != tc.runs {
			t.Errorf("%s, ask blocked %v: the client runs it: %v, want %v\n%s", tc.path, tc.blockAsk, runs, tc.runs, out)
		}
		if tc.runs && string(out) != in {
			t.Errorf("%s, ask blocked %v: the client read\n%s\nwant the upstream's bytes", tc.path, tc.blockAsk, out)
		}
		if !tc.runs && (strings.Contains(string(out), "authorized_keys") || !strings.Contains(text, "its declared path /path is spelled so that")) {
			t.Errorf("%s, ask blocked %v: the client read\n%s", tc.path, tc.blockAsk, out)
		}
	}
}

// TestHostileThroughGateway: the hostile envelopes of "what runs is what
// was judged", through the gateway: the client's stream ends with an
// error, and the client never gets a call the gateway did not judge.
func TestHostileThroughGateway(t *testing.T) {
	yes := mustPolicy(t, `{"run": "unattended"}`)
	ms, ts := wiretest.TypedSSE(messageStartData), wiretest.TypedSSE(toolStartData)
	chunk := func(delta string) string {
		return wiretest.DataSSE(`{"id":"c","choices":[{"index":0,"delta":` + delta + `}]}`)
	}
	resp := wiretest.TypedSSE
	added := resp(`{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","id":"fc","call_id":"c1","name":"write","arguments":""}}`)
	for _, tc := range []struct {
		name   string
		k      wire.Kind
		stream string
	}{
		{"a repeated partial_json", wire.Anthropic, ms + ts + wiretest.TypedSSE(`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{}","partial_json":""}}`)},
		{"an event named other than its type", wire.Anthropic, ms + wiretest.SSE(wiretest.SSEEvent{Type: "content_block_delta", Data: toolStartData})},
		{"no event line", wire.Anthropic, ms + wiretest.DataSSE(toolStartData)},
		{"a call after message_stop", wire.Anthropic, ms + wiretest.TypedSSE(`{"type":"message_stop"}`) + ts},
		{"a Chat name in another case", wire.OpenAIChat, chunk(`{"tool_calls":[{"index":0,"id":"c1","function":{"Name":"write","arguments":"{}"}}]}`)},
		{"a Chat custom tool", wire.OpenAIChat, chunk(`{"tool_calls":[{"index":0,"id":"c1","type":"custom","custom":{"name":"shell","input":"rm -rf /"}}]}`)},
		{"a Chat call without an index", wire.OpenAIChat, chunk(`{"tool_calls":[{"id":"c1","type":"function","function":{"name":"rm","arguments":"{}"}}]}`)},
		{"tool calls in a second choice", wire.OpenAIChat, wiretest.DataSSE(`{"id":"c","choices":[{"index":0,"delta":{}},{"index":1,"delta":{"tool_calls":[{"index":0,"id":"c1","type":"function","function":{"name":"rm","arguments":"{}"}}]}}]}`)},
		{"a done event that differs from the deltas", wire.OpenAIResponses, added +
			resp(`{"type":"response.function_call_arguments.delta","item_id":"fc","output_index":0,"delta":"{\"path\":\"src/a\"}"}`) +
			resp(`{"type":"response.function_call_arguments.done","item_id":"fc","output_index":0,"arguments":"{\"path\":\"/etc/passwd\"}"}`)},
		{"a done event of the same length that differs from the deltas", wire.OpenAIResponses, added +
			resp(`{"type":"response.function_call_arguments.delta","item_id":"fc","output_index":0,"delta":"{\"path\":\"src/a\"}"}`) +
			resp(`{"type":"response.function_call_arguments.done","item_id":"fc","output_index":0,"arguments":"{\"path\":\"/root\"}"}`)},
		{"a BOM", wire.OpenAIResponses, "\ufeff" + added},
		// A call the client runs whose input no policy reads.
		{"a Responses local shell call", wire.OpenAIResponses, resp(`{"type":"response.created","response":{"id":"r","status":"in_progress","output":[]}}`) +
			resp(`{"type":"response.output_item.added","output_index":0,"item":{"type":"local_shell_call","id":"lsc","call_id":"c1","action":{"type":"exec","command":["rm","-rf","/"]},"status":"in_progress"}}`)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := New(Config{Policy: func(string) *policy.Policy { return yes }})
			out, _ := filterAll(t, g, tc.k, []byte(tc.stream))
			// The error event makes the SDKs fail the stream: the agent
			// runs nothing of it.
			_, _, err := readClient(tc.k, out)
			if err == nil || !strings.Contains(err.Error(), "argstream gateway") {
				t.Errorf("the client's stream ends with %v\n%s", err, out)
			}
			if strings.Contains(string(out), "etc/passwd") || strings.Contains(string(out), `/root`) || strings.Contains(string(out), `"rm"`) || strings.Contains(string(out), "rm -rf") {
				t.Errorf("the client read what the gateway refused:\n%s", out)
			}
		})
	}
}

// TestCustomToolCall: a Responses custom_tool_call (Codex's apply_patch,
// its input free text) is judged as a call whose arguments are
// {"input":TEXT}: forwarded byte for byte when its policy allows it, and
// when it blocks it, absent from every event and from the final output,
// the notice in its place.
func TestCustomToolCall(t *testing.T) {
	resp := wiretest.TypedSSE
	item := func(input, status string) string {
		return `{"type":"custom_tool_call","id":"ctc_1","call_id":"call_1","name":"apply_patch","input":"` + input + `","status":"` + status + `"}`
	}
	patch := `*** Begin Patch\n*** Update File: /etc/passwd\n+root::0:0\n*** End Patch`
	stream := resp(`{"type":"response.created","response":{"id":"r","object":"response","status":"in_progress","output":[]}}`) +
		resp(`{"type":"response.output_item.added","output_index":0,"item":`+item("", "in_progress")+`}`) +
		resp(`{"type":"response.custom_tool_call_input.delta","item_id":"ctc_1","output_index":0,"delta":"*** Begin Patch\n*** Update File: "}`) +
		resp(`{"type":"response.custom_tool_call_input.delta","item_id":"ctc_1","output_index":0,"delta":"/etc/passwd\n"}`) +
		resp(`{"type":"response.custom_tool_call_input.delta","item_id":"ctc_1","output_index":0,"delta":"+root::0:0\n*** End Patch"}`) +
		resp(`{"type":"response.custom_tool_call_input.done","item_id":"ctc_1","output_index":0,"input":"`+patch+`"}`) +
		resp(`{"type":"response.output_item.done","output_index":0,"item":`+item(patch, "completed")+`}`) +
		resp(`{"type":"response.completed","response":{"id":"r","object":"response","status":"completed","output":[`+item(patch, "completed")+`]}}`)
	allow := mustPolicy(t, `{"run": "unattended"}`)
	out, _ := filterAll(t, New(Config{Policy: func(string) *policy.Policy { return allow }}), wire.OpenAIResponses, []byte(stream))
	if string(out) != stream {
		t.Errorf("allowed: the client read\n%s\nwant the upstream's bytes", out)
	}
	res, _, err := readClient(wire.OpenAIResponses, out)
	if err != nil || len(res) != 1 || !res[0].Executable || !strings.Contains(string(res[0].Arguments), "/etc/passwd") {
		t.Errorf("allowed: the client reads %v, %+v", err, res)
	}

	// The patch is judged as its text streams: blocked at "/etc/".
	deny := mustPolicy(t, `{"run": [{"arg": "/input", "pattern": "Update File: /", "mode": "skip"}, {"mode": "unattended"}]}`)
	out, _ = filterAll(t, New(Config{Policy: func(string) *policy.Policy { return deny }}), wire.OpenAIResponses, []byte(stream))
	res, text, err := readClient(wire.OpenAIResponses, out)
	if err != nil || len(res) != 0 || !strings.Contains(text, `The call to the tool "apply_patch" (id "call_1") was blocked`) {
		t.Errorf("blocked: the client reads %v, %+v, %q\n%s", err, res, text, out)
	}
	for _, hidden := range []string{"passwd", "custom_tool_call", "root::"} {
		if strings.Contains(string(out), hidden) {
			t.Errorf("blocked: %q reaches the client:\n%s", hidden, out)
		}
	}
}

// TestCancelNoGap: a Responses call blocked at its start while an item
// the model numbered past it has come, and one between them has not:
// ending the stream there would list the later item one place too low in
// response.completed, so the upstream is not cancelled, and the client
// reads the other calls where the model put them.
func TestCancelNoGap(t *testing.T) {
	resp := wiretest.TypedSSE
	item := func(i, name, args, status string) string {
		return `{"type":"function_call","id":"fc_` + i + `","call_id":"call_` + i + `","name":"` + name + `","arguments":"` + args + `","status":"` + status + `"}`
	}
	added := func(i, name string) string {
		return `{"type":"response.output_item.added","output_index":` + i + `,"item":` + item(i, name, "", "in_progress") + `}`
	}
	delta := func(i, d string) string {
		return `{"type":"response.function_call_arguments.delta","item_id":"fc_` + i + `","output_index":` + i + `,"delta":"` + d + `"}`
	}
	done := func(i, name, args string) string {
		return `{"type":"response.output_item.done","output_index":` + i + `,"item":` + item(i, name, args, "completed") + `}`
	}
	args := `{\"a\":1}`
	stream := resp(`{"type":"response.created","response":{"id":"r","object":"response","status":"in_progress","output":[]}}`,
		added("2", "read"), delta("2", args), done("2", "read", args),
		added("0", "rm"), delta("0", args), done("0", "rm", args),
		added("1", "read"), delta("1", args), done("1", "read", args),
		`{"type":"response.completed","response":{"id":"r","object":"response","status":"completed","output":[`+
			item("0", "rm", args, "completed")+`,`+item("1", "read", args, "completed")+`,`+item("2", "read", args, "completed")+`]}}`)
	skip, yes := mustPolicy(t, `{"run": "skip"}`), mustPolicy(t, `{"run": "unattended"}`)
	g := New(Config{Policy: func(name string) *policy.Policy {
		if name == "rm" {
			return skip
		}
		return yes
	}})
	out, cancelled := filterAll(t, g, wire.OpenAIResponses, []byte(stream))
	res, text, err := readClient(wire.OpenAIResponses, out)
	var got []string
	for _, r := range res {
		got = append(got, fmt.Sprintf("%d %s %v", r.Call.Index, r.Call.Name, r.Executable))
	}
	if cancelled || err != nil || strings.Join(got, ", ") != "1 read true, 2 read true" || !strings.Contains(text, `"rm"`) {
		t.Errorf("cancelled %v, %v, calls %q, text %q\n%s", cancelled, err, got, text, out)
	}
}
