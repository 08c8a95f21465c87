package guard

// This file is structured in the following way:
//
//   - exchange: what the gateway knows of one request (its wire, whether
//     the client's SDK reads the response as a stream), and judge, which
//     replaces a response's body with the judged one: the one place the
//     two faces below share;
//   - Transport, the http.RoundTripper face;
//   - NewProxy, the http.Handler face, an httputil.ReverseProxy.

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/argstream/argstream/schema"
	"github.com/argstream/argstream/toolparser"
	"github.com/argstream/argstream/wire"
	"github.com/argstream/argstream/wire/sse"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// MaxRequestBody is the largest request body the gateway reads to learn
// whether the client asked for a stream. A larger request is refused.
const MaxRequestBody = 64 << 20

// MaxResponseBody is the largest body of a response that is not a stream
// the gateway reads to judge it. A larger one is refused.
const MaxResponseBody = 64 << 20

// exchange is what the gateway knows of one request.
type exchange struct {
	kind   wire.Kind // by the path; Unknown if the path does not say
	model  bool      // the request is a model call: a JSON object with a "model"
	stream bool      // its "stream" is true: the client's SDK reads an event stream
	// opaque: the request's body is in an encoding the gateway cannot
	// decode (zstd, as Codex sends), so the response says what it is.
	opaque bool
	cancel context.CancelFunc
	// tools types the calls of a model's text (Config.Dialect): the
	// Config's Tools, or the request's own.
	tools *schema.Tools
}

// judged reports whether the response must be judged.
func (x *exchange) judged() bool { return x.kind != wire.Unknown || x.model || x.opaque }

// newExchange reads req's body, leaving it readable again, and learns what
// the client asked for. The SDKs decide to read a stream from their request
// ("stream": true), not from the response's headers: so does the gateway.
func (g *Guard) newExchange(req *http.Request) (*exchange, error) {
	if up := req.Header.Get("Upgrade"); up != "" {
		// A WebSocket (the Realtime API, the Responses API's WebSocket
		// mode) carries tool calls in messages the gateway does not read:
		// refused, so that the client falls back to a stream, or fails.
		return nil, fmt.Errorf("guard: a request to switch to the protocol %q, whose messages the gateway cannot judge", up)
	}
	x := &exchange{kind: wire.OfPath(req.URL.Path)}
	if x.kind == wire.Gemini {
		// Gemini streams by its path, not by its request's body.
		x.stream = strings.Contains(strings.ToLower(req.URL.Path), ":streamgeneratecontent")
	}
	if req.Body == nil || req.Body == http.NoBody {
		return x, g.checkDialect(x, nil)
	}
	body, err := io.ReadAll(io.LimitReader(req.Body, MaxRequestBody+1))
	req.Body.Close()
	if err != nil {
		return nil, fmt.Errorf("guard: reading the request: %w", err)
	}
	if len(body) > MaxRequestBody {
		return nil, fmt.Errorf("guard: a request body over %d bytes", MaxRequestBody)
	}
	req.Body = io.NopCloser(bytes.NewReader(body))
	req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	req.ContentLength = int64(len(body))
	// The body is forwarded as it came, but read decoded: a compressed
	// request is as much a model's request as a plain one.
	plain, err := decodeRequest(req.Header.Get("Content-Encoding"), body)
	if errors.Is(err, errEncoding) {
		x.opaque = true
		return x, g.checkDialect(x, nil)
	}
	if err != nil {
		return nil, err
	}
	var v struct {
		Model  jsontext.Value `json:"model"`
		Stream jsontext.Value `json:"stream"`
		Tools  jsontext.Value `json:"tools"`
	}
	err = json.Unmarshal(plain, &v, json.RejectUnknownMembers(false))
	if err != nil && bytes.HasPrefix(bytes.TrimLeft(plain, " \t\r\n"), []byte("{")) {
		// A JSON object the gateway cannot read (a repeated member, invalid
		// UTF-8) may be read otherwise upstream: as asking for a stream, or
		// as a model's request on a path the gateway does not know.
		return nil, fmt.Errorf("guard: a request body the gateway cannot read: %w", err)
	}
	if err == nil {
		x.model = v.Model != nil
		x.stream = x.stream || string(v.Stream) == "true"
	}
	return x, g.checkDialect(x, v.Tools)
}

