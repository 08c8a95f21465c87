package openaisdk_test

// The gateway (package guard) between openai-go and a provider:
// client.Chat.Completions.NewStreaming (its chunks accumulated by a
// ChatCompletionAccumulator) and client.Responses.NewStreaming (the final
// response read from response.completed), through guard.Transport and
// through guard.NewProxy, against an upstream that streams recorded and
// generated responses event by event. With nothing blocked, the client
// reads the upstream's bytes and the SDK yields the events and the
// completion or response of a direct connection; with a call blocked,
// neither the SDK's events nor its completion or response hold the call,
// the notice stands in its place (Chat: in the message's content;
// Responses: a message item at the call's output_index), and the other
// calls are those of a direct connection.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/argstream/argstream/guard"
	"github.com/argstream/argstream/policy"
	"github.com/argstream/argstream/sdk/internal/check"
	"github.com/argstream/argstream/sdk/internal/differ"
	"github.com/argstream/argstream/sdk/internal/replay"
	"github.com/argstream/argstream/sdk/internal/upstream"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire"
	"github.com/argstream/argstream/wire/openaistream"
	"github.com/google/go-cmp/cmp"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
)

// pause is the upstream's pause before each event: the gateway reads a
// stream that arrives over time, as a provider's does.
const pause = time.Millisecond

// gwClient is an openai-go client that reaches the upstream through f.
func gwClient(f upstream.Face) openai.Client {
	return openai.NewClient(option.WithAPIKey("test"), option.WithBaseURL(f.BaseURL),
		option.WithHTTPClient(f.Client), option.WithMaxRetries(0))
}

// sdkRun is what a user of the SDK read of one response.
type sdkRun struct {
	events []string // the RawJSON of each event the SDK yielded
	// summary is what the tests compare of the accumulated completion
	// (chatSummary) or of the final response (responseSummary).
	summary any
	// err is the stream's error, AddChunk's refusal of a chunk, or, for
	// Responses, an error or response.failed event (which openai-go
	// yields as events: its users end their loops there).
	err error
}

// gwWire is one of the two APIs, as the gateway tests read it.
type gwWire struct {
	name string
	run  func(upstream.Face) sdkRun
	// failure begins the event with which the gateway ends a stream it
	// could not read to its end (fail closed).
	failure string
	// outcomes is what the calls of a body should give (package check).
	outcomes func(body []byte) ([]check.Outcome, error)
	// otherCalls reports whether body has calls the gateway does not judge.
	otherCalls func(body []byte) bool
	// read is the wire's raw reader.
	read func(context.Context, io.Reader, *toolcall.Response, ...wire.Option) error
}

// failsClosed reports whether the gateway, by design, ends body with its
// error event: a call whose arguments are not JSON (the client would run
// what the gateway did not judge), calls it does not judge, a body cut
// short before its response's end (its last event not ended by a blank
// line, which the SDK drops without an error: after the response's end,
// the gateway drops it too); and returns the outcomes of its calls.
func (w gwWire) failsClosed(body []byte) (bool, []check.Outcome, error) {
	outcomes, err := w.outcomes(body)
	if err != nil {
		return false, nil, err
	}
	cut := errors.Is(w.read(context.Background(), bytes.NewReader(body), toolcall.New()), io.ErrUnexpectedEOF)
	return cut ||
		slices.ContainsFunc(outcomes, func(o check.Outcome) bool { return o.Truncated || o.Syntax }) ||
		w.otherCalls(body), outcomes, nil
}

// # Chat Completions

// chatToolCall is what the tests compare of an accumulated tool call.
type chatToolCall struct {
	ID, Type, Name string
	Arguments      string // canonical JSON
}

// chatChoice is what the tests compare of an accumulated choice.
type chatChoice struct {
	Index            int64
	Role             string
	Content, Refusal string
	ToolCalls        []chatToolCall // at their positions: the accumulator's indexes
	FinishReason     string
}

// chatSummary is what the tests compare of an accumulated completion.
type chatSummary struct {
	ID      string
	Choices []chatChoice
}

func summarizeChat(c openai.ChatCompletion) chatSummary {
	s := chatSummary{ID: c.ID}
	for _, ch := range c.Choices {
		cc := chatChoice{Index: ch.Index, Role: string(ch.Message.Role), Content: ch.Message.Content,
			Refusal: ch.Message.Refusal, FinishReason: ch.FinishReason}
		for _, tc := range ch.Message.ToolCalls {
			cc.ToolCalls = append(cc.ToolCalls, chatToolCall{ID: tc.ID, Type: tc.Type, Name: tc.Function.Name,
				Arguments: canonicalJSON(tc.Function.Arguments)})
		}
		s.Choices = append(s.Choices, cc)
	}
	return s
}

// runChat reads one response through client.Chat.Completions.NewStreaming,
// accumulating its chunks as the SDK's users do.
func runChat(f upstream.Face) sdkRun { return runChatWith(f, chatParams) }

// runChatWith is runChat with the request's params.
func runChatWith(f upstream.Face, params openai.ChatCompletionNewParams) sdkRun {
	client := gwClient(f)
	stream := client.Chat.Completions.NewStreaming(context.Background(), params)
	defer stream.Close()
	var acc openai.ChatCompletionAccumulator
	var r sdkRun
	for stream.Next() {
		ch := stream.Current()
		r.events = append(r.events, ch.RawJSON())
		if !acc.AddChunk(ch) {
			r.err = errRejected
			break
		}
	}
	if r.err == nil {
		r.err = stream.Err()
	}
	r.summary = summarizeChat(acc.ChatCompletion)
	return r
}

var chatGW = gwWire{
	name:       "chat",
	run:        runChat,
	failure:    "data: {\"error\":{\"message\":\"argstream gateway: ",
	outcomes:   func(body []byte) ([]check.Outcome, error) { return check.Chat(body, 0) },
	otherCalls: chatOtherChoices,
	read:       openaistream.ReadChat,
}

