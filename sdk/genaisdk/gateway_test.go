package genaisdk_test

// The gateway (package guard) between google.golang.org/genai and the
// Gemini API: GenerateContentStream through guard.Transport (and through
// guard.NewProxy), against an upstream that streams the recordings event
// by event. With every call allowed, the SDK reads the responses of a
// direct connection; with a call blocked, its parts are gone from what the
// SDK reads, a text part holds the notice in its first part's place, and
// the other calls are those of a direct connection.

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/guard"
	"github.com/argstream/argstream/policy"
	"github.com/argstream/argstream/sdk/internal/check"
	"github.com/argstream/argstream/sdk/internal/upstream"
	"github.com/google/go-cmp/cmp"
	"google.golang.org/genai"
)

func mustPolicy(t testing.TB, rules string) *policy.Policy {
	t.Helper()
	p, _, err := policy.Parse([]byte(rules))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// read is what the SDK read of one response: each response it yielded
// (as JSON, its HTTP headers left out), candidate 0's parts flattened, and
// the Feeder's outcomes.
type read struct {
	responses []string
	parts     []string
	outcomes  []check.Outcome
}

func readFace(t testing.TB, f upstream.Face) read {
	t.Helper()
	var rd read
	rd.outcomes = glueWith(t, f.Client, f.BaseURL, func(resp *genai.GenerateContentResponse) {
		c := *resp
		c.SDKHTTPResponse = nil
		b, err := json.Marshal(&c)
		if err != nil {
			t.Fatal(err)
		}
		rd.responses = append(rd.responses, string(b))
		if len(resp.Candidates) == 0 || resp.Candidates[0].Content == nil {
			return
		}
		for _, p := range resp.Candidates[0].Content.Parts {
			rd.parts = append(rd.parts, describe(t, p))
		}
	})
	return rd
}

// describe summarizes a part: a function call as its JSON, a text as its
// text.
func describe(t testing.TB, p *genai.Part) string {
	switch {
	case p.FunctionCall != nil:
		b, err := json.Marshal(p.FunctionCall)
		if err != nil {
			t.Fatal(err)
		}
		return "call " + string(b)
	case p.Thought:
		return "thought " + p.Text
	case p.Text != "":
		return "text " + p.Text
	}
	return "other"
}

// callParts returns, for each part of parts, the index of the call it
// belongs to (-1 for a part that is not a function call): a part with a
// name begins the next call, one without continues the last.
func callParts(parts []string) []int {
	var out []int
	k := -1
	for _, p := range parts {
		js, ok := strings.CutPrefix(p, "call ")
		if !ok {
			out = append(out, -1)
			continue
		}
		var fc genai.FunctionCall
		if json.Unmarshal([]byte(js), &fc) == nil && fc.Name != "" || k < 0 {
			k++
		}
		out = append(out, k)
	}
	return out
}

func notice(c fragment.Call, _ policy.Decision, _ string) string {
	return "BLOCKED " + c.Name
}

// TestGatewayBlocks: a policy skips one call of a recording: a whole call
// (read_theme) and a call whose arguments stream (the second getWeather).
// The SDK's parts are a direct connection's with the blocked call's first
// part replaced by a text part holding the notice and its other parts
// left out; the Feeder's Results are the direct ones without that call,
// the later calls one index lower (Gemini numbers calls by their order).
func TestGatewayBlocks(t *testing.T) {
	for _, tc := range []struct {
		file    string
		policy  func(name string) *policy.Policy
		blocked int // the index of the call blocked
		name    string
	}{
		{"vercel-ai__google-stream-no-args-tool-call.chunks.txt", func(name string) *policy.Policy {
			if name == "read_theme" {
				return mustPolicy(t, `{"run": [{"mode": "skip"}]}`)
			}
			return mustPolicy(t, `{"run": [{"mode": "unattended"}]}`)
		}, 0, "read_theme"},
		{"vercel-ai__google-stream-tool-call-arguments.chunks.txt", func(string) *policy.Policy {
			return mustPolicy(t, `{"run": [{"arg": "/location", "const": "San Francisco", "mode": "skip"}, {"mode": "unattended"}]}`)
		}, 1, "getWeather"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			srv := upstream.New(t, body(t, tc.file), time.Millisecond)
			direct := readFace(t, upstream.Direct(srv.URL))
			srv.Wait(t)
			if len(direct.outcomes) < 2 {
				t.Fatalf("%d calls direct, want at least 2", len(direct.outcomes))
			}
			// What the SDK should read through the gateway.
			var wantParts []string
			owner := callParts(direct.parts)
			for i, k := range owner {
				switch {
				case k != tc.blocked:
					wantParts = append(wantParts, direct.parts[i])
				case i == 0 || owner[i-1] != tc.blocked:
					wantParts = append(wantParts, "text BLOCKED "+tc.name)
				}
			}
			var wantOutcomes []check.Outcome
			for _, o := range direct.outcomes {
				switch {
				case o.Index == int64(tc.blocked):
					continue
				case o.Index > int64(tc.blocked):
					o.Index--
				}
				wantOutcomes = append(wantOutcomes, o)
			}
			t.Logf("the SDK should read the parts:\n%s", strings.Join(wantParts, "\n"))
			g := guard.New(guard.Config{Policy: tc.policy, Notice: notice})
			for _, f := range upstream.Faces(t, g, srv.URL) {
				got := readFace(t, f)
				srv.Wait(t)
				if d := cmp.Diff(wantParts, got.parts); d != "" {
					t.Errorf("%s: the SDK's parts (+), want (-):\n%s", f.Name, d)
				}
				if d := cmp.Diff(wantOutcomes, got.outcomes); d != "" {
					t.Errorf("%s: the Feeder's Results (+), want (-):\n%s", f.Name, d)
				}
			}
		})
	}
}

// TestGatewayAllows: with every call allowed, the SDK reads through the
// gateway the responses it reads directly, from the upstream's bytes, and
// the Feeder gives the same Results, on every recording.
func TestGatewayAllows(t *testing.T) {
	allow := mustPolicy(t, `{"run": [{"mode": "unattended"}]}`)
	g := guard.New(guard.Config{Policy: func(string) *policy.Policy { return allow }})
	calls := 0
	for _, file := range recordings(t) {
		t.Run(file, func(t *testing.T) {
			b := body(t, file)
			srv := upstream.New(t, b, time.Millisecond)
			direct := readFace(t, upstream.Direct(srv.URL))
			srv.Wait(t)
			if len(direct.responses) == 0 {
				t.Fatal("the SDK read no response")
			}
			calls += len(direct.outcomes)
			for _, f := range upstream.Faces(t, g, srv.URL) {
				got := readFace(t, f)
				srv.Wait(t)
				if d := cmp.Diff(direct.responses, got.responses); d != "" {
					t.Errorf("%s: the SDK's responses (+), direct (-):\n%s", f.Name, d)
				}
				if d := cmp.Diff(direct.outcomes, got.outcomes); d != "" {
					t.Errorf("%s: the Feeder's Results (+), direct (-):\n%s", f.Name, d)
				}
				if body := f.Rec.Body(); string(body) != string(b) {
					t.Errorf("%s: the client read %d bytes, not the upstream's %d", f.Name, len(body), len(b))
				}
			}
		})
	}
	if calls < 8 {
		t.Errorf("%d calls in the recordings, want at least 8", calls)
	}
}
