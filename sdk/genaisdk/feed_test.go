package genaisdk_test

import (
	"errors"
	"testing"

	"github.com/argstream/argstream/sdk/genaisdk"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire"
	"google.golang.org/genai"
)

// part is a candidate-0 response holding one functionCall part.
func part(fc *genai.FunctionCall) *genai.GenerateContentResponse {
	return &genai.GenerateContentResponse{Candidates: []*genai.Candidate{{
		Content: &genai.Content{Role: "model", Parts: []*genai.Part{{FunctionCall: fc}}},
	}}}
}

func finish(reason genai.FinishReason) *genai.GenerateContentResponse {
	return &genai.GenerateContentResponse{Candidates: []*genai.Candidate{{
		Content: &genai.Content{Role: "model"}, FinishReason: reason,
	}}}
}

func str(path, s string, more bool) *genai.PartialArg {
	a := &genai.PartialArg{JsonPath: path, StringValue: s}
	if more {
		a.WillContinue = genai.Ptr(true)
	}
	return a
}

func num(path string, v float64) *genai.PartialArg {
	return &genai.PartialArg{JsonPath: path, NumberValue: &v}
}

func cont(args ...*genai.PartialArg) *genai.GenerateContentResponse {
	return part(&genai.FunctionCall{PartialArgs: args, WillContinue: genai.Ptr(true)})
}

// feedAll feeds the responses to a new Response and returns its Results
// and Feed's first error.
func feedAll(responses ...*genai.GenerateContentResponse) ([]toolcall.Result, error) {
	r := toolcall.New()
	f := genaisdk.NewFeeder(r)
	var first error
	for _, resp := range responses {
		if err := f.Feed(resp); err != nil && first == nil {
			first = err
		}
	}
	return r.End(), first
}

// The example of wire/geministream's "Streamed arguments": the values of
// the partialArgs become one JSON text, and the call its arguments.
func TestStreamedArguments(t *testing.T) {
	results, err := feedAll(
		part(&genai.FunctionCall{Name: "cookRecipe", ID: "c1", WillContinue: genai.Ptr(true)}),
		cont(str("$.recipe.steps[0]", "Preheat", true)),
		cont(str("$.recipe.steps[0]", " the oven.", false)),
		cont(str("$.recipe.steps[1]", "Bake.", false)),
		cont(num("$.recipe.serves", 4)),
		part(&genai.FunctionCall{}),
		part(&genai.FunctionCall{Name: "weather", Args: map[string]any{"unit": "C", "city": "Paris"}}),
		finish(genai.FinishReasonStop),
	)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ id, name, args string }{
		{"c1", "cookRecipe", `{"recipe":{"steps":["Preheat the oven.","Bake."],"serves":4}}`},
		{"", "weather", `{"city":"Paris","unit":"C"}`}, // encoding/json's key order
	}
	if len(results) != len(want) {
		t.Fatalf("%d results, want %d: %+v", len(results), len(want), results)
	}
	for i, w := range want {
		res := results[i]
		if res.Call.Index != int64(i) || res.Call.ID != w.id || res.Call.Name != w.name || string(res.Arguments) != w.args || !res.Executable {
			t.Errorf("result %d: %d %q %q %s executable %v (err %v), want %d %q %q %s executable",
				i, res.Call.Index, res.Call.ID, res.Call.Name, res.Arguments, res.Executable, res.Err, i, w.id, w.name, w.args)
		}
	}
}

// A call still streaming at MAX_TOKENS ends truncated; a call without
// args has {}.
func TestMaxTokens(t *testing.T) {
	results, err := feedAll(
		part(&genai.FunctionCall{Name: "ping"}),
		part(&genai.FunctionCall{Name: "write", WillContinue: genai.Ptr(true)}),
		cont(str("$.text", "Once upon", true)),
		finish(genai.FinishReasonMaxTokens),
	)
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 2 {
		t.Fatalf("%d results: %+v", len(results), results)
	}
	if string(results[0].Arguments) != "{}" || !results[0].Executable {
		t.Errorf("ping: %s executable %v, want {} executable", results[0].Arguments, results[0].Executable)
	}
	if results[1].Executable || results[1].Err == nil {
		t.Errorf("write: executable %v err %v, want truncated", results[1].Executable, results[1].Err)
	}
}

// Streams that cannot be written as one JSON text, or that another reader
// would read otherwise, fail the Response: no call runs.
func TestMalformed(t *testing.T) {
	start := part(&genai.FunctionCall{Name: "f", ID: "x", WillContinue: genai.Ptr(true)})
	for name, responses := range map[string][]*genai.GenerateContentResponse{
		"index skipped":     {start, cont(str("$.a[0]", "x", false)), cont(str("$.a[2]", "y", false))},
		"key repeated":      {start, cont(str("$.a", "x", false)), cont(str("$.b", "y", false)), cont(str("$.a", "z", false))},
		"string broken off": {start, cont(str("$.a", "x", true)), cont(num("$.a", 1))},
		"path outside":      {start, cont(str("$..a", "x", false))},
		"call begun":        {start, part(&genai.FunctionCall{Name: "g"})},
		"STOP mid-call":     {start, finish(genai.FinishReasonStop)},
		"blocked mid-call":  {start, {PromptFeedback: &genai.GenerateContentResponsePromptFeedback{BlockReason: genai.BlockedReasonSafety}}},
		"id repeated":       {part(&genai.FunctionCall{Name: "f", ID: "x"}), part(&genai.FunctionCall{Name: "g", ID: "x"})},
		"no call streams":   {cont(str("$.a", "x", false))},
	} {
		results, err := feedAll(append(responses, part(&genai.FunctionCall{}))...)
		if !errors.Is(err, wire.ErrMalformed) {
			t.Errorf("%s: Feed returned %v, want ErrMalformed", name, err)
		}
		for _, res := range results {
			if res.Executable {
				t.Errorf("%s: call %d %s executable", name, res.Call.Index, res.Call.Name)
			}
		}
	}
}
