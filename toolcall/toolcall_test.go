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
	op       byte // 's' Start, 'S' Start of a server call, 'c' Chunk, 'p' Stop, 'd' Decline, 'a' Approve, 'r' Restate, 'P' StopAll, 'i' Incomplete, 'f' Fail
	index    int64
	id, name string
	data     string
	null     bool // Restate with nil arguments
}

func start(i int64, id, name, input string) ev {
	return ev{op: 's', index: i, id: id, name: name, data: input}
}
func chunk(i int64, b string) ev { return ev{op: 'c', index: i, data: b} }
func stop(i int64) ev            { return ev{op: 'p', index: i} }
func decline(i int64) ev         { return ev{op: 'd', index: i} }
func approve(i int64) ev         { return ev{op: 'a', index: i} }
func server(i int64, id, name, input string) ev {
	return ev{op: 'S', index: i, id: id, name: name, data: input}
}
func restate(i int64, id, name, args string) ev {
	return ev{op: 'r', index: i, id: id, name: name, data: args}
}
func restateID(i int64, id, name string) ev {
	return ev{op: 'r', index: i, id: id, name: name, null: true}
}
func stopAll() ev    { return ev{op: 'P'} }
func incomplete() ev { return ev{op: 'i'} }

// errFailed is the error of the Fail events.
var errFailed = errors.New("the stream could not be read")

