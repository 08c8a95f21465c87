package genaisdk_test

// The glue on the recordings of wire/geministream/testdata, read through a
// real genai client: an httptest server streams each recording as the
// Gemini API does (data-only events, text/event-stream), the client reads
// it with client.Models.GenerateContentStream, and a Feeder drives a
// Response with each response. Its Results must be those of
// wire/geministream's Read on the same bytes.

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/argstream/argstream/sdk/genaisdk"
	"github.com/argstream/argstream/sdk/internal/check"
	"github.com/argstream/argstream/sdk/internal/upstream"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire/geministream"
	"github.com/google/go-cmp/cmp"
	"google.golang.org/genai"
)

// testdata is the directory of the Gemini recordings.
const testdata = "../../wire/geministream/testdata"

// recordings returns the names of the recordings, sorted.
func recordings(t testing.TB) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(testdata, "*.chunks.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no recordings in %s (%v)", testdata, err)
	}
	for i, f := range files {
		files[i] = filepath.Base(f)
	}
	slices.Sort(files)
	return files
}

// body frames a recording's payloads (one JSON a line) as Gemini sends
// them: data-only events.
func body(t testing.TB, file string) []byte {
	t.Helper()
	chunks, err := os.ReadFile(filepath.Join(testdata, file))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	for line := range bytes.Lines(chunks) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		b.WriteString("data: ")
		b.Write(line)
		b.WriteString("\n\n")
	}
	return b.Bytes()
}

// client is a Gemini API client of the server at baseURL, over hc.
func client(t testing.TB, hc *http.Client, baseURL string) *genai.Client {
	t.Helper()
	c, err := genai.NewClient(context.Background(), &genai.ClientConfig{
		APIKey:      "test-key",
		Backend:     genai.BackendGeminiAPI,
		HTTPClient:  hc,
		HTTPOptions: genai.HTTPOptions{BaseURL: baseURL + "/"},
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// stream reads one response through GenerateContentStream, calling fn
// with each of its responses; it returns the stream's error.
func stream(c *genai.Client, fn func(*genai.GenerateContentResponse) error) error {
	for resp, err := range c.Models.GenerateContentStream(context.Background(), "gemini-2.5-flash",
		genai.Text("Go."), nil) {
		if err != nil {
			return err
		}
		if err := fn(resp); err != nil {
			return err
		}
	}
	return nil
}

// raw is what wire/geministream's Read gives on b, or its error.
func raw(b []byte) ([]check.Outcome, error) {
	r := toolcall.New()
	err := geministream.Read(context.Background(), bytes.NewReader(b), r)
	return check.Outcomes(r.End()), err
}

// glue is what the Feeder gives on the responses the SDK read from the
// server at baseURL over hc.
func glue(t testing.TB, hc *http.Client, baseURL string) []check.Outcome {
	t.Helper()
	return glueWith(t, hc, baseURL, nil)
}

// glueWith is glue, calling also fn, if not nil, with each response.
func glueWith(t testing.TB, hc *http.Client, baseURL string, fn func(*genai.GenerateContentResponse)) []check.Outcome {
	t.Helper()
	r := toolcall.New()
	f := genaisdk.NewFeeder(r)
	if err := stream(client(t, hc, baseURL), func(resp *genai.GenerateContentResponse) error {
		if fn != nil {
			fn(resp)
		}
		return f.Feed(resp)
	}); err != nil {
		t.Fatalf("stream: %v", err)
	}
	return check.Outcomes(r.End())
}

// TestRecordings: on every recording Read accepts, the Feeder driven by
// the SDK's responses gives Read's Results (arguments JSON-equal). The
// recordings hold whole calls (Gemini API) and streamed ones (Vertex AI's
// partialArgs, nested objects and arrays among them).
func TestRecordings(t *testing.T) {
	compared, calls := 0, 0
	for _, file := range recordings(t) {
		t.Run(file, func(t *testing.T) {
			b := body(t, file)
			want, err := raw(b)
			if err != nil {
				t.Skipf("Read refuses it: %v", err)
			}
			srv := upstream.New(t, b, time.Millisecond)
			got := glue(t, &http.Client{}, srv.URL)
			if d := cmp.Diff(check.Canonical(t, want), check.Canonical(t, got)); d != "" {
				t.Errorf("Feeder (+) and Read (-) differ:\n%s", d)
			}
			compared++
			for _, o := range want {
				if o.Executable {
					calls++
				}
			}
		})
	}
	// The recordings hold calls of both kinds that Read accepts: if
	// fewer were compared, the test proved less than it says.
	if compared < 6 || calls < 8 {
		t.Errorf("compared %d recordings and %d executable calls, want at least 6 and 8", compared, calls)
	}
}
