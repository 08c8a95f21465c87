package guard

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/policy"
	"github.com/argstream/argstream/wire"
	"github.com/go-json-experiment/json"
)

func TestRecordJSON(t *testing.T) {
	r := Record{Time: time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC), Wire: wire.Anthropic,
		Call:     fragment.Call{Index: 1, ID: "toolu_1", Name: "write\u202e\x00file"},
		Decision: policy.Decision{Mode: policy.Skip, Rule: 2}, DecidedAt: 22, Action: Blocked, ArgumentBytes: 11146, UpstreamCancelled: true}
	line := string(r.AppendJSON(nil))
	want := `{"time":"2026-11-27T10:00:00Z","wire":"anthropic","index":1,"id":"toolu_1","name":"write\u202e\u0000file","mode":"skip","rule":2,"decided_at_byte":22,"action":"blocked","argument_bytes":11146,"upstream_cancelled":true}` + "\n"
	var v map[string]any
	if err := json.Unmarshal([]byte(line), &v); err != nil || !strings.HasSuffix(line, "\n") || strings.Count(line, "\n") != 1 {
		t.Fatalf("%q: %v", line, err)
	}
	if line != want && v["name"] != r.Call.Name {
		t.Errorf("got  %s\nwant %s", line, want)
	}
	r.Decision, r.DecidedAt, r.Reason, r.Call.Server = policy.Decision{}, -1, "its arguments failed", true
	if line := string(r.AppendJSON(nil)); !strings.Contains(line, `"server":true`) || !strings.Contains(line, `"mode":null,"rule":null,"decided_at_byte":-1`) || !strings.Contains(line, `"reason":"its arguments failed"`) {
		t.Errorf("%s", line)
	}
}

func TestMetrics(t *testing.T) {
	var m Metrics
	m.Stream(true)
	m.Stream(true)
	m.Stream(false)
	m.Call(Record{Call: fragment.Call{Name: "write"}, Action: Blocked, DecidedAt: 22, ArgumentBytes: 100, UpstreamCancelled: true})
	m.Call(Record{Call: fragment.Call{Name: "read"}, Action: Forwarded, DecidedAt: 0})
	m.Call(Record{Call: fragment.Call{Name: "evil\"} 1\nargstream_x{a=\"b"}, Action: Forwarded, DecidedAt: -1})
	for i := range MaxTools + 5 {
		m.Call(Record{Call: fragment.Call{Name: fmt.Sprint("t", i)}, Action: Forwarded, DecidedAt: -1})
	}
	rec := httptest.NewRecorder()
	m.ServeHTTP(rec, nil)
	out := rec.Body.String()
	for _, want := range []string{
		"argstream_streams_open 1\n",
		`argstream_calls_total{tool="write",action="blocked"} 1` + "\n",
		`argstream_calls_total{tool="evil\"} 1\nargstream_x{a=\"b",action="forwarded"} 1` + "\n",
		`argstream_calls_total{tool="other",action="forwarded"} 8` + "\n",
		`argstream_decision_offset_bytes_bucket{le="16"} 1` + "\n",
		`argstream_decision_offset_bytes_bucket{le="64"} 2` + "\n",
		"argstream_decision_offset_bytes_sum 22\nargstream_decision_offset_bytes_count 2\n",
		"argstream_upstream_cancellations_total 1\n",
		"argstream_withheld_argument_bytes_total 100\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if !strings.HasPrefix(line, "# ") && !strings.HasPrefix(line, "argstream_") {
			t.Errorf("a line the model forged: %q", line)
		}
	}
}
