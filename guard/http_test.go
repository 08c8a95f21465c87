package guard

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"compress/zlib"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/argstream/argstream/internal/testutil/wiretest"
	"github.com/argstream/argstream/policy"
	"github.com/argstream/argstream/wire"
	"github.com/go-json-experiment/json/jsontext"
)

// upstream is a test provider: it answers every request with its events,
// one write and flush each, with a pause between them, and records what it
// saw.
type upstream struct {
	srv      *httptest.Server
	events   [][]byte
	pause    time.Duration
	status   int
	compress string // the response's Content-Encoding: "", gzip or deflate
	// contentType is the response's Content-Type, "" for text/event-stream.
	contentType string
	mu          sync.Mutex
	path        string
	query       string
	encoding    string // the request's Accept-Encoding
	done        chan time.Time
}

func newUpstream(t *testing.T, events [][]byte, pause time.Duration) *upstream {
	u := &upstream{events: events, pause: pause, status: 200, done: make(chan time.Time, 1)}
	u.srv = httptest.NewServer(http.HandlerFunc(u.serve))
	t.Cleanup(u.srv.Close)
	return u
}

func (u *upstream) serve(w http.ResponseWriter, r *http.Request) {
	io.Copy(io.Discard, r.Body)
	u.mu.Lock()
	u.path, u.query, u.encoding = r.URL.Path, r.URL.RawQuery, r.Header.Get("Accept-Encoding")
	u.mu.Unlock()
	defer func() { u.done <- time.Now() }()
	w.Header().Set("Content-Type", cmp.Or(u.contentType, "text/event-stream"))
	w.Header().Set("X-Upstream", "yes")
	var out io.Writer = w
	var zw interface {
		io.Writer
		Flush() error
		Close() error
	}
	switch u.compress {
	case "gzip":
		zw = gzip.NewWriter(w)
	case "deflate":
		zw = zlib.NewWriter(w)
	}
	if zw != nil {
		w.Header().Set("Content-Encoding", u.compress)
		out = zw
	}
	w.WriteHeader(u.status)
	for _, ev := range u.events {
		select {
		case <-r.Context().Done():
			return
		case <-time.After(u.pause):
		}
		out.Write(ev)
		if zw != nil {
			zw.Flush()
		}
		w.(http.Flusher).Flush()
	}
	if zw != nil {
		zw.Close()
	}
}

// streamEvents cuts a recorded stream into its events' bytes.
func streamEvents(stream []byte) [][]byte {
	var out [][]byte
	for len(stream) > 0 {
		i := bytes.Index(stream, []byte("\n\n"))
		if i < 0 {
			return append(out, stream)
		}
		out = append(out, stream[:i+2])
		stream = stream[i+2:]
	}
	return out
}

