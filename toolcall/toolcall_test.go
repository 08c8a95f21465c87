package toolcall_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/policy"
	"github.com/argstream/argstream/sink"
	"github.com/argstream/argstream/token"
	"github.com/argstream/argstream/toolcall"
	"github.com/google/go-cmp/cmp"
)

// ev is one event of a response, as a provider adapter would call it.
type ev struct {
	op       byte // 's' Start, 'c' Chunk, 'p' Stop, 'd' Decline
	index    int64
	id, name string
	data     string
}

func start(i int64, id, name, input string) ev {
	return ev{op: 's', index: i, id: id, name: name, data: input}
}
func chunk(i int64, b string) ev { return ev{op: 'c', index: i, data: b} }
func stop(i int64) ev            { return ev{op: 'p', index: i} }
func decline(i int64) ev         { return ev{op: 'd', index: i} }

// run plays events on r and ends the response.
func run(t *testing.T, r *toolcall.Response, events []ev) []toolcall.Result {
	t.Helper()
	for _, e := range events {
		var err error
		switch e.op {
		case 's':
			var in []byte
			if e.data != "" {
				in = []byte(e.data)
			}
			err = r.Start(e.index, e.id, e.name, in)
		case 'c':
			err = r.Chunk(e.index, []byte(e.data))
		case 'p':
			err = r.Stop(e.index)
		case 'd':
			r.Decline(e.index)
		}
		if err != nil {
			t.Fatalf("%c(%d): %v", e.op, e.index, err)
		}
	}
	return r.End()
}

// got is a Result in comparable form.
type got struct {
	Index      int
	ID, Name   string
	Args       string
	Err        string // "truncated", "syntax", "declined", "after stop", "late name", other: the message
	Declined   bool
	Executable bool
}

func summarize(rs []toolcall.Result) []got {
	var out []got
	for _, r := range rs {
		g := got{Index: r.Call.Index, ID: r.Call.ID, Name: r.Call.Name, Args: string(r.Arguments),
			Declined: r.Declined, Executable: r.Executable}
		switch err := r.Err; {
		case err == nil:
		case errors.Is(err, token.ErrTruncated):
			g.Err = "truncated"
		case errors.Is(err, toolcall.ErrDeclined):
			g.Err = "declined"
		case errors.Is(err, toolcall.ErrAfterStop):
			g.Err = "after stop"
		case errors.Is(err, toolcall.ErrLateName):
			g.Err = "late name"
		case errors.Is(err, token.ErrSyntax), errors.Is(err, token.ErrTrailingData), errors.Is(err, token.ErrDuplicateKey):
			g.Err = "syntax"
		default:
			g.Err = err.Error()
		}
		out = append(out, g)
	}
	return out
}

