package anthropicsdk_test

// The gateway (package guard) between anthropic-sdk-go and a provider:
// client.Messages.NewStreaming through guard.Transport and through
// guard.NewProxy, against an upstream that streams recorded and generated
// responses event by event. With nothing blocked, the client reads the
// upstream's bytes and the SDK accumulates the message of a direct
// connection; with a call blocked, neither the SDK's events nor its message
// hold the call, a text block holds the notice in its place, and the other
// calls are those of a direct connection.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
	"github.com/argstream/argstream/guard"
	"github.com/argstream/argstream/policy"
	"github.com/argstream/argstream/sdk/internal/differ"
	"github.com/argstream/argstream/sdk/internal/replay"
	"github.com/argstream/argstream/sdk/internal/upstream"
	"github.com/google/go-cmp/cmp"
)

// pause is the upstream's pause before each event: the gateway reads a
// stream that arrives over time, as a provider's does.
const pause = time.Millisecond

// messagesRun is what a user of the SDK read of one response.
type messagesRun struct {
	msg    anthropic.Message
	events []string // the RawJSON of each event the SDK yielded
	err    error    // the stream's, or Accumulate's
}

// runMessages reads one response through client.Messages.NewStreaming,
// accumulating the events as the SDK's users do.
func runMessages(f upstream.Face) messagesRun {
	client := anthropic.NewClient(option.WithAPIKey("test"), option.WithBaseURL(f.BaseURL),
		option.WithHTTPClient(f.Client), option.WithMaxRetries(0))
	stream := client.Messages.NewStreaming(context.Background(), anthropic.MessageNewParams{
		Model:     anthropic.ModelClaudeSonnet4_6,
		MaxTokens: 1024,
		Messages:  []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("Go."))},
	})
	defer stream.Close()
	var r messagesRun
	for stream.Next() {
		ev := stream.Current()
		r.events = append(r.events, ev.RawJSON())
		if err := r.msg.Accumulate(ev); err != nil {
			r.err = fmt.Errorf("Accumulate: %w", err)
			return r
		}
	}
	r.err = stream.Err()
	return r
}

// contentBlock is what the tests compare of a content block.
type contentBlock struct {
	Type, ID, Name string
	Input          string // canonical JSON, for a tool block
	Text, Thinking string
	Raw            string // the start's JSON, for a block of another type
}

// messageSummary is what the tests compare of an accumulated message.
type messageSummary struct {
	Blocks     []contentBlock
	StopReason string
}

func isTool(typ string) bool { return slices.Contains(toolTypes, typ) }

func summarize(m anthropic.Message) messageSummary {
	s := messageSummary{StopReason: string(m.StopReason)}
	for _, b := range m.Content {
		cb := contentBlock{Type: b.Type, Text: b.Text, Thinking: b.Thinking}
		switch {
		case isTool(b.Type):
			cb.ID, cb.Name, cb.Input = b.ID, b.Name, canonicalJSON(string(b.Input))
		case b.Type != "text" && b.Type != "thinking":
			cb.Raw = b.RawJSON()
		}
		s.Blocks = append(s.Blocks, cb)
	}
	return s
}

// canonicalJSON writes a JSON text again with its objects' members sorted
// and its numbers as written, so that JSON-equal texts are equal strings.
func canonicalJSON(text string) string {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return "invalid JSON: " + text
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "invalid JSON: " + text
	}
	return string(b)
}

// strs returns the strings of a JSON text, member names included.
func strs(text string) []string {
	var v any
	if json.Unmarshal([]byte(text), &v) != nil {
		return []string{text}
	}
	var out []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			out = append(out, v)
		case []any:
			for _, e := range v {
				walk(e)
			}
		case map[string]any:
			for k, e := range v {
				out = append(out, k)
				walk(e)
			}
		}
	}
	walk(v)
	return out
}

// recorder collects a gateway's Records.
type recorder struct {
	mu   sync.Mutex
	recs []guard.Record
}

func (r *recorder) add(rec guard.Record) { r.mu.Lock(); r.recs = append(r.recs, rec); r.mu.Unlock() }

func (r *recorder) reset() { r.mu.Lock(); r.recs = nil; r.mu.Unlock() }

