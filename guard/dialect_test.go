package guard

import (
	"context"
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/argstream/argstream/dialect"
	"github.com/argstream/argstream/internal/testutil/wiretest"
	"github.com/argstream/argstream/policy"
	"github.com/argstream/argstream/schema"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire"
	"github.com/argstream/argstream/wire/openaistream"
)

// The text of a Qwen3-Coder model with two calls, and the tools that
// type them.
const (
	qwenRead  = "<tool_call>\n<function=read>\n<parameter=path>\nsrc/main.go\n</parameter>\n<parameter=lines>\n20\n</parameter>\n</function>\n</tool_call>"
	qwenRm    = "<tool_call>\n<function=rm>\n<parameter=path>\n/\n</parameter>\n</function>\n</tool_call>"
	qwenTools = `[{"type":"function","function":{"name":"read","parameters":{"properties":{"path":{"type":"string"},"lines":{"type":"integer"}}}}},` +
		`{"type":"function","function":{"name":"rm","parameters":{"properties":{"path":{"type":"string"}}}}}]`
)

// dialectRun posts a Chat Completions request with body through a
// gateway of cfg (Dialect: Qwen) in front of an upstream that sends
// text, and reads the response with openaistream: the text, the calls'
// results and the error.
func dialectRun(t *testing.T, face string, cfg Config, text, body string) (string, []toolcall.Result, error) {
	t.Helper()
	var deltas []string // of about 7 bytes, whole characters as a server sends them
	for len(text) > 0 {
		n := min(7, len(text))
		for n < len(text) && !utf8.RuneStart(text[n]) {
			n++
		}
		deltas, text = append(deltas, text[:n]), text[n:]
	}
	u := newUpstream(t, frame(dataEvents(wiretest.RawChat(deltas, "stop"))), 0)
	if cfg.Dialect == 0 {
		cfg.Dialect = dialect.Qwen
	}
	client, base := clientFor(t, face, New(cfg), u.srv.URL)
	resp := post(t, client, base+"/v1/chat/completions", body)
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("status %d: %s", resp.StatusCode, b)
	}
	var got strings.Builder
	calls := toolcall.New()
	err := openaistream.ReadChat(context.Background(), resp.Body, calls, wire.OnText(func(_ int64, b []byte) { got.Write(b) }))
	return got.String(), calls.End(), err
}

