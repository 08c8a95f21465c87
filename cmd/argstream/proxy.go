package main

// argstream proxy: package guard's gateway as a server, in front of one
// upstream API, with the policies of --rules or --rules-dir, an audit log
// and an admin listener for health and metrics.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/argstream/argstream/dialect"
	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/guard"
	"github.com/argstream/argstream/policy"
	"github.com/argstream/argstream/schema"
)

const proxyUsage = "proxy --upstream URL [--listen ADDR] (--rules RULES.json | --rules-dir DIR) [--ask forward|block] [--dialect NAME [--tools TOOLS.json]] [--audit FILE] [--admin ADDR] [--drain DURATION]"

// The server's timeouts. A response may stream for minutes: none bounds a
// response being written, nor a request body being read (a long context
// is large); the headers of a request and an idle connection are bounded.
const (
	readHeaderTimeout = 10 * time.Second
	idleTimeout       = 2 * time.Minute
)

func runProxy(e env, args []string) int {
	fs := newFlags("proxy")
	upstream := fs.String("upstream", "", "the API to forward to, `URL` (https://api.anthropic.com, https://api.openai.com): a request's path and query are kept")
	listen := fs.String("listen", "127.0.0.1:8787", "the `ADDR` to listen on (host:port; the default is this machine only)")
	rulesFile, rulesDir := rulesFlags(fs)
	ask := fs.String("ask", "forward", "what becomes of a call whose policy decides ask: forward (the agent's own prompt asks) or block")
	audit := fs.String("audit", "", "append one JSON line per call to `FILE` (default: stderr)")
	admin := fs.String("admin", "", "serve /healthz and /metrics (Prometheus's text format) on `ADDR`; off by default")
	dialectName := fs.String("dialect", "", "the upstream is an OpenAI-compatible server whose tool parser is off, serving a model that writes its tool calls in the syntax `NAME` (qwen, xml, caret...): its Chat Completions responses reach the client with tool_calls")
	toolsFile := fs.String("tools", "", "with --dialect: the tools' definitions, `TOOLS.json`, whose JSON Schemas type the calls' values (default: each request's own tools)")
	drain := fs.Duration("drain", 30*time.Second, "on SIGINT or SIGTERM, how long (a `DURATION`: 30s, 2m) the streams in flight may go on before they are cut")
	pos, code, ok := parseFlags(e, fs, proxyUsage, args)
	if !ok {
		return code
	}
	if len(pos) > 0 {
		return usageError(e, fmt.Errorf("proxy takes no file: %q", pos[0]))
	}
	target, err := parseUpstream(*upstream)
	if err != nil {
		return usageError(e, err)
	}
	switch {
	case *rulesFile == "" && *rulesDir == "":
		return usageError(e, errors.New("proxy needs --rules RULES.json or --rules-dir DIR: the policy it enforces"))
	case *rulesFile != "" && *rulesDir != "":
		return usageError(e, errors.New("--rules and --rules-dir exclude each other"))
	case *ask != "forward" && *ask != "block":
		return usageError(e, fmt.Errorf("--ask %s: want forward or block", *ask))
	case *drain < 0:
		return usageError(e, fmt.Errorf("--drain %s: want a duration from 0", *drain))
	}
	var syntax dialect.Syntax
	var tools *schema.Tools
	switch {
	case *dialectName != "":
		if _, err := dialect.ParseSyntax(*dialectName); err != nil {
			return usageError(e, fmt.Errorf("--dialect %s: %w", *dialectName, err))
		}
		if syntax, tools, err = textSyntax(*dialectName, *toolsFile); err != nil {
			return usageError(e, err)
		}
	case *toolsFile != "":
		return usageError(e, errors.New("--tools types the calls of --dialect, which is not given"))
	}
	pols, ok := loadPolicies(e, *rulesFile, *rulesDir)
	if !ok {
		return exitUsage
	}
	stderr := &lockedWriter{w: e.stderr} // the log's and, by default, the audit's
	auditLog := &auditWriter{w: stderr, name: "stderr", errs: stderr, unlisted: pols.unlisted}
	if *audit != "" {
		f, err := os.OpenFile(*audit, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if err != nil {
			return usageError(e, &ioError{*audit, err})
		}
		defer f.Close()
		auditLog.w, auditLog.name = f, *audit
	}

	metrics := &guard.Metrics{}
	g := guard.New(guard.Config{
		Policy:   pols.lookup,
		BlockAsk: *ask == "block",
		Notice: func(c fragment.Call, d policy.Decision, reason string) string {
			if reason == "" && d.Rule == policy.ImplicitRule && pols.unlisted(c.Name) {
				reason = fmt.Sprintf("the rules directory has no policy for this tool, so it is decided %s", d.Mode)
			}
			return guard.DefaultNotice(c, d, reason)
		},
		OnCall: func(r guard.Record) {
			metrics.Call(r)
			auditLog.write(r)
		},
		OnStream: metrics.Stream,
		Dialect:  syntax,
		Tools:    tools,
	})
	logger := log.New(&escapedLog{w: stderr}, "argstream: proxy: ", 0)
	proxy := guard.NewProxy(target, g)
	proxy.ErrorLog = logger
	srv := &http.Server{Handler: proxy, ReadHeaderTimeout: readHeaderTimeout, IdleTimeout: idleTimeout, ErrorLog: logger}

	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		return usageError(e, fmt.Errorf("--listen %s: %w", *listen, err))
	}
	var adminSrv *http.Server
	if *admin != "" {
		aln, err := net.Listen("tcp", *admin)
		if err != nil {
			ln.Close()
			return usageError(e, fmt.Errorf("--admin %s: %w", *admin, err))
		}
		mux := http.NewServeMux()
		mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok\n") })
		mux.Handle("GET /metrics", metrics)
		adminSrv = &http.Server{Handler: mux, ReadHeaderTimeout: readHeaderTimeout, IdleTimeout: idleTimeout, ErrorLog: logger}
		go adminSrv.Serve(aln)
		fmt.Fprintf(e.stdout, "argstream proxy: admin on http://%s (/healthz, /metrics)\n", aln.Addr())
	}
	fmt.Fprintf(e.stdout, "argstream proxy: listening on http://%s, forwarding to %s\n", ln.Addr(), esc(target.String()))
	flushStdout(e)

	stop := make(chan os.Signal, 2)
	signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(stop)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		fmt.Fprintf(stderr, "argstream: proxy: %s\n", esc(err.Error()))
		return exitUsage
	case sig := <-stop:
		fmt.Fprintf(e.stdout, "argstream proxy: %v: draining the streams in flight (at most %s)\n", sig, *drain)
		flushStdout(e)
	}
	// Shutdown stops listening and waits for the responses in flight; a
	// second signal, or the end of --drain, cuts those left.
	ctx, cancel := context.WithTimeout(context.Background(), *drain)
	defer cancel()
	go func() {
		select {
		case <-stop:
			cancel()
		case <-ctx.Done():
		}
	}()
	if adminSrv != nil {
		adminSrv.Close()
	}
	if err := srv.Shutdown(ctx); err != nil {
		srv.Close()
		fmt.Fprintf(e.stdout, "argstream proxy: streams still in flight were cut\n")
	} else {
		fmt.Fprintf(e.stdout, "argstream proxy: drained\n")
	}
	flushStdout(e)
	return exitOK
}