func (r *recorder) records() []guard.Record {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.recs)
}

func mustPolicy(t testing.TB, rules string) *policy.Policy {
	t.Helper()
	p, _, err := policy.Parse([]byte(rules))
	if err != nil {
		t.Fatalf("%s: %v", rules, err)
	}
	return p
}

// forwarding are the configurations that forward every call: no policy,
// a policy that runs every call unattended, and one that asks (forwarded,
// for the agent's own prompt to ask).
func forwarding(t testing.TB) map[string]func(*recorder) guard.Config {
	run := mustPolicy(t, `{"run": [{"mode": "unattended"}]}`)
	ask := mustPolicy(t, `{"run": "ask"}`)
	return map[string]func(*recorder) guard.Config{
		"nil-policy": func(r *recorder) guard.Config { return guard.Config{OnCall: r.add} },
		"unattended": func(r *recorder) guard.Config {
			return guard.Config{Policy: func(string) *policy.Policy { return run }, OnCall: r.add}
		},
		"ask": func(r *recorder) guard.Config {
			return guard.Config{Policy: func(string) *policy.Policy { return ask }, OnCall: r.add}
		},
	}
}

// messageEnded finds, in a recorded body (one event a data line), the
// message_stop or the message_delta with a stop_reason that ends its
// message.
var messageEnded = regexp.MustCompile(`(?m)^data: *\{"type": *"message_stop"|^data: *\{"type": *"message_delta".*"stop_reason": *"`)

// stoppedInvalid reports whether a tool block of a recorded body (one
// event a data line) stopped with arguments that are not JSON.
func stoppedInvalid(t *testing.T, body []byte) bool {
	t.Helper()
	args := map[int64]*strings.Builder{}
	for line := range strings.Lines(string(body)) {
		data, ok := strings.CutPrefix(strings.TrimSuffix(line, "\n"), "data:")
		if !ok {
			continue
		}
		var ev struct {
			Type         string `json:"type"`
			Index        int64  `json:"index"`
			ContentBlock struct {
				Type string `json:"type"`
			} `json:"content_block"`
			Delta struct {
				PartialJSON string `json:"partial_json"`
			} `json:"delta"`
		}
		if err := json.Unmarshal([]byte(data), &ev); err != nil {
			t.Fatalf("%s: %v", data, err)
		}
		switch ev.Type {
		case "content_block_start":
			if strings.HasSuffix(ev.ContentBlock.Type, "tool_use") {
				args[ev.Index] = &strings.Builder{}
			}
		case "content_block_delta":
			if b := args[ev.Index]; b != nil {
				b.WriteString(ev.Delta.PartialJSON)
			}
		case "content_block_stop":
			if b := args[ev.Index]; b != nil && b.Len() > 0 && !json.Valid([]byte(b.String())) {
				return true
			}
		}
	}
	return false
}

// gatewayError begins the event with which the gateway ends a stream it
// could not read to its end (fail closed).
const gatewayError = "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"api_error\",\"message\":\"argstream gateway: "