func TestRules(t *testing.T) {
	for _, tc := range []struct {
		name   string
		events []ev
		want   []got
	}{
		{"first non-empty id and name win",
			[]ev{start(0, "", "", ""), start(0, "a", "", ""), chunk(0, `{"x":`), start(0, "b", "read", ""),
				start(0, "", "write", ""), chunk(0, `1}`), stop(0)},
			[]got{{ID: "a", Name: "read", Args: `{"x":1}`, Executable: true}}},
		{"a chunk for an index never started opens an unnamed call",
			[]ev{chunk(3, `{"a":1}`)},
			[]got{{Index: 3, Args: `{"a":1}`}}},
		{"an unnamed call named later",
			[]ev{chunk(0, `{"a":`), start(0, "id", "f", ""), chunk(0, `1}`)},
			[]got{{ID: "id", Name: "f", Args: `{"a":1}`, Executable: true}}},
		{"input whole at the start, no deltas (Anthropic programmatic tool calling)",
			[]ev{start(2, "toolu_1", "rollDie", `{"player":"player1"}`), stop(2)},
			[]got{{Index: 2, ID: "toolu_1", Name: "rollDie", Args: `{"player":"player1"}`, Executable: true}}},
		{"input whole at the start is compacted and validated",
			[]ev{start(0, "i", "f", "{ \"a\" : [1, 2] }"), stop(0)},
			[]got{{ID: "i", Name: "f", Args: `{"a":[1,2]}`, Executable: true}}},
		{"input whole at the start, invalid",
			[]ev{start(0, "i", "f", `{"a":}`), stop(0)},
			[]got{{ID: "i", Name: "f", Err: "syntax"}}},
		{"input whole at the start, truncated and no Stop",
			[]ev{start(0, "i", "f", `{"a":"b`)},
			[]got{{ID: "i", Name: "f", Err: "truncated"}}},
		{"{} then deltas: the deltas are the arguments",
			[]ev{start(0, "i", "f", `{}`), chunk(0, `{"a":`), chunk(0, `1}`), stop(0)},
			[]got{{ID: "i", Name: "f", Args: `{"a":1}`, Executable: true}}},
		{"{ } with white space inside, then deltas: still the placeholder",
			[]ev{start(0, "i", "f", " {\n\t} "), chunk(0, `{"a":`), chunk(0, `1}`), stop(0)},
			[]got{{ID: "i", Name: "f", Args: `{"a":1}`, Executable: true}}},
		{"{} and no deltas before Stop: no input",
			[]ev{start(0, "i", "f", `{}`), stop(0)},
			[]got{{ID: "i", Name: "f", Args: `{}`, Executable: true}}},
		{"{} and empty deltas before Stop: no input",
			[]ev{start(0, "i", "f", `{}`), chunk(0, ""), chunk(0, ""), stop(0)},
			[]got{{ID: "i", Name: "f", Args: `{}`, Executable: true}}},
		{"{} and no Stop: truncated",
			[]ev{start(0, "i", "f", `{}`)},
			[]got{{ID: "i", Name: "f", Err: "truncated"}}},
		{"no input and Stop: truncated",
			[]ev{start(0, "i", "f", ""), stop(0)},
			[]got{{ID: "i", Name: "f", Err: "truncated"}}},
		{"no input, no Stop (OpenAI Chat): truncated at End",
			[]ev{start(0, "i", "f", "")},
			[]got{{ID: "i", Name: "f", Err: "truncated"}}},
		{"complete without Stop (OpenAI Chat): closed at End",
			[]ev{start(0, "i", "f", ""), chunk(0, `{"a":`), chunk(0, `true}`)},
			[]got{{ID: "i", Name: "f", Args: `{"a":true}`, Executable: true}}},
		{"cut off by max_tokens: truncated at End, the other intact",
			[]ev{start(0, "a", "f", ""), chunk(0, `{"x":1}`), stop(0), start(1, "b", "g", ""), chunk(1, `{"content":"abc`)},
			[]got{{ID: "a", Name: "f", Args: `{"x":1}`, Executable: true}, {Index: 1, ID: "b", Name: "g", Err: "truncated"}}},
		{"a number at the end is not complete before End",
			[]ev{start(0, "a", "f", ""), chunk(0, `[1, 2`)},
			[]got{{ID: "a", Name: "f", Err: "truncated"}}},
		{"one call's bad JSON does not fail the others",
			[]ev{start(0, "a", "f", ""), start(1, "b", "g", ""), start(2, "c", "h", ""),
				chunk(0, `{"x":`), chunk(1, `{"y":tru`), chunk(2, `{"z":`), chunk(1, `x}`),
				chunk(0, `1}`), chunk(2, `2}`), chunk(1, `ignored`), stop(0), stop(1), stop(2)},
			[]got{{ID: "a", Name: "f", Args: `{"x":1}`, Executable: true}, {Index: 1, ID: "b", Name: "g", Err: "syntax"},
				{Index: 2, ID: "c", Name: "h", Args: `{"z":2}`, Executable: true}}},
		{"trailing data after the arguments",
			[]ev{start(0, "a", "f", `{"x":1}`), chunk(0, `{"x":1}`), stop(0)},
			[]got{{ID: "a", Name: "f", Err: "syntax"}}},
		{"bytes after Stop",
			[]ev{start(0, "a", "f", ""), chunk(0, `{}`), stop(0), chunk(0, ""), chunk(0, " ")},
			[]got{{ID: "a", Name: "f", Err: "after stop"}}},
		{"second Stop does nothing, Stop of an unknown index is ignored",
			[]ev{stop(5), start(0, "a", "f", ""), chunk(0, `{}`), stop(0), stop(0), stop(1)},
			[]got{{ID: "a", Name: "f", Args: `{}`, Executable: true}}},
		{"results in index order",
			[]ev{start(7, "c", "h", `{"n":7}`), start(0, "a", "f", `{"n":0}`), start(3, "b", "g", `{"n":3}`)},
			[]got{{ID: "a", Name: "f", Args: `{"n":0}`, Executable: true}, {Index: 3, ID: "b", Name: "g", Args: `{"n":3}`, Executable: true},
				{Index: 7, ID: "c", Name: "h", Args: `{"n":7}`, Executable: true}}},
		{"declined mid-stream: the rest is discarded",
			[]ev{start(0, "a", "f", ""), chunk(0, `{"path":"x",`), decline(0), chunk(0, `"content":"y"}`), stop(0)},
			[]got{{ID: "a", Name: "f", Err: "declined", Declined: true}}},
		{"declined after its arguments were complete",
			[]ev{start(0, "a", "f", `{"a":1}`), stop(0), decline(0)},
			[]got{{ID: "a", Name: "f", Args: `{"a":1}`, Declined: true}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := toolcall.New()
			if diff := cmp.Diff(tc.want, summarize(run(t, r, tc.events))); diff != "" {
				t.Errorf("results (-want +got):\n%s", diff)
			}
			// The same events on the Response reused give the same results.
			r.Reset()
			if diff := cmp.Diff(tc.want, summarize(run(t, r, tc.events))); diff != "" {
				t.Errorf("after Reset, results (-want +got):\n%s", diff)
			}
		})
	}
}

