package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/argstream/argstream/internal/testutil/wiretest"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire"
	"github.com/argstream/argstream/wire/anthropicstream"
	"github.com/argstream/argstream/wire/openaistream"
)

// A running argstream proxy.
type proxyProc struct {
	cmd    *exec.Cmd
	url    string // http://127.0.0.1:PORT
	admin  string // http://127.0.0.1:PORT, "" without --admin
	stdout *lineLog
	stderr *lineLog
	done   chan error // the process's exit
}

// lineLog collects a process's output, safe to read while it writes.
type lineLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *lineLog) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(b)
}

func (l *lineLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

var (
	listeningLine = regexp.MustCompile(`argstream proxy: listening on (http://\S+), forwarding to `)
	adminLine     = regexp.MustCompile(`argstream proxy: admin on (http://\S+) `)
)

// startProxy runs the command built at bin as argstream proxy args, on a
// port of its choosing, and waits until it listens.
func startProxy(t *testing.T, bin string, args ...string) *proxyProc {
	t.Helper()
	p := &proxyProc{stdout: &lineLog{}, stderr: &lineLog{}, done: make(chan error, 1)}
	p.cmd = exec.Command(bin, append([]string{"proxy", "--listen", "127.0.0.1:0"}, args...)...)
	p.cmd.Stdout, p.cmd.Stderr = p.stdout, p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.done <- p.cmd.Wait() }()
	t.Cleanup(func() {
		p.cmd.Process.Kill()
		<-p.done
	})
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		out := p.stdout.String()
		if m := listeningLine.FindStringSubmatch(out); m != nil {
			p.url = m[1]
			if m := adminLine.FindStringSubmatch(out); m != nil {
				p.admin = m[1]
			}
			return p
		}
		select {
		case err := <-p.done:
			p.done <- err
			t.Fatalf("proxy exited: %v\nstdout %s\nstderr %s", err, p.stdout, p.stderr)
		case <-time.After(10 * time.Millisecond):
		}
	}
	t.Fatalf("proxy does not listen: stdout %s, stderr %s", p.stdout, p.stderr)
	return nil
}

// upstreamOf serves stream, an Anthropic event stream, at /v1/messages,
// an event at a time with pause between events, and records each request's
// path and query.
type upstreamOf struct {
	stream string
	pause  time.Duration
	mu     sync.Mutex
	seen   []string
}

func (u *upstreamOf) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	u.mu.Lock()
	u.seen = append(u.seen, r.URL.RequestURI())
	u.mu.Unlock()
	if r.URL.Path != "/v1/messages" {
		http.Error(w, `{"type":"error","error":{"type":"not_found_error","message":"no such endpoint"}}`, http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	for _, ev := range strings.SplitAfter(u.stream, "\n\n") {
		io.WriteString(w, ev)
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
			return
		case <-time.After(u.pause):
		}
	}
}

