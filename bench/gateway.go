package bench

// This file is structured in the following way:
//
//   - GatewayStream: one upstream response of the gateway benchmarks, an
//     Anthropic Messages stream of one tool call whose arguments wrap a
//     workload, cut into the recordings' delta sizes;
//   - Gateway and GatewayProxy: an upstream server on 127.0.0.1 that serves
//     those streams, and the ways a client reaches it (direct, through a
//     plain httputil.ReverseProxy, through guard.NewProxy with each
//     policy), each a server of its own on 127.0.0.1;
//   - Run and Open: a round of concurrent streams, every byte the client
//     reads checked against the upstream's, with the send and receive
//     times of each event; or streams held open half way.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/argstream/argstream/guard"
	"github.com/argstream/argstream/internal/wirecount"
	"github.com/argstream/argstream/policy"
)

// GatewayStream is one upstream response of the gateway benchmarks.
type GatewayStream struct {
	Name string // the workload's, such as "createFile-1k"
	// Args are the call's arguments: GatewayArgs of the workload.
	Args []byte
	// Body is the response's SSE bytes: SyntheticStream of the Anthropic
	// wire, the tool named by ToolName, with Args (message_start, the
	// tool_use block's start, a ping, an empty delta then the deltas cut
	// by DeltaSizes, the block's stop, message_delta, message_stop).
	Body []byte
	// Ends holds the offset in Body where each event ends, after its
	// blank line: the upstream writes and flushes one event at a time, and
	// the client knows which event a byte belongs to by its offset.
	Ends []int
	// Deltas counts the input_json_delta events, the empty first one
	// included.
	Deltas int
}

// GatewayArgs wraps a workload as the arguments of the gateway streams'
// call, {"path":"src/bench/NAME.json","content":WORKLOAD}: the same
// arguments for every workload and proxy, whose first member is a path
// that GatewayPolicyPath decides on.
func GatewayArgs(name string, workload []byte) []byte {
	args := append([]byte(`{"path":"src/bench/`+name+`.json","content":`), workload...)
	return append(args, '}')
}

// NewGatewayStream makes the gateway stream of a workload.
func NewGatewayStream(name string, workload []byte) (GatewayStream, error) {
	s := GatewayStream{Name: name, Args: GatewayArgs(name, workload)}
	var err error
	if s.Body, err = SyntheticStream(WireAnthropic, ToolName(name), s.Args); err != nil {
		return s, fmt.Errorf("%s: %v", name, err)
	}
	for off := 0; off < len(s.Body); {
		i := bytes.Index(s.Body[off:], []byte("\n\n"))
		if i < 0 {
			return s, fmt.Errorf("%s: an event with no blank line after it", name)
		}
		off += i + 2
		s.Ends = append(s.Ends, off)
	}
	if s.Deltas, err = wirecount.Deltas(wirecount.Anthropic, s.Body); err != nil {
		return s, fmt.Errorf("%s: %v", name, err)
	}
	return s, nil
}

// LoadGatewayStreams returns the gateway stream of each workload named
// (NAME-SIZE, such as "createFile-1k"), read from dir.
func LoadGatewayStreams(dir string, names ...string) ([]GatewayStream, error) {
	var ss []GatewayStream
	for _, name := range names {
		ws, err := LoadDir(dir, name+".json")
		if err != nil {
			return nil, err
		}
		s, err := NewGatewayStream(name, ws[0].Data)
		if err != nil {
			return nil, err
		}
		ss = append(ss, s)
	}
	return ss, nil
}

// The policies of the guard proxies, applied to every tool.
const (
	// GatewayPolicyNow decides at the call's start, before any argument.
	GatewayPolicyNow = `{"run":"unattended"}`
	// GatewayPolicyPath decides when the /path argument is complete, a
	// few deltas into the call's block: the events between the block's
	// start and that delta are held until then.
	GatewayPolicyPath = `{"run":[{"arg":"/path","prefix":"src/","mode":"unattended"},{"mode":"ask"}],"paths":["/path"]}`
)

// The proxies of a Gateway, in the order the benchmarks run them.
const (
	ProxyDirect    = "direct"     // no proxy: the client reads the upstream
	ProxyPlain     = "plain"      // httputil.ReverseProxy, FlushInterval -1
	ProxyGuardNow  = "guard-now"  // guard.NewProxy, GatewayPolicyNow
	ProxyGuardPath = "guard-path" // guard.NewProxy, GatewayPolicyPath
)