func TestResponseErrors(t *testing.T) {
	r := toolcall.New()
	if err := r.Start(-1, "a", "f", nil); !errors.Is(err, toolcall.ErrIndex) {
		t.Errorf("Start(-1): %v, want ErrIndex", err)
	}
	if err := r.Chunk(-1, []byte("{}")); !errors.Is(err, toolcall.ErrIndex) {
		t.Errorf("Chunk(-1): %v, want ErrIndex", err)
	}
	if got := r.End(); len(got) != 0 {
		t.Errorf("End: %d results, want 0", len(got))
	}
	for name, err := range map[string]error{
		"Start": r.Start(0, "a", "f", nil), "Chunk": r.Chunk(0, []byte("{}")),
		"ChunkString": r.ChunkString(0, "{}"), "Stop": r.Stop(0),
	} {
		if !errors.Is(err, toolcall.ErrEnded) {
			t.Errorf("%s after End: %v, want ErrEnded", name, err)
		}
	}
	r.Reset()
	if err := r.Start(0, "a", "f", nil); err != nil {
		t.Errorf("Start after Reset: %v", err)
	}
}

// recorder is a sink that records what it gets, in RFD notation.
type recorder struct {
	log *[]string
	who fragment.Call
}

func (s *recorder) Push(p *fragment.Progress) error {
	*s.log = append(*s.log, fmt.Sprintf("%d %s %s: %v %s %q", p.Call.Index, p.Call.ID, p.Call.Name, p.Path, p.Kind, p.Text))
	return nil
}

func (s *recorder) End(err error) {
	*s.log = append(*s.log, fmt.Sprintf("%d end: %v", s.who.Index, err != nil))
}

func TestSinks(t *testing.T) {
	var log []string
	r := toolcall.New(toolcall.WithSinks(func(c fragment.Call) sink.Sink {
		log = append(log, fmt.Sprintf("new %d %s %s", c.Index, c.ID, c.Name))
		return &recorder{log: &log, who: c}
	}))
	run(t, r, []ev{
		start(1, "b", "g", ""),
		chunk(0, `{"a"`), // opens call 0, unnamed
		chunk(1, `[tr`),
		start(0, "a", "f", `:1}`), // names it; the input is argument text
		chunk(1, `ue]`),
		stop(0),
	})
	want := []string{
		"new 1 b g",
		"new 0  ",
		"0 a f: /a Number \"1\"",
		"0 a f: /a Done \"\"",
		"0 a f:  Done \"\"",
		"1 b g: /0 True \"true\"",
		"1 b g: /0 Done \"\"",
		"1 b g:  Done \"\"",
		"0 end: false",
		"1 end: false",
	}
	if diff := cmp.Diff(want, log); diff != "" {
		t.Errorf("sinks saw (-want +got):\n%s", diff)
	}
}