// checkDialect refuses, when the gateway reads tool calls in a model's
// text (Config.Dialect), a request it would judge that is not one of Chat
// Completions, and learns the tools that type the calls: Config.Tools, or
// the request's own tools (a JSON array, not yet parsed).
func (g *Guard) checkDialect(x *exchange, tools jsontext.Value) error {
	if g.cfg.Dialect == 0 || !x.judged() {
		return nil
	}
	if x.kind != wire.OpenAIChat || x.opaque {
		return fmt.Errorf("guard: the gateway reads the tool calls of %s text in Chat Completions (a path ending /chat/completions, a body it can read) only, not in this request", g.cfg.Dialect)
	}
	x.tools = g.cfg.Tools
	if x.tools == nil && tools.Kind() == '[' {
		var err error
		if x.tools, err = schema.Parse(tools); err != nil {
			return fmt.Errorf("guard: the request's tools, which type the calls in the model's text: %w", err)
		}
	}
	return nil
}

// errEncoding is a content encoding that the gateway cannot decode.
var errEncoding = errors.New("guard: a content encoding the gateway cannot decode")

// decoder returns a reader of r decoded from the content encoding enc, or
// nil for none ("" or identity), or an error wrapping errEncoding for an
// encoding the gateway cannot decode; whose names the body, for errors.
func decoder(enc string, r io.Reader, whose string) (io.Reader, error) {
	switch enc = strings.ToLower(strings.TrimSpace(enc)); enc {
	case "", "identity":
		return nil, nil
	case "gzip", "x-gzip":
		zr, err := gzip.NewReader(r)
		if err != nil {
			return nil, fmt.Errorf("guard: the %s's gzip: %w", whose, err)
		}
		return zr, nil
	case "deflate": // zlib's format (RFC 9110, 8.4.1.2)
		zr, err := zlib.NewReader(r)
		if err != nil {
			return nil, fmt.Errorf("guard: the %s's deflate: %w", whose, err)
		}
		return zr, nil
	}
	return nil, fmt.Errorf("%w: the %s's %q", errEncoding, whose, enc)
}

// decodeRequest returns a request body decoded from its Content-Encoding
// enc, for the gateway to read: errEncoding for an encoding it cannot
// decode.
func decodeRequest(enc string, body []byte) ([]byte, error) {
	zr, err := decoder(enc, bytes.NewReader(body), "request")
	if zr == nil || err != nil {
		return body, err
	}
	plain, err := io.ReadAll(io.LimitReader(zr, MaxRequestBody+1))
	if err != nil {
		return nil, fmt.Errorf("guard: the request's %s: %w", enc, err)
	}
	if len(plain) > MaxRequestBody {
		return nil, fmt.Errorf("guard: a request body over %d bytes decoded", MaxRequestBody)
	}
	return plain, nil
}

// prepare readies the outgoing request of a judged exchange: a response the
// gateway reads must come uncompressed, or compressed in a way it can read
// (Go's transport asks for gzip and decodes it itself when the request
// names no encoding).
func (x *exchange) prepare(out *http.Request) {
	if x.judged() {
		out.Header.Del("Accept-Encoding")
	}
}