// A GatewayProxy is one way of reaching the upstream: a server on
// 127.0.0.1 of its own (but for direct) and the client's transport to it.
type GatewayProxy struct {
	Name string
	URL  string // where the client sends its requests

	// What a guard did, counted by its Config.OnCall: calls forwarded and
	// blocked, and the smallest and largest Record.DecidedAt.
	Forwarded, Blocked     atomic.Int64
	MinDecided, MaxDecided atomic.Int64
	// Metrics are a guard's, given its OnStream and OnCall as a
	// deployment would; nil for the others.
	Metrics *guard.Metrics

	client   *http.Client
	clientTr *http.Transport
	upTr     *http.Transport // the proxy's transport to the upstream
	srv      *http.Server
	log      *errorLog
}

// CloseIdle closes the idle connections of the client's transport and of
// the proxy's, so that they hold no file descriptor between benchmarks
// and a measurement of open streams starts with none.
func (p *GatewayProxy) CloseIdle() {
	p.clientTr.CloseIdleConnections()
	if p.upTr != nil {
		p.upTr.CloseIdleConnections()
	}
}

// Err returns the first error the proxy's server or ReverseProxy logged
// since the last call, nil if none.
func (p *GatewayProxy) Err() error { return p.log.err() }

// errorLog keeps the first line an http.Server or ReverseProxy logs, and
// counts them, until err reports them.
type errorLog struct {
	mu    sync.Mutex
	first string
	n     int
}

func (l *errorLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.n == 0 {
		l.first = string(bytes.TrimSpace(p))
	}
	l.n++
	return len(p), nil
}

func (l *errorLog) err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.n == 0 {
		return nil
	}
	err := fmt.Errorf("%d errors logged, the first: %s", l.n, l.first)
	l.n = 0
	return err
}

// A Gateway is the upstream server and the proxies in front of it.
type Gateway struct {
	URL     string // the upstream's
	Proxies []*GatewayProxy

	upstream *http.Server
	upLog    *errorLog
	base     time.Time // the origin of the send and receive times

	streams map[string]*GatewayStream

	mu      sync.Mutex
	rounds  map[int64]*round
	roundID int64
}

// gatewayTransport is the transport of the client and of the proxies: one
// connection per concurrent stream, kept for the next round.
func gatewayTransport() *http.Transport {
	return &http.Transport{
		DialContext:         (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConns:        0, // no limit
		MaxIdleConnsPerHost: 4096,
		MaxConnsPerHost:     0, // no limit
		IdleConnTimeout:     90 * time.Second,
	}
}

// serve serves h on a new listener of 127.0.0.1, and returns its URL.
func serve(h http.Handler, l *errorLog) (*http.Server, string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, "", err
	}
	srv := &http.Server{Handler: h, ErrorLog: log.New(l, "", 0), ReadHeaderTimeout: time.Minute}
	go srv.Serve(ln)
	return srv, "http://" + ln.Addr().String(), nil
}

// NewGateway starts the upstream server, serving streams, and the proxies
// direct, plain, guard-now and guard-path. Close stops them.
func NewGateway(streams []GatewayStream) (*Gateway, error) {
	g := &Gateway{upLog: &errorLog{}, base: time.Now(), rounds: map[int64]*round{}, streams: map[string]*GatewayStream{}}
	for i := range streams {
		g.streams[streams[i].Name] = &streams[i]
	}
	var err error
	if g.upstream, g.URL, err = serve(http.HandlerFunc(g.serveUpstream), g.upLog); err != nil {
		return nil, err
	}
	up, _ := url.Parse(g.URL)
	direct := &GatewayProxy{Name: ProxyDirect, URL: g.URL, log: g.upLog}
	plain := &GatewayProxy{Name: ProxyPlain}
	plain.upTr = gatewayTransport()
	rp := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(up)
			pr.Out.Host = ""
			bufferBody(pr.Out)
		},
		FlushInterval: -1,
		Transport:     plain.upTr,
	}
	g.Proxies = append(g.Proxies, direct)
	if err := g.addProxy(plain, rp); err != nil {
		g.Close()
		return nil, err
	}
	for _, c := range []struct{ name, policy string }{{ProxyGuardNow, GatewayPolicyNow}, {ProxyGuardPath, GatewayPolicyPath}} {
		if _, err := g.AddGuard(c.name, c.policy, false); err != nil {
			g.Close()
			return nil, err
		}
	}
	for _, p := range g.Proxies {
		if p.clientTr == nil {
			p.clientTr = gatewayTransport()
			p.client = &http.Client{Transport: p.clientTr}
		}
	}
	return g, nil
}