func post(t *testing.T, c *http.Client, u, body string) *http.Response {
	t.Helper()
	resp, err := c.Post(u, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

const anthropicRequest = `{"model":"claude","max_tokens":100,"stream":true,"messages":[]}`

// TestFaces: through the RoundTripper and through the proxy, a recorded
// response reaches the client byte for byte, its headers kept, the path
// and query kept; and a blocked call's response is judged.
func TestFaces(t *testing.T) {
	rec := recordedResponses(t)["vercel-ai__anthropic__anthropic-json-tool.1.chunks.txt#0"]
	skip := mustPolicy(t, `{"run": "skip"}`)
	for _, face := range []string{"transport", "proxy"} {
		for _, block := range []bool{false, true} {
			u := newUpstream(t, streamEvents(rec), 0)
			g := New(Config{Policy: func(string) *policy.Policy {
				if block {
					return skip
				}
				return nil
			}})
			client, base := clientFor(t, face, g, u.srv.URL)
			resp := post(t, client, base+"/v1//messages?beta=true", anthropicRequest)
			got, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil {
				t.Fatal(err)
			}
			if resp.Header.Get("X-Upstream") != "yes" {
				t.Errorf("%s: headers %v", face, resp.Header)
			}
			if u.path != "/v1//messages" || u.query != "beta=true" {
				t.Errorf("%s: the upstream got %q ? %q", face, u.path, u.query)
			}
			switch {
			case !block && !bytes.Equal(got, rec):
				t.Errorf("%s: the client read\n%s", face, got)
			case block && !strings.Contains(string(got), "was blocked"):
				t.Errorf("%s: no notice in\n%s", face, got)
			}
		}
	}
}

// clientFor returns a client that goes through the face of g, and the URL
// to which it sends its requests.
func clientFor(t *testing.T, face string, g *Guard, upstreamURL string) (*http.Client, string) {
	if face == "transport" {
		return &http.Client{Transport: &Transport{Guard: g}}, upstreamURL
	}
	target, err := url.Parse(upstreamURL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httptest.NewServer(NewProxy(target, g))
	t.Cleanup(proxy.Close)
	return proxy.Client(), proxy.URL
}

// TestCancelUpstream: a block that leaves no call streaming closes the
// upstream's connection within 100 ms, and the client's stream ends
// well-formed.
func TestCancelUpstream(t *testing.T) {
	var events [][]byte
	for _, data := range []string{messageStartData, toolStartData, inputDelta(`"{\"path\": \"/etc/pa"`), inputDelta(`"sswd\", \"content\": \"x"`)} {
		events = append(events, []byte(wiretest.TypedSSE(data)))
	}
	for range 200 { // a long content the client never needs
		events = append(events, []byte(wiretest.TypedSSE(inputDelta(`"more"`))))
	}
	pol := mustPolicy(t, `{"run": [{"arg": "/path", "prefix": "src/", "mode": "unattended"}, {"mode": "skip"}], "paths": ["/path"]}`)
	for _, face := range []string{"transport", "proxy"} {
		u := newUpstream(t, events, 20*time.Millisecond)
		var recs []Record
		var mu sync.Mutex
		g := New(Config{Policy: func(string) *policy.Policy { return pol }, OnCall: func(r Record) { mu.Lock(); recs = append(recs, r); mu.Unlock() }})
		client, base := clientFor(t, face, g, u.srv.URL)
		resp := post(t, client, base+"/v1/messages", anthropicRequest)
		got, err := io.ReadAll(resp.Body)
		decided := time.Now()
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		select {
		case at := <-u.done:
			if d := at.Sub(decided); d > 100*time.Millisecond {
				t.Errorf("%s: the upstream ended %v after the client's stream", face, d)
			}
		case <-time.After(2 * time.Second):
			t.Fatalf("%s: the upstream was not cancelled", face)
		}
		if _, _, err := readClient(wire.Anthropic, got); err != nil || strings.Contains(string(got), "more") {
			t.Errorf("%s: the client read %v\n%s", face, err, got)
		}
		mu.Lock()
		if len(recs) != 1 || recs[0].Action != Blocked || !recs[0].UpstreamCancelled {
			t.Errorf("%s: records %+v", face, recs)
		}
		mu.Unlock()
	}
}

// TestPassThrough: error statuses, other endpoints and their bodies pass
// unchanged; a gzip stream is read (and judged) decoded.
func TestPassThrough(t *testing.T) {
	skip := mustPolicy(t, `{"run": "skip"}`)
	g := New(Config{Policy: func(string) *policy.Policy { return skip }})
	for _, face := range []string{"transport", "proxy"} {
		u := newUpstream(t, [][]byte{[]byte(`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`)}, 0)
		u.status = 529
		client, base := clientFor(t, face, g, u.srv.URL)
		resp := post(t, client, base+"/v1/messages", anthropicRequest)
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 529 || !strings.Contains(string(got), "Overloaded") {
			t.Errorf("%s: %d %s", face, resp.StatusCode, got)
		}

		rec := recordedResponses(t)["vercel-ai__anthropic__anthropic-json-tool.1.chunks.txt#0"]
		for _, enc := range []string{"gzip", "deflate"} {
			u = newUpstream(t, streamEvents(rec), 0)
			u.compress = enc
			client, base = clientFor(t, face, g, u.srv.URL)
			resp = post(t, client, base+"/v1/messages", anthropicRequest)
			got, _ = io.ReadAll(resp.Body)
			resp.Body.Close()
			if !strings.Contains(string(got), "was blocked") || strings.Contains(string(got), `"input_json_delta"`) || strings.Contains(u.encoding, "br") {
				t.Errorf("%s: %s: %q (asked for %q)\n%s", face, enc, resp.Header.Get("Content-Encoding"), u.encoding, got)
			}
		}
	}
}

// TestUpgradeRefused: a WebSocket carries tool calls the gateway cannot
// read; the request to switch never reaches the upstream, on any path.
func TestUpgradeRefused(t *testing.T) {
	for _, face := range []string{"transport", "proxy"} {
		for _, path := range []string{"/v1/responses", "/v1/realtime", "/elsewhere"} {
			var upgraded atomic.Bool
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				upgraded.Store(true)
				w.Header().Set("Connection", "Upgrade")
				w.Header().Set("Upgrade", "websocket")
				w.WriteHeader(http.StatusSwitchingProtocols)
			}))
			client, base := clientFor(t, face, New(Config{}), srv.URL)
			req, _ := http.NewRequest("GET", base+path, nil)
			req.Header.Set("Connection", "Upgrade")
			req.Header.Set("Upgrade", "websocket")
			req.Header.Set("Sec-WebSocket-Version", "13")
			req.Header.Set("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")
			if resp, err := client.Do(req); err == nil {
				resp.Body.Close()
				if resp.StatusCode == http.StatusSwitchingProtocols {
					t.Errorf("%s %s: switched protocols", face, path)
				}
			}
			if upgraded.Load() {
				t.Errorf("%s %s: the upstream got the request to switch", face, path)
			}
			srv.Close()
		}
	}
}

