package ollamasdk_test

import (
	"bytes"
	"context"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/argstream/argstream/sdk/internal/check"
	"github.com/argstream/argstream/sdk/ollamasdk"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire/ollamastream"
	"github.com/ollama/ollama/api"
)

// server answers POST /api/chat with body, as Ollama streams it
// (application/x-ndjson), in pieces of 1 to 64 bytes at random, each
// flushed: a line reaches the client in several reads, or several lines
// in one. Any other request fails the test.
func server(t testing.TB, body []byte, seed uint64) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req, err := io.ReadAll(r.Body)
		if r.Method != http.MethodPost || r.URL.Path != "/api/chat" || err != nil || !bytes.Contains(req, []byte(`"messages"`)) {
			t.Errorf("request %s %s %q (%v)", r.Method, r.URL.Path, req, err)
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/x-ndjson")
		rng := rand.New(rand.NewPCG(seed, 1))
		for b := body; len(b) > 0; {
			n := min(len(b), 1+rng.IntN(64))
			if _, err := w.Write(b[:n]); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			b = b[n:]
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// viaSDK serves body to an api.Client, feeds the responses its Chat gives
// the callback to a Response with a Feeder, and returns the outcomes, the
// Feeder (for Done) and Chat's error.
func viaSDK(t testing.TB, body []byte, seed uint64) ([]check.Outcome, *ollamasdk.Feeder, error) {
	t.Helper()
	srv := server(t, body, seed)
	u, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	client := api.NewClient(u, srv.Client())
	resp := toolcall.New()
	f := ollamasdk.NewFeeder(resp)
	err = client.Chat(context.Background(), &api.ChatRequest{
		Model:    "qwen3",
		Messages: []api.Message{{Role: "user", Content: "hi"}},
	}, f.Feed)
	return check.Outcomes(resp.End()), f, err
}

// viaRead reads body with wire/ollamastream's Read.
func viaRead(body []byte) ([]check.Outcome, error) {
	resp := toolcall.New()
	err := ollamastream.Read(context.Background(), bytes.NewReader(body), resp)
	return check.Outcomes(resp.End()), err
}