// checkForwarded streams body from an upstream, directly and through both
// faces of gateways configured by each of cfgs, and checks that the client
// reads the upstream's bytes, that the SDK yields the events of the direct
// connection and accumulates its message, and that the upstream sent the
// whole body. (A body whose last event has no blank line to end it, as the
// anthropic-sdk-python recordings' message_stop, comes after the
// message_delta that ends the message: the gateway forwards it as it came,
// and the SDK drops that event, as the spec says.) The exceptions are the
// streams that the gateway fails closed, as its documentation says: a
// stream cut before its message_delta, and a call whose arguments are not
// JSON (which anthropic-sdk-go would run as {}); the client reads the
// upstream's events up to the failure, then an error event, which the SDK
// reports.
func checkForwarded(t *testing.T, body []byte, cfgs map[string]func(*recorder) guard.Config) {
	up := upstream.New(t, body, pause)
	direct := upstream.Direct(up.URL)
	want := runMessages(direct)
	if sv := up.Wait(t); !sv.Complete {
		t.Fatalf("direct: the upstream sent %d of %d events", sv.Events, sv.Total)
	}
	if got := direct.Rec.Body(); !bytes.Equal(got, body) {
		t.Fatalf("direct: the client read other bytes than the upstream's:\n%q", got)
	}
	if want.err != nil {
		t.Fatalf("direct: %v", want.err)
	}
	// Whether the gateway fails the stream closed.
	failed := !messageEnded.Match(body) || stoppedInvalid(t, body)
	for name, cfg := range cfgs {
		var rec recorder
		g := guard.New(cfg(&rec))
		for _, f := range upstream.Faces(t, g, up.URL) {
			got := runMessages(f)
			sv := up.Wait(t)
			read := f.Rec.Body()
			if failed { // the gateway may have cancelled the upstream
				checkFailed(t, name+", "+f.Name, body, read, got.err)
				continue
			}
			if !sv.Complete {
				t.Errorf("%s, %s: the upstream sent %d of %d events", name, f.Name, sv.Events, sv.Total)
			}
			if !bytes.Equal(read, body) {
				t.Errorf("%s, %s: the client read other bytes than the upstream's (-upstream +client):\n%s", name, f.Name, cmp.Diff(string(body), string(read)))
			}
			if got.err != nil {
				t.Errorf("%s, %s: %v", name, f.Name, got.err)
			}
			if diff := cmp.Diff(want.events, got.events); diff != "" {
				t.Errorf("%s, %s: the SDK's events (-direct +gateway):\n%s", name, f.Name, diff)
			}
			if diff := cmp.Diff(summarize(want.msg), summarize(got.msg)); diff != "" {
				t.Errorf("%s, %s: the accumulated message (-direct +gateway):\n%s", name, f.Name, diff)
			}
		}
		for _, r := range rec.records() {
			if r.Action != guard.Forwarded || r.UpstreamCancelled {
				t.Errorf("%s: record %+v: want forwarded", name, r)
			}
		}
	}
}

// checkFailed checks a stream that the gateway failed closed: the client
// read the upstream's events up to some event, then the gateway's error
// event and nothing more, and the SDK reported it.
func checkFailed(t *testing.T, what string, body, read []byte, err error) {
	t.Helper()
	i := bytes.Index(read, []byte(gatewayError))
	switch {
	case i < 0:
		t.Errorf("%s: no error event in\n%s", what, read)
	case !bytes.HasPrefix(body, read[:i]) || (i > 0 && !bytes.HasSuffix(read[:i], []byte("\n\n"))):
		t.Errorf("%s: before the error event, not the upstream's events (-upstream +client):\n%s", what, cmp.Diff(string(body), string(read[:i])))
	case bytes.Count(read[i:], []byte("\n\n")) != 1 || !bytes.HasSuffix(read, []byte("\n\n")):
		t.Errorf("%s: the stream does not end with the error event: %q", what, read[i:])
	}
	if err == nil || !strings.Contains(err.Error(), "argstream gateway") {
		t.Errorf("%s: the gateway ended the stream with an error event, the SDK reported %v", what, err)
	}
}

// recordedBodies returns the responses of the Anthropic recordings, by name.
func recordedBodies(t *testing.T) (names []string, bodies [][]byte) {
	files, err := replay.Files(replay.Anthropic)
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		bs, err := replay.Bodies(file)
		if err != nil {
			t.Fatal(err)
		}
		for n, b := range bs {
			names, bodies = append(names, fmt.Sprintf("%s/%d", file, n)), append(bodies, b)
		}
	}
	return names, bodies
}

// TestGatewayForwardsRecordings: on every response of every Anthropic
// recording, a gateway that blocks nothing gives the SDK client the
// upstream's bytes, through either face.
func TestGatewayForwardsRecordings(t *testing.T) {
	names, bodies := recordedBodies(t)
	cfgs := forwarding(t)
	for i, body := range bodies {
		t.Run(names[i], func(t *testing.T) {
			t.Parallel()
			checkForwarded(t, body, cfgs)
		})
	}
}

// TestGatewayForwardsGenerated is TestGatewayForwardsRecordings on
// generated streams (the differential test's valid streams: text, tool and
// server tool blocks, inputs whole or in deltas, interleaved, pings).
func TestGatewayForwardsGenerated(t *testing.T) {
	cfgs := forwarding(t)
	for seed := range uint64(12) {
		body := validAnthropic(rand.New(rand.NewPCG(seed, 0x6a7e))).Bytes()
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			t.Parallel()
			checkForwarded(t, body, cfgs)
		})
	}
}