func mustPolicy(t testing.TB, rules string) *policy.Policy {
	t.Helper()
	p, _, err := policy.Parse([]byte(rules))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestPolicy(t *testing.T) {
	pols := map[string]*policy.Policy{
		"read":  mustPolicy(t, `{"run": "unattended"}`),
		"write": mustPolicy(t, `{"run": [{"arg": "/path", "prefix": "src/", "mode": "unattended"}, {"arg": "/path", "prefix": "/etc", "mode": "skip"}, {"mode": "ask"}], "paths": ["/path"]}`),
		"rm":    mustPolicy(t, `{"run": "skip"}`),
	}
	type decision struct {
		Index int
		Mode  string
		At    int64
	}
	for _, tc := range []struct {
		name          string
		declineOnSkip bool
		events        []ev
		decisions     []decision
		declines      []bool // onlyPending of DeclineOnSkip
		want          []got
	}{
		{name: "catch-all: decided at the start",
			events:    []ev{start(0, "a", "read", ""), chunk(0, `{"path":"x"}`)},
			decisions: []decision{{0, "unattended", 0}},
			want:      []got{{ID: "a", Name: "read", Args: `{"path":"x"}`, Executable: true}}},
		{name: "conditional: decided while content streams",
			events:    []ev{start(0, "a", "write", ""), chunk(0, `{"path":"src/a.go",`), chunk(0, `"content":"package`), chunk(0, ` a"}`)},
			decisions: []decision{{0, "unattended", 18}},
			want:      []got{{ID: "a", Name: "write", Args: `{"path":"src/a.go","content":"package a"}`, Executable: true}}},
		{name: "decided unattended early, JSON fails later: not executable",
			events:    []ev{start(0, "a", "write", ""), chunk(0, `{"path":"src/a.go",`), chunk(0, `"content":"x",}`)},
			decisions: []decision{{0, "unattended", 18}},
			want:      []got{{ID: "a", Name: "write", Err: "syntax"}}},
		{name: "decided unattended early, a second path later: not executable",
			events:    []ev{start(0, "a", "write", ""), chunk(0, `{"path":"src/a.go",`), chunk(0, `"path":"/etc/passwd"}`)},
			decisions: []decision{{0, "unattended", 18}},
			want:      []got{{ID: "a", Name: "write", Err: "syntax"}}},
		{name: "decided unattended early, truncated: not executable",
			events:    []ev{start(0, "a", "write", ""), chunk(0, `{"path":"src/a.go","content":"pack`)},
			decisions: []decision{{0, "unattended", 18}},
			want:      []got{{ID: "a", Name: "write", Err: "truncated"}}},
		{name: "skip without DeclineOnSkip: validated to the end, not executable",
			events:    []ev{start(0, "a", "write", ""), chunk(0, `{"path":"/etc/x","content":"y"}`)},
			decisions: []decision{{0, "skip", 16}},
			want:      []got{{ID: "a", Name: "write", Args: `{"path":"/etc/x","content":"y"}`}}},
		{name: "skip with DeclineOnSkip, the only call: cancel",
			declineOnSkip: true,
			events:        []ev{start(0, "a", "write", ""), chunk(0, `{"path":"/etc/x",`), chunk(0, `"content":"y"}`)},
			decisions:     []decision{{0, "skip", 16}},
			declines:      []bool{true},
			want:          []got{{ID: "a", Name: "write", Err: "declined", Declined: true}}},
		{name: "skip with DeclineOnSkip, another call pending: keep going",
			declineOnSkip: true,
			events: []ev{start(0, "a", "read", ""), chunk(0, `{"q":`), start(1, "b", "write", ""),
				chunk(1, `{"path":"/etc/x",`), chunk(1, `"content":"y"}`), chunk(0, `1}`)},
			decisions: []decision{{0, "unattended", 0}, {1, "skip", 16}},
			declines:  []bool{false},
			want: []got{{ID: "a", Name: "read", Args: `{"q":1}`, Executable: true},
				{Index: 1, ID: "b", Name: "write", Err: "declined", Declined: true}}},
		{name: "skip at the start with DeclineOnSkip",
			declineOnSkip: true,
			events:        []ev{start(0, "a", "rm", ""), chunk(0, `{"path":"/"}`)},
			decisions:     []decision{{0, "skip", 0}},
			declines:      []bool{true},
			want:          []got{{ID: "a", Name: "rm", Err: "declined", Declined: true}}},
		{name: "no policy for the tool: executable when valid",
			events: []ev{start(0, "a", "other", `{"a":1}`)},
			want:   []got{{ID: "a", Name: "other", Args: `{"a":1}`, Executable: true}}},
		{name: "name known after the arguments began: its policy did not see them",
			events: []ev{chunk(0, `{"path":"src/a"`), start(0, "a", "write", ""), chunk(0, `}`)},
			want:   []got{{ID: "a", Name: "write", Err: "late name"}}},
		{name: "name known after empty chunks only: the policy sees everything",
			events:    []ev{chunk(0, ``), start(0, "a", "write", ""), chunk(0, `{"path":"src/a"}`)},
			decisions: []decision{{0, "unattended", 15}},
			want:      []got{{ID: "a", Name: "write", Args: `{"path":"src/a"}`, Executable: true}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var decisions []decision
			var declines []bool
			opts := []toolcall.Option{
				toolcall.WithPolicy(func(name string) *policy.Policy { return pols[name] }),
				toolcall.OnDecision(func(c fragment.Call, d policy.Decision, at int64) {
					decisions = append(decisions, decision{c.Index, d.Mode.String(), at})
				}),
			}
			if tc.declineOnSkip {
				opts = append(opts, toolcall.DeclineOnSkip(func(c fragment.Call, only bool) { declines = append(declines, only) }))
			}
			r := toolcall.New(opts...)
			for range 2 { // fresh, then reused
				decisions, declines = nil, nil
				res := run(t, r, tc.events)
				if diff := cmp.Diff(tc.want, summarize(res)); diff != "" {
					t.Errorf("results (-want +got):\n%s", diff)
				}
				if diff := cmp.Diff(tc.decisions, decisions); diff != "" {
					t.Errorf("decisions (-want +got):\n%s", diff)
				}
				if diff := cmp.Diff(tc.declines, declines); diff != "" {
					t.Errorf("DeclineOnSkip (-want +got):\n%s", diff)
				}
				for _, x := range res {
					if x.Executable && x.Verdict.Decided() && !x.Verdict.Executable() {
						t.Errorf("call %d executable with verdict %+v", x.Call.Index, x.Verdict)
					}
				}
				r.Reset()
			}
		})
	}
}

func TestDecline(t *testing.T) {
	var log []string
	r := toolcall.New(toolcall.WithSinks(func(c fragment.Call) sink.Sink { return &recorder{log: &log, who: c} }))
	r.Start(0, "a", "f", nil)
	r.Start(1, "b", "g", nil)
	r.Chunk(0, []byte(`{"x":`))
	r.Chunk(1, []byte(`{"y":`))
	if r.Pending() != 2 {
		t.Errorf("Pending = %d, want 2", r.Pending())
	}
	if only := r.Decline(1); only {
		t.Error("Decline(1) with call 0 pending: onlyPending = true")
	}
	if only := r.Decline(1); only {
		t.Error("Decline(1) again: onlyPending = true")
	}
	if only := r.Decline(9); only {
		t.Error("Decline(9), never started: onlyPending = true")
	}
	if n := len(log); log[n-1] != "1 end: true" {
		t.Errorf("the declined call's sink did not end with an error: %q", log[n-1])
	}
	r.Chunk(0, []byte(`1}`)) // call 0's arguments are complete: it is no longer pending
	r.Start(2, "c", "h", nil)
	r.Chunk(2, []byte(`{"z":`))
	if only := r.Decline(2); !only {
		t.Error("Decline(2), the only call still pending: onlyPending = false")
	}
	want := []got{{ID: "a", Name: "f", Args: `{"x":1}`, Executable: true},
		{Index: 1, ID: "b", Name: "g", Err: "declined", Declined: true},
		{Index: 2, ID: "c", Name: "h", Err: "declined", Declined: true}}
	if diff := cmp.Diff(want, summarize(r.End())); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
}

// A sink, or the decision callback, may decline the call it is being fed:
// the Stream stops at once.
func TestDeclineFromCallback(t *testing.T) {
	var r *toolcall.Response
	var only []bool
	r = toolcall.New(
		toolcall.WithPolicy(func(string) *policy.Policy {
			return mustPolicy(t, `{"run": [{"arg": "/path", "prefix": "src/", "mode": "unattended"}, {"mode": "ask"}]}`)
		}),
		toolcall.OnDecision(func(c fragment.Call, d policy.Decision, at int64) {
			if d.Mode == policy.Ask { // the user says no at the prompt
				only = append(only, r.Decline(int64(c.Index)))
			}
		}))
	res := run(t, r, []ev{start(0, "a", "write", ""), chunk(0, `{"path":"/x", "content": "`), chunk(0, `abc"}`)})
	if diff := cmp.Diff([]got{{ID: "a", Name: "write", Err: "declined", Declined: true}}, summarize(res)); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]bool{true}, only); diff != "" {
		t.Errorf("onlyPending (-want +got):\n%s", diff)
	}
	if !res[0].Verdict.Decided() || res[0].Verdict.Mode != policy.Ask {
		t.Errorf("verdict %+v, want ask", res[0].Verdict)
	}
}