// judge replaces the body of resp, the response to the exchange, with the
// one the client reads: judged while it streams, or whole. Responses that
// are not judged pass unchanged: other endpoints, error statuses.
func (g *Guard) judge(x *exchange, resp *http.Response) error {
	if !x.judged() || resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil
	}
	if err := decodeBody(resp); err != nil {
		return err
	}
	if x.opaque {
		// The request could not be read: the response's type says how
		// the client reads it. A body that is not what its type says fails
		// to parse, and is refused: either way nothing passes unjudged.
		mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
		x.stream = mt == "text/event-stream"
	}
	if x.stream {
		if g.cfg.Dialect != 0 {
			// The calls in the text become tool_calls, which the Chat
			// Completions filter then judges as a provider's.
			resp.Body = toolparser.Stream(g.cfg.Dialect, resp.Body, toolparser.WithTools(x.tools))
		}
		return g.judgeStream(x, resp)
	}
	return g.judgeWhole(x, resp)
}

// decodeBody makes resp's body plain: a gzip or deflate body is decoded,
// and any other encoding refused, since the gateway must read what the
// client's SDK reads.
func decodeBody(resp *http.Response) error {
	zr, err := decoder(resp.Header.Get("Content-Encoding"), resp.Body, "response")
	if zr == nil || err != nil {
		return err
	}
	resp.Body = readCloser{zr, resp.Body}
	resp.Header.Del("Content-Encoding")
	resp.Header.Del("Content-Length")
	resp.ContentLength = -1
	resp.Uncompressed = true
	return nil
}

type readCloser struct {
	io.Reader
	io.Closer
}

// judgeStream filters a stream: the wire is the path's or, if the path
// does not say, the first events' (a stream the gateway cannot tell is
// refused).
func (g *Guard) judgeStream(x *exchange, resp *http.Response) error {
	kind := x.kind
	body := resp.Body
	if kind == wire.Unknown {
		var head []byte
		kind, head = sniff(body)
		if kind == wire.Unknown {
			return errors.New("guard: a streamed response of no wire the gateway reads")
		}
		body = readCloser{io.MultiReader(bytes.NewReader(head), body), body}
	}
	cancel := func() {}
	if x.cancel != nil {
		cancel = x.cancel
	}
	resp.Body = g.Filter(kind, body, cancel)
	resp.Header.Del("Content-Length")
	resp.ContentLength = -1
	return nil
}

// sniff reads the first events of a stream until one tells its wire, and
// returns the wire and the bytes read.
func sniff(body io.Reader) (wire.Kind, []byte) {
	var buf bytes.Buffer
	rd := sse.NewReader(io.TeeReader(body, &buf))
	for n := 0; n < 16 && rd.Next(); n++ {
		if k := wire.OfEvent(rd.Event()); k != wire.Unknown {
			return k, buf.Bytes()
		}
	}
	return wire.Unknown, buf.Bytes()
}

// judgeWhole judges a response that is not a stream, whole.
func (g *Guard) judgeWhole(x *exchange, resp *http.Response) error {
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxResponseBody+1))
	resp.Body.Close()
	if err != nil {
		return fmt.Errorf("guard: reading the response: %w", err)
	}
	if len(body) > MaxResponseBody {
		return fmt.Errorf("guard: a response over %d bytes", MaxResponseBody)
	}
	if g.cfg.Dialect != 0 {
		if body, err = toolparser.Whole(g.cfg.Dialect, body, toolparser.WithTools(x.tools)); err != nil {
			return fmt.Errorf("guard: %w", err)
		}
	}
	out, err := g.Whole(x.kind, body)
	if err != nil {
		return err
	}
	resp.Body = io.NopCloser(bytes.NewReader(out))
	resp.ContentLength = int64(len(out))
	resp.Header.Set("Content-Length", strconv.Itoa(len(out)))
	return nil
}

// Transport is an [http.RoundTripper] that judges the tool calls of the
// responses it carries, as Filter and Whole do: a Go program that uses an
// official SDK gives it to its client (option.WithHTTPClient(&http.Client{
// Transport: &guard.Transport{Guard: g}})) and needs no other glue. The
// wire is told by the request's path, or by the response.
//
// A Transport is safe for concurrent use.
type Transport struct {
	Guard *Guard
	// Base carries the requests; nil means http.DefaultTransport.
	Base http.RoundTripper
}