// parseUpstream checks --upstream: an http or https URL with a host, and
// neither query nor fragment (a request's own are kept).
func parseUpstream(s string) (*url.URL, error) {
	if s == "" {
		return nil, errors.New("proxy needs --upstream URL: the API to forward to")
	}
	u, err := url.Parse(s)
	switch {
	case err != nil:
		return nil, fmt.Errorf("--upstream %s: %w", s, err)
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, fmt.Errorf("--upstream %s: want an http or https URL", s)
	case u.Host == "":
		return nil, fmt.Errorf("--upstream %s: no host", s)
	case u.RawQuery != "" || u.Fragment != "" || u.User != nil:
		return nil, fmt.Errorf("--upstream %s: want no query, fragment or user: each request's query is kept", s)
	}
	return u, nil
}

// flushStdout flushes the command's stdout if it is buffered.
func flushStdout(e env) {
	if f, ok := e.stdout.(interface{ Flush() error }); ok {
		f.Flush()
	}
}

// auditWriter writes one JSON line per call to w, from any goroutine, one
// line at a time; the first failure to write is said once on errs. A
// call to a tool that --rules-dir does not list has "unlisted":true, as
// in replay's lines.
type auditWriter struct {
	mu       sync.Mutex
	w        io.Writer
	name     string
	errs     io.Writer
	unlisted func(tool string) bool
	buf      []byte
	failed   bool
}

func (a *auditWriter) write(r guard.Record) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.buf = r.AppendJSON(a.buf[:0]) // one object, and its newline
	if r.Decision.Decided() && a.unlisted(r.Call.Name) {
		a.buf = append(bytes.TrimSuffix(a.buf, []byte("}\n")), `,"unlisted":true}`+"\n"...)
	}
	if _, err := a.w.Write(a.buf); err != nil && !a.failed {
		a.failed = true
		fmt.Fprintf(a.errs, "argstream: proxy: the audit log %s: %s\n", a.name, message(err))
	}
}

// lockedWriter serializes the writes of several goroutines to w.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}

// escapedLog writes the proxy's log lines (upstream errors, which may
// quote what the upstream or a client sent) with what a terminal would
// act on escaped.
type escapedLog struct{ w io.Writer }

func (l *escapedLog) Write(b []byte) (int, error) {
	line := b
	if n := len(line); n > 0 && line[n-1] == '\n' {
		line = line[:n-1]
	}
	_, err := io.WriteString(l.w, esc(string(line))+"\n")
	return len(b), err
}
