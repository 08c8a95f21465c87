package geministream

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/argstream/argstream/internal/testutil/wiretest"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire/sse"
)

// parts is an event of candidate 0 with the given parts.
func parts(p string) string {
	return `{"candidates":[{"content":{"role":"model","parts":[` + p + `]},"index":0}]}`
}

// begin is an event that begins a call that streams its arguments, and cont
// one of its partialArgs, the call going on.
var begin = parts(`{"functionCall":{"name":"f","willContinue":true}}`)

func cont(args string) string {
	return parts(`{"functionCall":{"partialArgs":[` + args + `],"willContinue":true}}`)
}

// TestMalformed: each event that is not what the API documents, or that two
// readers could read differently, is refused with an error wrapping
// ErrMalformed that says which event and where, and fails the Response: the
// call of the event before it is not executable either.
func TestMalformed(t *testing.T) {
	for _, tc := range []struct {
		name, stream, want string
	}{
		{"a named event", stream(callEv) + "event: message\ndata: " + stopEv + "\n\n", `event 2: an event named "message"`},
		{"not JSON", stream(callEv, `not json`), `event 2: jsontext: invalid character`},
		{"[DONE]", stream(callEv, `[DONE]`), `event 2: not a JSON object`},
		{"an array", stream(callEv, `[`+stopEv+`]`), `event 2: not a JSON object`},
		{"two objects", stream(callEv, stopEv+stopEv), `event 2: bytes after the JSON object`},
		{"invalid UTF-8", stream(callEv, parts(`{"text":"a`+"\xff"+`"}`)), `event 2: jsontext: invalid UTF-8`},
		{"a repeated member name in the args", stream(parts(`{"functionCall":{"name":"f","args":{"city":"Paris","city":"Rome"}}}`)), `event 1: jsontext: duplicate object member name "city"`},
		{"a repeated name deep in usageMetadata", stream(callEv, `{"usageMetadata":{"details":[{"a":1,"a":2}]}}`), `duplicate object member name "a"`},
		{"a repeated functionCall", stream(parts(`{"functionCall":{"name":"f"},"functionCall":{"name":"g"}}`)), `event 1: jsontext: duplicate object member name "functionCall"`},
		{"a name written with an escape", stream(parts(`{"function\u0043all":{"name":"f"}}`)), `/candidates/0/content/parts/0: member name "function\u0043all" is written with an escape`},
		{"a name in another case", stream(parts(`{"FunctionCall":{"name":"f"}}`)), `event 1: /candidates/0/content/parts/0: member name "FunctionCall" is "functionCall" in another case`},
		{"two names equal under case folding", stream(`{"usageMetadata":{},"UsageMetadata":{}}`), `member names "usageMetadata" and "UsageMetadata" are equal under case folding`},
		{"args in another case", stream(parts(`{"functionCall":{"name":"f","Args":{"x":1}}}`)), `member name "Args" is "args" in another case`},
		{"finishReason in another case", stream(`{"candidates":[{"FinishReason":"STOP"}]}`), `member name "FinishReason" is "finishReason" in another case`},
		{"function_call in snake case", stream(parts(`{"function_call":{"name":"f","args":{}}}`)), `event 1: /candidates/0/content/parts/0: member name "function_call" is "functionCall" in another spelling`},
		{"finish_reason in snake case", stream(callEv, `{"candidates":[{"finish_reason":"STOP"}]}`), `event 2: /candidates/0: member name "finish_reason" is "finishReason" in another spelling`},
		{"partial_args in snake case", stream(parts(`{"functionCall":{"name":"f","partial_args":[]}}`)), `/candidates/0/content/parts/0/functionCall: member name "partial_args" is "partialArgs" in another spelling`},
		{"prompt_feedback in snake case", stream(`{"prompt_feedback":{"blockReason":"SAFETY"}}`), `/: member name "prompt_feedback" is "promptFeedback" in another spelling`},
		{"candidates not an array", stream(`{"candidates":{}}`), `/candidates is not an array`},
		{"parts a string", stream(`{"candidates":[{"content":{"parts":"x"}}]}`), `/candidates/0/content/parts is not an array`},
		{"text a number", stream(parts(`{"text":1}`)), `/candidates/0/content/parts/0/text is not a string`},
		{"thought a string", stream(parts(`{"text":"x","thought":"yes"}`)), `/candidates/0/content/parts/0/thought is not a boolean`},
		{"args an array", stream(parts(`{"functionCall":{"name":"f","args":[1]}}`)), `event 1: /candidates/0/content/parts/0/functionCall/args is not an object`},
		{"args a string", stream(parts(`{"functionCall":{"name":"f","args":"{\"x\":1}"}}`)), `functionCall/args is not an object`},
		{"a name not a string", stream(parts(`{"functionCall":{"name":7}}`)), `/candidates/0/content/parts/0/functionCall/name is not a string`},
		{"a negative index", stream(`{"candidates":[{"index":-1}]}`), `/candidates/0/index is -1, not an integer from 0 to 2^53-1`},
		{"an index past 2^53-1", stream(`{"candidates":[{"index":9007199254740992}]}`), `not an integer from 0 to 2^53-1`},
		{"error null", stream(callEv, `{"error":null}`), `event 2: /error is null`},
		{"a call in candidate 1", stream(`{"candidates":[{"content":{"parts":[{"text":"x"}]},"index":0},{"content":{"parts":[{"functionCall":{"name":"f"}}]},"index":1}]}`), `event 1: /candidates/1, candidate 1, has a function call: only candidate 0 is read`},
		{"candidate 0 twice", stream(`{"candidates":[{"content":{"parts":[{"text":"x"}]}},{"index":0}]}`), `/candidates/1 is candidate 0 again`},
		{"candidate 0 not first", stream(`{"candidates":[{"index":1},{"index":0,"content":{"parts":[{"functionCall":{"name":"f"}}]}}]}`), `/candidates/1 is candidate 0, not first`},
		{"text and a functionCall in one part", stream(parts(`{"text":"x","functionCall":{"name":"f"}}`)), `/candidates/0/content/parts/0 holds both text and a functionCall`},
		{"a functionCall and then text in one part", stream(parts(`{"functionCall":{"name":"f"},"text":""}`)), `holds both text and a functionCall`},
		{"a call without a name", stream(parts(`{"functionCall":{"args":{"x":1}}}`)), `event 1: /candidates/0/content/parts/0/functionCall has no name`},
		{"an empty functionCall", stream(callEv, parts(`{"text":"x"},{"functionCall":{}}`)), `event 2: /candidates/0/content/parts/1/functionCall has no name`},
		{"an id again in a later event", stream(twoCallsEv, parts(`{"functionCall":{"id":"a2","name":"f"}}`)), `event 2: /candidates/0/content/parts/0/functionCall/id "a2" is an earlier call's`},
		{"an id twice in one event", stream(parts(`{"functionCall":{"id":"x","name":"f"}},{"functionCall":{"id":"x","name":"g"}}`)), `/candidates/0/content/parts/1/functionCall/id "x" is part 0's`},
		{"a call that streams begun while one streams", stream(begin, begin), `event 2: /candidates/0/content/parts/0/functionCall begins a call while call 0 streams its arguments`},
		{"two calls that stream in one event", stream(parts(`{"functionCall":{"name":"f","willContinue":true}},{"functionCall":{"name":"g","willContinue":true}}`)), `event 1: /candidates/0/content/parts/1/functionCall begins a call while call 0 streams its arguments`},
		{"partialArgs for no call", stream(parts(`{"functionCall":{"partialArgs":[{"jsonPath":"$.x","stringValue":"a"}]}}`)), `event 1: /candidates/0/content/parts/0/functionCall has partialArgs for no call`},
		{"partialArgs after the call ended", stream(begin, cont(`{"jsonPath":"$.x","numberValue":1}`), parts(`{"functionCall":{}}`), cont(`{"jsonPath":"$.y","numberValue":1}`)), `event 4: /candidates/0/content/parts/0/functionCall has partialArgs for no call`},
		{"args and willContinue", stream(parts(`{"functionCall":{"name":"f","args":{},"willContinue":true}}`)), `event 1: /candidates/0/content/parts/0/functionCall has args, and streams its arguments`},
		{"args and partialArgs", stream(parts(`{"functionCall":{"name":"f","args":{"x":1},"partialArgs":[{"jsonPath":"$.x","numberValue":1}]}}`)), `functionCall has args, and streams its arguments`},
		{"args continuing a call", stream(begin, parts(`{"functionCall":{"args":{"x":1}}}`)), `event 2: /candidates/0/content/parts/0/functionCall has args, in call 0 that streams its arguments`},
		{"another id continuing a call", stream(parts(`{"functionCall":{"id":"a","name":"f","willContinue":true}}`), parts(`{"functionCall":{"id":"b","willContinue":true}}`)), `event 2: /candidates/0/content/parts/0/functionCall/id "b" is not that of call 0, whose arguments it continues`},
		{"a member revisited after its object closed", stream(begin, cont(`{"jsonPath":"$.a.x","numberValue":1},{"jsonPath":"$.b","numberValue":2},{"jsonPath":"$.a.y","numberValue":3}`)), `event 2: /candidates/0/content/parts/0/functionCall/partialArgs/2/jsonPath "$.a.y": ["a"] goes back to a member already written`},
		{"a member repeated", stream(begin, cont(`{"jsonPath":"$.a","numberValue":1}`), cont(`{"jsonPath":"$['a']","numberValue":2}`)), `event 3: /candidates/0/content/parts/0/functionCall/partialArgs/0/jsonPath "$['a']": ["a"] goes back to a member already written`},
		{"a member of a scalar", stream(begin, cont(`{"jsonPath":"$.a","numberValue":1},{"jsonPath":"$.a.b","numberValue":2}`)), `partialArgs/1/jsonPath "$.a.b": ["a"] goes back to a member already written`},
		{"an array that begins at 1", stream(begin, cont(`{"jsonPath":"$.l[1]","numberValue":1}`)), `partialArgs/0/jsonPath "$.l[1]": [1] skips elements (the array is at element 0)`},
		{"an index that skips", stream(begin, cont(`{"jsonPath":"$.l[0]","numberValue":1},{"jsonPath":"$.l[2]","numberValue":1}`)), `partialArgs/1/jsonPath "$.l[2]": [2] skips elements (the array is at element 1)`},
		{"an index that goes back", stream(begin, cont(`{"jsonPath":"$.l[0]","numberValue":1},{"jsonPath":"$.l[1]","numberValue":1}`), cont(`{"jsonPath":"$.l[0]","numberValue":1}`)), `event 3: /candidates/0/content/parts/0/functionCall/partialArgs/0/jsonPath "$.l[0]": [0] goes back to an element already written (the array is at element 2)`},
		{"an element revisited after its object closed", stream(begin, cont(`{"jsonPath":"$.l[0].a","numberValue":1},{"jsonPath":"$.l[1].a","numberValue":1},{"jsonPath":"$.l[0].b","numberValue":1}`)), `partialArgs/2/jsonPath "$.l[0].b": [0] goes back to an element already written (the array is at element 2)`},
		{"a name in an array", stream(begin, cont(`{"jsonPath":"$.l[0]","numberValue":1},{"jsonPath":"$.l.x","numberValue":1}`)), `partialArgs/1/jsonPath "$.l.x": ["x"] is a name in an array`},
		{"an index in an object", stream(begin, cont(`{"jsonPath":"$.o.a","numberValue":1},{"jsonPath":"$.o[1]","numberValue":1}`)), `partialArgs/1/jsonPath "$.o[1]": [1] is an index in an object`},
		{"an index in the arguments", stream(begin, cont(`{"jsonPath":"$[0]","numberValue":1}`)), `partialArgs/0/jsonPath "$[0]": [0] is an index in an object`},
		{"the arguments themselves", stream(begin, cont(`{"jsonPath":"$","numberValue":1}`)), `partialArgs/0/jsonPath "$": the arguments themselves, which are an object`},
		{"a path without $", stream(begin, cont(`{"jsonPath":"a.b","numberValue":1}`)), `partialArgs/0/jsonPath "a.b": not a path of the form $, then .name, ['name'] or [N]`},
		{"a descendant segment", stream(begin, cont(`{"jsonPath":"$..a","numberValue":1}`)), `jsonPath "$..a": not a path of the form`},
		{"a wildcard", stream(begin, cont(`{"jsonPath":"$.a[*]","numberValue":1}`)), `jsonPath "$.a[*]": not a path of the form`},
		{"an index with a leading zero", stream(begin, cont(`{"jsonPath":"$.a[01]","numberValue":1}`)), `jsonPath "$.a[01]": not a path of the form`},
		{"a negative index", stream(begin, cont(`{"jsonPath":"$.a[-1]","numberValue":1}`)), `jsonPath "$.a[-1]": not a path of the form`},
		{"an index too large", stream(begin, cont(`{"jsonPath":"$.a[9007199254740992]","numberValue":1}`)), `jsonPath "$.a[9007199254740992]": not a path of the form`},
		{"a name that begins with a digit", stream(begin, cont(`{"jsonPath":"$.1a","numberValue":1}`)), `jsonPath "$.1a": not a path of the form`},
		{"a quoted name not closed", stream(begin, cont(`{"jsonPath":"$['a]","numberValue":1}`)), `jsonPath "$['a]": not a path of the form`},
		{"a lone surrogate in a quoted name", stream(begin, cont(`{"jsonPath":"$['\\ud800']","numberValue":1}`)), `not a path of the form`},
		{"a jsonPath not a string", stream(begin, cont(`{"jsonPath":1,"numberValue":1}`)), `partialArgs/0/jsonPath is not a string`},
		{"no value", stream(begin, cont(`{"jsonPath":"$.a"}`)), `event 2: /candidates/0/content/parts/0/functionCall/partialArgs/0 has no value`},
		{"two values", stream(begin, cont(`{"jsonPath":"$.a","stringValue":"x","numberValue":1}`)), `event 2: /candidates/0/content/parts/0/functionCall/partialArgs/0 has 2 values`},
		{"a value null", stream(begin, cont(`{"jsonPath":"$.a","stringValue":null}`)), `partialArgs/0/stringValue is null`},
		{"nullValue null", stream(begin, cont(`{"jsonPath":"$.a","nullValue":null}`)), `partialArgs/0/nullValue is null`},
		{"nullValue not NULL_VALUE", stream(begin, cont(`{"jsonPath":"$.a","nullValue":"NULL"}`)), `partialArgs/0/nullValue is not "NULL_VALUE"`},
		{"numberValue a string", stream(begin, cont(`{"jsonPath":"$.a","numberValue":"1"}`)), `partialArgs/0/numberValue is not a number`},
		{"boolValue a number", stream(begin, cont(`{"jsonPath":"$.a","boolValue":1}`)), `partialArgs/0/boolValue is not a boolean`},
		{"json_path in snake case", stream(begin, cont(`{"json_path":"$.a","numberValue":1}`)), `partialArgs/0: member name "json_path" is "jsonPath" in another spelling`},
		{"a number continued", stream(begin, cont(`{"jsonPath":"$.a","numberValue":1,"willContinue":true}`)), `partialArgs/0 continues (willContinue) a value that is not a string`},
		{"a string continued at another path", stream(begin, cont(`{"jsonPath":"$.a","stringValue":"x","willContinue":true}`), cont(`{"jsonPath":"$.b","stringValue":"y"}`)), `event 3: /candidates/0/content/parts/0/functionCall/partialArgs/0 is not the rest of the string at "$.a", which continues (willContinue)`},
		{"a string continued by a number", stream(begin, cont(`{"jsonPath":"$.a","stringValue":"x","willContinue":true},{"jsonPath":"$.a","numberValue":1}`)), `partialArgs/1 is not the rest of the string at "$.a"`},
		{"a call that ends in a string", stream(begin, cont(`{"jsonPath":"$.a","stringValue":"x","willContinue":true}`), parts(`{"functionCall":{}}`)), `event 3: /candidates/0/content/parts/0/functionCall ends while the string at "$.a" continues (willContinue)`},
		{"STOP while a call streams", stream(begin, cont(`{"jsonPath":"$.a","numberValue":1}`), stopEv), `event 3: /candidates/0/finishReason STOP while call 0 streams its arguments`},
		{"a blocked prompt while a call streams", stream(begin, `{"promptFeedback":{"blockReason":"SAFETY"}}`), `event 2: /promptFeedback/blockReason SAFETY while call 0 streams its arguments`},
		{"willContinue not a boolean", stream(parts(`{"functionCall":{"name":"f","willContinue":1}}`)), `/candidates/0/content/parts/0/functionCall/willContinue is not a boolean`},
		{"a call after the finishReason", stream(stopEv, callEv), `event 2: /candidates/0/content/parts/0: content after the finishReason STOP`},
		{"text after the finishReason", stream(callEv, stopEv, textEv), `event 3: /candidates/0/content/parts/0: content after the finishReason STOP`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := toolcall.New()
			err := Read(context.Background(), strings.NewReader(tc.stream), resp)
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("Read = %v, want ErrMalformed", err)
			}
			if !strings.HasPrefix(err.Error(), "gemini: malformed event: ") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Read = %q, want it to contain %q", err, tc.want)
			}
			for _, r := range resp.End() {
				if r.Executable || r.Arguments != nil {
					t.Errorf("call %+v executable or with arguments after %v", r.Call, err)
				}
			}
			// No reader of another size reads it otherwise.
			geminiAdapter.CheckSplits(t, tc.name, []byte(tc.stream), func(rd io.Reader) wiretest.Got {
				return geminiAdapter.Run(toolcall.New(), rd)
			})
		})
	}
}

// TestNoActionBeforeCheck: a malformed event drives the Response with
// nothing of it, even the parts before the fault: its first call is never
// started, and its text never given.
func TestNoActionBeforeCheck(t *testing.T) {
	resp := toolcall.New()
	var text []string
	r := NewReader(resp)
	r.cfg.OnText = func(_ int64, b []byte) { text = append(text, string(b)) }
	err := r.ReadEvents(context.Background(), sse.NewReader(strings.NewReader(stream(parts(`{"text":"hi"},{"functionCall":{"name":"f","args":{}}},{"functionCall":{"args":{}}}`)))))
	if !errors.Is(err, ErrMalformed) {
		t.Fatalf("Read = %v", err)
	}
	if len(text) != 0 || len(r.EventCalls()) != 0 {
		t.Errorf("text %q, calls %v given before the event was refused", text, r.EventCalls())
	}
	if res := resp.End(); len(res) != 0 {
		t.Errorf("results %+v, want none", res)
	}
}