// The blocked calls' tests.

// Rules of the tools the blocking tests judge: write_file runs unattended
// under src/ and is skipped elsewhere, decided as soon as its path has
// come; delete_file is skipped unless confirmed, which it never is, so its
// decision needs the arguments' end. Other tools are forwarded unjudged.
const (
	writeRules  = `{"run": [{"arg": "/path", "prefix": "src/", "mode": "unattended"}, {"mode": "skip"}], "paths": ["/path"]}`
	deleteRules = `{"run": [{"arg": "/confirm", "const": true, "mode": "unattended"}, {"mode": "skip"}]}`
)

// rules returns a Config.Policy that judges the tools of rules by name.
func rules(t testing.TB, byName map[string]string) func(string) *policy.Policy {
	ps := map[string]*policy.Policy{}
	for name, r := range byName {
		ps[name] = mustPolicy(t, r)
	}
	return func(name string) *policy.Policy { return ps[name] }
}

// secret is a word of the blocked calls' arguments, and no other text of
// the streams: a client that reads it read a blocked call.
const secret = "argstream-secret"

// Calls of the hand-built streams. The blocked calls' deltas hold the
// secrets whole: an event that reaches the client with one shows it.
var (
	blockedWrite = differ.Call{ID: "toolu_01BLOCKEDWRITE", Name: "write_file",
		Args:   `{"path": "/etc/` + secret + `-path", "content": "` + secretWords(40) + `"}`,
		Deltas: append([]string{`{"path": "`, `/etc/` + secret + `-path`, `", "content": "`}, secretDeltas(40, `"}`)...)}
	blockedDelete = differ.Call{ID: "toolu_01BLOCKEDDELETE", Name: "delete_file",
		Args:   `{"path": "/etc/` + secret + `-delete", "recursive": true}`,
		Deltas: []string{`{"path": "`, `/etc/` + secret + `-delete`, `", "recursive"`, `: true}`}}
	readCall = differ.Call{ID: "toolu_01READ", Name: "read_file",
		Args: `{"path": "notes/todo.md", "lines": [1, 20]}`, Deltas: []string{`{"path": "no`, `tes/todo.md", `, `"lines": [1`, `, 20]}`}}
	srcWrite = differ.Call{ID: "toolu_01SRCWRITE", Name: "write_file",
		Args: `{"path": "src/main.go", "content": "package main\n"}`, Deltas: []string{`{"path": "src/`, `main.go", "content": `, `"package main\n"}`}}
)

// secretWords is n words of the secret, numbered, space-separated.
func secretWords(n int) string {
	words := make([]string, n)
	for i := range words {
		words[i] = fmt.Sprintf("%s-%d", secret, i)
	}
	return strings.Join(words, " ")
}

// secretDeltas is secretWords(n) cut into one delta per word, then end.
func secretDeltas(n int, end string) []string {
	var ds []string
	for i := range n {
		d := fmt.Sprintf("%s-%d", secret, i)
		if i < n-1 {
			d += " "
		}
		ds = append(ds, d)
	}
	return append(ds, end)
}

// sequential schedules the calls' deltas one call after another.
func sequential(calls []differ.Call) []differ.Step {
	var steps []differ.Step
	for i, c := range calls {
		for j := range c.Deltas {
			steps = append(steps, differ.Step{Call: i, Piece: j})
		}
	}
	return steps
}

// roundRobin schedules the calls' deltas in turns: one of each call, then
// the next of each.
func roundRobin(calls []differ.Call) []differ.Step {
	var steps []differ.Step
	for j := 0; ; j++ {
		n := len(steps)
		for i, c := range calls {
			if j < len(c.Deltas) {
				steps = append(steps, differ.Step{Call: i, Piece: j})
			}
		}
		if len(steps) == n {
			return steps
		}
	}
}

