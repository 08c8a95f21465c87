// Package replay answers the SDK clients of the glue modules' examples and tests
// with the recorded streams of testdata/llm_streams, as the provider's
// server would have: each request gets one recorded response body, as a
// text/event-stream, a few events per read, until the request's context
// ends.
package replay

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
)

// Dir returns the directory of the recordings, testdata/llm_streams of
// the argstream repository, found from the working directory up (go test
// runs a package's tests in its directory).
func Dir() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		d := filepath.Join(dir, "testdata", "llm_streams")
		if _, err := os.Stat(filepath.Join(d, "INDEX.md")); err == nil {
			return d, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("replay: no testdata/llm_streams above the working directory")
		}
		dir = parent
	}
}

// Wire is the API a recording speaks.
type Wire int

const (
	Unknown   Wire = iota
	Anthropic      // Anthropic Messages
	Chat           // OpenAI Chat Completions (and compatible servers)
	Responses      // OpenAI Responses
)

func (w Wire) String() string {
	switch w {
	case Anthropic:
		return "anthropic"
	case Chat:
		return "chat"
	case Responses:
		return "responses"
	}
	return "unknown"
}

// Files returns the names of the recordings of Dir() (*.sse and
// *.chunks.txt) that speak wire, sorted.
func Files(wire Wire) ([]string, error) {
	dir, err := Dir()
	if err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(dir) // sorted by name
	if err != nil {
		return nil, err
	}
	var files []string
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !(strings.HasSuffix(name, ".sse") || strings.HasSuffix(name, ".chunks.txt")) {
			continue
		}
		bodies, err := Bodies(name)
		if err != nil {
			return nil, err
		}
		if WireOf(bodies[0]) == wire {
			files = append(files, name)
		}
	}
	return files, nil
}

// WireOf tells the wire of a response body by its first data payload.
func WireOf(body []byte) Wire {
	for _, line := range strings.Split(string(body), "\n") {
		data, ok := strings.CutPrefix(line, "data:")
		if !ok {
			continue
		}
		var v struct {
			Type   string `json:"type"`
			Object string `json:"object"`
		}
		if json.Unmarshal([]byte(data), &v) != nil {
			return Unknown
		}
		switch {
		case v.Type == "message_start":
			return Anthropic
		case v.Object == "chat.completion.chunk":
			return Chat
		case strings.HasPrefix(v.Type, "response."):
			return Responses
		}
		return Unknown
	}
	return Unknown
}

// Bodies reads the recording file of Dir() and returns the response bodies
// it holds, each an SSE stream as the server sent it.
//
// A *.sse recording is SSE text already; pydantic-ai's hold several HTTP
// interactions, each begun by a comment line ": interaction N (uri)", and
// are split there. A *.chunks.txt recording (vercel/ai) has one data
// payload per line, the framing stripped: each line is framed again as an
// event, with the "event:" line the API sends (named by the payload's
// "type", where it has one: the Anthropic SDK skips events without it), and
// a new body begins at each message_start or response.created after the
// first, since vercel/ai recorded the responses of a multi-step run one
// after another.
func Bodies(file string) ([][]byte, error) {
	dir, err := Dir()
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(filepath.Join(dir, file))
	if err != nil {
		return nil, err
	}
	var bodies [][]byte
	if strings.HasSuffix(file, ".chunks.txt") {
		bodies, err = frameChunks(b)
	} else {
		bodies = splitInteractions(b)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if len(bodies) == 0 {
		return nil, fmt.Errorf("%s: no response in the recording", file)
	}
	return bodies, nil
}

func splitInteractions(b []byte) [][]byte {
	var bodies [][]byte
	for {
		i := bytes.Index(b[1:], []byte("\n: interaction "))
		if i < 0 {
			return append(bodies, b)
		}
		bodies = append(bodies, b[:i+2])
		b = b[i+2:]
	}
}

func frameChunks(chunks []byte) ([][]byte, error) {
	var bodies [][]byte
	var body bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(chunks))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		line := sc.Bytes()
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var v struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal(line, &v); err != nil {
			return nil, fmt.Errorf("decoding %q: %w", line, err)
		}
		if (v.Type == "message_start" || v.Type == "response.created") && body.Len() > 0 {
			bodies = append(bodies, bytes.Clone(body.Bytes()))
			body.Reset()
		}
		if v.Type != "" {
			body.WriteString("event: " + v.Type + "\n")
		}
		body.WriteString("data: ")
		body.Write(line)
		body.WriteString("\n\n")
	}
	if body.Len() > 0 {
		bodies = append(bodies, body.Bytes())
	}
	return bodies, sc.Err()
}

// Client returns an HTTP client that answers every request with body n
// (from 0) of the recording file (see Bodies), with status 200 and
// Content-Type text/event-stream. The body's reads return at most one
// event each, as a server that streams would, and fail with the request
// context's error once it has ended, as net/http's do: cancelling the
// request stops the stream. An unreadable recording is the client's error.
func Client(file string, n int) *http.Client {
	return &http.Client{Transport: transport{file, n}}
}

type transport struct {
	file string
	n    int
}

func (t transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		req.Body.Close()
	}
	bodies, err := Bodies(t.file)
	if err != nil {
		return nil, err
	}
	if t.n < 0 || t.n >= len(bodies) {
		return nil, fmt.Errorf("replay: %s has %d responses, not %d", t.file, len(bodies), t.n+1)
	}
	return &http.Response{
		Status:     "200 OK",
		StatusCode: http.StatusOK,
		Proto:      "HTTP/1.1",
		ProtoMajor: 1,
		ProtoMinor: 1,
		Header:     http.Header{"Content-Type": {"text/event-stream"}},
		Body:       &body{ctx: req.Context(), rest: bodies[t.n]},
		Request:    req,
	}, nil
}

// body reads one event at most per Read, and fails with its context's
// error once the context has ended.
type body struct {
	ctx  context.Context
	rest []byte
}

func (b *body) Read(p []byte) (int, error) {
	if err := b.ctx.Err(); err != nil {
		return 0, err
	}
	if len(b.rest) == 0 {
		return 0, io.EOF
	}
	n := len(b.rest)
	if i := bytes.Index(b.rest, []byte("\n\n")); i >= 0 {
		n = i + 2
	}
	n = copy(p, b.rest[:n])
	b.rest = b.rest[n:]
	return n, nil
}

func (b *body) Close() error {
	b.rest = nil
	return nil
}
