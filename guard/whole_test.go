package guard

import (
	"strings"
	"testing"

	"github.com/argstream/argstream/policy"
	"github.com/argstream/argstream/wire"
	"github.com/go-json-experiment/json/jsontext"
)

func TestWhole(t *testing.T) {
	rules := map[string]*policy.Policy{
		"read":  mustPolicy(t, `{"run": "unattended"}`),
		"write": mustPolicy(t, `{"run": [{"arg": "/path", "prefix": "src/", "mode": "unattended"}, {"mode": "skip"}], "paths": ["/path"]}`),
	}
	var recs []Record
	g := New(Config{Policy: func(name string) *policy.Policy { return rules[name] }, OnCall: func(r Record) { recs = append(recs, r) }})
	for _, tc := range []struct {
		name   string
		k      wire.Kind
		in     string
		want   string // "" for the input unchanged
		errSub string
	}{
		{"anthropic, forwarded", wire.Anthropic,
			`{"type":"message","content":[{"type":"text","text":"ok"},{"type":"tool_use","id":"t1","name":"write","input":{"path":"src/a"}}],"stop_reason":"tool_use"}`, "", ""},
		{"anthropic, blocked", wire.Unknown,
			`{"type":"message","content":[{"type":"text","text":"ok"},{"type":"tool_use","id":"t1","name":"write","input":{"path":"/etc/passwd"}}],"stop_reason":"tool_use"}`,
			`{"type":"message","content":[{"type":"text","text":"ok"},{"type":"text","text":"NOTICE"}],"stop_reason":"end_turn"}`, ""},
		{"anthropic, one of two blocked", wire.Anthropic,
			`{"type":"message","content":[{"type":"tool_use","id":"t1","name":"write","input":{"path":"/x"}},{"type":"tool_use","id":"t2","name":"read","input":{}}],"stop_reason":"tool_use"}`,
			`{"type":"message","content":[{"type":"text","text":"NOTICE"},{"type":"tool_use","id":"t2","name":"read","input":{}}],"stop_reason":"tool_use"}`, ""},
		{"chat, one of two blocked", wire.OpenAIChat,
			`{"object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"write","arguments":"{\"path\":\"/x\"}"}},{"id":"c2","type":"function","function":{"name":"read","arguments":"{}"}}]},"finish_reason":"tool_calls"}]}`,
			`{"object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"NOTICE","tool_calls":[{"id":"c2","type":"function","function":{"name":"read","arguments":"{}"}}]},"finish_reason":"tool_calls"}]}`, ""},
		{"chat, all blocked", wire.Unknown,
			`{"object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"Sure.","tool_calls":[{"id":"c1","type":"function","function":{"name":"write","arguments":"{\"path\":\"/x\"}"}}]},"finish_reason":"tool_calls"}]}`,
			`{"object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"Sure.\n\nNOTICE","tool_calls":[]},"finish_reason":"stop"}]}`, ""},
		{"responses, blocked", wire.OpenAIResponses,
			`{"object":"response","output":[{"type":"function_call","id":"fc_1","call_id":"c1","name":"write","arguments":"{\"path\":\"/x\"}"}]}`,
			`{"object":"response","output":[` + string(noticeItem(0, "NOTICE", "completed")) + `]}`, ""},
		{"invalid arguments are blocked", wire.Anthropic,
			`{"type":"message","content":[{"type":"tool_use","id":"t1","name":"read","input":"x"}],"stop_reason":"tool_use"}`,
			`{"type":"message","content":[{"type":"text","text":"NOTICE"}],"stop_reason":"end_turn"}`, ""},
		{"names in another case", wire.Anthropic, `{"type":"message","content":[],"Content":[{"type":"tool_use"}]}`, "", "equal, in some case"},
		// Go's encoding/json v1 reads a name in another case as the field's.
		{"anthropic, content in another case", wire.Anthropic, `{"type":"message","Content":[{"type":"tool_use","id":"t1","name":"write","input":{"path":"/etc/passwd"}}],"stop_reason":"tool_use"}`, "", "in case alone"},
		{"anthropic, a block's name in another case", wire.Anthropic, `{"type":"message","content":[{"type":"tool_use","id":"t1","Name":"write","input":{"path":"/etc/passwd"}}],"stop_reason":"tool_use"}`, "", "in case alone"},
		{"chat, tool_calls in another case", wire.OpenAIChat, `{"object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":null,"Tool_calls":[{"id":"c1","type":"function","function":{"name":"write","arguments":"{\"path\":\"/x\"}"}}]},"finish_reason":"tool_calls"}]}`, "", "in case alone"},
		{"responses, output in another case", wire.OpenAIResponses, `{"object":"response","OUTPUT":[{"type":"function_call","id":"fc_1","call_id":"c1","name":"write","arguments":"{\"path\":\"/x\"}"}]}`, "", "in case alone"},
		{"arguments' own names in any case", wire.Anthropic,
			`{"type":"message","content":[{"type":"tool_use","id":"t1","name":"write","input":{"Path":"src/a","NAME":1}}],"stop_reason":"tool_use"}`,
			`{"type":"message","content":[{"type":"text","text":"NOTICE"}],"stop_reason":"end_turn"}`, ""},
		{"a repeated member", wire.Anthropic, `{"type":"message","content":[],"content":[]}`, "", "duplicate"},
		{"no shape, no call", wire.Unknown, `{"input_tokens":12}`, "", ""},
		{"no shape, a call", wire.Unknown, `{"whatever":{"type":"tool_use"}}`, "", "no shape"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := g.Whole(tc.k, []byte(tc.in))
			if tc.errSub != "" {
				if err == nil || !strings.Contains(err.Error(), tc.errSub) {
					t.Fatalf("Whole = %s, %v; want an error %q", out, err, tc.errSub)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := tc.want
			if want == "" {
				want = tc.in
			}
			// The notices, spelled out, are DefaultNotice's.
			got := string(out)
			for _, r := range recs {
				if r.Action == Blocked {
					n, _ := jsontext.AppendQuote(nil, DefaultNotice(r.Call, r.Decision, r.Reason))
					got = strings.ReplaceAll(got, string(n[1:len(n)-1]), "NOTICE")
				}
			}
			recs = nil
			if !jsontext.Value(out).IsValid() || got != want {
				t.Errorf("Whole =\n%s\nwant\n%s", got, want)
			}
		})
	}
}