// messagesStream writes a Messages stream: a text block, then a tool_use
// block for each call, started in index order before its first delta, its
// input_json_deltas in the order of steps, stopped after its last; then
// message_delta (stop_reason tool_use) and message_stop.
func messagesStream(calls []differ.Call, steps []differ.Step) []byte {
	s := &differ.Stream{}
	add := func(d *differ.Node) {
		s.Events = append(s.Events, differ.Event{Name: d.Get("type").String(), HasName: true, Data: d})
	}
	add(O(M("type", S("message_start")), M("message", O(
		M("id", S("msg_01GATEWAY")), M("type", S("message")), M("role", S("assistant")), M("model", S("claude-sonnet-4-6")),
		M("content", differ.Arr()), M("stop_reason", differ.Null()), M("stop_sequence", differ.Null()),
		M("usage", O(M("input_tokens", N(12)), M("output_tokens", N(1))))))))
	add(O(M("type", S("content_block_start")), M("index", N(0)), M("content_block", O(M("type", S("text")), M("text", S(""))))))
	add(O(M("type", S("content_block_delta")), M("index", N(0)), M("delta", O(M("type", S("text_delta")), M("text", S("I'll do that."))))))
	add(O(M("type", S("content_block_stop")), M("index", N(0))))
	started := 0
	for _, st := range steps {
		for ; started <= st.Call; started++ {
			c := calls[started]
			add(O(M("type", S("content_block_start")), M("index", N(int64(1+started))),
				M("content_block", O(M("type", S("tool_use")), M("id", S(c.ID)), M("name", S(c.Name)), M("input", O())))))
		}
		c, i := calls[st.Call], int64(1+st.Call)
		add(O(M("type", S("content_block_delta")), M("index", N(i)),
			M("delta", O(M("type", S("input_json_delta")), M("partial_json", S(c.Deltas[st.Piece]))))))
		if st.Piece == len(c.Deltas)-1 {
			add(O(M("type", S("content_block_stop")), M("index", N(i))))
		}
	}
	add(O(M("type", S("message_delta")), M("delta", O(M("stop_reason", S("tool_use")), M("stop_sequence", differ.Null()))),
		M("usage", O(M("output_tokens", N(42))))))
	add(O(M("type", S("message_stop"))))
	return s.Bytes()
}

// blockedCase is what a blocking test expects.
type blockedCase struct {
	body    []byte
	policy  func(string) *policy.Policy
	blocked []string // the ids of the calls blocked
	// cancelled says the gateway cancels the upstream: a blocked call was
	// the only one still streaming. -1 leaves it to the records (for the
	// recordings, whose events may come in bursts).
	cancelled int
	secrets   []string // strings no event may hold
}