// run plays events on r and ends the response.
func run(t *testing.T, r *toolcall.Response, events []ev) []toolcall.Result {
	t.Helper()
	for _, e := range events {
		var err error
		switch e.op {
		case 's', 'S':
			var in []byte
			if e.data != "" {
				in = []byte(e.data)
			}
			err = r.Start(fragment.Call{Index: e.index, ID: e.id, Name: e.name, Server: e.op == 'S'}, in)
		case 'r':
			var args []byte
			if !e.null {
				args = []byte(e.data)
			}
			err = r.Restate(fragment.Call{Index: e.index, ID: e.id, Name: e.name}, args)
		case 'a':
			r.Approve(e.index)
		case 'P':
			err = r.StopAll()
		case 'i':
			r.Incomplete()
		case 'f':
			r.Fail(errFailed)
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
	Index      int64
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
		case errors.Is(err, toolcall.ErrNotApproved):
			g.Err = "not approved"
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
		{"an empty id or name is filled in later; the same one again is no change",
			[]ev{start(0, "", "", ""), start(0, "a", "", ""), chunk(0, `{"x":`), start(0, "a", "read", ""),
				start(0, "", "read", ""), start(0, "", "", ""), chunk(0, `1}`), stop(0)},
			[]got{{ID: "a", Name: "read", Args: `{"x":1}`, Executable: true}}},
		{"a second start under another name fails the call",
			[]ev{start(0, "a", "read", ""), chunk(0, `{"x":1}`), start(0, "", "write", ""), stop(0)},
			[]got{{ID: "a", Name: "read", Err: `toolcall: call 0 ("read") restated with its name changed: "read", then "write"`}}},
		{"a second start under another id fails the call",
			[]ev{start(0, "a", "read", ""), chunk(0, `{"x":1}`), start(0, "b", "read", ""), stop(0)},
			[]got{{ID: "a", Name: "read", Err: `toolcall: call 0 ("read") restated with its id changed: "a", then "b"`}}},
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
		{"{ } with white space inside is the input, not the placeholder: deltas after it are bytes after its end",
			[]ev{start(0, "i", "f", " {\n\t} "), chunk(0, `{"a":`), chunk(0, `1}`), stop(0)},
			[]got{{ID: "i", Name: "f", Err: "syntax"}}},
		{"{ } with white space inside and no deltas: the input {}",
			[]ev{start(0, "i", "f", " {\n\t} "), stop(0)},
			[]got{{ID: "i", Name: "f", Args: `{}`, Executable: true}}},
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
		{"a call the provider runs is never executable, whatever its arguments",
			[]ev{server(0, "srv_1", "web_search", `{}`), chunk(0, `{"query":"go"}`), stop(0), approve(0)},
			[]got{{ID: "srv_1", Name: "web_search", Args: `{"query":"go"}`}}},
		{"a second start that changes who runs the call fails it",
			[]ev{server(0, "srv_1", "web_search", ""), chunk(0, `{}`), start(0, "srv_1", "web_search", ""), stop(0)},
			[]got{{ID: "srv_1", Name: "web_search", Err: `toolcall: call 0 ("web_search") restated with its server changed: "the provider runs it", then "the caller runs it"`}}},
		{"a restatement equal to the deltas, white space and escapes aside",
			[]ev{start(0, "a", "f", ""), chunk(0, `{"path":"src/a",`), chunk(0, `"n":1.50}`),
				restate(0, "a", "f", "{ \"path\" : \"src\\u002fa\",\n \"n\":1.50 }")},
			[]got{{ID: "a", Name: "f", Args: `{"path":"src/a","n":1.50}`, Executable: true}}},
		{"a restatement with other arguments fails the call",
			[]ev{start(0, "a", "f", ""), chunk(0, `{"path":"src/a"}`), restate(0, "a", "f", `{"path":"/etc/passwd"}`)},
			[]got{{ID: "a", Name: "f", Err: `toolcall: call 0 ("f") restated with its arguments changed: "{\"path\":\"src/a\"}", then "{\"path\":\"/etc/passwd\"}"`}}},
		{"a restatement with the same value in other number text fails the call",
			[]ev{start(0, "a", "f", ""), chunk(0, `{"n":1.0}`), restate(0, "a", "f", `{"n":1}`)},
			[]got{{ID: "a", Name: "f", Err: `toolcall: call 0 ("f") restated with its arguments changed: "{\"n\":1.0}", then "{\"n\":1}"`}}},
		{"a restatement with members reordered fails the call",
			[]ev{start(0, "a", "f", ""), chunk(0, `{"a":1,"b":2}`), restate(0, "a", "f", `{"b":2,"a":1}`)},
			[]got{{ID: "a", Name: "f", Err: `toolcall: call 0 ("f") restated with its arguments changed: "{\"a\":1,\"b\":2}", then "{\"b\":2,\"a\":1}"`}}},
		{"a restatement that is not JSON fails the call",
			[]ev{start(0, "a", "f", ""), chunk(0, `{"a":1}`), restate(0, "a", "f", `{"a":1`)},
			[]got{{ID: "a", Name: "f", Err: `toolcall: call 0 ("f") restated with its arguments changed: "{\"a\":1}", then "{\"a\":1"`}}},
		{"a restatement under another name fails the call",
			[]ev{start(0, "a", "f", ""), chunk(0, `{"a":1}`), restate(0, "a", "g", `{"a":1}`)},
			[]got{{ID: "a", Name: "f", Err: `toolcall: call 0 ("f") restated with its name changed: "f", then "g"`}}},
		{"a restatement of a call whose deltas were cut: truncated, not the restated arguments",
			[]ev{start(0, "a", "f", ""), chunk(0, `{"path":"src/a"`), restate(0, "a", "f", `{"path":"src/a"}`)},
			[]got{{ID: "a", Name: "f", Err: "truncated"}}},
		{"a restatement with no deltas before it is the input",
			[]ev{start(0, "a", "f", ""), restate(0, "a", "f", `{"a":1}`)},
			[]got{{ID: "a", Name: "f", Args: `{"a":1}`, Executable: true}}},
		{"a restatement of {} after the {} placeholder is the input",
			[]ev{start(0, "a", "f", "{}"), restate(0, "a", "f", `{}`)},
			[]got{{ID: "a", Name: "f", Args: `{}`, Executable: true}}},
		{"a restatement opens a call never started",
			[]ev{restate(4, "a", "f", `{"a":1}`)},
			[]got{{Index: 4, ID: "a", Name: "f", Args: `{"a":1}`, Executable: true}}},
		{"a restatement after bytes after the call's end keeps the first error",
			[]ev{start(0, "a", "f", ""), chunk(0, `{"a":1}x`), restate(0, "a", "f", `{"a":1}`)},
			[]got{{ID: "a", Name: "f", Err: "syntax"}}},
		{"a restatement of the identity alone stops the call",
			[]ev{start(0, "a", "f", ""), chunk(0, `{"a":1}`), restateID(0, "a", "f"), chunk(0, " ")},
			[]got{{ID: "a", Name: "f", Err: "after stop"}}},
		{"a bare number the provider did not finish is truncated",
			[]ev{start(0, "a", "f", ""), chunk(0, `12`)},
			[]got{{ID: "a", Name: "f", Err: "truncated"}}},
		{"a bare literal is complete once written: nothing can extend it",
			[]ev{start(0, "a", "f", ""), chunk(0, ` true`)},
			[]got{{ID: "a", Name: "f", Args: "true", Executable: true}}},
		{"a bare number the provider stopped is complete",
			[]ev{start(0, "a", "f", ""), chunk(0, `12`), stop(0)},
			[]got{{ID: "a", Name: "f", Args: `12`, Executable: true}}},
		{"a bare number stopped, then the response cut (max_tokens after the block's stop): truncated",
			[]ev{start(0, "a", "f", ""), chunk(0, `12`), stop(0), incomplete()},
			[]got{{ID: "a", Name: "f", Err: "truncated"}}},
		{"a bare number restated (a done event), then the response cut short: truncated",
			[]ev{start(0, "a", "f", ""), chunk(0, `12`), restate(0, "a", "f", "12"), incomplete()},
			[]got{{ID: "a", Name: "f", Err: "truncated"}}},
		{"an object stopped in a response cut short is complete",
			[]ev{start(0, "a", "f", ""), chunk(0, `{"n":12}`), stop(0), incomplete()},
			[]got{{ID: "a", Name: "f", Args: `{"n":12}`, Executable: true}}},
		{"StopAll (a Chat finish_reason) finishes every call, bare numbers included",
			[]ev{start(0, "a", "f", ""), chunk(0, `12`), start(1, "b", "g", ""), chunk(1, `{"a":`), stopAll()},
			[]got{{ID: "a", Name: "f", Args: `12`, Executable: true}, {Index: 1, ID: "b", Name: "g", Err: "truncated"}}},
		{"a failed response runs no call",
			[]ev{start(0, "a", "f", `{"a":1}`), stop(0), ev{op: 'f'}, start(1, "b", "g", `{"b":2}`)},
			[]got{{ID: "a", Name: "f", Err: "the stream could not be read"},
				{Index: 1, ID: "b", Name: "g", Err: "the stream could not be read"}}},
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
	if err := r.Start(fragment.Call{Index: -1, ID: "a", Name: "f"}, nil); !errors.Is(err, toolcall.ErrIndex) {
		t.Errorf("Start(-1): %v, want ErrIndex", err)
	}
	if err := r.Chunk(-1, []byte("{}")); !errors.Is(err, toolcall.ErrIndex) {
		t.Errorf("Chunk(-1): %v, want ErrIndex", err)
	}
	if got := r.End(); len(got) != 0 {
		t.Errorf("End: %d results, want 0", len(got))
	}
	for name, err := range map[string]error{
		"Start": r.Start(fragment.Call{Index: 0, ID: "a", Name: "f"}, nil), "Chunk": r.Chunk(0, []byte("{}")),
		"ChunkString": r.ChunkString(0, "{}"), "Stop": r.Stop(0),
	} {
		if !errors.Is(err, toolcall.ErrEnded) {
			t.Errorf("%s after End: %v, want ErrEnded", name, err)
		}
	}
	r.Reset()
	if err := r.Start(fragment.Call{Index: 0, ID: "a", Name: "f"}, nil); err != nil {
		t.Errorf("Start after Reset: %v", err)
	}
}

// recorder is a sink that records what it gets, in RFD 043's notation
// (fragment.Fragment.String).
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
		Index int64
		Mode  string
		At    int64
	}
	for _, tc := range []struct {
		name          string
		declineOnSkip bool
		events        []ev
		decisions     []decision
		declines      []bool // onlyPending of WithDeclineOnSkip
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
		{name: "skip without WithDeclineOnSkip: validated to the end, not executable",
			events:    []ev{start(0, "a", "write", ""), chunk(0, `{"path":"/etc/x","content":"y"}`)},
			decisions: []decision{{0, "skip", 16}},
			want:      []got{{ID: "a", Name: "write", Args: `{"path":"/etc/x","content":"y"}`}}},
		{name: "skip with WithDeclineOnSkip, the only call: cancel",
			declineOnSkip: true,
			events:        []ev{start(0, "a", "write", ""), chunk(0, `{"path":"/etc/x",`), chunk(0, `"content":"y"}`)},
			decisions:     []decision{{0, "skip", 16}},
			declines:      []bool{true},
			want:          []got{{ID: "a", Name: "write", Err: "declined", Declined: true}}},
		{name: "skip with WithDeclineOnSkip, another call pending: keep going",
			declineOnSkip: true,
			events: []ev{start(0, "a", "read", ""), chunk(0, `{"q":`), start(1, "b", "write", ""),
				chunk(1, `{"path":"/etc/x",`), chunk(1, `"content":"y"}`), chunk(0, `1}`)},
			decisions: []decision{{0, "unattended", 0}, {1, "skip", 16}},
			declines:  []bool{false},
			want: []got{{ID: "a", Name: "read", Args: `{"q":1}`, Executable: true},
				{Index: 1, ID: "b", Name: "write", Err: "declined", Declined: true}}},
		{name: "skip at the start with WithDeclineOnSkip",
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
				toolcall.OnDecision(func(_ *toolcall.Response, c fragment.Call, d policy.Decision, at int64) {
					decisions = append(decisions, decision{c.Index, d.Mode.String(), at})
				}),
			}
			if tc.declineOnSkip {
				opts = append(opts, toolcall.WithDeclineOnSkip(func(_ *toolcall.Response, c fragment.Call, only bool) { declines = append(declines, only) }))
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
					t.Errorf("WithDeclineOnSkip (-want +got):\n%s", diff)
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
	r.Start(fragment.Call{Index: 0, ID: "a", Name: "f"}, nil)
	r.Start(fragment.Call{Index: 1, ID: "b", Name: "g"}, nil)
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
	r.Start(fragment.Call{Index: 2, ID: "c", Name: "h"}, nil)
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
		toolcall.OnDecision(func(_ *toolcall.Response, c fragment.Call, d policy.Decision, at int64) {
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
			toolcall.OnDecision(func(_ *toolcall.Response, _ fragment.Call, d policy.Decision, _ int64) { decided = d }))
		r.Start(fragment.Call{Index: 0, Name: "write_file"}, nil)
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

func TestApproval(t *testing.T) {
	pols := map[string]*policy.Policy{
		"write": mustPolicy(t, `{"run": [{"arg": "/path", "prefix": "src/", "mode": "unattended"}, {"arg": "/path", "prefix": "/tmp/", "mode": "edit"}, {"mode": "ask"}], "paths": ["/path"]}`),
		"read":  mustPolicy(t, `{"run": "unattended", "paths": ["/path"]}`),
		"grep":  mustPolicy(t, `{"run": [{"arg": "/mode", "const": "fast", "mode": "unattended"}, {"mode": "ask"}], "paths": ["/path"]}`),
	}
	for _, tc := range []struct {
		name string
		// answer is called from OnDecision with the Response.
		answer func(r *toolcall.Response, c fragment.Call)
		events []ev
		want   []got
	}{
		{name: "unattended needs no approval",
			events: []ev{start(0, "a", "write", `{"path":"src/a"}`)},
			want:   []got{{ID: "a", Name: "write", Args: `{"path":"src/a"}`, Executable: true}}},
		{name: "ask unanswered: not executable, the arguments there to ask after the stream",
			events: []ev{start(0, "a", "write", `{"path":"/etc/x"}`)},
			want:   []got{{ID: "a", Name: "write", Args: `{"path":"/etc/x"}`, Err: "not approved"}}},
		{name: "edit unanswered: not executable",
			events: []ev{start(0, "a", "write", `{"path":"/tmp/x"}`)},
			want:   []got{{ID: "a", Name: "write", Args: `{"path":"/tmp/x"}`, Err: "not approved"}}},
		{name: "ask approved from OnDecision, through the Response it is given",
			answer: func(r *toolcall.Response, c fragment.Call) { r.Approve(c.Index) },
			events: []ev{start(0, "a", "write", ""), chunk(0, `{"path":"/etc/x",`), chunk(0, `"content":"y"}`)},
			want:   []got{{ID: "a", Name: "write", Args: `{"path":"/etc/x","content":"y"}`, Executable: true}}},
		{name: "ask approved before the decision",
			events: []ev{start(0, "a", "write", ""), approve(0), chunk(0, `{"path":"/etc/x"}`)},
			want:   []got{{ID: "a", Name: "write", Args: `{"path":"/etc/x"}`, Executable: true}}},
		{name: "approved, then declined: declined wins",
			events: []ev{start(0, "a", "write", ""), approve(0), chunk(0, `{"path":"/etc/x"`), decline(0)},
			want:   []got{{ID: "a", Name: "write", Err: "declined", Declined: true}}},
		{name: "approval does not make invalid arguments executable",
			events: []ev{start(0, "a", "write", ""), approve(0), chunk(0, `{"path":"/etc/x"`)},
			want:   []got{{ID: "a", Name: "write", Err: "truncated"}}},
		{name: "approval does not make a call the provider runs executable",
			events: []ev{server(0, "a", "write", `{"path":"/etc/x"}`), approve(0)},
			want:   []got{{ID: "a", Name: "write", Args: `{"path":"/etc/x"}`}}},
		// A suspect declared path makes an unattended call one to approve,
		// as Ask: whether a catch-all decided, at the start, or a rule on
		// another parameter, and whenever the path comes.
		{name: "unattended, a suspect declared path: not approved",
			events: []ev{start(0, "a", "read", `{"path":"~/.ssh/x"}`)},
			want:   []got{{ID: "a", Name: "read", Args: `{"path":"~/.ssh/x"}`, Err: "not approved"}}},
		{name: "unattended, a suspect declared path, approved",
			events: []ev{start(0, "a", "read", `{"path":"~/.ssh/x"}`), approve(0)},
			want:   []got{{ID: "a", Name: "read", Args: `{"path":"~/.ssh/x"}`, Executable: true}}},
		{name: "unattended, a plain declared path: no approval needed",
			events: []ev{start(0, "a", "read", `{"path":"src/a"}`)},
			want:   []got{{ID: "a", Name: "read", Args: `{"path":"src/a"}`, Executable: true}}},
		{name: "unattended at the start, a suspect path long after",
			events: []ev{start(0, "a", "read", ""), chunk(0, `{"path":["src/a",`), chunk(0, `"src/b", "$HO`), chunk(0, `ME/.bashrc"]}`)},
			want:   []got{{ID: "a", Name: "read", Args: `{"path":["src/a","src/b","$HOME/.bashrc"]}`, Err: "not approved"}}},
		{name: "unattended by a rule on another parameter, a suspect declared path",
			events: []ev{start(0, "a", "grep", ""), chunk(0, `{"mode":"fast",`), chunk(0, `"path":"src／..／..／etc"}`)},
			want:   []got{{ID: "a", Name: "grep", Args: `{"mode":"fast","path":"src／..／..／etc"}`, Err: "not approved"}}},
		{name: "unattended by a rule on another parameter, a plain declared path",
			events: []ev{start(0, "a", "grep", `{"path":"src/a","mode":"fast"}`)},
			want:   []got{{ID: "a", Name: "grep", Args: `{"path":"src/a","mode":"fast"}`, Executable: true}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := toolcall.New(
				toolcall.WithPolicy(func(name string) *policy.Policy { return pols[name] }),
				toolcall.OnDecision(func(r *toolcall.Response, c fragment.Call, d policy.Decision, _ int64) {
					if tc.answer != nil && d.Mode == policy.Ask {
						tc.answer(r, c)
					}
				}))
			if diff := cmp.Diff(tc.want, summarize(run(t, r, tc.events))); diff != "" {
				t.Errorf("results (-want +got):\n%s", diff)
			}
		})
	}
}

func TestApproveAfterEnd(t *testing.T) {
	pol := mustPolicy(t, `{"run": "ask"}`)
	r := toolcall.New(toolcall.WithPolicy(func(string) *policy.Policy { return pol }))
	res := run(t, r, []ev{start(0, "a", "f", `{"x":1}`), start(1, "b", "g", `{"y":2}`)})
	if res[0].Executable || res[1].Executable || !errors.Is(res[0].Err, toolcall.ErrNotApproved) {
		t.Fatalf("before any answer: %+v", res)
	}
	if !r.Approve(0) || r.Approve(9) {
		t.Error("Approve(0) or Approve(9) reported wrongly whether the call exists")
	}
	r.Decline(1)
	if !res[0].Executable || res[0].Err != nil || !res[0].Approved {
		t.Errorf("call 0 after Approve: %+v, want executable", res[0])
	}
	if res[1].Executable || !res[1].Declined {
		t.Errorf("call 1 after Decline: %+v, want declined", res[1])
	}
	if again := r.End(); &again[0] != &res[0] || !again[0].Executable {
		t.Errorf("End again: %+v", again)
	}
	r.Fail(errFailed)
	if res[0].Executable || !errors.Is(res[0].Err, errFailed) {
		t.Errorf("call 0 after Fail: %+v, want not executable", res[0])
	}
}

func TestMaxCalls(t *testing.T) {
	r := toolcall.New(toolcall.WithMaxCalls(3))
	for i := range int64(3) {
		if err := r.Start(fragment.Call{Index: i * 10, ID: "a", Name: "f"}, []byte(`{}`)); err != nil {
			t.Fatalf("Start(%d): %v", i*10, err)
		}
	}
	if err := r.Chunk(1, []byte(`{}`)); !errors.Is(err, toolcall.ErrTooManyCalls) {
		t.Errorf("a fourth call's Chunk: %v, want ErrTooManyCalls", err)
	}
	if err := r.Restate(fragment.Call{Index: 2}, []byte(`{}`)); !errors.Is(err, toolcall.ErrTooManyCalls) {
		t.Errorf("a fourth call's Restate: %v, want ErrTooManyCalls", err)
	}
	if err := r.Chunk(10, []byte(` `)); err != nil {
		t.Errorf("a Chunk of a call already open: %v", err)
	}
	if n := len(r.End()); n != 3 {
		t.Errorf("%d results, want 3", n)
	}
	r.Reset()
	if err := r.Start(fragment.Call{Index: 99}, nil); err != nil {
		t.Errorf("after Reset: %v", err)
	}
	if toolcall.New().End() == nil && toolcall.DefaultMaxCalls < 256 {
		t.Errorf("DefaultMaxCalls %d is too small for real responses", toolcall.DefaultMaxCalls)
	}
}

func TestErr(t *testing.T) {
	r := toolcall.New()
	if err := r.Err(0); err != nil {
		t.Errorf("Err of no call: %v", err)
	}
	r.Start(fragment.Call{Index: 0, ID: "a", Name: "f"}, nil)
	r.Chunk(0, []byte(`{"a":`))
	if err := r.Err(0); err != nil {
		t.Errorf("Err of a call streaming: %v", err)
	}
	r.Chunk(0, []byte(`}`))
	if err := r.Err(0); !errors.Is(err, token.ErrSyntax) {
		t.Errorf("Err after bad bytes: %v, want a syntax error", err)
	}
	r.Start(fragment.Call{Index: 1, ID: "b", Name: "g"}, []byte(`{}`))
	r.Chunk(1, []byte(`{"x":1}`))
	r.Restate(fragment.Call{Index: 1}, []byte(`{"x":2}`))
	var m *toolcall.MismatchError
	if err := r.Err(1); !errors.As(err, &m) {
		t.Errorf("Err after a restatement that differs: %v", err)
	}
	r.Start(fragment.Call{Index: 2, ID: "c", Name: "h"}, nil)
	r.Decline(2)
	if err := r.Err(2); !errors.Is(err, toolcall.ErrDeclined) {
		t.Errorf("Err after Decline: %v", err)
	}
	r.Fail(errFailed)
	r.Start(fragment.Call{Index: 3, ID: "d", Name: "i"}, nil)
	if err := r.Err(3); !errors.Is(err, errFailed) {
		t.Errorf("Err after Fail: %v", err)
	}
	if res := r.End(); res[1].Size != 7 {
		t.Errorf("Size %d, want 7", res[1].Size)
	}
}

func TestVerdictWhileStreaming(t *testing.T) {
	pol := mustPolicy(t, `{"run": [{"arg": "/path", "prefix": "src/", "mode": "unattended"}, {"mode": "ask"}], "paths": ["/path"]}`)
	r := toolcall.New(toolcall.WithPolicy(func(string) *policy.Policy { return pol }))
	r.Start(fragment.Call{Index: 0, ID: "a", Name: "f"}, nil)
	if v := r.Verdict(0); v.Decided() {
		t.Errorf("before the path: %+v", v)
	}
	r.Chunk(0, []byte(`{"path": "src/a", "x": `))
	if v := r.Verdict(0); v.Mode != policy.Unattended || v.Ended {
		t.Errorf("after the path: %+v", v)
	}
	if v := r.Verdict(9); v.Decided() {
		t.Errorf("no call: %+v", v)
	}
}

func TestCall(t *testing.T) {
	r := toolcall.New()
	if c, ok := r.Call(0); ok || c != (fragment.Call{}) {
		t.Errorf("Call of no call: %+v, %v", c, ok)
	}
	r.Chunk(0, []byte(`{"a":`))
	if c, ok := r.Call(0); !ok || c != (fragment.Call{Index: 0}) {
		t.Errorf("Call of an unnamed call: %+v, %v", c, ok)
	}
	r.Start(fragment.Call{Index: 0, ID: "a", Name: "f", Server: true}, nil)
	r.Start(fragment.Call{Index: 0, ID: "b", Name: "g"}, nil) // the first ones win
	if c, ok := r.Call(0); !ok || c != (fragment.Call{Index: 0, ID: "a", Name: "f", Server: true}) {
		t.Errorf("Call: %+v, %v", c, ok)
	}
}

// A call whose decision needs its last byte is no longer pending when the
// decision declines it: its arguments are complete, and cancelling the
// response would lose the calls after it.
func TestDeclinedAtTheLastByte(t *testing.T) {
	var only []bool
	r := toolcall.New(
		toolcall.WithPolicy(func(string) *policy.Policy {
			return mustPolicy(t, `{"run": [{"arg": "/confirm", "const": true, "mode": "unattended"}, {"mode": "skip"}]}`)
		}),
		toolcall.WithDeclineOnSkip(func(_ *toolcall.Response, _ fragment.Call, onlyPending bool) { only = append(only, onlyPending) }))
	res := run(t, r, []ev{start(0, "a", "delete", ""), chunk(0, `{"path": "/etc/x", "recursive": true}`)})
	if diff := cmp.Diff([]bool{false}, only); diff != "" {
		t.Errorf("onlyPending (-want +got):\n%s", diff)
	}
	if !res[0].Declined || res[0].Verdict.Mode != policy.Skip {
		t.Errorf("result %+v, want declined, skip", res[0])
	}
}

// WithDigestOnly, a call's Result is what it is without, but for its
// Arguments, which are not kept; a restatement that differs still fails
// the call, and one that agrees does not.
func TestDigestOnly(t *testing.T) {
	events := []ev{start(0, "a", "f", ""), chunk(0, `{"path": "src/a", "n": [1, 2]}`),
		start(1, "b", "g", ""), chunk(1, `{"x": "y"}`)}
	full := run(t, toolcall.New(), events)
	res := run(t, toolcall.New(toolcall.WithDigestOnly()), append(events,
		restate(0, "", "", `{"path":"src/a","n":[1,2]}`), restate(1, "", "", `{"x": "z"}`)))
	if len(res) != 2 || res[0].Arguments != nil || !res[0].Executable || res[0].Size != full[0].Size || res[0].Err != nil {
		t.Errorf("call 0: %+v, want executable, no arguments, as %+v", res[0], full[0])
	}
	var m *toolcall.MismatchError
	if !errors.As(res[1].Err, &m) || m.What != "arguments" || m.Streamed != "" || m.Restated != `{"x": "z"}` || res[1].Executable {
		t.Errorf("call 1: %+v, want a mismatch of arguments", res[1])
	}
}
