package openaistream

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/internal/testutil/wiretest"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire/sse"
	gocmp "github.com/google/go-cmp/cmp"
)

// chatStream is a WirePlan written as a Chat Completions stream.
type chatStream struct {
	plan   wiretest.WirePlan
	events []wiretest.SSEEvent
	// What each event carries: the steps of the plan, the argument bytes
	// per call (by position in plan.Calls), the text of the chosen choice.
	steps  [][]wiretest.WireStep
	fed    []map[int]int
	text   []string
	finish int   // the event with the finish_reason
	needs  []int // per call, its argument bytes up to the last significant one
	// custom says which calls are a custom tool's, whose deltas are its
	// input text: {"input":TEXT}, complete at the finish_reason.
	custom []bool
}

// chatQuote writes s as a JSON string.
func chatQuote(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// chatWriteStream encodes p: each start as an element with id, type, name
// and empty arguments, each delta as an element with arguments only, ends
// as nothing (Chat has no per-call end), a quarter of the calls as a custom
// tool's, their deltas its input text; one to three elements per chunk,
// index first or last; text chunks of the chosen choice 0 and elements of
// a choice 1 (n = 2) mixed in; then the finish_reason, sometimes a usage
// chunk, and [DONE].
func chatWriteStream(p wiretest.WirePlan, rng *rand.Rand) chatStream {
	s := chatStream{plan: p}
	deltas := make([][]string, len(p.Calls))
	for i, c := range p.Calls {
		deltas[i] = c.Deltas
		doc := strings.Join(deltas[i], "")
		s.needs = append(s.needs, len(strings.TrimRight(doc, " \t\r\n")))
		s.custom = append(s.custom, rng.IntN(4) == 0)
	}
	add := func(data string, steps []wiretest.WireStep, fed map[int]int, text string) {
		s.events = append(s.events, wiretest.SSEEvent{Data: data})
		s.steps = append(s.steps, steps)
		s.fed = append(s.fed, fed)
		s.text = append(s.text, text)
	}
	add(`{"id":"chatcmpl-1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":null},"finish_reason":null}]}`, nil, nil, "")
	steps := p.Steps
	for len(steps) > 0 {
		if rng.IntN(5) == 0 {
			text := fmt.Sprint("word", rng.IntN(100), " ")
			add(`{"id":"chatcmpl-1","choices":[{"index":0,"delta":{"content":`+chatQuote(text)+`},"finish_reason":null}]}`, nil, nil, text)
		}
		n := min(len(steps), 1+rng.IntN(3))
		group := steps[:n]
		steps = steps[n:]
		var elems []string
		fed := map[int]int{}
		for _, st := range group {
			c := p.Calls[st.Call]
			index := fmt.Sprint(c.Index)
			var fields []string
			switch {
			case st.Delta == -1 && s.custom[st.Call]:
				fields = []string{`"id":` + chatQuote(c.ID), `"custom":{"name":` + chatQuote(c.Name) + `,"input":""}`}
				if rng.IntN(2) == 0 {
					fields = append(fields, `"type":"custom"`)
				}
			case st.Delta == -1:
				fields = []string{`"id":` + chatQuote(c.ID), `"type":"function"`, `"function":{"name":` + chatQuote(c.Name) + `,"arguments":""}`}
			case st.Delta < len(deltas[st.Call]) && s.custom[st.Call]:
				d := deltas[st.Call][st.Delta]
				fields = []string{`"custom":{"input":` + chatQuote(d) + `}`}
			case st.Delta < len(deltas[st.Call]):
				d := deltas[st.Call][st.Delta]
				fields = []string{`"function":{"arguments":` + chatQuote(d) + `}`}
				fed[st.Call] += len(d)
			default: // the call's end: nothing on the wire
				continue
			}
			if rng.IntN(3) == 0 {
				fields = append(fields, `"index":`+index)
			} else {
				fields = append([]string{`"index":` + index}, fields...)
			}
			elems = append(elems, "{"+strings.Join(fields, ",")+"}")
		}
		if len(elems) == 0 {
			continue
		}
		choices := []string{`{"index":0,"delta":{"tool_calls":[` + strings.Join(elems, ",") + `]},"logprobs":null,"finish_reason":null}`}
		if rng.IntN(4) == 0 { // choice 1, to ignore
			other := `{"delta":{"content":"other","tool_calls":[{"index":0,"id":"call_x","type":"function","function":{"name":"x","arguments":"]]"}}]},"index":1}`
			if rng.IntN(2) == 0 {
				choices = append(choices, other)
			} else {
				choices = append([]string{other}, choices...)
			}
		}
		add(`{"id":"chatcmpl-1","object":"chat.completion.chunk","choices":[`+strings.Join(choices, ",")+`]}`, group, fed, "")
	}
	s.finish = len(s.events)
	add(`{"id":"chatcmpl-1","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`, nil, nil, "")
	if rng.IntN(2) == 0 {
		add(`{"id":"chatcmpl-1","choices":[],"usage":{"prompt_tokens":10,"completion_tokens":20,"total_tokens":30}}`, nil, nil, "")
	}
	add("[DONE]", nil, nil, "")
	return s
}

// want returns the calls and the text that the first k events give: a call
// whose start came is there, executable if all its significant argument
// bytes came, and truncated otherwise.
func (s chatStream) want(k int) ([]wiretest.CallOutcome, string) {
	started := map[int]bool{}
	fed := map[int]int{}
	var text strings.Builder
	for e := range k {
		for _, st := range s.steps[e] {
			if st.Delta == -1 {
				started[st.Call] = true
			}
		}
		for c, n := range s.fed[e] {
			fed[c] += n
		}
		text.WriteString(s.text[e])
	}
	var out []wiretest.CallOutcome
	for i, c := range s.plan.Calls {
		if !started[i] {
			continue
		}
		o := wiretest.CallOutcome{Index: c.Index, ID: c.ID, Name: c.Name, Truncated: true}
		if s.custom[i] {
			if k > s.finish {
				o.Arguments, o.Truncated, o.Executable = chatCustomWant(s.plan.Calls[i].Deltas), false, true
			}
		} else if fed[i] >= s.needs[i] {
			o = wiretest.CallOutcome{Index: c.Index, ID: c.ID, Name: c.Name, Arguments: c.Want, Executable: true}
		}
		out = append(out, o)
	}
	slices.SortFunc(out, func(a, b wiretest.CallOutcome) int { return cmp.Compare(a.Index, b.Index) })
	return out, text.String()
}

// chatCustomWant is the arguments of a custom call of the input deltas:
// {"input":TEXT}, as the aggregator writes them.
func chatCustomWant(deltas []string) string {
	want, err := testutil.Canonical([]byte(`{"input":` + chatQuote(strings.Join(deltas, "")) + `}`))
	if err != nil {
		panic(err)
	}
	return string(want)
}

// chatCheckPlan reads a generated stream whole, then cut at a byte, and
// returns what went wrong.
func chatCheckPlan(t *testing.T, resp *toolcall.Response, docs []testutil.Doc, seed uint64, cut int) string {
	rng := rand.New(rand.NewPCG(seed, 7))
	p, err := wiretest.MakeWirePlan(docs, int64(rng.IntN(2)), rng)
	if err != nil {
		t.Fatal(err)
	}
	s := chatWriteStream(p, rng)
	stream := wiretest.FrameSSE(s.events, true, rng)

	got := chatRead(t, bytes.NewReader(stream), resp)
	if got.Err != nil {
		return fmt.Sprintf("whole: ReadChat = %v\nstream %q", got.Err, stream)
	}
	want, text := s.want(len(s.events))
	if !slices.Contains(s.custom, true) && !gocmp.Equal(p.Want(), want) {
		return fmt.Sprintf("whole: want %v, the plan's %v", want, p.Want()) // the test's own check
	}
	if diff := gocmp.Diff(want, got.Calls); diff != "" {
		return fmt.Sprintf("whole: (-want +got):\n%s\nstream %q", diff, stream)
	}
	if got.Text[0] != text {
		return fmt.Sprintf("whole: text %q, want %q", got.Text[0], text)
	}

	// Cut anywhere, or, half of the time, near the end, where the
	// finish_reason, usage and [DONE] are. Which events the cut stream
	// dispatches, and whether it ends inside one, the sse Reader (tested
	// on its own) says.
	if cut&1 == 0 {
		cut = (cut >> 1) % len(stream)
	} else {
		cut = len(stream) - 1 - (cut>>1)%min(len(stream), 300)
	}
	rd := sse.NewReader(bytes.NewReader(stream[:cut]))
	k := 0
	for rd.Next() {
		k++
	}
	complete := k == len(s.events) || k > s.finish // an event cut off after the finish_reason is dropped
	got = chatRead(t, bytes.NewReader(stream[:cut]), resp)
	switch {
	case complete && got.Err != nil,
		!complete && (!errors.Is(got.Err, io.ErrUnexpectedEOF) || errors.Is(got.Err, sse.ErrTruncated) != errors.Is(rd.Err(), sse.ErrTruncated)):
		return fmt.Sprintf("cut at %d of %d, %d events of %d: ReadChat = %v", cut, len(stream), k, len(s.events), got.Err)
	}
	calls, text := s.want(k)
	if diff := gocmp.Diff(calls, got.Calls); diff != "" {
		return fmt.Sprintf("cut at %d of %d, %d events of %d: (-want +got):\n%s\nstream %q", cut, len(stream), k, len(s.events), diff, stream[:cut])
	}
	if got.Text[0] != text {
		return fmt.Sprintf("cut at %d, %d events: text %q, want %q", cut, k, got.Text[0], text)
	}
	return ""
}

func TestChatPropertyPlans(t *testing.T) {
	resp := toolcall.New() // reused: Reset must forget everything
	wiretest.PlanProperty(t, "calls give back their arguments; a cut leaves the complete ones intact, the others truncated",
		func(docs []testutil.Doc, seed uint64, cut int) string { return chatCheckPlan(t, resp, docs, seed, cut) })
}