// bufferBody reads the body of req, a proxy's outgoing request, into
// memory, as guard.NewProxy does to learn whether the client asked for a
// stream. A bare httputil.ReverseProxy hands the incoming body to the
// transport, whose writer reads it once more after the declared length to
// see it ends; when the upstream answers first (it has every byte it was
// promised), the proxy's server drains and closes that body as the
// response's headers go out, the transport's last read fails with "http:
// invalid Read on closed Body", and it closes the upstream connection
// under the response being copied: the client's stream is cut (Go
// 1.26.8, golang/go#40747; about one round in a few thousand here).
// Buffered, the plain proxy forwards what the guard forwards, that race
// aside.
func bufferBody(req *http.Request) {
	if req.Body == nil || req.Body == http.NoBody {
		return
	}
	body, err := io.ReadAll(req.Body)
	req.Body.Close()
	if err != nil {
		req.Body = errorBody{err}
		return
	}
	req.Body = io.NopCloser(bytes.NewReader(body))
	req.ContentLength = int64(len(body))
}

// errorBody is a request body that fails with err.
type errorBody struct{ err error }

func (b errorBody) Read([]byte) (int, error) { return 0, b.err }
func (b errorBody) Close() error             { return nil }

// addProxy serves rp as p.
func (g *Gateway) addProxy(p *GatewayProxy, rp *httputil.ReverseProxy) error {
	p.log = &errorLog{}
	rp.ErrorLog = log.New(p.log, "", 0)
	var err error
	if p.srv, p.URL, err = serve(rp, p.log); err != nil {
		return err
	}
	p.clientTr = gatewayTransport()
	p.client = &http.Client{Transport: p.clientTr}
	g.Proxies = append(g.Proxies, p)
	return nil
}

// AddGuard adds a proxy named name: guard.NewProxy with the policy of the
// rules file rules applied to every tool (Config.BlockAsk set to
// blockAsk), its transport to the upstream that of the plain proxy, and a
// guard.Metrics.
func (g *Gateway) AddGuard(name, rules string, blockAsk bool) (*GatewayProxy, error) {
	pol, _, err := policy.Parse([]byte(rules))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	p := &GatewayProxy{Name: name, Metrics: &guard.Metrics{}}
	p.MinDecided.Store(-1)
	p.MaxDecided.Store(-1)
	gd := guard.New(guard.Config{
		Policy:   func(string) *policy.Policy { return pol },
		BlockAsk: blockAsk,
		OnStream: p.Metrics.Stream,
		OnCall: func(r guard.Record) {
			p.Metrics.Call(r)
			if r.Action == guard.Forwarded {
				p.Forwarded.Add(1)
			} else {
				p.Blocked.Add(1)
			}
			storeIf(&p.MinDecided, r.DecidedAt, func(old int64) bool { return old < 0 || r.DecidedAt < old })
			storeIf(&p.MaxDecided, r.DecidedAt, func(old int64) bool { return r.DecidedAt > old })
		},
	})
	up, _ := url.Parse(g.URL)
	rp := guard.NewProxy(up, gd)
	p.upTr = gatewayTransport()
	rp.Transport = p.upTr
	if err := g.addProxy(p, rp); err != nil {
		return nil, err
	}
	return p, nil
}

func storeIf(v *atomic.Int64, n int64, better func(old int64) bool) {
	for {
		old := v.Load()
		if !better(old) || v.CompareAndSwap(old, n) {
			return
		}
	}
}

