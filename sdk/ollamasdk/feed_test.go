package ollamasdk_test

import (
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/argstream/argstream/sdk/internal/check"
	"github.com/argstream/argstream/sdk/ollamasdk"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire"
	"github.com/google/go-cmp/cmp"
	"github.com/ollama/ollama/api"
)

// testdata is the directory of wire/ollamastream's streams.
const testdata = "../../wire/ollamastream/testdata"

// TestFixtures: each stream of wire/ollamastream/testdata (Ollama's own
// tests and documentation), served to an api.Client, gives through the
// Feeder the outcomes Read gives on its bytes, and the calls they hold.
func TestFixtures(t *testing.T) {
	want := map[string][]check.Outcome{
		"api_md_tools.ndjson":      {{Index: 0, Name: "get_weather", Arguments: `{"city":"Tokyo"}`, Executable: true}},
		"cloud_web_search.ndjson":  {{Index: 0, ID: "call_1", Name: "web_search", Arguments: `{"query":"latest Ollama release"}`, Executable: true}},
		"cloud_text_no_eol.ndjson": {},
	}
	files, err := filepath.Glob(filepath.Join(testdata, "*.ndjson"))
	if err != nil || len(files) != len(want) {
		t.Fatalf("streams %v (%v), want the %d known", files, err, len(want))
	}
	for i, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			body, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			got, f, chatErr := viaSDK(t, body, uint64(i))
			if chatErr != nil || !f.Done() {
				t.Fatalf("Chat: %v, done %v", chatErr, f.Done())
			}
			read, err := viaRead(body)
			if err != nil {
				t.Fatalf("Read: %v", err)
			}
			if d := cmp.Diff(read, got); d != "" {
				t.Errorf("Feeder (+) and Read (-) differ:\n%s", d)
			}
			if d := cmp.Diff(want[filepath.Base(file)], got); d != "" {
				t.Errorf("Feeder's outcomes (+), want (-):\n%s", d)
			}
		})
	}
}

// TestGenerated: on 150 generated streams (1 to 5 calls, one to three a
// line, text and thinking between, members shuffled, white space, unknown
// members, served in pieces of random sizes), the Feeder gives the
// outcomes of Read on the same bytes, arguments JSON-equal; a done line
// makes Done true; a stream cut before it gives Read's io.ErrUnexpectedEOF
// and Done false, its calls whole all the same. Every call of a stream
// that ended with done_reason "stop" or none is executable.
func TestGenerated(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 150 {
		cut := i%5 == 4
		body, calls := newGen(rng).stream(cut)
		got, f, chatErr := viaSDK(t, body, uint64(i))
		if chatErr != nil {
			t.Fatalf("stream %d: Chat: %v\n%s", i, chatErr, body)
		}
		want, err := viaRead(body)
		switch {
		case cut && !errors.Is(err, io.ErrUnexpectedEOF):
			t.Fatalf("stream %d, cut: Read returned %v, want io.ErrUnexpectedEOF", i, err)
		case !cut && err != nil:
			t.Fatalf("stream %d: Read: %v\n%s", i, err, body)
		}
		if f.Done() == cut {
			t.Errorf("stream %d: Done %v, cut %v", i, f.Done(), cut)
		}
		if d := cmp.Diff(check.Canonical(t, want), check.Canonical(t, got)); d != "" {
			t.Fatalf("stream %d: Feeder (+) and Read (-) differ:\n%s\n%s", i, d, body)
		}
		if len(got) != calls {
			t.Fatalf("stream %d: %d outcomes, want %d", i, len(got), calls)
		}
		for j, o := range got {
			if o.Index != int64(j) {
				t.Errorf("stream %d: outcome %d has index %d", i, j, o.Index)
			}
			if !o.Executable && !strings.Contains(string(body), `"length"`) {
				t.Errorf("stream %d: call %d not executable: %+v", i, o.Index, o)
			}
		}
	}
}

// TestErrorLine: an error line ends Chat with its message, before the
// callback sees it; the calls of the lines before it are whole, as with
// Read, which returns a *wire.ProviderError.
func TestErrorLine(t *testing.T) {
	g := newGen(rand.New(rand.NewPCG(3, 4)))
	body, _ := g.stream(true)
	body = append(body, `{"error":"model runner has unexpectedly stopped"}`+"\n"...)
	got, f, chatErr := viaSDK(t, body, 0)
	if chatErr == nil || !strings.Contains(chatErr.Error(), "unexpectedly stopped") || f.Done() {
		t.Errorf("Chat returned %v (done %v), want the error line's", chatErr, f.Done())
	}
	want, err := viaRead(body)
	var pe *wire.ProviderError
	if !errors.As(err, &pe) {
		t.Errorf("Read returned %v, want a *wire.ProviderError", err)
	}
	if d := cmp.Diff(check.Canonical(t, want), check.Canonical(t, got)); d != "" {
		t.Errorf("Feeder (+) and Read (-) differ:\n%s", d)
	}
}

