package openaistream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/internal/testutil/wiretest"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire"
	"github.com/argstream/argstream/wire/sse"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
)

// responsesSSE frames event data payloads (one line of JSON each) as SSE,
// each with the "event:" line named by its "type" if withEvent. Each
// responsesCompleted among them becomes a response.completed whose output
// lists the items before it, as the API's does (withOutput).
func responsesSSE(withEvent bool, data ...string) string {
	data = slices.Clone(data)
	for i, d := range data {
		if d == responsesCompleted {
			data[i] = withOutput(d, data[:i])
		}
	}
	if withEvent {
		return wiretest.TypedSSE(data...)
	}
	return wiretest.DataSSE(data...)
}

// withOutput returns end, a response.completed or response.incomplete
// event, with the output its response has after the events before: the
// item of each output_index, as its output_item.done gave it, or its
// output_item.added with the arguments of its deltas; an index with no
// item is a message. Decoded with encoding/json, independently of
// ReadResponses.
func withOutput(end string, before []string) string {
	items := map[int]map[string]any{}
	byID := map[string]int{}
	last := -1
	for _, d := range before {
		var ev struct {
			Type        string         `json:"type"`
			OutputIndex *int           `json:"output_index"`
			ItemID      string         `json:"item_id"`
			Item        map[string]any `json:"item"`
			Delta       string         `json:"delta"`
		}
		if json.Unmarshal([]byte(d), &ev) != nil {
			continue
		}
		if ev.OutputIndex == nil {
			i, ok := byID[ev.ItemID]
			if !ok {
				continue
			}
			ev.OutputIndex = &i
		}
		i := *ev.OutputIndex
		if id, ok := ev.Item["id"].(string); ok {
			byID[id] = i
		}
		last = max(last, i)
		switch ev.Type {
		case "response.output_item.added", "response.output_item.done":
			items[i] = ev.Item
		case "response.function_call_arguments.delta", "response.mcp_call_arguments.delta":
			if it := items[i]; it != nil {
				it["arguments"] = fmt.Sprint(it["arguments"]) + ev.Delta
			}
		}
	}
	output := []map[string]any{}
	for i := 0; i <= last; i++ {
		it := items[i]
		if it == nil {
			it = map[string]any{"type": "message", "id": fmt.Sprint("msg_", i), "role": "assistant", "content": []any{}}
		}
		output = append(output, it)
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(end), &v); err != nil {
		panic(err)
	}
	v["response"].(map[string]any)["output"] = output
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// Data payloads of the Responses API, for the tests.

func responsesAdded(index int, itemID, callID, name, args string) string {
	return fmt.Sprintf(`{"type":"response.output_item.added","output_index":%d,"item":{"type":"function_call","id":%q,"call_id":%q,"name":%q,"arguments":%q,"status":"in_progress"}}`, index, itemID, callID, name, args)
}

func responsesDelta(index int, itemID, delta string) string {
	if index < 0 {
		return fmt.Sprintf(`{"type":"response.function_call_arguments.delta","item_id":%q,"delta":%q}`, itemID, delta)
	}
	return fmt.Sprintf(`{"type":"response.function_call_arguments.delta","item_id":%q,"output_index":%d,"delta":%q}`, itemID, index, delta)
}

func responsesArgsDoneEvent(index int, itemID, args string) string {
	return fmt.Sprintf(`{"type":"response.function_call_arguments.done","item_id":%q,"output_index":%d,"arguments":%q}`, itemID, index, args)
}

func responsesItemDoneEvent(index int, itemID, callID, name, args string) string {
	return fmt.Sprintf(`{"type":"response.output_item.done","output_index":%d,"item":{"type":"function_call","id":%q,"call_id":%q,"name":%q,"arguments":%q,"status":"completed"}}`, index, itemID, callID, name, args)
}

func responsesMessageAdded(index int) string {
	return fmt.Sprintf(`{"type":"response.output_item.added","output_index":%d,"item":{"type":"message","id":"msg_%d","status":"in_progress","role":"assistant","content":[]}}`, index, index)
}

func responsesTextDelta(index int, text string) string {
	return fmt.Sprintf(`{"type":"response.output_text.delta","item_id":"msg_%d","output_index":%d,"content_index":0,"delta":%q}`, index, index, text)
}

const (
	responsesCreated   = `{"type":"response.created","sequence_number":0,"response":{"id":"resp_1","object":"response","status":"in_progress","output":[]}}`
	responsesCompleted = `{"type":"response.completed","response":{"id":"resp_1","object":"response","status":"completed","output":[]}}`
)

// responsesCall1 is a whole function call at output_index 1, its arguments
// in deltas.
func responsesCall1(deltas ...string) []string {
	out := []string{responsesAdded(1, "fc_1", "call_1", "get_weather", "")}
	for _, d := range deltas {
		out = append(out, responsesDelta(1, "fc_1", d))
	}
	args := strings.Join(deltas, "")
	return append(out, responsesArgsDoneEvent(1, "fc_1", args), responsesItemDoneEvent(1, "fc_1", "call_1", "get_weather", args))
}

func responsesRead(stream string) ([]wiretest.CallOutcome, error) {
	g := responsesAdapter.Run(toolcall.New(), strings.NewReader(stream))
	return g.Calls, g.Err
}

func responsesWant(index int64, id, name, args string) wiretest.CallOutcome {
	return wiretest.CallOutcome{Index: index, ID: id, Name: name, Arguments: args, Executable: true}
}

func TestResponsesDeltas(t *testing.T) {
	for _, tc := range []struct {
		name   string
		deltas []string
	}{
		{"whole object in one delta", []string{`{"city": "Paris", "n": [1, 2.5e3]}`}},
		{"empty deltas", []string{"", `{"city"`, "", `:"Paris"}`, ""}},
		{"keys split mid-string", []string{`{"ci`, `ty":"Pa`, `ris","un`, `it":"c"}`}},
		{"escapes split", []string{`{"t":"a\`, `n\u00`, `e9\ud83d`, `\ude00"}`}},
		{"a number split", []string{`{"n":12`, `34.5`, `e1}`}},
		{"no arguments", []string{`{}`}},
	} {
		want, err := testutil.Canonical([]byte(strings.Join(tc.deltas, "")))
		if err != nil {
			t.Fatal(err)
		}
		for _, withEvent := range []bool{true, false} {
			data := append([]string{responsesCreated, responsesMessageAdded(0), responsesTextDelta(0, "Checking.")}, responsesCall1(tc.deltas...)...)
			stream := responsesSSE(withEvent, append(data, responsesCompleted)...)
			got, err := responsesRead(stream)
			if err != nil {
				t.Fatalf("%s: ReadResponses = %v", tc.name, err)
			}
			if diff := cmp.Diff([]wiretest.CallOutcome{responsesWant(1, "call_1", "get_weather", string(want))}, got); diff != "" {
				t.Errorf("%s, event field %v (-want +got):\n%s", tc.name, withEvent, diff)
			}
		}
	}
}

// TestResponsesDoneOnly: a call whose arguments come only in its done
// events, as a proxy may send them, is read from them.
func TestResponsesDoneOnly(t *testing.T) {
	args := `{"city":"Paris"}`
	for _, tc := range []struct {
		name      string
		data      []string
		want      wiretest.CallOutcome
		malformed bool
	}{
		{"added and done", []string{
			responsesAdded(0, "fc_0", "call_0", "f", ""),
			responsesArgsDoneEvent(0, "fc_0", args),
			responsesItemDoneEvent(0, "fc_0", "call_0", "f", args),
		}, responsesWant(0, "call_0", "f", args), false},
		// An arguments event for an output_index no output_item.added
		// made a call: the SDKs that accumulate fail on it.
		{"function_call_arguments.done alone", []string{
			responsesArgsDoneEvent(0, "fc_0", args),
		}, wiretest.CallOutcome{}, true},
		{"output_item.done alone", []string{
			responsesItemDoneEvent(0, "fc_0", "call_0", "f", args),
		}, responsesWant(0, "call_0", "f", args), false},
		{"both done events, no added", []string{
			responsesArgsDoneEvent(0, "fc_0", args),
			responsesItemDoneEvent(0, "fc_0", "call_0", "f", args),
		}, wiretest.CallOutcome{}, true},
		{"arguments in added", []string{
			responsesAdded(0, "fc_0", "call_0", "f", args),
			responsesArgsDoneEvent(0, "fc_0", args),
			responsesItemDoneEvent(0, "fc_0", "call_0", "f", args),
		}, responsesWant(0, "call_0", "f", args), false},
		// Arguments in the added item are the first bytes, which deltas
		// extend, as the SDKs append them: {} then deltas is no JSON.
		{"{} in added, then deltas", []string{
			responsesAdded(0, "fc_0", "call_0", "f", "{}"),
			responsesDelta(0, "fc_0", `{"city":`),
			responsesDelta(0, "fc_0", `"Paris"}`),
			responsesArgsDoneEvent(0, "fc_0", args),
		}, wiretest.CallOutcome{Index: 0, ID: "call_0", Name: "f", Syntax: true}, false},
		{"{} in added, then done with other arguments", []string{
			responsesAdded(0, "fc_0", "call_0", "f", "{}"),
			responsesArgsDoneEvent(0, "fc_0", args),
		}, wiretest.CallOutcome{Index: 0, ID: "call_0", Name: "f"}, false},
		{"{} in added and done", []string{
			responsesAdded(0, "fc_0", "call_0", "f", "{}"),
			responsesItemDoneEvent(0, "fc_0", "call_0", "f", "{}"),
		}, responsesWant(0, "call_0", "f", "{}"), false},
		{"{} in added, output_item.done with empty arguments", []string{
			responsesAdded(0, "fc_0", "call_0", "f", "{}"),
			responsesItemDoneEvent(0, "fc_0", "call_0", "f", ""),
		}, wiretest.CallOutcome{Index: 0, ID: "call_0", Name: "f"}, false},
		// The defect of the first attack round: deltas approved, a done
		// event that every SDK reports as the call.
		{"done differs from the deltas: refused", []string{
			responsesAdded(0, "fc_0", "call_0", "f", ""),
			responsesDelta(0, "fc_0", args),
			responsesArgsDoneEvent(0, "fc_0", `{"city":"Rome"}`),
			responsesItemDoneEvent(0, "fc_0", "call_0", "f", `{"city":"Rome"}`),
		}, wiretest.CallOutcome{Index: 0, ID: "call_0", Name: "f"}, false},
		{"output_item.done differs from the deltas and the done event: refused", []string{
			responsesAdded(0, "fc_0", "call_0", "f", ""),
			responsesDelta(0, "fc_0", args),
			responsesArgsDoneEvent(0, "fc_0", args),
			responsesItemDoneEvent(0, "fc_0", "call_0", "f", `{"city":"Rome"}`),
		}, wiretest.CallOutcome{Index: 0, ID: "call_0", Name: "f"}, false},
		{"output_item.done under another name: refused", []string{
			responsesAdded(0, "fc_0", "call_0", "f", ""),
			responsesDelta(0, "fc_0", args),
			responsesItemDoneEvent(0, "fc_0", "call_0", "g", args),
		}, wiretest.CallOutcome{Index: 0, ID: "call_0", Name: "f"}, false},
		{"output_item.done of another item at the call's index", []string{
			responsesAdded(0, "fc_0", "call_0", "f", ""),
			responsesDelta(0, "fc_0", args),
			responsesItemDoneEvent(0, "fc_9", "call_0", "f", args),
		}, wiretest.CallOutcome{}, true},
		{"empty done: no arguments", []string{
			responsesAdded(0, "fc_0", "call_0", "f", ""),
			responsesArgsDoneEvent(0, "fc_0", ""),
			responsesItemDoneEvent(0, "fc_0", "call_0", "f", ""),
		}, wiretest.CallOutcome{Index: 0, ID: "call_0", Name: "f", Truncated: true}, false},
	} {
		for _, withEvent := range []bool{true, false} {
			got, err := responsesRead(responsesSSE(withEvent, append(tc.data, responsesCompleted)...))
			if tc.malformed {
				if !errors.Is(err, ErrMalformed) || len(got) > 0 && got[0].Executable {
					t.Errorf("%s: ReadResponses = %v, %+v, want ErrMalformed and no call executable", tc.name, err, got)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s: ReadResponses = %v", tc.name, err)
			}
			if diff := cmp.Diff([]wiretest.CallOutcome{tc.want}, got); diff != "" {
				t.Errorf("%s, event field %v (-want +got):\n%s", tc.name, withEvent, diff)
			}
		}
	}
}

// TestResponsesItemID: a delta without output_index is for the call of its
// item_id.
func TestResponsesItemID(t *testing.T) {
	stream := responsesSSE(true,
		responsesAdded(3, "fc_3", "call_3", "f", ""),
		responsesAdded(5, "fc_5", "call_5", "g", ""),
		responsesDelta(-1, "fc_5", `{"b":`),
		responsesDelta(-1, "fc_3", `{"a":`),
		responsesDelta(3, "fc_3", `1}`),
		responsesDelta(-1, "fc_5", `2}`),
		`{"type":"response.function_call_arguments.done","item_id":"fc_5","arguments":"{\"b\":2}"}`,
		responsesCompleted)
	got, err := responsesRead(stream)
	if err != nil {
		t.Fatal(err)
	}
	want := []wiretest.CallOutcome{responsesWant(3, "call_3", "f", `{"a":1}`), responsesWant(5, "call_5", "g", `{"b":2}`)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}

	for _, delta := range []string{
		`{"type":"response.function_call_arguments.delta","item_id":"fc_9","delta":"{}"}`,
		`{"type":"response.function_call_arguments.delta","delta":"{}"}`,
		`{"type":"response.function_call_arguments.done","item_id":"fc_9","arguments":"{}"}`,
	} {
		_, err := responsesRead(responsesSSE(true, responsesAdded(3, "fc_3", "call_3", "f", ""), delta, responsesCompleted))
		if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "event 2") {
			t.Errorf("%s: ReadResponses = %v, want ErrMalformed at event 2", delta, err)
		}
	}
}

// TestResponsesMCP: an mcp_call item is a call, with its item id.
func TestResponsesMCP(t *testing.T) {
	stream := responsesSSE(true,
		`{"type":"response.output_item.added","output_index":0,"item":{"type":"mcp_list_tools","id":"mcpl_1","server_label":"deepwiki","tools":[{"name":"ask"}]}}`,
		`{"type":"response.output_item.added","output_index":1,"item":{"type":"mcp_call","id":"mcp_1","server_label":"deepwiki","name":"ask_question","arguments":"","output":null,"error":null}}`,
		`{"type":"response.mcp_call_arguments.delta","item_id":"mcp_1","output_index":1,"delta":"{\"q\":"}`,
		`{"type":"response.mcp_call_arguments.delta","item_id":"mcp_1","output_index":1,"delta":"\"why\"}"}`,
		`{"type":"response.mcp_call_arguments.done","item_id":"mcp_1","output_index":1,"arguments":"{\"q\":\"why\"}"}`,
		`{"type":"response.mcp_call.in_progress","item_id":"mcp_1","output_index":1}`,
		`{"type":"response.mcp_call.completed","item_id":"mcp_1","output_index":1}`,
		`{"type":"response.output_item.done","output_index":1,"item":{"type":"mcp_call","id":"mcp_1","server_label":"deepwiki","name":"ask_question","arguments":"{\"q\":\"why\"}","output":"because"}}`,
		responsesCompleted)
	got, err := responsesRead(stream)
	if err != nil {
		t.Fatal(err)
	}
	want := responsesWant(1, "mcp_1", "ask_question", `{"q":"why"}`)
	want.Server, want.Executable = true, false // OpenAI runs it: never the caller's to run
	if diff := cmp.Diff([]wiretest.CallOutcome{want}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// customItem is a custom_tool_call item at output_index 1.
func customItem(input string) string {
	q, _ := json.Marshal(input)
	return `{"id":"ctc_1","type":"custom_tool_call","call_id":"call_c","name":"apply_patch","input":` + string(q) + `}`
}

// customEvent is an event of the custom call at output_index 1.
func customEvent(typ, member, text string) string {
	q, _ := json.Marshal(text)
	return `{"type":"` + typ + `","output_index":1,"item_id":"ctc_1","` + member + `":` + string(q) + `}`
}

// TestResponsesCustomTool: a custom_tool_call, whose input is free text
// (Codex's apply_patch), is a call whose arguments are {"input":TEXT}, as
// it streams; every restatement is compared with what streamed.
func TestResponsesCustomTool(t *testing.T) {
	text := "*** Begin Patch\n*** Update File: a \"b\".go\n+caf\u00e9 \u2028 </script> \\ \t\x01\n*** End Patch"
	parts := []string{text[:7], "", text[7:20], text[20:33], text[33:]}
	quoted, _ := jsontext.AppendQuote(nil, text)
	want := responsesWant(1, "call_c", "apply_patch", `{"input":`+string(quoted)+`}`)
	whole := func(input string, deltas ...string) []string {
		evs := []string{`{"type":"response.output_item.added","output_index":1,"item":` + customItem(input) + `}`}
		for _, d := range deltas {
			evs = append(evs, customEvent("response.custom_tool_call_input.delta", "delta", d))
		}
		return evs
	}
	done := func(input string) []string {
		return []string{
			customEvent("response.custom_tool_call_input.done", "input", input),
			`{"type":"response.output_item.done","output_index":1,"item":` + customItem(input) + `}`,
		}
	}
	for _, tc := range []struct {
		name string
		evs  []string
		want wiretest.CallOutcome
	}{
		{"streamed", append(whole("", parts...), done(text)...), want},
		{"its first bytes in the item added", append(whole(text[:10], text[10:]), done(text)...), want},
		{"stated whole, in the final output only", []string{`{"type":"response.output_item.done","output_index":1,"item":` + customItem(text) + `}`}, want},
		{"no input", append(whole(""), done("")...), responsesWant(1, "call_c", "apply_patch", `{"input":""}`)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stream := responsesSSE(true, append(append([]string{responsesCreated}, tc.evs...), responsesCompleted)...)
			got, err := responsesRead(stream)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]wiretest.CallOutcome{tc.want}, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			responsesAdapter.CheckSplits(t, tc.name, []byte(stream), func(rd io.Reader) wiretest.Got {
				return responsesAdapter.Run(toolcall.New(), rd)
			})
		})
	}

	// Restated otherwise: the call fails, naming both.
	for _, restated := range []string{"input.done", "item.done"} {
		evs := append(whole("", "rm -rf src/tmp"), done("rm -rf src/tmp")...)
		other := "rm -rf /"
		if restated == "input.done" {
			evs[len(evs)-2] = customEvent("response.custom_tool_call_input.done", "input", other)
		} else {
			evs[len(evs)-1] = `{"type":"response.output_item.done","output_index":1,"item":` + customItem(other) + `}`
		}
		resp := toolcall.New()
		err := ReadResponses(context.Background(), strings.NewReader(responsesSSE(true, append(append([]string{responsesCreated}, evs...), responsesCompleted)...)), resp)
		res := resp.End()
		var me *toolcall.MismatchError
		if err != nil || len(res) != 1 || res[0].Executable || !errors.As(res[0].Err, &me) || !strings.Contains(me.Error(), "rm -rf /") {
			t.Errorf("restated in %s: ReadResponses = %v, %+v; want the call failed, naming both", restated, err, res)
		}
	}

	// Events of the other kind of call, or an item restated as another
	// kind, are malformed: the SDKs apply them to no item, or otherwise.
	for name, evs := range map[string][]string{
		"a function_call delta for a custom call": append(whole("", "x"), customEvent("response.function_call_arguments.delta", "delta", "y")),
		"a custom delta for a function_call":      {responsesAdded(1, "ctc_1", "call_c", "f", ""), customEvent("response.custom_tool_call_input.delta", "delta", "{}")},
		"a custom input done for a function_call": {responsesAdded(1, "ctc_1", "call_c", "f", ""), customEvent("response.custom_tool_call_input.done", "input", "{}")},
		"done as a function_call":                 append(whole("", "x"), `{"type":"response.output_item.done","output_index":1,"item":{"id":"ctc_1","type":"function_call","call_id":"call_c","name":"apply_patch","arguments":"{}"}}`),
		"done without its input":                  append(whole("", "x"), `{"type":"response.output_item.done","output_index":1,"item":{"id":"ctc_1","type":"custom_tool_call","call_id":"call_c","name":"apply_patch"}}`),
		"input done without its input":            append(whole("", "x"), `{"type":"response.custom_tool_call_input.done","output_index":1,"item_id":"ctc_1","arguments":"x"}`),
		"no call_id":                              {`{"type":"response.output_item.added","output_index":1,"item":{"id":"ctc_1","type":"custom_tool_call","name":"apply_patch","input":""}}`},
	} {
		resp := toolcall.New()
		err := ReadResponses(context.Background(), strings.NewReader(responsesSSE(true, append([]string{responsesCreated}, evs...)...)), resp)
		if !errors.Is(err, ErrMalformed) {
			t.Errorf("%s: ReadResponses = %v, want ErrMalformed", name, err)
		}
		for _, r := range resp.End() {
			if r.Executable {
				t.Errorf("%s: %+v executable", name, r)
			}
		}
	}
}

// TestResponsesNotCalls: items that are not function, MCP or custom calls
// give no call, whatever their fields.
func TestResponsesNotCalls(t *testing.T) {
	stream := responsesSSE(true,
		`{"type":"response.output_item.added","output_index":0,"item":{"id":"tsc_1","type":"tool_search_call","status":"in_progress","arguments":{},"call_id":null,"execution":"server"}}`,
		`{"type":"response.output_item.done","output_index":0,"item":{"id":"tsc_1","type":"tool_search_call","status":"completed","arguments":{"paths":["get_weather"]},"call_id":null}}`,
		`{"type":"response.output_item.added","output_index":2,"item":{"id":"ws_1","type":"web_search_call","status":"in_progress"}}`,
		`{"type":"response.web_search_call.searching","output_index":2,"item_id":"ws_1"}`,
		`{"type":"response.output_item.added","output_index":3,"item":{"id":"rs_1","type":"reasoning","summary":[]}}`,
		`{"type":"response.output_item.added","output_index":4,"item":{"id":"x_1","type":"future_call","name":7,"arguments":[1]}}`,
		responsesCompleted)
	got, err := responsesRead(stream)
	if err != nil || len(got) != 0 {
		t.Errorf("ReadResponses = %v, calls %+v, want none", err, got)
	}
	for _, data := range []string{"not even json", "[1, 2]", `{"no_type":true}`, `{"type":"response.future_event","Type":"x"}`} {
		if _, err := responsesRead(responsesSSE(true, responsesCreated) + wiretest.DataSSE(data)); !errors.Is(err, ErrMalformed) {
			t.Errorf("data %s: ReadResponses = %v, want ErrMalformed", data, err)
		}
	}
}

func TestResponsesText(t *testing.T) {
	stream := responsesSSE(false,
		`{"type":"response.reasoning_summary_text.delta","item_id":"rs_1","output_index":0,"summary_index":0,"delta":"Let me \"think\"\n"}`,
		`{"type":"response.reasoning_text.delta","item_id":"rs_1","output_index":0,"content_index":0,"delta":"raw"}`,
		`{"type":"response.output_text.delta","item_id":"msg_1","output_index":1,"content_index":0,"delta":"caf\u00e9"}`,
		`{"type":"response.refusal.delta","item_id":"msg_1","output_index":1,"content_index":1,"delta":"I can't."}`,
		`{"type":"response.output_text.done","item_id":"msg_1","output_index":1,"content_index":0,"text":"café"}`,
		responsesCompleted)
	var got []string
	err := ReadResponses(context.Background(), strings.NewReader(stream), toolcall.New(),
		wire.OnThinking(func(i int64, b []byte) { got = append(got, fmt.Sprintf("thinking %d %s", i, b)) }),
		wire.OnText(func(i int64, b []byte) { got = append(got, fmt.Sprintf("text %d %s", i, b)) }))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"thinking 0 Let me \"think\"\n", "thinking 0 raw", "text 1 café", "text 1 I can't."}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// Without callbacks, the same stream reads without them.
	if _, err := responsesRead(stream); err != nil {
		t.Error(err)
	}
}

func TestResponsesErrorEvent(t *testing.T) {
	start := []string{responsesCreated, responsesAdded(0, "fc_0", "call_0", "f", ""), responsesDelta(0, "fc_0", `{"city":`)}
	for _, tc := range []struct {
		name, stream string
		want         wire.ProviderError
	}{
		{"flat", responsesSSE(true, append(start, `{"type":"error","code":"server_error","message":"The server had an error","param":null,"sequence_number":3}`)...),
			wire.ProviderError{Wire: wire.OpenAIResponses, Code: "server_error", Message: "The server had an error"}},
		{"nested", responsesSSE(true, append(start, `{"type":"error","sequence_number":2,"error":{"type":"too_many_requests","code":"too_many_requests","message":"Too Many Requests","param":"model"}}`)...),
			wire.ProviderError{Wire: wire.OpenAIResponses, Type: "too_many_requests", Code: "too_many_requests", Message: "Too Many Requests", Param: "model"}},
		{"both, the top level first", responsesSSE(false, append(start, `{"type":"error","code":"a","message":"","error":{"type":"t","code":"b","message":"m"}}`)...),
			wire.ProviderError{Wire: wire.OpenAIResponses, Type: "t", Code: "a", Message: "m"}},
		{"a number code, no event field", responsesSSE(false, append(start, `{"type":"error","code":429,"message":"slow down"}`)...),
			wire.ProviderError{Wire: wire.OpenAIResponses, Code: "429", Message: "slow down"}},
		{"not JSON", responsesSSE(true, start...) + wiretest.SSE(wiretest.SSEEvent{Type: "error", Data: "upstream timed out"}),
			wire.ProviderError{Wire: wire.OpenAIResponses, Message: "upstream timed out"}},
		{"response.failed", responsesSSE(true, append(start, `{"type":"response.failed","sequence_number":4,"response":{"id":"resp_1","status":"failed","error":{"code":"server_error","message":"An error occurred while processing your request."},"output":[]}}`)...),
			wire.ProviderError{Wire: wire.OpenAIResponses, Type: "response.failed", Code: "server_error", Message: "An error occurred while processing your request."}},
		{"response.failed, no event field, no error", responsesSSE(false, append(start, `{"type":"response.failed","response":{"id":"resp_1","status":"failed","error":null}}`)...),
			wire.ProviderError{Wire: wire.OpenAIResponses, Type: "response.failed"}},
		{"response.failed, not JSON", responsesSSE(true, start...) + wiretest.SSE(wiretest.SSEEvent{Type: "response.failed", Data: "{oops"}),
			wire.ProviderError{Wire: wire.OpenAIResponses, Type: "response.failed", Message: "{oops"}},
	} {
		got, err := responsesRead(tc.stream + responsesSSE(true, responsesCompleted))
		var pe *wire.ProviderError
		if !errors.As(err, &pe) {
			t.Errorf("%s: ReadResponses = %v, want a *wire.ProviderError", tc.name, err)
			continue
		}
		if diff := cmp.Diff(tc.want, *pe); diff != "" {
			t.Errorf("%s: (-want +got):\n%s", tc.name, diff)
		}
		if len(got) != 1 || got[0].Executable || !got[0].Truncated {
			t.Errorf("%s: calls %+v, want one truncated call", tc.name, got)
		}
	}
}

// TestResponsesIncomplete: response.incomplete ends the response; the call
// cut off is truncated, the one done before is complete.
func TestResponsesIncomplete(t *testing.T) {
	data := append(responsesCall1(`{"a":`, `1}`),
		responsesAdded(2, "fc_2", "call_2", "write", ""),
		responsesDelta(2, "fc_2", `{"text":"It was a dark and`))
	// The output of response.incomplete restates both calls: the first
	// whole, the second cut.
	data = append(data, withOutput(`{"type":"response.incomplete","response":{"id":"resp_1","status":"incomplete","incomplete_details":{"reason":"max_output_tokens"}}}`, data))
	got, err := responsesRead(responsesSSE(true, data...))
	if err != nil {
		t.Fatal(err)
	}
	// The SDKs read on after it: a delta there is refused.
	if _, err := responsesRead(responsesSSE(true, append(data, responsesDelta(2, "fc_2", ` stormy night"}`))...)); !errors.Is(err, ErrMalformed) {
		t.Errorf("a delta after response.incomplete: %v, want ErrMalformed", err)
	}
	want := []wiretest.CallOutcome{
		responsesWant(1, "call_1", "get_weather", `{"a":1}`),
		{Index: 2, ID: "call_2", Name: "write", Truncated: true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestResponsesEnds(t *testing.T) {
	start := responsesSSE(true, responsesCall1(`{"a":1}`)...)
	for _, tc := range []struct {
		name, stream string
		truncated    bool // wraps sse.ErrTruncated
	}{
		{"clean EOF", start, false},
		{"[DONE] without response.completed", start + wiretest.DataSSE("[DONE]"), false},
		{"cut mid-event", start + "event: response.in_progress\ndata: {", true},
		{"no final blank line", start + "event: response.completed\ndata: {\"type\":\"response.completed\"}\n", true},
	} {
		got, err := responsesRead(tc.stream)
		if !errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, sse.ErrTruncated) != tc.truncated {
			t.Errorf("%s: ReadResponses = %v", tc.name, err)
		}
		if len(got) != 1 || !got[0].Executable || got[0].Arguments != `{"a":1}` {
			t.Errorf("%s: results %+v, want the stopped call complete", tc.name, got)
		}
	}

	// After response.completed, the SDKs read on: the body is read to its
	// end, and an event there is malformed; a comment or [DONE] is not.
	whole := responsesSSE(true, append(responsesCall1(`{"a":1}`), responsesCompleted)...)
	if _, err := responsesRead(whole + ": bye\n\n" + wiretest.DataSSE("[DONE]")); err != nil {
		t.Errorf("ReadResponses = %v", err)
	}
	late := responsesSSE(true, responsesAdded(2, "fc_2", "call_2", "rm", `{"path":"/"}`), responsesItemDoneEvent(2, "fc_2", "call_2", "rm", `{"path":"/"}`))
	if got, err := responsesRead(whole + late); !errors.Is(err, ErrMalformed) || len(got) != 1 || got[0].Executable {
		t.Errorf("a call after response.completed: %v, %+v, want ErrMalformed and no call executable", err, got)
	}
}

func TestResponsesMalformed(t *testing.T) {
	for _, data := range []string{
		`not json`,
		`[1]`,
		`{"type":1}`,
		`{"type":"response.function_call_arguments.delta","output_index":0,"delta":"x"} {}`,
		`{"type":"response.function_call_arguments.delta","output_index":0,"delta":"x"`,
		`{"type":"response.function_call_arguments.delta","output_index":-1,"delta":"x"}`,
		`{"type":"response.function_call_arguments.delta","output_index":1.5,"delta":"x"}`,
		`{"type":"response.function_call_arguments.delta","output_index":"1","delta":"x"}`,
		`{"type":"response.function_call_arguments.delta","output_index":99999999999999999999,"delta":"x"}`,
		`{"type":"response.function_call_arguments.delta","output_index":0,"delta":5}`,
		`{"type":"response.function_call_arguments.delta","output_index":0,"delta":null}`,
		`{"type":"response.function_call_arguments.delta","output_index":0}`,
		`{"type":"response.function_call_arguments.delta","output_index":0,"item_id":7,"delta":"x"}`,
		`{"type":"response.function_call_arguments.done","output_index":0,"arguments":{}}`,
		`{"type":"response.output_text.delta","delta":"x"}`,
		`{"type":"response.output_text.delta","output_index":0}`,
		`{"type":"response.reasoning_summary_text.delta","output_index":0,"delta":["x"]}`,
		`{"type":"response.output_item.added","output_index":0}`,
		`{"type":"response.output_item.added","output_index":0,"item":[]}`,
		`{"type":"response.output_item.added","output_index":0,"item":{"id":"fc_1"}}`,
		`{"type":"response.output_item.added","item":{"type":"function_call","id":"fc_1","call_id":"c","name":"f"}}`,
		`{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","call_id":"c","name":"f","arguments":{}}}`,
		`{"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","call_id":5,"name":"f"}}`,
		`{"type":"response.output_item.done","output_index":0,"item":{"type":"mcp_call","id":"mcp_1","name":true}}`,
		`{"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","call_id":"c","name":"\ud800"}}`,
	} {
		for _, withEvent := range []bool{true, false} {
			ev := wiretest.SSEEvent{Data: data}
			if withEvent {
				ev.Type = "response.function_call_arguments.delta"
				if _, rest, ok := strings.Cut(data, `"type":"`); ok {
					ev.Type, _, _ = strings.Cut(rest, `"`)
				}
			}
			stream := responsesSSE(false, responsesCreated) + wiretest.SSE(ev) + responsesSSE(true, responsesCompleted)
			_, err := responsesRead(stream)
			if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "event 2") {
				t.Errorf("%s (event field %v): ReadResponses = %v, want ErrMalformed at event 2", data, withEvent, err)
			}
		}
	}
}

func TestResponsesIgnored(t *testing.T) {
	// Events of types to come are read (the SDKs decode every one: their
	// data must be a JSON object with a type), and ignored.
	stream := responsesSSE(true, responsesCreated) +
		": a comment\n\n" +
		wiretest.DataSSE(`{"type":"response.future_event","output_index":3,"item":7,"delta":[],"response":"x"}`) +
		responsesSSE(false,
			`{"type":"response.queued","response":{}}`,
			`{"type":"response.content_part.added","item_id":"msg_1","output_index":0,"content_index":0,"part":{"type":"output_text","text":""}}`,
			`{"type":"response.output_text.annotation.added","item_id":"msg_1","output_index":0,"annotation":{"type":"url_citation"}}`,
			`{"type":"response.function_call_arguments.delta_v2","output_index":0,"delta":{}}`,
			responsesCompleted)
	got, err := responsesRead(stream)
	if err != nil || len(got) != 0 {
		t.Errorf("ReadResponses = %v, calls %+v, want none", err, got)
	}
	for _, data := range []string{"not even json", "[1, 2]", `{"no_type":true}`, `{"type":"response.future_event","Type":"x"}`} {
		if _, err := responsesRead(responsesSSE(true, responsesCreated) + wiretest.DataSSE(data)); !errors.Is(err, ErrMalformed) {
			t.Errorf("data %s: ReadResponses = %v, want ErrMalformed", data, err)
		}
	}
}

// TestResponsesIndependentCalls: one call's bad arguments, or bytes after
// its done event, do not affect another.
func TestResponsesIndependentCalls(t *testing.T) {
	stream := responsesSSE(true,
		responsesAdded(0, "fc_0", "call_0", "bad", ""),
		responsesAdded(1, "fc_1", "call_1", "good", ""),
		responsesAdded(2, "fc_2", "call_2", "late", ""),
		responsesAdded(3, "fc_3", "call_3", "later", ""),
		responsesDelta(3, "fc_3", `{}`),
		responsesItemDoneEvent(3, "fc_3", "call_3", "later", `{}`),
		responsesDelta(3, "fc_3", `{}`),
		responsesDelta(0, "fc_0", `{"unit": celsius}`),
		responsesDelta(1, "fc_1", `{"unit": `),
		responsesDelta(2, "fc_2", `{}`),
		responsesArgsDoneEvent(2, "fc_2", `{}`),
		responsesDelta(2, "fc_2", `{}`),
		responsesDelta(1, "fc_1", `"celsius"}`),
		responsesArgsDoneEvent(0, "fc_0", `{"unit": celsius}`),
		responsesArgsDoneEvent(1, "fc_1", `{"unit": "celsius"}`),
		responsesCompleted)
	got, err := responsesRead(stream)
	if err != nil {
		t.Fatal(err)
	}
	want := []wiretest.CallOutcome{
		{Index: 0, ID: "call_0", Name: "bad", Syntax: true},
		responsesWant(1, "call_1", "good", `{"unit":"celsius"}`),
		{Index: 2, ID: "call_2", Name: "late"},
		{Index: 3, ID: "call_3", Name: "later"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	resp := toolcall.New()
	_ = ReadResponses(context.Background(), strings.NewReader(stream), resp)
	if res := resp.End(); len(res) != 4 || !errors.Is(res[2].Err, toolcall.ErrAfterStop) || !errors.Is(res[3].Err, toolcall.ErrAfterStop) {
		t.Errorf("results %+v, want the last two calls failed with ErrAfterStop", res)
	}
}

func TestResponsesContext(t *testing.T) {
	stream := responsesSSE(true, append(responsesCall1(`{"a":`, `1}`), responsesCompleted)...)
	if res := responsesAdapter.CheckContext(t, []byte(stream)); len(res) != 1 || res[0].Executable {
		t.Errorf("results %+v, want one call cut off", res)
	}
}

func TestResponsesEnded(t *testing.T) {
	responsesAdapter.CheckEnded(t, "", []byte(responsesSSE(true, append(responsesCall1(`{}`), responsesCompleted)...)))
}