// A key and a value written with \u escapes are the decoded key and value
// for the sinks and the policy, however the escapes are cut: "p\u0061th" is
// path, and "\u002fetc" does not pass a "src/" prefix. (code-assistant's JSON
// stream processor did not decode the escapes of its paths.)
func TestEscapedKeysAndValues(t *testing.T) {
	pol, _, err := policy.Parse([]byte(`{"run": [{"arg": "/path", "prefix": "src/", "mode": "unattended"}, {"mode": "ask"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	args := `{"p\u0061th": "\u002fetc/passwd", "content": "x"}`
	for cut := 1; cut < len(args); cut++ {
		var keys []string
		var decided policy.Decision
		r := toolcall.New(
			toolcall.WithPolicy(func(string) *policy.Policy { return pol }),
			toolcall.WithSinks(func(fragment.Call) sink.Sink {
				return sink.PushFunc(func(p *fragment.Progress) error {
					if len(p.Path) > 0 && p.Kind == fragment.Done {
						keys = append(keys, string(p.Path[0].Key))
					}
					return nil
				})
			}),
			toolcall.OnDecision(func(_ fragment.Call, d policy.Decision, _ int64) { decided = d }))
		r.Start(0, "", "write_file", nil)
		r.ChunkString(0, args[:cut])
		r.ChunkString(0, args[cut:])
		r.Stop(0)
		res := r.End()
		if got, want := string(res[0].Arguments), `{"path":"/etc/passwd","content":"x"}`; got != want {
			t.Fatalf("cut %d: arguments %s, want %s", cut, got, want)
		}
		if decided.Mode != policy.Ask || decided.Rule != 1 {
			t.Errorf("cut %d: decided %v, want ask by rule 1", cut, decided)
		}
		if diff := cmp.Diff([]string{"path", "content"}, keys); diff != "" {
			t.Errorf("cut %d: keys of the Done fragments (-want +got):\n%s", cut, diff)
		}
	}
}

// ErrDeclined says what happened, and is a sink.ErrStop for the sinks.
func TestErrDeclined(t *testing.T) {
	if got := toolcall.ErrDeclined.Error(); got != "toolcall: call declined" {
		t.Errorf("message %q", got)
	}
	wrapped := fmt.Errorf("call 1: %w", toolcall.ErrDeclined)
	if !errors.Is(wrapped, toolcall.ErrDeclined) || !errors.Is(wrapped, sink.ErrStop) {
		t.Errorf("errors.Is: ErrDeclined wraps sink.ErrStop")
	}
}