// chatOtherChoices reports whether a chunk of body has tool calls the
// gateway refuses: in a choice other than 0, without an index (the SDKs
// number them otherwise), or a custom tool's (the SDKs read its input
// otherwise).
func chatOtherChoices(body []byte) bool {
	for _, ev := range upstream.Events(body) {
		for _, line := range strings.Split(string(ev), "\n") {
			data, ok := strings.CutPrefix(line, "data:")
			if !ok {
				continue
			}
			var c struct {
				Choices []struct {
					Index int64 `json:"index"`
					Delta struct {
						ToolCalls []json.RawMessage `json:"tool_calls"`
					} `json:"delta"`
				} `json:"choices"`
			}
			if json.Unmarshal([]byte(data), &c) != nil {
				continue
			}
			for _, ch := range c.Choices {
				if ch.Index != 0 && len(ch.Delta.ToolCalls) > 0 {
					return true
				}
				for _, raw := range ch.Delta.ToolCalls {
					var elem map[string]json.RawMessage
					if json.Unmarshal(raw, &elem) != nil {
						continue
					}
					_, indexed := elem["index"]
					_, custom := elem["custom"]
					if !indexed || custom || string(elem["type"]) == `"custom"` {
						return true
					}
				}
			}
		}
	}
	return false
}

// # Responses

// outputItem is what the tests compare of an item of a response's output.
type outputItem struct {
	Type, ID, Status, Role  string
	CallID, Name, Arguments string   // a function_call's; Arguments canonical JSON
	Text                    []string // a message's content parts: text or refusal
	Raw                     string   // an item of another type, whole
}

// responseSummary is what the tests compare of the final response.
type responseSummary struct {
	Final  string // the event that gave it: response.completed or response.incomplete; "" if none came
	ID     string
	Status string
	Output []outputItem
}

func summarizeResponse(typ string, r responses.Response) responseSummary {
	s := responseSummary{Final: typ, ID: r.ID, Status: string(r.Status)}
	for _, it := range r.Output {
		o := outputItem{Type: it.Type, ID: it.ID, Status: it.Status}
		switch it.Type {
		case "function_call":
			fc := it.AsFunctionCall()
			o.CallID, o.Name, o.Arguments = fc.CallID, fc.Name, canonicalJSON(fc.Arguments)
		case "message":
			o.Role = it.Role
			for _, c := range it.Content {
				o.Text = append(o.Text, c.Text+c.Refusal)
			}
		default:
			o.Raw = it.RawJSON()
		}
		s.Output = append(s.Output, o)
	}
	return s
}

// runResponses reads one response through client.Responses.NewStreaming
// to the end of the stream (openai-go reads on after response.completed),
// the final response being response.completed's.
func runResponses(f upstream.Face) sdkRun {
	client := gwClient(f)
	stream := client.Responses.NewStreaming(context.Background(), responsesParams)
	defer stream.Close()
	var r sdkRun
	var final responseSummary
	for stream.Next() {
		ev := stream.Current()
		r.events = append(r.events, ev.RawJSON())
		switch ev.Type {
		case "response.completed", "response.incomplete":
			final = summarizeResponse(ev.Type, ev.Response)
		case "error", "response.failed":
			if r.err == nil {
				r.err = fmt.Errorf("%s event: %s", ev.Type, ev.RawJSON())
			}
		}
	}
	if r.err == nil {
		r.err = stream.Err()
	}
	r.summary = final
	return r
}

var responsesGW = gwWire{
	name:       "responses",
	run:        runResponses,
	failure:    "event: error\ndata: {\"type\":\"error\",\"code\":\"argstream_gateway_error\",\"message\":\"argstream gateway: ",
	outcomes:   check.Responses,
	otherCalls: responsesOtherCalls,
	read:       openaistream.ReadResponses,
}

// responsesOtherCalls reports whether body has an output item that the
// client runs and whose input is not JSON arguments, which the gateway
// does not judge.
func responsesOtherCalls(body []byte) bool {
	for _, ev := range upstream.Events(body) {
		for _, line := range strings.Split(string(ev), "\n") {
			data, ok := strings.CutPrefix(line, "data:")
			if !ok {
				continue
			}
			var e struct {
				Item struct {
					Type string `json:"type"`
				} `json:"item"`
			}
			if json.Unmarshal([]byte(data), &e) == nil && slices.Contains([]string{
				"local_shell_call", "shell_call", "apply_patch_call", "computer_call"}, e.Item.Type) {
				return true
			}
		}
	}
	return false
}

// # What the tests share

