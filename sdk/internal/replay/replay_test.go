package replay

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFiles: every recording has its wire, and the numbers of each are
// those of INDEX.md.
func TestFiles(t *testing.T) {
	for wire, want := range map[Wire]int{Anthropic: 10, Chat: 6, Responses: 4, Unknown: 0} {
		files, err := Files(wire)
		if err != nil {
			t.Fatal(err)
		}
		if len(files) != want {
			t.Errorf("%v: %d recordings, want %d: %v", wire, len(files), want, files)
		}
	}
}

// TestBodies: the responses a recording is split into are its content,
// whole, in order; the chunk recordings' lines are framed as events.
func TestBodies(t *testing.T) {
	for file, want := range map[string]int{
		"vercel-ai__anthropic__anthropic-programmatic-tool-calling.1.chunks.txt":           15,
		"vercel-ai__anthropic__anthropic-tool-search-deferred-regex.chunks.txt":            3,
		"vercel-ai__openai__responses__openai-reasoning-encrypted-content.1.chunks.txt":    4,
		"pydantic-ai__cassettes__test_openai__test_run_stream_sync_streams_real_model.sse": 2,
		"openai-python__test_parse_multiple_pydantic_tools__f82268f2.sse":                  1,
	} {
		bodies, err := Bodies(file)
		if err != nil {
			t.Fatal(err)
		}
		if len(bodies) != want {
			t.Errorf("%s: %d responses, want %d", file, len(bodies), want)
		}
		dir, err := Dir()
		if err != nil {
			t.Fatal(err)
		}
		raw, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		joined := bytes.Join(bodies, nil)
		if strings.HasSuffix(file, ".sse") {
			if !bytes.Equal(joined, raw) {
				t.Errorf("%s: the responses are not the recording", file)
			}
			continue
		}
		var lines []string
		sc := bufio.NewScanner(bytes.NewReader(joined))
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				lines = append(lines, d)
			}
		}
		if got := strings.Join(lines, "\n"); got != strings.TrimSpace(string(raw)) {
			t.Errorf("%s: the data of the responses are not the recording's lines", file)
		}
		for i, b := range bodies {
			if !bytes.HasPrefix(b, []byte("event: ")) || !bytes.HasSuffix(b, []byte("\n\n")) {
				t.Errorf("%s: response %d is not framed as events: %.40q", file, i, b)
			}
		}
	}
}

// TestClient: a response is the body asked for, one event per read at
// most, and its reads fail once the request's context is cancelled.
func TestClient(t *testing.T) {
	const file = "vercel-ai__anthropic__anthropic-tool-search-deferred-regex.chunks.txt"
	bodies, err := Bodies(file)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://api.invalid/v1/messages", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Client(file, 1).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("status %d, content type %q", res.StatusCode, res.Header.Get("Content-Type"))
	}
	buf := make([]byte, 1<<20)
	n, err := res.Body.Read(buf)
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := bytes.Cut(bodies[1], []byte("\n\n"))
	if got := string(buf[:n]); got != string(first)+"\n\n" {
		t.Errorf("first read %q, want the first event, %q", got, first)
	}
	cancel()
	if _, err := res.Body.Read(buf); !errors.Is(err, context.Canceled) {
		t.Errorf("read after cancel: %v, want context.Canceled", err)
	}

	res2, err := Client(file, 3).Get("https://api.invalid/")
	if err == nil {
		res2.Body.Close()
		t.Error("response 3 of 3: no error")
	}
	res3, err := Client(file, 2).Get("https://api.invalid/")
	if err != nil {
		t.Fatal(err)
	}
	all, err := io.ReadAll(res3.Body)
	res3.Body.Close()
	if err != nil || !bytes.Equal(all, bodies[2]) {
		t.Errorf("response 2: %v, body equal: %v", err, bytes.Equal(all, bodies[2]))
	}
}