// waitRecords returns the records once there are n of them, or after two
// seconds: through the proxy the client may read the stream's last event
// before the handler, which records the calls at the upstream's end, has
// returned.
func waitRecords(mu *sync.Mutex, recs *[]Action, n int) []Action {
	for range 200 {
		mu.Lock()
		got := slices.Clone(*recs)
		mu.Unlock()
		if len(got) >= n {
			return got
		}
		time.Sleep(10 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	return slices.Clone(*recs)
}

func dataEvents(data []string) []wiretest.SSEEvent {
	var evs []wiretest.SSEEvent
	for _, d := range data {
		evs = append(evs, wiretest.SSEEvent{Data: d})
	}
	return evs
}

// TestDialect: with a Dialect, the calls in the upstream's text reach the
// client as tool_calls, typed by the request's tools (or Config.Tools),
// judged by the policy: a blocked one is replaced by its notice, as a
// provider's call is, and recorded.
func TestDialect(t *testing.T) {
	request := `{"model":"qwen","stream":true,"messages":[],"tools":` + qwenTools + `}`
	untyped := `{"model":"qwen","stream":true,"messages":[]}`
	tools, err := schema.Parse([]byte(qwenTools))
	if err != nil {
		t.Fatal(err)
	}
	yes, skip := mustPolicy(t, `{"run": "unattended"}`), mustPolicy(t, `{"run": [{"arg": "/path", "prefix": "/", "mode": "skip"}, {"mode": "unattended"}]}`)
	for _, face := range []string{"transport", "proxy"} {
		for _, c := range []struct {
			name    string
			body    string
			tools   *schema.Tools
			pol     *policy.Policy
			text    string
			calls   []string // name args
			records []Action
		}{
			{"forwarded, typed by the request", request, nil, yes, "Reading. " + qwenRead, []string{`read {"path":"src/main.go","lines":20}`}, []Action{Forwarded}},
			{"typed by Config.Tools", untyped, tools, yes, qwenRead, []string{`read {"path":"src/main.go","lines":20}`}, []Action{Forwarded}},
			{"untyped", untyped, nil, yes, qwenRead, []string{`read {"path":"src/main.go","lines":"20"}`}, []Action{Forwarded}},
			// rm, blocked, was the only call still streaming: the upstream is
			// cut there, as for a provider's call.
			{"one blocked", request, nil, skip, "Two. " + qwenRead + qwenRm + " End.", []string{`read {"path":"src/main.go","lines":20}`}, []Action{Forwarded, Blocked}},
		} {
			t.Run(face+"/"+c.name, func(t *testing.T) {
				var mu sync.Mutex
				var recs []Action
				cfg := Config{Tools: c.tools, Policy: func(string) *policy.Policy { return c.pol },
					OnCall: func(r Record) { mu.Lock(); recs = append(recs, r.Action); mu.Unlock() }}
				text, results, err := dialectRun(t, face, cfg, c.text, c.body)
				if err != nil {
					t.Fatal(err)
				}
				var calls []string
				for _, r := range results {
					if !r.Executable || !strings.HasPrefix(r.Call.ID, "call_") {
						t.Errorf("call %+v", r)
					}
					calls = append(calls, r.Call.Name+" "+string(r.Arguments))
				}
				if strings.Join(calls, "\n") != strings.Join(c.calls, "\n") {
					t.Errorf("calls %q, want %q", calls, c.calls)
				}
				blocked := strings.Contains(text, `The call to the tool "rm"`)
				if strings.Contains(text, "<tool_call>") || blocked != (c.records[len(c.records)-1] == Blocked) {
					t.Errorf("text %q", text)
				}
				if got := waitRecords(&mu, &recs, len(c.records)); !slices.Equal(got, c.records) {
					t.Errorf("records %v, want %v", got, c.records)
				}
			})
		}
	}
}

// TestDialectFamilies: every syntax's calls, as its Format writes them,
// reach the client as tool_calls through the gateway, typed by the
// request's tools, and a call the policy skips is blocked.
func TestDialectFamilies(t *testing.T) {
	request := `{"model":"m","stream":true,"messages":[],"tools":` + qwenTools + `}`
	skip := mustPolicy(t, `{"run": [{"arg": "/path", "prefix": "/", "mode": "skip"}, {"mode": "unattended"}]}`)
	for _, name := range dialect.SyntaxNames() {
		syn, err := dialect.ParseSyntax(name)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(name, func(t *testing.T) {
			read, err := syn.Format("read", []byte(`{"path": "src/main.go", "lines": 20}`))
			if err != nil {
				t.Fatal(err)
			}
			rm, err := syn.Format("rm", []byte(`{"path": "/"}`))
			if err != nil {
				t.Fatal(err)
			}
			var mu sync.Mutex
			var recs []Action
			cfg := Config{Dialect: syn, Policy: func(string) *policy.Policy { return skip },
				OnCall: func(r Record) { mu.Lock(); recs = append(recs, r.Action); mu.Unlock() }}
			text, results, err := dialectRun(t, "proxy", cfg, "Two.\n"+string(read)+"\n"+string(rm), request)
			if err != nil {
				t.Fatal(err)
			}
			if len(results) != 1 || !results[0].Executable || results[0].Call.Name != "read" ||
				string(results[0].Arguments) != `{"path":"src/main.go","lines":20}` {
				t.Fatalf("calls %+v", results)
			}
			if !strings.HasPrefix(text, "Two.\n") || !strings.Contains(text, `The call to the tool "rm"`) {
				t.Errorf("text %q", text)
			}
			if got := waitRecords(&mu, &recs, 2); !slices.Equal(got, []Action{Forwarded, Blocked}) {
				t.Errorf("records %v", got)
			}
		})
	}
}

// TestDialectRefuses: with a Dialect, a model's request of another wire
// is refused, and so are request tools the schema cannot read; a call
// that fails ends the client's stream with an error.
func TestDialectRefuses(t *testing.T) {
	u := newUpstream(t, frame(dataEvents(wiretest.RawChat([]string{"hi"}, "stop"))), 0)
	g := New(Config{Dialect: dialect.Qwen})
	for _, face := range []string{"transport", "proxy"} {
		client, base := clientFor(t, face, g, u.srv.URL)
		for _, r := range []struct{ path, body string }{
			{"/v1/messages", anthropicRequest},
			{"/v1/responses", `{"model":"gpt","stream":true,"input":"hi"}`},
			{"/v1/other", `{"model":"gpt"}`},
			{"/v1/chat/completions", `{"model":"gpt","stream":true,"tools":[{"type":"function","function":{}}]}`},
		} {
			resp, err := client.Post(base+r.path, "application/json", strings.NewReader(r.body))
			if err == nil {
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode == http.StatusOK {
					t.Errorf("%s %s: %d %s", face, r.path, resp.StatusCode, b)
				}
			}
		}
	}
	text, _, err := dialectRun(t, "proxy", Config{}, strings.Replace(qwenRead, "20", "twenty", 1),
		`{"model":"qwen","stream":true,"messages":[],"tools":`+qwenTools+`}`)
	var pe *wire.ProviderError
	if !errors.As(err, &pe) || !strings.Contains(pe.Message, `tool call 0 (\"read\")`) && !strings.Contains(pe.Message, `tool call 0 ("read")`) {
		t.Errorf("a call that fails: %q %v", text, err)
	}
}

// TestDialectWhole: a response that is not a stream is rewritten whole,
// then judged.
func TestDialectWhole(t *testing.T) {
	u := newUpstream(t, [][]byte{[]byte(wiretest.RawChatWhole("Two. "+qwenRm+qwenRead, "stop"))}, 0)
	u.contentType = "application/json"
	skip := mustPolicy(t, `{"run": [{"arg": "/path", "prefix": "/", "mode": "skip"}, {"mode": "unattended"}]}`)
	g := New(Config{Dialect: dialect.Qwen, Policy: func(string) *policy.Policy { return skip }})
	client, base := clientFor(t, "proxy", g, u.srv.URL)
	resp := post(t, client, base+"/v1/chat/completions", `{"model":"qwen","messages":[],"tools":`+qwenTools+`}`)
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	s := string(b)
	if resp.StatusCode != 200 || strings.Contains(s, `"name":"rm"`) || !strings.Contains(s, `"name":"read"`) || !strings.Contains(s, `{\"path\":\"src/main.go\",\"lines\":20}`) ||
		!strings.Contains(s, `was blocked`) || !strings.Contains(s, `"finish_reason":"tool_calls"`) {
		t.Errorf("%d %s", resp.StatusCode, s)
	}
}