// checkBlocked streams c.body from an upstream directly and through both
// faces of a gateway with c.policy, and checks, for each face: that the
// SDK's stream ends without an error; that the gateway blocked exactly the
// calls of c.blocked and forwarded the others; that no event the SDK
// yielded holds a blocked call's id or a secret, nor a tool block or an
// input_json_delta at a blocked call's index; that the accumulated message
// is the direct connection's, but for a text block holding the notice in
// the place of each blocked call (the blocks after it gone, if the
// upstream was cancelled), and the stop reason end_turn if no call is
// left to run; and that the upstream was cancelled, or not, as expected.
func checkBlocked(t *testing.T, c blockedCase) {
	up := upstream.New(t, c.body, pause)
	direct := runMessages(upstream.Direct(up.URL))
	up.Wait(t)
	if direct.err != nil {
		t.Fatalf("direct: %v", direct.err)
	}
	want := summarize(direct.msg)
	for _, id := range c.blocked {
		if !slices.ContainsFunc(want.Blocks, func(b contentBlock) bool { return b.ID == id }) {
			t.Fatalf("direct: no call %s in %+v", id, want.Blocks)
		}
	}
	var rec recorder
	g := guard.New(guard.Config{Policy: c.policy, OnCall: rec.add})
	for _, f := range upstream.Faces(t, g, up.URL) {
		rec.reset()
		got := runMessages(f)
		sv := up.Wait(t)
		if got.err != nil {
			t.Errorf("%s: %v", f.Name, got.err)
			continue
		}
		recs := rec.records()
		cancelAt := int64(-1) // the index of the call whose block cancelled the upstream
		notices := map[int64]string{}
		for _, r := range recs {
			blocked := slices.Contains(c.blocked, r.Call.ID)
			if blocked != (r.Action == guard.Blocked) {
				t.Errorf("%s: %+v: want blocked %v", f.Name, r, blocked)
			}
			if r.Action == guard.Blocked {
				notices[r.Call.Index] = guard.DefaultNotice(r.Call, r.Decision, r.Reason)
				if n := notices[r.Call.Index]; !strings.Contains(n, "[argstream gateway]") || !strings.Contains(n, r.Call.Name) || !strings.Contains(n, r.Call.ID) {
					t.Errorf("%s: the notice %q does not name the call", f.Name, n)
				}
			}
			if r.UpstreamCancelled {
				cancelAt = r.Call.Index
			}
		}
		if len(notices) != len(c.blocked) {
			t.Errorf("%s: %d calls blocked, want %d: %+v", f.Name, len(notices), len(c.blocked), recs)
		}
		switch cancelled := cancelAt >= 0; {
		case c.cancelled >= 0 && cancelled != (c.cancelled == 1):
			t.Errorf("%s: upstream cancelled %v, want %v: %+v", f.Name, cancelled, c.cancelled == 1, recs)
		case c.cancelled == 1 && sv.Complete:
			t.Errorf("%s: the gateway says it cancelled the upstream, which sent its %d events", f.Name, sv.Total)
		case !cancelled && !sv.Complete:
			t.Errorf("%s: the upstream sent %d of %d events", f.Name, sv.Events, sv.Total)
		}
		checkEvents(t, f.Name, got.events, c, notices)
		if read := f.Rec.Body(); slices.ContainsFunc(c.secrets, func(s string) bool { return bytes.Contains(read, []byte(s)) }) {
			t.Errorf("%s: the client read a blocked call's secret:\n%s", f.Name, read)
		}
		if diff := cmp.Diff(expectBlocked(want, notices, cancelAt), summarize(got.msg)); diff != "" {
			t.Errorf("%s: the accumulated message (-want +got):\n%s", f.Name, diff)
		}
	}
}

// checkEvents checks that no event holds a blocked call's id, but in its
// notice (which names it), or a secret, and that the blocks at the blocked
// calls' indexes are text.
func checkEvents(t *testing.T, face string, events []string, c blockedCase, notices map[int64]string) {
	t.Helper()
	for _, ev := range events {
		for _, s := range strs(ev) {
			for _, n := range notices {
				s = strings.ReplaceAll(s, n, "")
			}
			for _, bad := range append(slices.Clone(c.blocked), c.secrets...) {
				if strings.Contains(s, bad) {
					t.Errorf("%s: the SDK yielded %q, of a blocked call, in %s", face, bad, ev)
				}
			}
		}
		var e struct {
			Type         string `json:"type"`
			Index        int64  `json:"index"`
			ContentBlock struct {
				Type string `json:"type"`
			} `json:"content_block"`
			Delta struct {
				Type string `json:"type"`
			} `json:"delta"`
		}
		if err := json.Unmarshal([]byte(ev), &e); err != nil {
			t.Errorf("%s: %v: %s", face, err, ev)
			continue
		}
		if _, blocked := notices[e.Index]; blocked &&
			(e.Type == "content_block_start" && e.ContentBlock.Type != "text" || e.Type == "content_block_delta" && e.Delta.Type != "text_delta") {
			t.Errorf("%s: at the index of a blocked call, %s", face, ev)
		}
	}
}

// expectBlocked is the message of a direct connection as the gateway's
// client should read it: each blocked call's block a text block holding
// its notice; if the upstream was cancelled at the call at cancelAt, the
// blocks after it gone; the stop reason end_turn if no call the client
// runs is left, else tool_use.
func expectBlocked(direct messageSummary, notices map[int64]string, cancelAt int64) messageSummary {
	out := messageSummary{StopReason: direct.StopReason}
	forwarded := false
	for i, b := range direct.Blocks {
		if cancelAt >= 0 && int64(i) > cancelAt {
			break
		}
		if n, ok := notices[int64(i)]; ok {
			b = contentBlock{Type: "text", Text: n}
		} else if b.Type == "tool_use" {
			forwarded = true
		}
		out.Blocks = append(out.Blocks, b)
	}
	if cancelAt >= 0 || out.StopReason == "tool_use" {
		out.StopReason = "end_turn"
		if forwarded {
			out.StopReason = "tool_use"
		}
	}
	return out
}