// TestCompressedRequest: a request body is read decoded, so that a
// compressed model request on a path the gateway does not know is judged
// all the same; a request in an encoding the gateway cannot read never
// reaches the upstream.
func TestCompressedRequest(t *testing.T) {
	skip := mustPolicy(t, `{"run": "skip"}`)
	g := New(Config{Policy: func(string) *policy.Policy { return skip }})
	rec := recordedResponses(t)["vercel-ai__anthropic__anthropic-json-tool.1.chunks.txt#0"]
	compress := func(enc string, b []byte) []byte {
		var buf bytes.Buffer
		var zw io.WriteCloser = gzip.NewWriter(&buf)
		if enc == "deflate" {
			zw = zlib.NewWriter(&buf)
		}
		zw.Write(b)
		zw.Close()
		return buf.Bytes()
	}
	for _, face := range []string{"transport", "proxy"} {
		for _, enc := range []string{"gzip", "deflate"} {
			u := newUpstream(t, streamEvents(rec), 0)
			client, base := clientFor(t, face, g, u.srv.URL)
			req, _ := http.NewRequest("POST", base+"/relay/anything", bytes.NewReader(compress(enc, []byte(anthropicRequest))))
			req.Header.Set("Content-Encoding", enc)
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if !strings.Contains(string(got), "was blocked") || strings.Contains(string(got), `"input_json_delta"`) {
				t.Errorf("%s: a request in %s on another path: %d\n%s", face, enc, resp.StatusCode, got)
			}
		}

		// zstd (as Codex sends it): the request is forwarded unread, and
		// the response judged as what its type says.
		u := newUpstream(t, streamEvents(rec), 0)
		client, base := clientFor(t, face, g, u.srv.URL)
		req, _ := http.NewRequest("POST", base+"/relay/anything", strings.NewReader("(zstd bytes)"))
		req.Header.Set("Content-Encoding", "zstd")
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !strings.Contains(string(got), "was blocked") || strings.Contains(string(got), `"input_json_delta"`) {
			t.Errorf("%s: a request in zstd on another path: %d\n%s", face, resp.StatusCode, got)
		}

		// The stream, sent as if it were JSON, is refused.
		u = newUpstream(t, streamEvents(rec), 0)
		u.contentType = "application/json"
		client, base = clientFor(t, face, g, u.srv.URL)
		req, _ = http.NewRequest("POST", base+"/relay/anything", strings.NewReader("(zstd bytes)"))
		req.Header.Set("Content-Encoding", "zstd")
		if resp, err := client.Do(req); err == nil {
			got, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusBadGateway || strings.Contains(string(got), `"input_json_delta"`) {
				t.Errorf("%s: a stream typed as JSON, for a request in zstd: %d\n%s", face, resp.StatusCode, got)
			}
		}
	}
}