// RoundTrip implements [http.RoundTripper].
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	base := t.Base
	if base == nil {
		base = http.DefaultTransport
	}
	out := req.Clone(req.Context())
	x, err := t.Guard.newExchange(out)
	if err != nil {
		return nil, err
	}
	if !x.judged() {
		return base.RoundTrip(out)
	}
	x.prepare(out)
	ctx, cancel := context.WithCancel(req.Context())
	x.cancel = cancel
	resp, err := base.RoundTrip(out.WithContext(ctx))
	if err != nil {
		cancel()
		return nil, err
	}
	if err := t.Guard.judge(x, resp); err != nil {
		cancel()
		resp.Body.Close()
		return nil, err
	}
	if resp.Body == nil || !x.stream {
		cancel()
	}
	return resp, nil
}

// exchangeKey is the context key of a proxied request's exchange.
type exchangeKey struct{}

// NewProxy returns an [http.Handler] that forwards each request to upstream,
// its path and query kept (POST /v1/messages goes to upstream's
// /v1/messages, under upstream's own path if it has one), and judges the
// responses as [Transport] does. It is an [httputil.ReverseProxy]: hop-by-hop
// headers are removed, event streams are flushed as they are written, the
// upstream request ends with the client's. Its fields may be changed before
// it serves: ErrorHandler (a request or response the gateway refuses, an
// upstream that cannot be reached: a 502 by default), Transport (the
// upstream's: by default [http.DefaultTransport]'s settings with 256 idle
// connections kept), BufferPool (8 KiB copy buffers), ErrorLog.
func NewProxy(upstream *url.URL, g *Guard) *httputil.ReverseProxy {
	return &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(upstream)
			pr.Out.Host = ""
			x, err := g.newExchange(pr.Out)
			if err != nil {
				// The request is refused: its body is gone, and the
				// upstream must not get it, not even its headers. A
				// request whose context is done is never sent: the
				// transport fails it with its cause, which ErrorHandler
				// gets.
				ctx, cancel := context.WithCancelCause(pr.Out.Context())
				cancel(err)
				pr.Out.Body = errorBody{err}
				pr.Out = pr.Out.WithContext(context.WithValue(ctx, exchangeKey{}, &exchange{}))
				return
			}
			x.prepare(pr.Out)
			ctx, cancel := context.WithCancel(pr.Out.Context())
			x.cancel = cancel
			pr.Out = pr.Out.WithContext(context.WithValue(ctx, exchangeKey{}, x))
		},
		ModifyResponse: func(resp *http.Response) error {
			x, _ := resp.Request.Context().Value(exchangeKey{}).(*exchange)
			if x == nil {
				return errors.New("guard: a response to no known request")
			}
			return g.judge(x, resp)
		},
		FlushInterval: -1,
		// A stream's copy buffer is most of what an open stream holds:
		// 8 KiB, not the default 32, keeps a stream's memory near its
		// events'. The upstream's connections are kept, many at once: every
		// request goes to one host.
		BufferPool: &bufferPool{},
		Transport:  upstreamTransport(),
	}
}

// upstreamTransport is http.DefaultTransport's settings, with more idle
// connections kept per host than its 2, which a proxy of many streams to
// one host would otherwise dial again and again. Nothing bounds the wait
// for a response's headers: a response that is not a stream comes whole,
// after the model has written all of it.
func upstreamTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = 256
	return t
}

// bufferPool is the proxy's copy buffers, 8 KiB each.
type bufferPool struct{ p sync.Pool }

func (b *bufferPool) Get() []byte {
	if buf, ok := b.p.Get().(*[]byte); ok {
		return *buf
	}
	return make([]byte, 8<<10)
}

func (b *bufferPool) Put(buf []byte) { b.p.Put(&buf) }

// errorBody is a request body that fails with err.
type errorBody struct{ err error }

func (b errorBody) Read([]byte) (int, error) { return 0, b.err }
func (b errorBody) Close() error             { return nil }