// canonicalJSON writes a JSON text again with its objects' members sorted
// and its numbers as written, so that JSON-equal texts are equal strings.
func canonicalJSON(text string) string {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
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

// # Nothing blocked

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

// checkForwarded streams body from an upstream, directly and through both
// faces of gateways configured by each of cfgs, and checks that the client
// reads the upstream's bytes, that the SDK yields the events of the direct
// connection and accumulates its completion or final response, and that
// the upstream sent the whole body; and that the gateway's records say it
// forwarded every call, the upstream not cancelled. The exceptions are the
// streams the gateway fails closed, as its documentation says (see
// gwWire.failsClosed): the client reads the upstream's events up to the
// failure, then the gateway's error event, which the SDK reports. It
// returns whether the gateway failed the stream closed.
func checkForwarded(t *testing.T, w gwWire, body []byte, cfgs map[string]func(*recorder) guard.Config) bool {
	up := upstream.New(t, body, pause)
	direct := upstream.Direct(up.URL)
	want := w.run(direct)
	if sv := up.Wait(t); !sv.Complete {
		t.Fatalf("direct: the upstream sent %d of %d events", sv.Events, sv.Total)
	}
	if got := direct.Rec.Body(); !bytes.Equal(got, body) {
		t.Fatalf("direct: the client read other bytes than the upstream's:\n%q", got)
	}
	if want.err != nil {
		t.Fatalf("direct: %v", want.err)
	}
	failed, outcomes, err := w.failsClosed(body)
	if err != nil {
		t.Fatal(err)
	}
	if failed {
		t.Logf("the gateway fails this stream closed")
	}
	for name, cfg := range cfgs {
		var rec recorder
		g := guard.New(cfg(&rec))
		for _, f := range upstream.Faces(t, g, up.URL) {
			rec.reset()
			got := w.run(f)
			sv := up.Wait(t)
			read := f.Rec.Body()
			recs := rec.records()
			if failed { // the gateway may have cancelled the upstream
				checkFailed(t, w, name+", "+f.Name, body, read, got.err)
				continue
			}
			var ids, wantIDs []string
			for _, r := range recs {
				ids = append(ids, r.Call.ID)
				if r.Action != guard.Forwarded || r.UpstreamCancelled {
					t.Errorf("%s, %s: record %+v: want forwarded", name, f.Name, r)
				}
			}
			for _, o := range outcomes {
				wantIDs = append(wantIDs, o.ID)
			}
			if !slices.Equal(ids, wantIDs) {
				t.Errorf("%s, %s: records of the calls %q, want %q", name, f.Name, ids, wantIDs)
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
			if diff := cmp.Diff(want.summary, got.summary); diff != "" {
				t.Errorf("%s, %s: the SDK's %s (-direct +gateway):\n%s", name, f.Name, w.final(), diff)
			}
		}
	}
	return failed
}

func (w gwWire) final() string {
	if w.name == "chat" {
		return "accumulated completion"
	}
	return "final response"
}

// checkFailed checks a stream that the gateway failed closed: the client
// read the upstream's events up to some event, then the gateway's error
// event and nothing more, and the SDK reported it.
func checkFailed(t *testing.T, w gwWire, what string, body, read []byte, err error) {
	t.Helper()
	i := bytes.Index(read, []byte(w.failure))
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

// recordedBodies returns the responses of the recordings of wire, by name.
func recordedBodies(t *testing.T, wire replay.Wire) (names []string, bodies [][]byte) {
	files, err := replay.Files(wire)
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

// TestGatewayForwardsRecordings: on every response of every Chat
// Completions and Responses recording, a gateway that blocks nothing gives
// the SDK client the upstream's bytes, through either face.
func TestGatewayForwardsRecordings(t *testing.T) {
	cfgs := forwarding(t)
	for _, tc := range []struct {
		w    gwWire
		wire replay.Wire
		n    int
	}{{chatGW, replay.Chat, chatRecordings}, {responsesGW, replay.Responses, responsesRecordings}} {
		t.Run(tc.w.name, func(t *testing.T) {
			names, bodies := recordedBodies(t, tc.wire)
			if len(bodies) < tc.n {
				t.Fatalf("%d responses in the %d recordings", len(bodies), tc.n)
			}
			for i, body := range bodies {
				t.Run(names[i], func(t *testing.T) {
					t.Parallel()
					checkForwarded(t, tc.w, body, cfgs)
				})
			}
		})
	}
}

// TestGatewayForwardsGenerated is TestGatewayForwardsRecordings on
// generated streams (the differential tests' valid streams: text, one to
// three calls, their arguments whole or in deltas, interleaved, several
// elements in a chunk, a usage chunk).
func TestGatewayForwardsGenerated(t *testing.T) {
	cfgs := forwarding(t)
	for _, tc := range []struct {
		w     gwWire
		valid func(*rand.Rand) *differ.Stream
	}{{chatGW, validChat}, {responsesGW, validResponses}} {
		t.Run(tc.w.name, func(t *testing.T) {
			for seed := range uint64(6) {
				body := tc.valid(rand.New(rand.NewPCG(seed, 0x6a7e))).Bytes()
				t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
					t.Parallel()
					if checkForwarded(t, tc.w, body, cfgs) {
						t.Errorf("the gateway failed a valid stream closed:\n%s", body)
					}
				})
			}
		})
	}
}

// # The blocked calls

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
	blockedWrite = differ.Call{ID: "call_01BLOCKEDWRITE", Name: "write_file",
		Args:   `{"path": "/etc/` + secret + `-path", "content": "` + secretWords(40) + `"}`,
		Deltas: append([]string{`{"path": "`, `/etc/` + secret + `-path`, `", "content": "`}, secretDeltas(40, `"}`)...)}
	otherBlockedWrite = differ.Call{ID: "call_01OTHERBLOCKED", Name: blockedWrite.Name, Args: blockedWrite.Args, Deltas: blockedWrite.Deltas}
	blockedDelete     = differ.Call{ID: "call_01BLOCKEDDELETE", Name: "delete_file",
		Args:   `{"path": "/etc/` + secret + `-delete", "recursive": true}`,
		Deltas: []string{`{"path": "`, `/etc/` + secret + `-delete`, `", "recursive"`, `: true}`}}
	otherBlockedDelete = differ.Call{ID: "call_01OTHERDELETE", Name: blockedDelete.Name, Args: blockedDelete.Args, Deltas: blockedDelete.Deltas}
	readCall           = differ.Call{ID: "call_01READ", Name: "read_file",
		Args: `{"path": "notes/todo.md", "lines": [1, 20]}`, Deltas: []string{`{"path": "no`, `tes/todo.md", `, `"lines": [1`, `, 20]}`}}
	srcWrite = differ.Call{ID: "call_01SRCWRITE", Name: "write_file",
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

// chatStream writes a Chat Completions stream of choice 0: a role chunk, a
// content chunk, then a tool_calls element per delta, in the order of
// steps, each in a chunk of its own, the call i at index i, its first
// element with its id, type and name; then a finish_reason tool_calls
// chunk, a usage chunk and [DONE].
func chatStream(calls []differ.Call, steps []differ.Step) []byte {
	var chunks [][]differ.Step
	for _, st := range steps {
		chunks = append(chunks, []differ.Step{st})
	}
	return chatChunks(calls, chunks, false)
}

// chatPacked is chatStream with the calls' deltas in turns, one of each
// call in each chunk, and the finish_reason in the last of them.
func chatPacked(calls []differ.Call) []byte {
	var chunks [][]differ.Step
	for _, st := range roundRobin(calls) {
		if n := len(chunks); n > 0 && st.Piece == chunks[n-1][0].Piece {
			chunks[n-1] = append(chunks[n-1], st)
		} else {
			chunks = append(chunks, []differ.Step{st})
		}
	}
	return chatChunks(calls, chunks, true)
}

// chatChunks writes the stream of chatStream, the tool_calls elements of
// each of chunks in one chunk, the finish_reason in the last of them if
// packFinish, else in a chunk of its own.
func chatChunks(calls []differ.Call, chunks [][]differ.Step, packFinish bool) []byte {
	s := &differ.Stream{}
	add := func(choices ...*differ.Node) *differ.Node {
		d := O(M("id", S("chatcmpl-GATEWAY")), M("object", S("chat.completion.chunk")), M("created", N(1700000000)),
			M("model", S("gpt-5.4")), M("choices", differ.Arr(choices...)))
		s.Events = append(s.Events, differ.Event{Data: d})
		return d
	}
	choice := func(delta, finish *differ.Node) *differ.Node {
		return O(M("index", N(0)), M("delta", delta), M("finish_reason", finish))
	}
	add(choice(O(M("role", S("assistant")), M("content", S(""))), differ.Null()))
	add(choice(O(M("content", S("I'll do that."))), differ.Null()))
	for k, steps := range chunks {
		els := differ.Arr()
		for _, st := range steps {
			c := calls[st.Call]
			el, fn := O(M("index", N(int64(st.Call)))), O()
			if st.Piece == 0 {
				el.Set("id", S(c.ID))
				el.Set("type", S("function"))
				fn.Set("name", S(c.Name))
			}
			fn.Set("arguments", S(c.Deltas[st.Piece]))
			el.Set("function", fn)
			els.Elems = append(els.Elems, el)
		}
		finish := differ.Null()
		if packFinish && k == len(chunks)-1 {
			finish = S("tool_calls")
		}
		add(choice(O(M("tool_calls", els)), finish))
	}
	if !packFinish {
		add(choice(O(), S("tool_calls")))
	}
	add().Set("usage", O(M("prompt_tokens", N(12)), M("completion_tokens", N(42)), M("total_tokens", N(54))))
	s.Events = append(s.Events, differ.Event{RawData: "[DONE]"})
	return s.Bytes()
}

// responsesStream writes a Responses stream: response.created and
// in_progress, a message item at output_index 0 with its text, then a
// function_call item for each call, the call i at output_index 1+i, item
// id fc_ and its call_id, added in output_index order before its first
// delta, its function_call_arguments.delta events in the order of steps,
// function_call_arguments.done and output_item.done after its last; then
// response.completed with every item.
func responsesStream(calls []differ.Call, steps []differ.Step) []byte {
	s := &differ.Stream{}
	seq := int64(0)
	add := func(typ string, ms ...differ.Member) {
		d := O(append([]differ.Member{M("type", S(typ)), M("sequence_number", N(seq))}, ms...)...)
		seq++
		s.Events = append(s.Events, differ.Event{Name: typ, HasName: true, Data: d})
	}
	response := func(status string, output *differ.Node) *differ.Node {
		return O(M("id", S("resp_GATEWAY")), M("object", S("response")), M("created_at", N(1700000000)), M("status", S(status)),
			M("model", S("gpt-5.4")), M("output", output))
	}
	add("response.created", M("response", response("in_progress", differ.Arr())))
	add("response.in_progress", M("response", response("in_progress", differ.Arr())))
	const text = "I'll do that."
	msg := func(status string, content ...*differ.Node) *differ.Node {
		return O(M("id", S("msg_GATEWAY")), M("type", S("message")), M("status", S(status)), M("role", S("assistant")), M("content", differ.Arr(content...)))
	}
	part := func(text string) *differ.Node {
		return O(M("type", S("output_text")), M("text", S(text)), M("annotations", differ.Arr()))
	}
	at := func(ms ...differ.Member) []differ.Member {
		return append([]differ.Member{M("item_id", S("msg_GATEWAY")), M("output_index", N(0)), M("content_index", N(0))}, ms...)
	}
	add("response.output_item.added", M("output_index", N(0)), M("item", msg("in_progress")))
	add("response.content_part.added", at(M("part", part("")))...)
	add("response.output_text.delta", at(M("delta", S(text)))...)
	add("response.output_text.done", at(M("text", S(text)))...)
	add("response.content_part.done", at(M("part", part(text)))...)
	done := []*differ.Node{msg("completed", part(text))}
	add("response.output_item.done", M("output_index", N(0)), M("item", done[0].Clone()))
	item := func(c differ.Call, status, args string) *differ.Node {
		return O(M("id", S("fc_"+c.ID)), M("type", S("function_call")), M("status", S(status)),
			M("arguments", S(args)), M("call_id", S(c.ID)), M("name", S(c.Name)))
	}
	for _, st := range steps {
		c, oi := calls[st.Call], N(int64(1+st.Call))
		if st.Piece == 0 {
			add("response.output_item.added", M("output_index", oi), M("item", item(c, "in_progress", "")))
		}
		add("response.function_call_arguments.delta", M("item_id", S("fc_"+c.ID)), M("output_index", oi), M("delta", S(c.Deltas[st.Piece])))
		if st.Piece == len(c.Deltas)-1 {
			add("response.function_call_arguments.done", M("item_id", S("fc_"+c.ID)), M("output_index", oi), M("arguments", S(c.Args)))
			add("response.output_item.done", M("output_index", oi), M("item", item(c, "completed", c.Args)))
		}
	}
	for _, c := range calls {
		done = append(done, item(c, "completed", c.Args))
	}
	final := response("completed", differ.Arr(done...))
	final.Set("usage", O(M("input_tokens", N(12)), M("output_tokens", N(42)), M("total_tokens", N(54))))
	add("response.completed", M("response", final))
	return s.Bytes()
}

// lateWrite is a write_file call blocked by its path, which comes after
// its content, and before the end of its arguments.
var lateWrite = differ.Call{ID: "call_01LATEWRITE", Name: "write_file",
	Args:   `{"content": "` + secretWords(3) + `", "path": "/etc/` + secret + `-late", "mode": "0644"}`,
	Deltas: append([]string{`{"content": "`}, append(secretDeltas(3, `", "path": "/etc/`+secret+`-late"`), `, "mode": "0644"}`)...)}

// laterFirst schedules the first delta of calls[0], then the others' whole,
// one after another, then the rest of calls[0].
func laterFirst(calls []differ.Call) []differ.Step {
	steps := []differ.Step{{Call: 0, Piece: 0}}
	for _, st := range sequential(calls[1:]) {
		steps = append(steps, differ.Step{Call: st.Call + 1, Piece: st.Piece})
	}
	for j := 1; j < len(calls[0].Deltas); j++ {
		steps = append(steps, differ.Step{Call: 0, Piece: j})
	}
	return steps
}

// blockedCase is what a blocking test expects.
type blockedCase struct {
	body    []byte
	policy  func(string) *policy.Policy
	blocked []string // the ids of the calls blocked
	// cancelled says the gateway cancels the upstream: a blocked call was
	// the only one still streaming.
	cancelled bool
	secrets   []string // strings no event may hold
}

// blockedWire is what the blocking tests check of a wire.
type blockedWire struct {
	gwWire
	stream func([]differ.Call, []differ.Step) []byte
	// hasCall reports whether the direct connection's summary holds the
	// call id.
	hasCall func(summary any, id string) bool
	// expect is the direct connection's summary as the gateway's client
	// should read it, given the notices of the blocked calls by index:
	// every other call whole, the upstream cancelled or not (no case
	// cancels it before a call has streamed whole); normalize readies the
	// gateway's summary for the comparison.
	expect    func(direct any, notices map[int64]string) any
	normalize func(t *testing.T, face string, got any, direct any, notices map[int64]string) any
	// checkEvent checks an event the SDK yielded for what a blocked call's
	// index may hold.
	checkEvent func(t *testing.T, face, ev string, notices map[int64]string)
}

// checkBlocked streams c.body from an upstream directly and through both
// faces of a gateway with c.policy, and checks, for each face: that the
// SDK's stream ends without an error; that the gateway's records say it
// blocked exactly the calls of c.blocked and forwarded the others; that no
// event the SDK yielded holds a blocked call's id (but in its notice,
// which names it) or a secret, nor anything of a blocked call at its index,
// and that the client read no secret; that the SDK's completion or final
// response is the direct connection's with the notice in place of each
// blocked call (the calls after it gone, if the upstream was cancelled);
// and that the upstream was cancelled, or not, as expected.
func checkBlocked(t *testing.T, w blockedWire, c blockedCase) {
	up := upstream.New(t, c.body, pause)
	direct := w.run(upstream.Direct(up.URL))
	up.Wait(t)
	if direct.err != nil {
		t.Fatalf("direct: %v", direct.err)
	}
	for _, id := range c.blocked {
		if !w.hasCall(direct.summary, id) {
			t.Fatalf("direct: no call %s in %+v", id, direct.summary)
		}
	}
	var rec recorder
	g := guard.New(guard.Config{Policy: c.policy, OnCall: rec.add})
	for _, f := range upstream.Faces(t, g, up.URL) {
		rec.reset()
		got := w.run(f)
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
		case cancelled != c.cancelled:
			t.Errorf("%s: upstream cancelled %v, want %v: %+v", f.Name, cancelled, c.cancelled, recs)
		case cancelled && sv.Complete:
			t.Errorf("%s: the gateway says it cancelled the upstream, which sent its %d events", f.Name, sv.Total)
		case !cancelled && !sv.Complete:
			t.Errorf("%s: the upstream sent %d of %d events", f.Name, sv.Events, sv.Total)
		}
		for _, ev := range got.events {
			for _, s := range strs(ev) {
				for _, n := range notices {
					s = strings.ReplaceAll(s, n, "")
				}
				for _, bad := range append(slices.Clone(c.blocked), c.secrets...) {
					if strings.Contains(s, bad) {
						t.Errorf("%s: the SDK yielded %q, of a blocked call, in %s", f.Name, bad, ev)
					}
				}
			}
			w.checkEvent(t, f.Name, ev, notices)
		}
		if read := f.Rec.Body(); slices.ContainsFunc(c.secrets, func(s string) bool { return bytes.Contains(read, []byte(s)) }) {
			t.Errorf("%s: the client read a blocked call's secret:\n%s", f.Name, read)
		}
		gotSummary := w.normalize(t, f.Name, got.summary, direct.summary, notices)
		if diff := cmp.Diff(w.expect(direct.summary, notices), gotSummary); diff != "" {
			t.Errorf("%s: the SDK's %s (-want +got):\n%s", f.Name, w.final(), diff)
		}
	}
}

// blockedChat: the client's SDK reads a blocked call's notice in the
// message's content, after the text before it; the call is not in
// tool_calls, the calls after it being one index lower; finish_reason
// tool_calls becomes stop if no call is left.
var blockedChat = blockedWire{
	gwWire: chatGW,
	stream: chatStream,
	hasCall: func(summary any, id string) bool {
		s := summary.(chatSummary)
		return len(s.Choices) == 1 && slices.ContainsFunc(s.Choices[0].ToolCalls, func(tc chatToolCall) bool { return tc.ID == id })
	},
	expect: func(direct any, notices map[int64]string) any {
		s := direct.(chatSummary)
		ch := s.Choices[0]
		var calls []chatToolCall
		for i, tc := range ch.ToolCalls {
			if n, blocked := notices[int64(i)]; blocked {
				ch.Content += "\n\n" + n
			} else {
				calls = append(calls, tc)
			}
		}
		ch.ToolCalls = calls
		if len(calls) == 0 && ch.FinishReason == "tool_calls" {
			ch.FinishReason = "stop"
		}
		s.Choices = []chatChoice{ch}
		return s
	},
	normalize: func(_ *testing.T, _ string, got, _ any, _ map[int64]string) any { return got },
	// A tool_calls element at the index of a blocked call is the call
	// after it, renumbered: what it holds is checked by the comparison of
	// the accumulated calls. A chunk must be the stream's, of choice 0.
	checkEvent: func(t *testing.T, face, ev string, _ map[int64]string) {
		var c struct {
			ID      string `json:"id"`
			Choices []struct {
				Index int64 `json:"index"`
			} `json:"choices"`
		}
		if err := json.Unmarshal([]byte(ev), &c); err != nil {
			t.Errorf("%s: %v: %s", face, err, ev)
			return
		}
		if c.ID != "chatcmpl-GATEWAY" {
			t.Errorf("%s: a chunk of another id: %s", face, ev)
		}
		for _, ch := range c.Choices {
			if ch.Index != 0 {
				t.Errorf("%s: a chunk of another choice: %s", face, ev)
			}
		}
	},
}

// blockedResponses: the client's SDK reads a message item holding the
// notice at the blocked call's output_index, in its events and in the
// final response's output; no function_call item there.
var blockedResponses = blockedWire{
	gwWire: responsesGW,
	stream: responsesStream,
	hasCall: func(summary any, id string) bool {
		return slices.ContainsFunc(summary.(responseSummary).Output, func(it outputItem) bool { return it.CallID == id })
	},
	expect: func(direct any, notices map[int64]string) any {
		s := direct.(responseSummary)
		var out []outputItem
		for i, it := range s.Output {
			if n, ok := notices[int64(i)]; ok {
				it = outputItem{Type: "message", Status: "completed", Role: "assistant", Text: []string{n}}
			}
			out = append(out, it)
		}
		s.Output = out
		return s
	},
	// The notice items' ids are the gateway's: each must be an id of its
	// own, then it is left out of the comparison.
	normalize: func(t *testing.T, face string, got, direct any, notices map[int64]string) any {
		s := got.(responseSummary)
		s.Output = slices.Clone(s.Output)
		ids := map[string]bool{}
		for _, it := range direct.(responseSummary).Output {
			ids[it.ID] = true
		}
		for i, it := range s.Output {
			if n, ok := notices[int64(i)]; ok && it.Type == "message" && slices.Equal(it.Text, []string{n}) {
				if it.ID == "" || ids[it.ID] {
					t.Errorf("%s: the notice item at output %d has the id %q, not one of its own", face, i, it.ID)
				}
				ids[it.ID] = true
				s.Output[i].ID = ""
			}
		}
		return s
	},
	checkEvent: func(t *testing.T, face, ev string, notices map[int64]string) {
		var e struct {
			Type        string `json:"type"`
			OutputIndex *int64 `json:"output_index"`
			Item        struct {
				Type string `json:"type"`
			} `json:"item"`
		}
		if err := json.Unmarshal([]byte(ev), &e); err != nil {
			t.Errorf("%s: %v: %s", face, err, ev)
			return
		}
		if e.OutputIndex == nil {
			return
		}
		if _, blocked := notices[*e.OutputIndex]; !blocked {
			return
		}
		switch e.Type {
		case "response.output_item.added", "response.output_item.done":
			if e.Item.Type == "message" {
				return
			}
		case "response.content_part.added", "response.content_part.done", "response.output_text.delta", "response.output_text.done":
			return
		}
		t.Errorf("%s: at the output_index of a blocked call, %s", face, ev)
	},
}

// TestGatewayBlocks: a call blocked among others, in hand-built streams of
// text and tool calls, through either face, for either API.
func TestGatewayBlocks(t *testing.T) {
	pol := rules(t, map[string]string{"write_file": writeRules, "delete_file": deleteRules})
	for _, c := range []differ.Call{blockedWrite, otherBlockedWrite, blockedDelete, otherBlockedDelete, lateWrite, readCall, srcWrite} {
		if strings.Join(c.Deltas, "") != c.Args || !json.Valid([]byte(c.Args)) {
			t.Fatalf("%s: the deltas are not its arguments %s", c.ID, c.Args)
		}
	}
	for _, w := range []blockedWire{blockedChat, blockedResponses} {
		t.Run(w.name, func(t *testing.T) {
			for _, tc := range []struct {
				name      string
				calls     []differ.Call
				schedule  func([]differ.Call) []differ.Step
				blocked   []string
				cancelled bool
			}{
				// The blocked call first, its deltas in turns with the
				// others': they are still streaming when it is blocked, so
				// the upstream goes on, and the events held behind it go
				// out once it is decided (Chat: one index lower).
				{"interleaved", []differ.Call{blockedWrite, readCall, srcWrite}, roundRobin, []string{blockedWrite.ID}, false},
				// The blocked call last, the only one streaming: the
				// upstream is cancelled and the stream closed by the
				// gateway.
				{"last-pending", []differ.Call{readCall, srcWrite, blockedWrite}, sequential, []string{blockedWrite.ID}, true},
				// The blocked call first, the only one streaming when it is
				// blocked, the call after it having streamed whole in the
				// meantime: the upstream is cancelled, and the call after
				// it, held behind the blocked one, still reaches the client.
				{"cancelled-after-a-later-call", []differ.Call{lateWrite, readCall}, laterFirst, []string{lateWrite.ID}, true},
				// A call blocked by a decision at its arguments' last byte:
				// it is no longer streaming, so the upstream goes on and
				// the call after it reaches the client.
				{"at-arguments-end", []differ.Call{blockedDelete, readCall}, sequential, []string{blockedDelete.ID}, false},
				// Both calls blocked, the second as the only one
				// streaming: no call is left for the client, and the
				// closing events say so.
				{"all-blocked", []differ.Call{blockedWrite, otherBlockedWrite}, roundRobin, []string{blockedWrite.ID, otherBlockedWrite.ID}, true},
				// Both calls blocked at their arguments' end: the upstream's
				// own end goes to the client, rewritten to say no call is
				// left.
				{"all-blocked-at-end", []differ.Call{blockedDelete, otherBlockedDelete}, sequential, []string{blockedDelete.ID, otherBlockedDelete.ID}, false},
			} {
				t.Run(tc.name, func(t *testing.T) {
					t.Parallel()
					checkBlocked(t, w, blockedCase{body: w.stream(tc.calls, tc.schedule(tc.calls)), policy: pol,
						blocked: tc.blocked, cancelled: tc.cancelled, secrets: []string{secret}})
				})
			}
		})
	}
}

// TestGatewayBlocksPackedChat: Chat Completions chunks holding an element
// of each call, a blocked call's among them, the last one with the
// finish_reason: the blocked call's elements are left out of each chunk,
// the others' renumbered, the finish_reason kept for the calls left.
func TestGatewayBlocksPackedChat(t *testing.T) {
	pol := rules(t, map[string]string{"write_file": writeRules, "delete_file": deleteRules})
	for _, tc := range []struct {
		name      string
		calls     []differ.Call
		blocked   []string
		cancelled bool
	}{
		// The blocked call first, decided by its path while the others
		// stream: their elements, held behind it, go out one index lower.
		{"first", []differ.Call{blockedWrite, readCall, srcWrite}, []string{blockedWrite.ID}, false},
		// The blocked call last, decided at its last byte, in the chunk of
		// the other call's last delta and of the finish_reason.
		{"last", []differ.Call{readCall, blockedDelete}, []string{blockedDelete.ID}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			checkBlocked(t, blockedChat, blockedCase{body: chatPacked(tc.calls), policy: pol,
				blocked: tc.blocked, cancelled: tc.cancelled, secrets: []string{secret}})
		})
	}
}

// TestGatewayFailsClosed: the streams the gateway ends with its error
// event by design, whatever its policy: tool calls in a Chat choice other
// than the first, an output item the client runs whose input the gateway
// does not read (a local shell's), and a forwarded call whose
// arguments turn out not to be JSON (the client would run what the gateway
// did not judge). The client reads the upstream's events up to the
// failure, then the error event, and the SDK reports it.
func TestGatewayFailsClosed(t *testing.T) {
	badArgs := differ.Call{ID: "call_01BADARGS", Name: "read_file", Args: `{"path": "a.txt" "lines": 3}`,
		Deltas: []string{`{"path": `, `"a.txt" "lines": 3}`}}
	// insert inserts events before the event at, from the end if at < 0.
	insert := func(body []byte, at int, events ...differ.Event) []byte {
		s, err := differ.ParseSSE(body)
		if err != nil {
			t.Fatal(err)
		}
		if at < 0 {
			at += len(s.Events)
		}
		s.Events = slices.Insert(s.Events, at, events...)
		return s.Bytes()
	}
	otherChoice := O(M("id", S("chatcmpl-GATEWAY")), M("object", S("chat.completion.chunk")), M("created", N(1700000000)),
		M("model", S("gpt-5.4")), M("choices", differ.Arr(O(M("index", N(1)), M("delta", O(M("tool_calls", differ.Arr(
			O(M("index", N(0)), M("id", S("call_01OTHERCHOICE")), M("type", S("function")),
				M("function", O(M("name", S("run_command")), M("arguments", S(`{"cmd": "id"}`))))))))),
			M("finish_reason", differ.Null())))))
	item := func(event string, item *differ.Node) differ.Event {
		return differ.Event{Name: event, HasName: true, Data: O(M("type", S(event)), M("output_index", N(2)), M("item", item))}
	}
	shell := O(M("id", S("lsc_01")), M("type", S("local_shell_call")), M("status", S("completed")), M("call_id", S("call_01SHELL")),
		M("action", O(M("type", S("exec")), M("command", differ.Arr(S("id"))), M("env", O()))))
	cfgs := forwarding(t)
	for _, tc := range []struct {
		name string
		w    gwWire
		body []byte
	}{
		{"chat/other-choice", chatGW, insert(chatStream([]differ.Call{readCall}, sequential([]differ.Call{readCall})), 3, differ.Event{Data: otherChoice})},
		{"chat/bad-arguments", chatGW, chatStream([]differ.Call{badArgs}, sequential([]differ.Call{badArgs}))},
		{"responses/local-shell-call", responsesGW, insert(responsesStream([]differ.Call{readCall}, sequential([]differ.Call{readCall})), -1,
			item("response.output_item.added", shell), item("response.output_item.done", shell))},
		{"responses/bad-arguments", responsesGW, responsesStream([]differ.Call{badArgs}, sequential([]differ.Call{badArgs}))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if !checkForwarded(t, tc.w, tc.body, cfgs) {
				t.Errorf("the gateway should fail this stream closed:\n%s", tc.body)
			}
		})
	}
}

