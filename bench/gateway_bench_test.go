package bench

import (
	"flag"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"
)

var gatewayPace = flag.Duration("gatewaypace", 20*time.Millisecond, "the `interval` between two events of a stream in BenchmarkGatewayLatency")

// gatewayCase is a number of concurrent streams and the workloads streamed
// at it.
type gatewayCase struct {
	streams   int
	workloads []string
}

var (
	gateway1k   = []string{"createFile-1k", "modifyFile-1k", "structured-1k"}
	gateway100k = []string{"createFile-100k", "modifyFile-100k", "structured-100k"}
)

// gatewayFigures keeps the figures of the leaves already run, by group
// (the benchmark's name without its proxy=) and proxy, so that a later
// leaf reports itself against direct and plain measured before it in the
// same process: with -count, the medians of their runs.
var gatewayFigures = struct {
	sync.Mutex
	m map[string]map[string][]float64
}{m: map[string]map[string][]float64{}}

// gatewayGroup is b's name without its last element, proxy=P.
func gatewayGroup(b *testing.B) string {
	name := b.Name()
	for i := len(name) - 1; i >= 0; i-- {
		if name[i] == '/' {
			return name[:i]
		}
	}
	return name
}

// keepFigure records v, the figure what of b's proxy p.
func keepFigure(b *testing.B, p, what string, v float64) {
	gatewayFigures.Lock()
	defer gatewayFigures.Unlock()
	k := gatewayGroup(b) + "#" + what
	if gatewayFigures.m[k] == nil {
		gatewayFigures.m[k] = map[string][]float64{}
	}
	gatewayFigures.m[k][p] = append(gatewayFigures.m[k][p], v)
}

// figure returns the median of the figures what of proxy p in b's group.
func figure(b *testing.B, p, what string) (float64, bool) {
	gatewayFigures.Lock()
	defer gatewayFigures.Unlock()
	vs := slices.Clone(gatewayFigures.m[gatewayGroup(b)+"#"+what][p])
	if len(vs) == 0 {
		return 0, false
	}
	slices.Sort(vs)
	return vs[len(vs)/2], true
}

// reportAdded reports v, the figure what of the proxy p, as added-UNIT
// over direct's median, and, for a guard, as vs-plain when what is the
// CPU per delta: (guard − direct) / (plain − direct).
func reportAdded(b *testing.B, p, what, unit string, v float64) {
	keepFigure(b, p, what, v)
	if p == ProxyDirect {
		return
	}
	d, ok := figure(b, ProxyDirect, what)
	if !ok {
		return
	}
	b.ReportMetric(v-d, "added-"+unit)
	if p == ProxyPlain || what != "cpu" {
		return
	}
	if pl, ok := figure(b, ProxyPlain, what); ok && pl > d {
		b.ReportMetric((v-d)/(pl-d), "vs-plain")
	}
}

// newBenchGateway starts a Gateway serving the workloads of cases.
func newBenchGateway(b *testing.B, cases []gatewayCase) *Gateway {
	var names []string
	for _, c := range cases {
		for _, w := range c.workloads {
			if !slices.Contains(names, w) {
				names = append(names, w)
			}
		}
	}
	return newTestGateway(b, names...)
}

// runGateway runs the leaves streams=N/workload=W/proxy=P of cases.
func runGateway(b *testing.B, cases []gatewayCase, proxies []string, leaf func(b *testing.B, gw *Gateway, p *GatewayProxy, s *GatewayStream, n int)) {
	gw := newBenchGateway(b, cases)
	for _, c := range cases {
		b.Run("streams="+strconv.Itoa(c.streams), func(b *testing.B) {
			for _, w := range c.workloads {
				b.Run("workload="+w, func(b *testing.B) {
					for _, name := range proxies {
						p := gw.Proxy(name)
						b.Run("proxy="+name, func(b *testing.B) {
							defer p.CloseIdle() // no file descriptors kept for the next leaf
							leaf(b, gw, p, gw.Stream(w), c.streams)
						})
					}
				})
			}
		})
	}
}

