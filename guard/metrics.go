package guard

import (
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
)

// Metrics counts what a gateway does, for a Prometheus scrape: give its
// [Metrics.Stream] and [Metrics.Call] methods to [Config.OnStream] and
// [Config.OnCall], and serve it. The tool names, written by the model, are
// label values: escaped as the text format wants, and past [MaxTools]
// distinct names counted under "other", so that a model cannot grow the
// metrics without bound.
//
// A Metrics is safe for concurrent use. Its zero value is ready.
type Metrics struct {
	mu        sync.Mutex
	open      int64
	calls     map[callKey]int64
	tools     map[string]bool
	buckets   [len(offsetBuckets) + 1]int64
	offsetSum int64
	decisions int64
	cancelled int64
	withheld  int64
}

type callKey struct{ tool, action string }

// MaxTools is the most distinct tool names [Metrics] labels.
const MaxTools = 256

// offsetBuckets are the bounds of the decision offsets' histogram, in
// argument bytes.
var offsetBuckets = [...]int64{16, 64, 256, 1024, 4096, 16384, 65536, 262144}

// Stream counts a response stream opened (true) or closed.
func (m *Metrics) Stream(open bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if open {
		m.open++
	} else {
		m.open--
	}
}

// Call counts one call's [Record].
func (m *Metrics) Call(r Record) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.calls == nil {
		m.calls, m.tools = map[callKey]int64{}, map[string]bool{}
	}
	tool := r.Call.Name
	if !m.tools[tool] {
		if len(m.tools) >= MaxTools {
			tool = "other"
		} else {
			m.tools[tool] = true
		}
	}
	m.calls[callKey{tool, r.Action.String()}]++
	if r.DecidedAt >= 0 {
		i := 0
		for i < len(offsetBuckets) && r.DecidedAt > offsetBuckets[i] {
			i++
		}
		m.buckets[i]++
		m.offsetSum += r.DecidedAt
		m.decisions++
	}
	if r.UpstreamCancelled {
		m.cancelled++
	}
	if r.Action == Blocked {
		m.withheld += r.ArgumentBytes
	}
}

// ServeHTTP writes the metrics in Prometheus's text format.
func (m *Metrics) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	m.WriteTo(w)
}

// WriteTo writes the metrics in Prometheus's text format.
func (m *Metrics) WriteTo(w io.Writer) (int64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var b strings.Builder
	b.WriteString("# HELP argstream_streams_open Responses streaming through the gateway now.\n# TYPE argstream_streams_open gauge\n")
	fmt.Fprintf(&b, "argstream_streams_open %d\n", m.open)
	b.WriteString("# HELP argstream_calls_total Tool calls, by tool and by what the gateway did.\n# TYPE argstream_calls_total counter\n")
	keys := make([]callKey, 0, len(m.calls))
	for k := range m.calls {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b callKey) int { return strings.Compare(a.tool+"\x00"+a.action, b.tool+"\x00"+b.action) })
	for _, k := range keys {
		fmt.Fprintf(&b, "argstream_calls_total{tool=\"%s\",action=\"%s\"} %d\n", labelValue(k.tool), k.action, m.calls[k])
	}
	b.WriteString("# HELP argstream_decision_offset_bytes The argument bytes read when a call's policy decided.\n# TYPE argstream_decision_offset_bytes histogram\n")
	var n int64
	for i, le := range offsetBuckets {
		n += m.buckets[i]
		fmt.Fprintf(&b, "argstream_decision_offset_bytes_bucket{le=\"%d\"} %d\n", le, n)
	}
	fmt.Fprintf(&b, "argstream_decision_offset_bytes_bucket{le=\"+Inf\"} %d\n", m.decisions)
	fmt.Fprintf(&b, "argstream_decision_offset_bytes_sum %d\nargstream_decision_offset_bytes_count %d\n", m.offsetSum, m.decisions)
	b.WriteString("# HELP argstream_upstream_cancellations_total Upstream responses the gateway cancelled when it blocked their last streaming call.\n# TYPE argstream_upstream_cancellations_total counter\n")
	fmt.Fprintf(&b, "argstream_upstream_cancellations_total %d\n", m.cancelled)
	b.WriteString("# HELP argstream_withheld_argument_bytes_total Argument bytes of blocked calls, never streamed to the client.\n# TYPE argstream_withheld_argument_bytes_total counter\n")
	fmt.Fprintf(&b, "argstream_withheld_argument_bytes_total %d\n", m.withheld)
	k, err := io.WriteString(w, b.String())
	return int64(k), err
}

// labelValue escapes s as a label value of the text format: backslash,
// double quote and line feed.
func labelValue(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s)
}