// TestGatewayBlocks: a call blocked among others, in hand-built streams
// of a text block and tool calls, through either face.
func TestGatewayBlocks(t *testing.T) {
	pol := rules(t, map[string]string{"write_file": writeRules, "delete_file": deleteRules})
	otherBlocked := blockedWrite
	otherBlocked.ID = "toolu_01OTHERBLOCKED"
	for _, tc := range []struct {
		name      string
		calls     []differ.Call
		schedule  func([]differ.Call) []differ.Step
		blocked   []string
		cancelled bool
	}{
		// The blocked call first, its deltas in turns with the others':
		// they are still streaming when it is blocked, so the upstream goes
		// on, and the events held behind it go out once it is decided.
		{"interleaved", []differ.Call{blockedWrite, readCall, srcWrite}, roundRobin, []string{blockedWrite.ID}, false},
		// The blocked call last, the only one streaming: the upstream is
		// cancelled and the stream closed by the gateway.
		{"last-pending", []differ.Call{readCall, srcWrite, blockedWrite}, sequential, []string{blockedWrite.ID}, true},
		// Both calls blocked, the second as the only one streaming: no
		// call is left for the client, and the stop reason says so.
		{"all-blocked", []differ.Call{blockedWrite, otherBlocked}, roundRobin, []string{blockedWrite.ID, otherBlocked.ID}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cancelled := 0
			if tc.cancelled {
				cancelled = 1
			}
			checkBlocked(t, blockedCase{body: messagesStream(tc.calls, tc.schedule(tc.calls)), policy: pol,
				blocked: tc.blocked, cancelled: cancelled, secrets: []string{secret}})
		})
	}
}

// TestGatewayBlockedAtArgumentsEnd: a call blocked by a decision that
// needs its whole arguments (delete_file, skipped unless confirmed), then
// a call the client runs (read_file), one after the other as Anthropic
// streams blocks. When the decision comes, nothing of the blocked call's
// arguments is left to stream: toolcall.Response.Decline's contract says
// such a call is no longer pending, so the gateway should not cancel the
// upstream, and read_file should reach the client.
//
// It failed before toolcall's fix (main, 06f6262): call.Push reported the
// decision (OnDecision, in which the gateway calls Decline) before it
// marked the root value done, so Decline reported the blocked call as the
// only one pending; the gateway cancelled the upstream, closed the
// client's stream, and read_file was lost.
func TestGatewayBlockedAtArgumentsEnd(t *testing.T) {
	pol := rules(t, map[string]string{"delete_file": deleteRules})
	calls := []differ.Call{blockedDelete, readCall}
	up := upstream.New(t, messagesStream(calls, sequential(calls)), pause)
	direct := runMessages(upstream.Direct(up.URL))
	up.Wait(t)
	want := summarize(direct.msg)
	if direct.err != nil || len(want.Blocks) != 3 || want.Blocks[2].ID != readCall.ID {
		t.Fatalf("direct: %v, %+v", direct.err, want)
	}
	var rec recorder
	g := guard.New(guard.Config{Policy: pol, OnCall: rec.add})
	for _, f := range upstream.Faces(t, g, up.URL) {
		rec.reset()
		got := runMessages(f)
		sv := up.Wait(t)
		if got.err != nil {
			t.Fatalf("%s: %v", f.Name, got.err)
		}
		blocks := summarize(got.msg).Blocks
		if !slices.Contains(blocks, want.Blocks[2]) {
			t.Errorf("%s: the SDK's message has no %s call as the direct one's %+v: %+v", f.Name, readCall.Name, want.Blocks[2], blocks)
		}
		if !sv.Complete {
			t.Errorf("%s: the gateway cancelled the upstream after %d of %d events", f.Name, sv.Events, sv.Total)
		}
		for _, r := range rec.records() {
			if r.Call.ID == blockedDelete.ID && (r.Action != guard.Blocked || r.UpstreamCancelled) {
				t.Errorf("%s: %+v: want blocked, the upstream not cancelled", f.Name, r)
			}
		}
	}
}