// warmUp runs a round of n streams of the shortest response through p, not
// measured, to open the connections the next rounds reuse.
func warmUp(b *testing.B, gw *Gateway, p *GatewayProxy, n int) {
	var s *GatewayStream
	for _, name := range gateway1k {
		if t := gw.Stream(name); t != nil && (s == nil || len(t.Body) < len(s.Body)) {
			s = t
		}
	}
	if _, err := gw.Run(p, s, n, 0, false); err != nil {
		b.Fatal(err)
	}
}

var gatewayProxies = []string{ProxyDirect, ProxyPlain, ProxyGuardNow, ProxyGuardPath}

// BenchmarkGateway measures what the gateway costs under load:
// BenchmarkGateway/streams=N/workload=W/proxy=P, one iteration being N
// concurrent streams of W's response (GatewayStream: an Anthropic Messages
// stream of one tool call, whose arguments wrap W, in deltas of the
// recordings' sizes), served by an upstream server on 127.0.0.1 that
// writes and flushes each event as soon as the connection takes it, and
// read by N clients over HTTP, each checking every byte against the
// upstream's: directly (direct), through an httputil.ReverseProxy (plain),
// through guard.NewProxy deciding at the call's start (guard-now) or on
// its /path argument a few deltas in (guard-path). Everything runs in this
// process, so its CPU time includes the upstream's and the clients': the
// figures to compare are each proxy's over direct's.
//
// Per argument delta delivered, it reports cpu-ns/delta (process CPU time,
// all threads, the garbage collector's included), ns/delta (time on the
// wall), B/delta and allocs/delta; added-cpu-ns/delta, the proxy's CPU time
// per delta over direct's; and for the guards vs-plain, (guard − direct) /
// (plain − direct): what enforcement costs over what forwarding costs.
// direct and plain are the medians of their runs just before, in the same
// process (-count), so run all the proxies of a group together.
func BenchmarkGateway(b *testing.B) {
	cases := []gatewayCase{
		{1, append(slices.Clone(gateway1k), gateway100k...)},
		{100, append(slices.Clone(gateway1k), gateway100k...)},
		{1000, gateway1k},
	}
	runGateway(b, cases, gatewayProxies, func(b *testing.B, gw *Gateway, p *GatewayProxy, s *GatewayStream, n int) {
		warmUp(b, gw, p, n)
		b.SetBytes(int64(n) * int64(len(s.Body)))
		b.ReportAllocs()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		cpu := ProcessCPU()
		for b.Loop() {
			if _, err := gw.Run(p, s, n, 0, false); err != nil {
				b.Fatal(err)
			}
		}
		cpu = ProcessCPU() - cpu
		runtime.ReadMemStats(&after)
		deltas := float64(b.N) * float64(n) * float64(s.Deltas)
		cpuPerDelta := float64(cpu.Nanoseconds()) / deltas
		b.ReportMetric(cpuPerDelta, "cpu-ns/delta")
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/deltas, "ns/delta")
		b.ReportMetric(float64(after.Mallocs-before.Mallocs)/deltas, "allocs/delta")
		b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/deltas, "B/delta")
		reportAdded(b, p.Name, "cpu", "cpu-ns/delta", cpuPerDelta)
	})
}