// proxyRules is a rules directory: write_file runs unattended under src/,
// and is skipped elsewhere; other tools get ask.
func proxyRules(t *testing.T) string {
	dir := t.TempDir()
	rules := `{"run": [{"arg": "/path", "prefix": "src/", "mode": "unattended"}, {"mode": "skip"}], "paths": ["/path"]}`
	if err := os.WriteFile(filepath.Join(dir, "write_file.json"), []byte(rules), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// post sends an Anthropic streaming request through the proxy at url, and
// returns the response and its body.
func post(t *testing.T, url string) (*http.Response, string) {
	t.Helper()
	resp, err := http.Post(url+"/v1/messages?beta=true", "application/json", strings.NewReader(`{"model":"m","max_tokens":10,"stream":true,"messages":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(body)
}

// auditLines parses the audit log's lines, each a JSON object (no blank
// line between them).
func auditLines(t *testing.T, log string) []map[string]any {
	t.Helper()
	var out []map[string]any
	if log == "" {
		return nil
	}
	for _, line := range lines(log) {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("audit line %q: %v", line, err)
		}
		out = append(out, m)
	}
	return out
}

// argstream proxy, as a newcomer runs it: a call that its policy skips
// never reaches the client, whose stream has the notice in its place; the
// others stream through; the request's path and query reach the upstream;
// the audit log has one line per call; the admin listener answers.
func TestProxyCommand(t *testing.T) {
	bin := buildArgstream(t)
	up := &upstreamOf{stream: anthropicResponse(
		[2]string{"write_file", `{"path": "src/a.go", "content": "package a"}`},
		[2]string{"shell", `{"command": "ls"}`},
		[2]string{"write_file", `{"path": "/etc/passwd", "content": "root::0:0"}`})}
	upstream := httptest.NewServer(up)
	defer upstream.Close()
	audit := filepath.Join(t.TempDir(), "audit.jsonl")
	p := startProxy(t, bin, "--upstream", upstream.URL, "--rules-dir", proxyRules(t), "--audit", audit, "--admin", "127.0.0.1:0")

	resp, body := post(t, p.url)
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("status %d, content type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	// What the client's SDK reads: the first two calls, and the notice in
	// place of the third (the last: the upstream is cancelled then).
	var text strings.Builder
	read := toolcall.New()
	err := anthropicstream.Read(context.Background(), strings.NewReader(body), read, wire.OnText(func(_ int64, b []byte) { text.Write(b) }))
	var calls []string
	for _, r := range read.End() {
		calls = append(calls, fmt.Sprintf("%d %s %s %v", r.Call.Index, r.Call.Name, r.Arguments, r.Executable))
	}
	wantCalls := []string{`0 write_file {"path":"src/a.go","content":"package a"} true`, `1 shell {"command":"ls"} true`}
	if err != nil || !slices.Equal(calls, wantCalls) {
		t.Errorf("the client reads %v, %q; want %q", err, calls, wantCalls)
	}
	notice := `[argstream gateway] The call to the tool "write_file" (id "toolu_2") was blocked and did not run: policy rule 1 decided skip.`
	if text.String() != notice {
		t.Errorf("the client's text %q, want %q", text.String(), notice)
	}
	for _, hidden := range []string{"etc", "passwd", "root"} {
		if strings.Contains(body, hidden) {
			t.Errorf("the blocked call reaches the client (%q):\n%s", hidden, body)
		}
	}
	if got := up.seen; len(got) != 1 || got[0] != "/v1/messages?beta=true" {
		t.Errorf("the upstream saw %q", got)
	}

	// The audit log: one line per call, written when the response ended.
	var records []map[string]any
	for range 100 {
		if b, err := os.ReadFile(audit); err == nil {
			if records = auditLines(t, string(b)); len(records) == 3 {
				break
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	// shell has no file in the rules directory.
	want := []string{"write_file forwarded unattended false <nil>", "shell forwarded ask false true", "write_file blocked skip true <nil>"}
	var got []string
	for _, c := range records {
		got = append(got, fmt.Sprintf("%s %s %s %v %v", c["name"], c["action"], c["mode"], c["upstream_cancelled"], c["unlisted"]))
		if c["wire"] != "anthropic" || c["time"] == nil || c["decided_at_byte"] == nil || c["argument_bytes"] == nil {
			t.Errorf("audit line %v", c)
		}
	}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("audit: %q, want %q", got, want)
	}

	// Other endpoints and error statuses pass unchanged.
	r, err := http.Get(p.url + "/v1/models")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(r.Body)
	r.Body.Close()
	if r.StatusCode != http.StatusNotFound || !strings.Contains(string(b), "not_found_error") {
		t.Errorf("another endpoint: %d %s", r.StatusCode, b)
	}

	// The admin listener.
	if p.admin == "" {
		t.Fatalf("no admin line: %s", p.stdout)
	}
	for path, want := range map[string]string{"/healthz": "ok\n", "/metrics": `argstream_calls_total{tool="write_file",action="blocked"} 1`} {
		r, err := http.Get(p.admin + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(r.Body)
		r.Body.Close()
		if r.StatusCode != http.StatusOK || !strings.Contains(string(b), want) {
			t.Errorf("admin %s: %d\n%s\nwant %q", path, r.StatusCode, b, want)
		}
	}
	if s := p.stderr.String(); s != "" {
		t.Errorf("stderr: %s", s)
	}
}

// Without --audit, the audit lines go to stderr, one JSON line per call;
// --ask block blocks what the policy asks for.
func TestProxyAuditOnStderrAskBlock(t *testing.T) {
	bin := buildArgstream(t)
	upstream := httptest.NewServer(&upstreamOf{stream: anthropicResponse([2]string{"shell", `{"command": "rm -rf /"}`})})
	defer upstream.Close()
	p := startProxy(t, bin, "--upstream", upstream.URL, "--rules-dir", proxyRules(t), "--ask", "block")
	_, body := post(t, p.url)
	if strings.Contains(body, "rm -rf") || !strings.Contains(body, "the rules directory has no policy for this tool, so it is decided ask") {
		t.Errorf("the client's stream:\n%s", body)
	}
	var calls []map[string]any
	for range 100 {
		if calls = auditLines(t, p.stderr.String()); len(calls) == 1 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if len(calls) != 1 || calls[0]["action"] != "blocked" || calls[0]["name"] != "shell" || calls[0]["upstream_cancelled"] != true ||
		calls[0]["mode"] != "ask" || calls[0]["unlisted"] != true {
		t.Errorf("audit on stderr: %v", calls)
	}
}

// SIGTERM lets a stream in flight end, then the command exits 0; a new
// connection is refused meanwhile.
func TestProxyDrainsOnSIGTERM(t *testing.T) {
	bin := buildArgstream(t)
	up := &upstreamOf{stream: anthropicResponse([2]string{"write_file", `{"path": "src/a.go", "content": "package a"}`}), pause: 50 * time.Millisecond}
	upstream := httptest.NewServer(up)
	defer upstream.Close()
	p := startProxy(t, bin, "--upstream", upstream.URL, "--rules-dir", proxyRules(t))
	resp, err := http.Post(p.url+"/v1/messages", "application/json", strings.NewReader(`{"stream":true}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	br := bufio.NewReader(resp.Body)
	if _, err := br.ReadString('\n'); err != nil { // the stream has begun
		t.Fatal(err)
	}
	p.cmd.Process.Signal(syscall.SIGTERM)
	rest, err := io.ReadAll(br)
	if err != nil || !strings.Contains(string(rest), "message_stop") {
		t.Errorf("the stream in flight after SIGTERM: %v\n%s", err, rest)
	}
	select {
	case err := <-p.done:
		p.done <- err
		if err != nil {
			t.Errorf("exit: %v; stdout %s; stderr %s", err, p.stdout, p.stderr)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the proxy does not exit after SIGTERM")
	}
	if !strings.Contains(p.stdout.String(), "drained") {
		t.Errorf("stdout: %s", p.stdout)
	}
}

// The command line's errors, each said before anything listens.
func TestProxyUsage(t *testing.T) {
	rules := proxyRules(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--rules-dir", rules}, "proxy needs --upstream URL"},
		{[]string{"--upstream", "http://127.0.0.1:1"}, "proxy needs --rules RULES.json or --rules-dir DIR"},
		{[]string{"--upstream", "ftp://x", "--rules-dir", rules}, "want an http or https URL"},
		{[]string{"--upstream", "http://x?a=1", "--rules-dir", rules}, "want no query"},
		{[]string{"--upstream", "http://x", "--rules-dir", rules, "--ask", "maybe"}, "--ask maybe: want forward or block"},
		{[]string{"--upstream", "http://x", "--rules-dir", rules, "--rules", "r.json"}, "exclude each other"},
		{[]string{"--upstream", "http://x", "--rules-dir", filepath.Join(rules, "none")}, "no such file or directory"},
		{[]string{"--upstream", "http://x", "--rules-dir", rules, "--listen", "256.0.0.1:1"}, "--listen 256.0.0.1:1"},
		{[]string{"--upstream", "http://x", "--rules-dir", rules, "extra"}, "proxy takes no file"},
		{[]string{"--upstream", "http://x", "--rules-dir", rules, "--dialect", "qwen3"}, `--dialect qwen3: dialect: unknown syntax "qwen3"`},
		{[]string{"--upstream", "http://x", "--rules-dir", rules, "--dialect", "json"}, `--dialect json: dialect: unknown syntax`},
		{[]string{"--upstream", "http://x", "--rules-dir", rules, "--tools", "t.json"}, "--tools types the calls of --dialect"},
		{[]string{"--upstream", "http://x", "--rules-dir", rules, "--dialect", "qwen", "--tools", filepath.Join(rules, "none.json")}, "no such file or directory"},
	} {
		var out, errOut bytes.Buffer
		code := run(append([]string{"proxy"}, c.args...), env{stdout: &out, stderr: &errOut})
		if code != exitUsage || !strings.Contains(errOut.String(), c.want) {
			t.Errorf("%q: exit %d, stderr %q, want %q", c.args, code, errOut.String(), c.want)
		}
	}
}

// argstream proxy --dialect qwen, in front of a server that sends a
// Qwen3-Coder model's raw text: the client reads tool_calls, typed by the
// request's tools, judged by the rules (the call its policy skips is a
// notice); a Messages request is refused.
func TestProxyDialect(t *testing.T) {
	bin := buildArgstream(t)
	text := "Writing both.\n" + qwenWrite("src/a.go", "package a") + qwenWrite("/etc/passwd", "root::0:0")
	var chunks []string
	for i := 0; i < len(text); i += 5 {
		chunks = append(chunks, text[i:min(i+5, len(text))])
	}
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" {
			http.Error(w, "no", http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, wiretest.DataSSE(wiretest.RawChat(chunks, "stop")...))
	}))
	defer upstream.Close()
	p := startProxy(t, bin, "--upstream", upstream.URL, "--rules-dir", proxyRules(t), "--dialect", "qwen")
	tools := `[{"type":"function","function":{"name":"write_file","parameters":{"properties":{"path":{"type":"string"},"content":{"type":"string"}}}}}]`
	resp, err := http.Post(p.url+"/v1/chat/completions", "application/json", strings.NewReader(`{"model":"m","stream":true,"messages":[],"tools":`+tools+`}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var content strings.Builder
	read := toolcall.New()
	err = openaistream.ReadChat(context.Background(), bytes.NewReader(body), read, wire.OnText(func(_ int64, b []byte) { content.Write(b) }))
	var calls []string
	for _, r := range read.End() {
		calls = append(calls, fmt.Sprintf("%d %s %s %v", r.Call.Index, r.Call.Name, r.Arguments, r.Executable))
	}
	want := []string{`0 write_file {"path":"src/a.go","content":"package a"} true`}
	if err != nil || !slices.Equal(calls, want) {
		t.Errorf("the client reads %v, %q; want %q\n%s", err, calls, want, body)
	}
	if c := content.String(); !strings.HasPrefix(c, "Writing both.\n") || !strings.Contains(c, `The call to the tool "write_file"`) || strings.Contains(string(body), "passwd") {
		t.Errorf("the client's content %q", c)
	}
	resp, err = http.Post(p.url+"/v1/messages", "application/json", strings.NewReader(`{"model":"m","stream":true,"messages":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadGateway {
		t.Errorf("a Messages request: %d", resp.StatusCode)
	}
}

// qwenWrite is a write_file call as Qwen3-Coder writes it.
func qwenWrite(path, content string) string {
	return "<tool_call>\n<function=write_file>\n<parameter=path>\n" + path + "\n</parameter>\n<parameter=content>\n" + content + "\n</parameter>\n</function>\n</tool_call>\n"
}