// TestClientGone: a client that goes away mid-stream cancels the upstream
// and leaves no goroutine behind.
func TestClientGone(t *testing.T) {
	var events [][]byte
	for range 100 {
		events = append(events, []byte(wiretest.DataSSE(`{"id":"c","choices":[{"index":0,"delta":{"content":"x"}}]}`)))
	}
	before := runtime.NumGoroutine()
	for _, face := range []string{"transport", "proxy"} {
		u := newUpstream(t, events, 10*time.Millisecond)
		client, base := clientFor(t, face, New(Config{}), u.srv.URL)
		ctx, cancel := context.WithCancel(context.Background())
		req, _ := http.NewRequestWithContext(ctx, "POST", base+"/v1/chat/completions", strings.NewReader(`{"model":"m","stream":true}`))
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 100)
		resp.Body.Read(buf)
		cancel()
		resp.Body.Close()
		select {
		case <-u.done:
		case <-time.After(2 * time.Second):
			t.Fatalf("%s: the upstream was not cancelled", face)
		}
		client.CloseIdleConnections()
	}
	checkGoroutines(t, before)
}

// checkGoroutines fails t if the goroutines are not back to before, give
// or take 4, within 2 s: what a stream cut short started must end.
func checkGoroutines(t *testing.T, before int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before+4 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before+4 {
		t.Errorf("%d goroutines, %d before", n, before)
	}
}

// TestUpstreamHangs: an upstream that stops writing in the middle of an
// event holds the client's stream there: the client has every whole event
// before it and no byte of the one begun, and when the client gives up,
// the upstream request is cancelled and no goroutine is left.
func TestUpstreamHangs(t *testing.T) {
	start := wiretest.TypedSSE(messageStartData)
	before := runtime.NumGoroutine()
	for _, face := range []string{"transport", "proxy"} {
		gone := make(chan struct{})
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			defer close(gone)
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, start+"event: content_block_start\ndata: {\"type\":")
			w.(http.Flusher).Flush()
			<-r.Context().Done() // hangs until the gateway cancels it
		}))
		client, base := clientFor(t, face, New(Config{}), srv.URL)
		ctx, cancel := context.WithCancel(context.Background())
		req, _ := http.NewRequestWithContext(ctx, "POST", base+"/v1/messages", strings.NewReader(anthropicRequest))
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		got := make([]byte, len(start))
		if _, err := io.ReadFull(resp.Body, got); err != nil || string(got) != start {
			t.Fatalf("%s: the client read %q, %v; want the whole first event", face, got, err)
		}
		more := make(chan []byte, 1)
		go func() {
			b := make([]byte, 100)
			n, _ := resp.Body.Read(b)
			more <- b[:n]
		}()
		select {
		case b := <-more:
			t.Fatalf("%s: the client read %q of an event not ended", face, b)
		case <-time.After(100 * time.Millisecond):
		}
		cancel()
		resp.Body.Close()
		select {
		case <-gone:
		case <-time.After(2 * time.Second):
			t.Fatalf("%s: the upstream was not cancelled", face)
		}
		// Cut short, the stream may end with the gateway's error event, and
		// never with the bytes of the event begun.
		if b := <-more; bytes.Contains(b, []byte("content_block_start")) {
			t.Errorf("%s: the client read %q of an event not ended", face, b)
		}
		srv.Close()
		client.CloseIdleConnections()
	}
	checkGoroutines(t, before)
}

