// Package upstream is the provider's side of the glue modules' gateway
// tests: an httptest.Server that streams a response body event by event,
// with a pause between events, as a provider does, and reports whether it
// sent the whole body or its client went away first; and the client's
// side: the faces through which an SDK client reaches it (directly,
// through guard.Transport, through guard.NewProxy), each keeping the bytes
// of the response bodies its client read.
package upstream

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/argstream/argstream/guard"
)

// MaxPauses is the most pauses a Server makes in one body.
const MaxPauses = 100

// Served is what the server did with one request.
type Served struct {
	Path string
	// Complete says every event of the body was written; false if the
	// request's context ended first (the gateway cancelled the upstream).
	Complete bool
	Events   int // the events written
	Total    int // the events of the body
}

// Server streams Body to every request, one event per write and flush,
// with a pause of Pause before each event; a body of more than MaxPauses
// events comes in as many bursts, a pause before each, so that a long
// recording takes no longer than a short one.
type Server struct {
	*httptest.Server
	Body   []byte
	Pause  time.Duration
	served chan Served
}

// New starts a server that streams body; it is closed when t ends.
func New(t testing.TB, body []byte, pause time.Duration) *Server {
	s := &Server{Body: body, Pause: pause, served: make(chan Served, 16)}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	io.Copy(io.Discard, r.Body)
	sv := Served{Path: r.URL.Path}
	defer func() { s.served <- sv }()
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	w.(http.Flusher).Flush()
	events := Events(s.Body)
	sv.Total = len(events)
	every := (len(events) + MaxPauses - 1) / MaxPauses
	timer := time.NewTimer(s.Pause)
	defer timer.Stop()
	for i, ev := range events {
		if i%every == 0 {
			timer.Reset(s.Pause)
			select {
			case <-r.Context().Done():
				return
			case <-timer.C:
			}
		} else if r.Context().Err() != nil {
			return
		}
		if _, err := w.Write(ev); err != nil {
			return
		}
		w.(http.Flusher).Flush()
		sv.Events++
	}
	sv.Complete = true
}

// Wait returns what the server did with its next request, once it is done
// with it: a gateway that cancels the upstream must have ended it within
// the timeout.
func (s *Server) Wait(t testing.TB) Served {
	t.Helper()
	select {
	case sv := <-s.served:
		return sv
	case <-time.After(10 * time.Second):
		t.Fatal("upstream: the request was not done with in 10 s")
		return Served{}
	}
}

// Events cuts an SSE body into its events' bytes, each with the blank
// line that ends it; the rest, if the body does not end with one, last.
func Events(body []byte) [][]byte {
	var out [][]byte
	for len(body) > 0 {
		i := bytes.Index(body, []byte("\n\n"))
		if i < 0 {
			return append(out, body)
		}
		out = append(out, body[:i+2])
		body = body[i+2:]
	}
	return out
}

// Recorder is an http.RoundTripper that keeps the bytes of the response
// bodies its client reads. A body closed before its end is read to its end
// first: the SDKs stop reading at their end marker (data: [DONE]), and
// what the gateway sends after it is still what it sent.
type Recorder struct {
	Base http.RoundTripper // nil means http.DefaultTransport

	mu     sync.Mutex
	bodies []*bytes.Buffer
}

// RoundTrip implements http.RoundTripper.
func (r *Recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	base := r.Base
	if base == nil {
		base = http.DefaultTransport
	}
	resp, err := base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	buf := new(bytes.Buffer)
	r.mu.Lock()
	r.bodies = append(r.bodies, buf)
	r.mu.Unlock()
	resp.Body = &teeBody{body: resp.Body, buf: buf, mu: &r.mu}
	return resp, nil
}

// Body returns the bytes of the last response body, read so far.
func (r *Recorder) Body() []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.bodies) == 0 {
		return nil
	}
	return bytes.Clone(r.bodies[len(r.bodies)-1].Bytes())
}

// Responses returns the number of responses the client got.
func (r *Recorder) Responses() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.bodies)
}

type teeBody struct {
	body io.ReadCloser
	buf  *bytes.Buffer
	mu   *sync.Mutex
}

func (b *teeBody) Read(p []byte) (int, error) {
	n, err := b.body.Read(p)
	b.mu.Lock()
	b.buf.Write(p[:n])
	b.mu.Unlock()
	return n, err
}

func (b *teeBody) Close() error {
	rest, _ := io.ReadAll(b.body)
	b.mu.Lock()
	b.buf.Write(rest)
	b.mu.Unlock()
	return b.body.Close()
}

// Face is one way an SDK client reaches the upstream.
type Face struct {
	Name string
	// Client is the SDK's HTTP client (option.WithHTTPClient); its
	// transport records what it reads in Rec.
	Client *http.Client
	// BaseURL is the URL of the upstream's root as the client must name
	// it, with no trailing slash.
	BaseURL string
	Rec     *Recorder
}

// Direct is the face of a client connected to the upstream itself: what
// the gateway's clients are compared with.
func Direct(upstreamURL string) Face {
	rec := &Recorder{}
	return Face{Name: "direct", Client: &http.Client{Transport: rec}, BaseURL: upstreamURL, Rec: rec}
}

// Faces returns the gateway's two faces for a client of the upstream at
// upstreamURL, each judged by g: guard.Transport as the client's
// transport (the bytes recorded are what the Transport returns), and
// guard.NewProxy served by an httptest.Server that the client names in
// place of the upstream (closed when t ends).
func Faces(t testing.TB, g *guard.Guard, upstreamURL string) []Face {
	target, err := url.Parse(upstreamURL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httptest.NewServer(guard.NewProxy(target, g))
	t.Cleanup(proxy.Close)
	tr, px := &Recorder{Base: &guard.Transport{Guard: g}}, &Recorder{}
	return []Face{
		{Name: "transport", Client: &http.Client{Transport: tr}, BaseURL: upstreamURL, Rec: tr},
		{Name: "proxy", Client: &http.Client{Transport: px}, BaseURL: proxy.URL, Rec: px},
	}
}
