package bench

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// newTestGateway starts a Gateway serving the 1 KB streams.
func newTestGateway(t testing.TB, names ...string) *Gateway {
	t.Helper()
	ss, err := LoadGatewayStreams("testdata", names...)
	if err != nil {
		t.Fatal(err)
	}
	gw, err := NewGateway(ss)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(gw.Close)
	return gw
}

var gatewayTestStreams = []string{"createFile-1k", "modifyFile-1k", "structured-1k"}

// TestGatewayStreams checks the upstream's streams: one event a block,
// every delta counted, the arguments whole.
func TestGatewayStreams(t *testing.T) {
	ss, err := LoadGatewayStreams("testdata", gatewayTestStreams...)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range ss {
		if got := len(s.Ends); got != s.Deltas+6 {
			t.Errorf("%s: %d events for %d deltas, want deltas + 6", s.Name, got, s.Deltas)
		}
		if s.Ends[len(s.Ends)-1] != len(s.Body) {
			t.Errorf("%s: the last event ends at %d of %d bytes", s.Name, s.Ends[len(s.Ends)-1], len(s.Body))
		}
		if !bytes.HasPrefix(s.Args, []byte(`{"path":"src/bench/`+s.Name+`.json","content":{`)) {
			t.Errorf("%s: arguments %.60q", s.Name, s.Args)
		}
	}
}

// TestGateway checks that every proxy delivers exactly the upstream's
// bytes, to one client and to several at once, and that the guards
// forwarded every call, guard-path deciding inside the arguments.
func TestGateway(t *testing.T) {
	gw := newTestGateway(t, gatewayTestStreams...)
	for _, p := range gw.Proxies {
		for _, name := range gatewayTestStreams {
			s := gw.Stream(name)
			got, err := gw.Fetch(p, s)
			if err != nil {
				t.Fatalf("%s %s: %v", p.Name, name, err)
			}
			if !bytes.Equal(got, s.Body) {
				t.Errorf("%s %s: the client read %d bytes, not the upstream's %d", p.Name, name, len(got), len(s.Body))
			}
			res, err := gw.Run(p, s, 8, 0, false)
			if err != nil {
				t.Fatalf("%s %s, 8 streams: %v", p.Name, name, err)
			}
			if res.Deltas != int64(8*s.Deltas) {
				t.Errorf("%s %s: %d deltas, want %d", p.Name, name, res.Deltas, 8*s.Deltas)
			}
		}
		p.CloseIdle()
		if p.Metrics == nil {
			continue
		}
		want := int64(9 * len(gatewayTestStreams))
		if f, b := p.Forwarded.Load(), p.Blocked.Load(); f != want || b != 0 {
			t.Errorf("%s: %d calls forwarded, %d blocked; want %d, 0", p.Name, f, b, want)
		}
		var m strings.Builder
		p.Metrics.WriteTo(&m)
		if !strings.Contains(m.String(), "argstream_streams_open 0\n") {
			t.Errorf("%s: metrics\n%s", p.Name, m.String())
		}
		lo, hi := p.MinDecided.Load(), p.MaxDecided.Load()
		switch p.Name {
		case ProxyGuardNow:
			if lo != 0 || hi != 0 {
				t.Errorf("%s: decided at %d to %d argument bytes, want 0", p.Name, lo, hi)
			}
		case ProxyGuardPath:
			// {"path":"src/bench/createFile-1k.json" is 38 bytes: the
			// decision comes when the string ends, some deltas in.
			if lo < 30 || hi > 50 {
				t.Errorf("%s: decided at %d to %d argument bytes, want about 40", p.Name, lo, hi)
			}
		}
	}
}

// TestGatewayChecksBytes checks that the client's check sees a difference:
// a guard that blocks the call gives the client a notice in its place.
func TestGatewayChecksBytes(t *testing.T) {
	gw := newTestGateway(t, "createFile-1k")
	p, err := gw.AddGuard("guard-skip", `{"run":"skip"}`, false)
	if err != nil {
		t.Fatal(err)
	}
	_, err = gw.Run(p, gw.Stream("createFile-1k"), 2, 0, false)
	if err == nil || !strings.Contains(err.Error(), "differ from the upstream's") {
		t.Fatalf("a blocked call: error %v, want the bytes to differ", err)
	}
	if p.Blocked.Load() != 2 {
		t.Errorf("%d calls blocked, want 2", p.Blocked.Load())
	}
}

// TestGatewayPaced checks a paced round's latencies: one for each event of
// each stream, none negative. (Their size is the benchmark's to measure.)
func TestGatewayPaced(t *testing.T) {
	gw := newTestGateway(t, "structured-1k")
	s := gw.Stream("structured-1k")
	for _, p := range gw.Proxies {
		res, err := gw.Run(p, s, 3, 50*time.Microsecond, true)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Latency) != 3*len(s.Ends) {
			t.Fatalf("%s: %d latencies, want %d", p.Name, len(res.Latency), 3*len(s.Ends))
		}
		for i, l := range res.Latency {
			if l < 0 {
				t.Fatalf("%s: latency %d of event %d", p.Name, l, i)
			}
		}
		p.CloseIdle()
	}
}

// TestGatewayOpen checks that streams held half way are all open at once,
// and end whole once released.
func TestGatewayOpen(t *testing.T) {
	gw := newTestGateway(t, "modifyFile-1k")
	s := gw.Stream("modifyFile-1k")
	for _, p := range gw.Proxies {
		o, err := gw.Open(p, s, 4)
		if err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		if err := o.Release(); err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		p.CloseIdle()
	}
}