// TestUnreadableRequest: a request whose JSON body the gateway cannot read
// (a repeated "stream", which the upstream may read as true) never reaches
// the upstream, through either face.
func TestUnreadableRequest(t *testing.T) {
	for _, face := range []string{"transport", "proxy"} {
		u := newUpstream(t, nil, 0)
		client, base := clientFor(t, face, New(Config{}), u.srv.URL)
		resp, err := client.Post(base+"/v1/messages", "application/json", strings.NewReader(`{"model":"m","stream":false,"stream":true}`))
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode != http.StatusBadGateway {
				t.Errorf("%s: status %d, want the request refused", face, resp.StatusCode)
			}
		}
		select {
		case <-u.done:
			t.Errorf("%s: the upstream got the request", face)
		default:
		}
	}
}

// TestGemini: a Gemini response, streamed (its path says so) or whole,
// through either face: a call its policy allows passes byte for byte; a
// call it skips is replaced, in its part, by a text part holding the
// notice; a call in another candidate is refused.
func TestGemini(t *testing.T) {
	const streamPath = "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse"
	const wholePath = "/v1beta/models/gemini-2.5-flash:generateContent"
	stream := wiretest.DataSSE(
		`{"candidates":[{"content":{"role":"model","parts":[{"text":"Let me look."}]},"index":0}]}`,
		`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"read","args":{"path":"a.go"}}},{"functionCall":{"name":"rm","args":{"path":"/"}}}]},"finishReason":"STOP","index":0}],"usageMetadata":{"totalTokenCount":9}}`)
	whole := `{"candidates":[{"content":{"role":"model","parts":[{"text":"Let me look."},{"functionCall":{"name":"read","args":{"path":"a.go"}}},{"functionCall":{"name":"rm","args":{"path":"/"}}}]},"finishReason":"STOP","index":0}]}`
	yes, skip := mustPolicy(t, `{"run": "unattended"}`), mustPolicy(t, `{"run": "skip"}`)
	allow := New(Config{Policy: func(string) *policy.Policy { return yes }})
	blockRm := New(Config{Policy: func(name string) *policy.Policy {
		if name == "rm" {
			return skip
		}
		return yes
	}})
	for _, face := range []string{"transport", "proxy"} {
		for _, tc := range []struct {
			name, path, body string
			g                *Guard
			want             string // "" for the body unchanged
		}{
			{"stream, allowed", streamPath, stream, allow, ""},
			{"whole, allowed", wholePath, whole, allow, ""},
			{"stream, rm blocked", streamPath, stream, blockRm, wiretest.DataSSE(
				`{"candidates":[{"content":{"role":"model","parts":[{"text":"Let me look."}]},"index":0}]}`,
				`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"read","args":{"path":"a.go"}}},{"text":"NOTICE"}]},"finishReason":"STOP","index":0}],"usageMetadata":{"totalTokenCount":9}}`)},
			{"whole, rm blocked", wholePath, whole, blockRm,
				`{"candidates":[{"content":{"role":"model","parts":[{"text":"Let me look."},{"functionCall":{"name":"read","args":{"path":"a.go"}}},{"text":"NOTICE"}]},"finishReason":"STOP","index":0}]}`},
		} {
			u := newUpstream(t, [][]byte{[]byte(tc.body)}, 0)
			client, base := clientFor(t, face, tc.g, u.srv.URL)
			resp := post(t, client, base+tc.path, `{"contents":[]}`)
			got, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			want := tc.want
			if want == "" {
				want = tc.body
			}
			notice, _ := jsontext.AppendQuote(nil, `[argstream gateway] The call to the tool "rm" (id "") was blocked and did not run: policy rule 0 decided skip.`)
			want = strings.ReplaceAll(want, `"NOTICE"`, string(notice))
			if resp.StatusCode != 200 || string(got) != want {
				t.Errorf("%s, %s: %d\n%s\nwant\n%s", face, tc.name, resp.StatusCode, got, want)
			}
		}
	}
	// The recordings of whole calls pass byte for byte.
	for _, name := range []string{"vercel-ai__google-tool-call.chunks.txt", "vercel-ai__google-tool-call-gemini3.chunks.txt", "vercel-ai__google-reasoning-gemini3.chunks.txt"} {
		chunks, err := os.ReadFile("../wire/geministream/testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := wiretest.SSEFromChunks(chunks, false)
		if err != nil {
			t.Fatal(err)
		}
		u := newUpstream(t, streamEvents(rec), 0)
		client, base := clientFor(t, "proxy", allow, u.srv.URL)
		resp := post(t, client, base+streamPath, `{"contents":[]}`)
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if string(got) != string(rec) {
			t.Errorf("%s: the client read\n%s\nwant\n%s", name, got, rec)
		}
	}
	// Vertex AI's streamed arguments: the call to Boston is held until its
	// location decides it, then left out, its notice in its first part's
	// place; the other call streams through.
	chunks, err := os.ReadFile("../wire/geministream/testdata/vercel-ai__google-stream-tool-call-arguments.chunks.txt")
	if err != nil {
		t.Fatal(err)
	}
	rec, err := wiretest.SSEFromChunks(chunks, false)
	if err != nil {
		t.Fatal(err)
	}
	noBoston := mustPolicy(t, `{"run": [{"arg": "/location", "const": "Boston", "mode": "skip"}, {"mode": "unattended"}]}`)
	g := New(Config{Policy: func(string) *policy.Policy { return noBoston }})
	for _, face := range []string{"transport", "proxy"} {
		u := newUpstream(t, streamEvents(rec), 0)
		client, base := clientFor(t, face, g, u.srv.URL)
		resp := post(t, client, base+streamPath, `{"contents":[]}`)
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		res, text, err := readClient(wire.Gemini, got)
		if err != nil || len(res) != 1 || !res[0].Executable || string(res[0].Arguments) != `{"location":"San Francisco"}` ||
			strings.Count(text, "[argstream gateway]") != 1 || strings.Contains(string(got), "Boston") {
			t.Errorf("%s: vertex: %v, %+v, %q\n%s", face, err, res, text, got)
		}
	}
	// A call in another candidate: refused, through the stream and whole.
	other := `{"candidates":[{"content":{"parts":[{"text":"a"}]},"index":0},{"content":{"parts":[{"functionCall":{"name":"rm","args":{}}}]},"index":1}]}`
	for _, tc := range []struct{ path, body string }{{streamPath, wiretest.DataSSE(other)}, {wholePath, other}} {
		u := newUpstream(t, [][]byte{[]byte(tc.body)}, 0)
		client, base := clientFor(t, "proxy", allow, u.srv.URL)
		resp := post(t, client, base+tc.path, `{"contents":[]}`)
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if strings.Contains(string(got), `"rm"`) {
			t.Errorf("%s: a call in candidate 1 reaches the client: %d\n%s", tc.path, resp.StatusCode, got)
		}
	}
}

// TestOllamaBedrockRefused: the gateway does not judge Ollama's JSON lines
// nor Bedrock's event stream frames: a stream of theirs never reaches the
// client, through either face.
func TestOllamaBedrockRefused(t *testing.T) {
	ollamaCall := `{"model":"m","created_at":"t","message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"rm","arguments":{"path":"/"}}}]},"done":false}` + "\n"
	bedrock, err := os.ReadFile("../wire/bedrockstream/testdata/converse-tool-use.bin")
	if err != nil {
		t.Fatal(err)
	}
	for _, face := range []string{"transport", "proxy"} {
		for _, tc := range []struct{ path, body, call string }{
			{"/api/chat", ollamaCall, `"rm"`},
			{"/model/anthropic.claude-sonnet-4-5/converse-stream", string(bedrock), "read_file"},
		} {
			u := newUpstream(t, [][]byte{[]byte(tc.body)}, 0)
			client, base := clientFor(t, face, New(Config{}), u.srv.URL)
			resp, err := client.Post(base+tc.path, "application/json", strings.NewReader(`{"model":"m","messages":[]}`))
			var got []byte
			if err == nil {
				got, _ = io.ReadAll(resp.Body)
				resp.Body.Close()
			}
			if strings.Contains(string(got), tc.call) {
				t.Errorf("%s %s: the call reaches the client:\n%q", face, tc.path, got)
			}
		}
	}
}