// TestGatewayBlocksRecordings: every call of every recording that names
// one blocked, by a policy that skips every call at its start, through
// either face: the SDK's stream ends without an error, each record says
// blocked, no event holds a call's id but in a notice, and the final
// completion or response holds no call, but a notice for each call
// blocked (Chat: in the content, the finish_reason stop; Responses: a
// message item at the call's output_index). The first call blocked is
// the only one streaming: the gateway may cancel the upstream there, and
// the calls after it never start.
func TestGatewayBlocksRecordings(t *testing.T) {
	skip := mustPolicy(t, `{"run": [{"mode": "skip"}]}`)
	for _, tc := range []struct {
		w     gwWire
		wire  replay.Wire
		check func(t *testing.T, face string, summary any, notices map[int64]string)
	}{
		{chatGW, replay.Chat, func(t *testing.T, face string, summary any, notices map[int64]string) {
			s := summary.(chatSummary)
			if len(s.Choices) != 1 {
				t.Fatalf("%s: %+v", face, s)
			}
			ch := s.Choices[0]
			if len(ch.ToolCalls) != 0 || ch.FinishReason != "stop" {
				t.Errorf("%s: tool calls %+v, finish_reason %q; want none, stop", face, ch.ToolCalls, ch.FinishReason)
			}
			for _, n := range notices {
				if !strings.Contains(ch.Content, "\n\n"+n) {
					t.Errorf("%s: no notice %q in the content %q", face, n, ch.Content)
				}
			}
		}},
		{responsesGW, replay.Responses, func(t *testing.T, face string, summary any, notices map[int64]string) {
			s := summary.(responseSummary)
			if s.Final != "response.completed" || s.Status != "completed" {
				t.Errorf("%s: final %q, status %q", face, s.Final, s.Status)
			}
			for i, it := range s.Output {
				if it.Type == "function_call" {
					t.Errorf("%s: a function_call in the output: %+v", face, it)
				}
				if n, ok := notices[int64(i)]; ok && (it.Type != "message" || !slices.Equal(it.Text, []string{n})) {
					t.Errorf("%s: at output %d, %+v, not the notice %q", face, i, it, n)
				}
			}
			for i := range notices {
				if i >= int64(len(s.Output)) {
					t.Errorf("%s: no output %d for the notice %q", face, i, notices[i])
				}
			}
		}},
	} {
		t.Run(tc.w.name, func(t *testing.T) {
			names, bodies := recordedBodies(t, tc.wire)
			for i, body := range bodies {
				failed, outcomes, err := tc.w.failsClosed(body)
				if err != nil {
					t.Fatal(err)
				}
				if failed || len(outcomes) == 0 {
					continue
				}
				t.Run(names[i], func(t *testing.T) {
					t.Parallel()
					up := upstream.New(t, body, pause)
					var rec recorder
					g := guard.New(guard.Config{Policy: func(string) *policy.Policy { return skip }, OnCall: rec.add})
					for _, f := range upstream.Faces(t, g, up.URL) {
						rec.reset()
						got := tc.w.run(f)
						up.Wait(t)
						if got.err != nil {
							t.Errorf("%s: %v", f.Name, got.err)
							continue
						}
						recs := rec.records()
						if len(recs) == 0 {
							t.Errorf("%s: no record", f.Name)
						}
						notices := map[int64]string{}
						for _, r := range recs {
							if r.Action != guard.Blocked || !slices.ContainsFunc(outcomes, func(o check.Outcome) bool { return o.ID == r.Call.ID }) {
								t.Errorf("%s: %+v: want blocked, a call of the recording", f.Name, r)
							}
							notices[r.Call.Index] = guard.DefaultNotice(r.Call, r.Decision, r.Reason)
						}
						for _, ev := range got.events {
							for _, s := range strs(ev) {
								for _, n := range notices {
									s = strings.ReplaceAll(s, n, "")
								}
								for _, o := range outcomes {
									if strings.Contains(s, o.ID) {
										t.Errorf("%s: the SDK yielded the id %q of a blocked call, in %s", f.Name, o.ID, ev)
									}
								}
							}
						}
						tc.check(t, f.Name, got.summary, notices)
					}
				})
			}
		})
	}
}