// Proxy returns the proxy named name, nil if none.
func (g *Gateway) Proxy(name string) *GatewayProxy {
	for _, p := range g.Proxies {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// Close stops the servers and closes every connection.
func (g *Gateway) Close() {
	for _, p := range g.Proxies {
		if p.clientTr != nil {
			p.CloseIdle()
		}
		if p.srv != nil {
			p.srv.Close()
		}
	}
	g.upstream.Close()
}

// A round is a set of concurrent streams of one response.
type round struct {
	s    *GatewayStream
	n    int           // streams
	pace time.Duration // between two events of a stream; 0: at once
	// sent holds the send time of each event of each stream, stream i's
	// event k at i*len(s.Ends)+k, in ns since the Gateway's base; nil if
	// not taken.
	sent []atomic.Int64
	// pauseAt is the event before which the upstream waits for release,
	// len(s.Ends) for none.
	pauseAt int
	release chan struct{}
}

// serveUpstream serves a round's stream: POST .../messages?r=ROUND&i=STREAM.
func (g *Gateway) serveUpstream(w http.ResponseWriter, r *http.Request) {
	if _, err := io.Copy(io.Discard, r.Body); err != nil {
		return
	}
	q := r.URL.Query()
	id, err1 := strconv.ParseInt(q.Get("r"), 10, 64)
	i, err2 := strconv.Atoi(q.Get("i"))
	g.mu.Lock()
	rd := g.rounds[id]
	g.mu.Unlock()
	if err1 != nil || err2 != nil || rd == nil || i < 0 || i >= rd.n {
		http.Error(w, "no such stream", http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	fl := w.(http.Flusher)
	s := rd.s
	prev := 0
	var next time.Time // with a pace, when the next event is due
	for k, end := range s.Ends {
		if k == rd.pauseAt {
			fl.Flush()
			select {
			case <-rd.release:
			case <-r.Context().Done():
				return
			}
		}
		if rd.pace > 0 && k > 0 {
			time.Sleep(time.Until(next))
		}
		now := time.Now()
		next = now.Add(rd.pace) // after this one's write, not on a fixed schedule: no burst to catch up
		if rd.sent != nil {
			rd.sent[i*len(s.Ends)+k].Store(int64(now.Sub(g.base)))
		}
		if _, err := w.Write(s.Body[prev:end]); err != nil {
			return
		}
		fl.Flush()
		prev = end
	}
}

// Stream returns the stream named name, nil if the Gateway serves none.
func (g *Gateway) Stream(name string) *GatewayStream { return g.streams[name] }

func (g *Gateway) newRound(s *GatewayStream, n int) (int64, *round) {
	rd := &round{s: s, n: n, pauseAt: len(s.Ends), release: make(chan struct{})}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.roundID++
	g.rounds[g.roundID] = rd
	return g.roundID, rd
}

func (g *Gateway) endRound(id int64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	delete(g.rounds, id)
}

// RoundResult is what a round delivered.
type RoundResult struct {
	Bytes  int64 // read by the clients, all streams
	Deltas int64 // input_json_delta events delivered
	// Latency holds, if asked for, the time from the upstream's write of
	// each event to the client's read of its last byte, in ns: stream i's
	// event k at i*len(Ends)+k.
	Latency []int64
}

// requestBody is the client's request: a Messages request that asks for a
// stream.
const requestBody = `{"model":"claude-sonnet-4-5","max_tokens":4096,"stream":true,"messages":[{"role":"user","content":"Write the file."}]}`

var readBufs = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// Run streams the response of s to n concurrent clients through p, each
// event pace after the one before on each stream (0: as fast as the
// connections take them), and checks that every client read exactly the
// upstream's bytes. With latency set, it returns each event's latency.
func (g *Gateway) Run(p *GatewayProxy, s *GatewayStream, n int, pace time.Duration, latency bool) (RoundResult, error) {
	id, rd := g.newRound(s, n)
	defer g.endRound(id)
	rd.pace = pace
	var res RoundResult
	if latency {
		rd.sent = make([]atomic.Int64, n*len(s.Ends))
		res.Latency = make([]int64, n*len(s.Ends))
	}
	err := g.clients(p, id, rd, nil, res.Latency)
	if err == nil {
		res.Bytes = int64(n) * int64(len(s.Body))
		res.Deltas = int64(n) * int64(s.Deltas)
	}
	return res, err
}

// Fetch reads the response of s through p once, and returns what the
// client read, unchecked.
func (g *Gateway) Fetch(p *GatewayProxy, s *GatewayStream) ([]byte, error) {
	id, _ := g.newRound(s, 1)
	defer g.endRound(id)
	resp, err := g.request(p, id, 0)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return io.ReadAll(resp.Body)
}

// OpenStreams are streams held open half way: the upstream has sent the
// first half of the events and waits, and each client has read them.
type OpenStreams struct {
	g    *Gateway
	id   int64
	rd   *round
	done chan error
}

// Open opens n streams of s through p, and returns when every client has
// read the events before the middle one (or failed).
func (g *Gateway) Open(p *GatewayProxy, s *GatewayStream, n int) (*OpenStreams, error) {
	id, rd := g.newRound(s, n)
	rd.pauseAt = len(s.Ends) / 2
	o := &OpenStreams{g: g, id: id, rd: rd, done: make(chan error, 1)}
	var reached sync.WaitGroup
	reached.Add(n)
	go func() { o.done <- g.clients(p, id, rd, &reached, nil) }()
	reached.Wait()
	select {
	case err := <-o.done: // a client failed before the middle
		g.endRound(id)
		if err == nil {
			err = errors.New("the streams ended before the middle")
		}
		return nil, err
	default:
	}
	return o, nil
}

// Release lets the open streams end, and waits for them.
func (o *OpenStreams) Release() error {
	close(o.rd.release)
	err := <-o.done
	o.g.endRound(o.id)
	return err
}

func (g *Gateway) request(p *GatewayProxy, id int64, i int) (*http.Response, error) {
	req, err := http.NewRequest(http.MethodPost, p.URL+"/v1/messages?r="+strconv.FormatInt(id, 10)+"&i="+strconv.Itoa(i), bytes.NewReader([]byte(requestBody)))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Anthropic-Version", "2023-06-01")
	resp, err := p.client.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return nil, fmt.Errorf("status %s: %.200s", resp.Status, body)
	}
	return resp, nil
}

// clients runs the round's n clients through p and waits for them: each
// reads its stream, checks every byte against the upstream's, calls
// reached.Done once it has read the events before rd.pauseAt (or ended),
// and records into latency, if not nil, each event's latency.
func (g *Gateway) clients(p *GatewayProxy, id int64, rd *round, reached *sync.WaitGroup, latency []int64) error {
	var wg sync.WaitGroup
	errs := make([]error, rd.n)
	for i := range rd.n {
		wg.Go(func() {
			var once sync.Once
			done := func() {
				if reached != nil {
					once.Do(reached.Done)
				}
			}
			defer done()
			var recv []int64
			if latency != nil {
				recv = latency[i*len(rd.s.Ends) : (i+1)*len(rd.s.Ends)]
			}
			if rd.pace > 0 {
				// The streams begin spread over one pace, as requests
				// arrive, not all at once.
				time.Sleep(rd.pace * time.Duration(i) / time.Duration(rd.n))
			}
			if err := g.client(p, id, i, rd, done, recv); err != nil {
				errs[i] = fmt.Errorf("%s, stream %d: %w", p.Name, i, err)
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	for j := range latency {
		latency[j] -= rd.sent[j].Load()
	}
	if err := p.Err(); err != nil {
		return fmt.Errorf("%s: %v", p.Name, err)
	}
	return g.upLog.err()
}

// client reads stream i of the round, checking each byte read against the
// upstream's; recv, if not nil, gets the time each event's last byte was
// read.
func (g *Gateway) client(p *GatewayProxy, id int64, i int, rd *round, reached func(), recv []int64) error {
	resp, err := g.request(p, id, i)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	bp := readBufs.Get().(*[]byte)
	defer readBufs.Put(bp)
	buf := *bp
	body, ends := rd.s.Body, rd.s.Ends
	off, k := 0, 0
	for {
		n, err := resp.Body.Read(buf)
		if n > 0 {
			now := int64(time.Since(g.base))
			if off+n > len(body) || !bytes.Equal(buf[:n], body[off:off+n]) {
				return fmt.Errorf("the bytes read at offset %d differ from the upstream's: %.80q", off, buf[:n])
			}
			off += n
			for ; k < len(ends) && ends[k] <= off; k++ {
				if recv != nil {
					recv[k] = now
				}
			}
			if k >= rd.pauseAt {
				reached()
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("after %d bytes: %w", off, err)
		}
	}
	if off != len(body) {
		return fmt.Errorf("%d bytes read, the upstream sent %d", off, len(body))
	}
	return nil
}