// BenchmarkGatewayLatency measures the latency of each event under a load
// like a model's: BenchmarkGatewayLatency/streams=N/workload=W/proxy=P, as
// BenchmarkGateway but with the upstream writing each stream's events
// -gatewaypace apart (20 ms: 50 events a second a stream), the streams'
// schedules spread over that interval. An event's latency is the time from
// the upstream's write of it to the client's read of its last byte (the
// client knows an event by its offset, every byte being checked). It
// reports, over every event of every stream, p50-us and p99-us, and over
// direct's (the medians of its runs just before), added-p50-us and
// added-p99-us; and, as BenchmarkGateway, cpu-ns/delta, added-cpu-ns/delta
// and vs-plain, here for events that trickle in one at a time. guard-path,
// whose first events wait for its decision, is left out.
func BenchmarkGatewayLatency(b *testing.B) {
	cases := []gatewayCase{{1, gateway1k}, {100, gateway1k}, {1000, gateway1k}}
	proxies := []string{ProxyDirect, ProxyPlain, ProxyGuardNow}
	runGateway(b, cases, proxies, func(b *testing.B, gw *Gateway, p *GatewayProxy, s *GatewayStream, n int) {
		warmUp(b, gw, p, n)
		var lat []int64
		cpu := ProcessCPU()
		for b.Loop() {
			res, err := gw.Run(p, s, n, *gatewayPace, true)
			if err != nil {
				b.Fatal(err)
			}
			lat = append(lat, res.Latency...)
		}
		cpu = ProcessCPU() - cpu
		slices.Sort(lat)
		rank := func(q float64) float64 { // nearest rank, in µs
			return float64(lat[min(len(lat)-1, int(q*float64(len(lat))))]) / 1e3
		}
		p50, p99 := rank(0.50), rank(0.99)
		b.ReportMetric(p50, "p50-us")
		b.ReportMetric(p99, "p99-us")
		reportAdded(b, p.Name, "p50", "p50-us", p50)
		reportAdded(b, p.Name, "p99", "p99-us", p99)
		cpuPerDelta := float64(cpu.Nanoseconds()) / (float64(b.N) * float64(n) * float64(s.Deltas))
		b.ReportMetric(cpuPerDelta, "cpu-ns/delta")
		reportAdded(b, p.Name, "cpu", "cpu-ns/delta", cpuPerDelta)
	})
}

// BenchmarkGatewayOpen measures what an open stream holds:
// BenchmarkGatewayOpen/streams=N/workload=W/proxy=P, one iteration opening
// N streams whose upstream sends the first half of the events and waits,
// each client having read them: with every connection closed before,
// the heap in use (runtime.MemStats.HeapInuse after two collections),
// the live heap (HeapAlloc), the goroutine stacks (StackInuse) and the
// goroutines, each over N: heap-B/stream, live-B/stream, stack-B/stream,
// goroutines/stream; and added-heap-B/stream, added-stack-B/stream and
// added-goroutines/stream over direct's, the medians of its runs just
// before. Everything a stream needs is counted, the upstream's and the
// client's side of each connection included, hence the added figures.
func BenchmarkGatewayOpen(b *testing.B) {
	cases := []gatewayCase{{100, append(slices.Clone(gateway1k), "createFile-100k")}, {1000, gateway1k}}
	runGateway(b, cases, gatewayProxies, func(b *testing.B, gw *Gateway, p *GatewayProxy, s *GatewayStream, n int) {
		var heap, live, stack, gor float64
		for b.Loop() {
			p.CloseIdle()
			settleGoroutines()
			var before, after runtime.MemStats
			runtime.GC()
			runtime.GC()
			runtime.ReadMemStats(&before)
			g0 := runtime.NumGoroutine()
			o, err := gw.Open(p, s, n)
			if err != nil {
				b.Fatal(err)
			}
			runtime.GC()
			runtime.GC()
			runtime.ReadMemStats(&after)
			g1 := runtime.NumGoroutine()
			if err := o.Release(); err != nil {
				b.Fatal(err)
			}
			heap = (float64(after.HeapInuse) - float64(before.HeapInuse)) / float64(n)
			live = (float64(after.HeapAlloc) - float64(before.HeapAlloc)) / float64(n)
			stack = (float64(after.StackInuse) - float64(before.StackInuse)) / float64(n)
			gor = float64(g1-g0) / float64(n)
		}
		b.ReportMetric(heap, "heap-B/stream")
		b.ReportMetric(live, "live-B/stream")
		b.ReportMetric(stack, "stack-B/stream")
		b.ReportMetric(gor, "goroutines/stream")
		reportAdded(b, p.Name, "heap", "heap-B/stream", heap)
		reportAdded(b, p.Name, "stack", "stack-B/stream", stack)
		reportAdded(b, p.Name, "goroutines", "goroutines/stream", gor)
	})
}

// settleGoroutines waits, up to 5 s, for the goroutines of closed
// connections to end: until their number stays the same for 50 ms.
func settleGoroutines() {
	deadline := time.Now().Add(5 * time.Second)
	last, since := runtime.NumGoroutine(), time.Now()
	for time.Now().Before(deadline) && time.Since(since) < 50*time.Millisecond {
		time.Sleep(5 * time.Millisecond)
		if n := runtime.NumGoroutine(); n != last {
			last, since = n, time.Now()
		}
	}
}