// TestGatewayCustomToolCall: a Responses custom_tool_call (its input free
// text, as Codex's apply_patch) through either face, read by openai-go: a
// policy that allows it forwards the upstream's bytes, and the SDK's final
// response holds the call with its input; a policy that blocks it on its
// input, as it streams, leaves the SDK a final response with the notice
// at its output_index and no trace of the input.
func TestGatewayCustomToolCall(t *testing.T) {
	const patch = "*** Begin Patch\n*** Update File: /etc/passwd\n+root::0:0\n*** End Patch"
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	item := func(input, status string) string {
		return `{"id":"ctc_1","type":"custom_tool_call","status":"` + status + `","call_id":"call_1","name":"apply_patch","input":` + q(input) + `}`
	}
	ev := func(typ, rest string) string {
		return "event: " + typ + "\ndata: {\"type\":\"" + typ + "\"," + rest + "}\n\n"
	}
	response := func(status, output string) string {
		return `"response":{"id":"resp_1","object":"response","created_at":1700000000,"status":"` + status + `","model":"gpt-5.4","output":[` + output + `]}`
	}
	var body strings.Builder
	body.WriteString(ev("response.created", `"sequence_number":0,`+response("in_progress", "")))
	body.WriteString(ev("response.output_item.added", `"sequence_number":1,"output_index":0,"item":`+item("", "in_progress")))
	for i, d := range []string{patch[:30], patch[30:44], patch[44:]} {
		body.WriteString(ev("response.custom_tool_call_input.delta", fmt.Sprintf(`"sequence_number":%d,"item_id":"ctc_1","output_index":0,"delta":%s`, 2+i, q(d))))
	}
	body.WriteString(ev("response.custom_tool_call_input.done", `"sequence_number":5,"item_id":"ctc_1","output_index":0,"input":`+q(patch)))
	body.WriteString(ev("response.output_item.done", `"sequence_number":6,"output_index":0,"item":`+item(patch, "completed")))
	body.WriteString(ev("response.completed", `"sequence_number":7,`+response("completed", item(patch, "completed"))))
	stream := []byte(body.String())

	up := upstream.New(t, stream, pause)
	allow := mustPolicy(t, `{"run": [{"mode": "unattended"}]}`)
	for _, f := range upstream.Faces(t, guard.New(guard.Config{Policy: func(string) *policy.Policy { return allow }}), up.URL) {
		got := runResponses(f)
		up.Wait(t)
		s, _ := got.summary.(responseSummary)
		if got.err != nil || !bytes.Equal(f.Rec.Body(), stream) || len(s.Output) != 1 || !strings.Contains(s.Output[0].Raw, `"input":"*** Begin Patch`) {
			t.Errorf("allowed, %s: %v, %+v\n%s", f.Name, got.err, s, f.Rec.Body())
		}
	}

	deny := mustPolicy(t, `{"run": [{"arg": "/input", "pattern": "Update File: /", "mode": "skip"}, {"mode": "unattended"}]}`)
	for _, f := range upstream.Faces(t, guard.New(guard.Config{Policy: func(string) *policy.Policy { return deny }}), up.URL) {
		got := runResponses(f)
		up.Wait(t)
		s, _ := got.summary.(responseSummary)
		if got.err != nil || len(s.Output) != 1 || s.Output[0].Type != "message" || len(s.Output[0].Text) != 1 ||
			!strings.Contains(s.Output[0].Text[0], `The call to the tool "apply_patch" (id "call_1") was blocked`) {
			t.Errorf("blocked, %s: %v, %+v", f.Name, got.err, s)
		}
		for _, hidden := range []string{"passwd", "custom_tool_call"} {
			if strings.Contains(string(f.Rec.Body()), hidden) {
				t.Errorf("blocked, %s: %q reaches the client:\n%s", f.Name, hidden, f.Rec.Body())
			}
		}
	}
}