func callResp(calls ...api.ToolCall) api.ChatResponse {
	return api.ChatResponse{Message: api.Message{Role: "assistant", ToolCalls: calls}}
}

func toolCall(id, name string, kv ...any) api.ToolCall {
	args := api.NewToolCallFunctionArguments()
	for i := 0; i+1 < len(kv); i += 2 {
		args.Set(kv[i].(string), kv[i+1])
	}
	return api.ToolCall{ID: id, Function: api.ToolCallFunction{Name: name, Arguments: args}}
}

// TestFeed: responses made in Go, as a caller of the SDK's types may:
// calls numbered across responses in their order, arguments in the order
// set, a call without arguments {}, done_reason "length" marking the
// response cut short, a Feeder reset for a second stream.
func TestFeed(t *testing.T) {
	r := toolcall.New()
	f := ollamasdk.NewFeeder(r)
	for round := range 2 {
		for _, resp := range []api.ChatResponse{
			callResp(toolCall("a", "write", "path", "x.go", "mode", 420.0)),
			{Message: api.Message{Content: "text"}},
			callResp(toolCall("b", "ping"), toolCall("", "run", "argv", []any{"ls", "-l"})),
			{Done: true, DoneReason: "stop"},
		} {
			if err := f.Feed(resp); err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
		}
		if !f.Done() {
			t.Errorf("round %d: not done", round)
		}
		got := check.Outcomes(r.End())
		want := []check.Outcome{
			{Index: 0, ID: "a", Name: "write", Arguments: `{"path":"x.go","mode":420}`, Executable: true},
			{Index: 1, ID: "b", Name: "ping", Arguments: `{}`, Executable: true},
			{Index: 2, Name: "run", Arguments: `{"argv":["ls","-l"]}`, Executable: true},
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("round %d: outcomes (+), want (-):\n%s", round, d)
		}
		r.Reset()
		f.Reset(r)
		if f.Done() {
			t.Errorf("round %d: done after Reset", round)
		}
	}
}

// TestMalformed: a response after the done one fails the Response (no call runs) with an error wrapping
// wire.ErrMalformed, which every later Feed returns.
func TestMalformed(t *testing.T) {
	ok := callResp(toolCall("a", "f", "x", 1.0))
	for name, responses := range map[string][]api.ChatResponse{
		"after done":      {ok, {Done: true}, callResp(toolCall("b", "g"))},
		"text after done": {ok, {Done: true}, {Message: api.Message{Content: "more"}}},
	} {
		r := toolcall.New()
		f := ollamasdk.NewFeeder(r)
		var first error
		for _, resp := range responses {
			if err := f.Feed(resp); err != nil && first == nil {
				first = err
			}
		}
		if !errors.Is(first, wire.ErrMalformed) {
			t.Errorf("%s: Feed returned %v, want ErrMalformed", name, first)
		}
		if err := f.Feed(ok); err != first {
			t.Errorf("%s: the next Feed returned %v, want %v", name, err, first)
		}
		for _, res := range r.End() {
			if res.Executable {
				t.Errorf("%s: call %d %s executable", name, res.Call.Index, res.Call.Name)
			}
		}
	}
}

// TestMaxTokens: with done_reason "length" the Feeder gives Read's
// outcomes: the call, whole, its arguments an object, stays executable
// (Response.Incomplete truncates only bare numbers and literals, which
// Ollama's arguments, objects, never are).
func TestMaxTokens(t *testing.T) {
	body := []byte(`{"model":"qwen3","message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"count","arguments":{"n":12}}}]},"done":false}` + "\n" +
		`{"model":"qwen3","message":{"role":"assistant","content":""},"done":true,"done_reason":"length"}` + "\n")
	got, f, chatErr := viaSDK(t, body, 0)
	if chatErr != nil || !f.Done() {
		t.Fatalf("Chat: %v, done %v", chatErr, f.Done())
	}
	want, err := viaRead(body)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Feeder (+) and Read (-) differ:\n%s", d)
	}
	if len(got) != 1 || !got[0].Executable {
		t.Fatalf("outcomes %+v, want one executable call", got)
	}
}

// TestNoName: a call without a name, as the SDK gives one (Name ""), is
// not executable, the other calls of the stream are, as Read gives a call
// whose name is "".
func TestNoName(t *testing.T) {
	body := []byte(`{"message":{"role":"assistant","tool_calls":[{"function":{"name":"","arguments":{"a":1}}},{"function":{"name":"f","arguments":{}}}]},"done":false}` + "\n" +
		`{"message":{"role":"assistant"},"done":true}` + "\n")
	got, _, chatErr := viaSDK(t, body, 0)
	if chatErr != nil {
		t.Fatal(chatErr)
	}
	want, err := viaRead(body)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Feeder (+) and Read (-) differ:\n%s", d)
	}
	if len(got) != 2 || got[0].Executable || !got[1].Executable {
		t.Errorf("outcomes %+v, want the unnamed call not executable, the other executable", got)
	}
}
