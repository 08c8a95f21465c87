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
	"fmt"
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
}

// failsClosed reports whether the gateway, by design, ends body with its
// error event: a call whose arguments are not JSON (the client would run
// what the gateway did not judge), calls it does not judge, a body cut
// short (its last event not ended by a blank line, which the SDK drops
// without an error); and returns the outcomes of its calls.
func (w gwWire) failsClosed(body []byte) (bool, []check.Outcome, error) {
	outcomes, err := w.outcomes(body)
	if err != nil {
		return false, nil, err
	}
	return !bytes.HasSuffix(body, []byte("\n\n")) ||
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
func runChat(f upstream.Face) sdkRun {
	client := gwClient(f)
	stream := client.Chat.Completions.NewStreaming(context.Background(), chatParams)
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
}

// chatOtherChoices reports whether a chunk of body has tool calls in a
// choice other than 0.
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
			if json.Unmarshal([]byte(data), &e) == nil && slices.Contains([]string{"custom_tool_call",
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
