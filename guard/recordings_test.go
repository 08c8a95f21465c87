package guard

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/argstream/argstream/internal/testutil/wiretest"
	"github.com/argstream/argstream/policy"
	"github.com/argstream/argstream/wire"
	"github.com/argstream/argstream/wire/sse"
)

// recordedResponses returns the responses of the recorded streams of
// testdata/llm_streams, one stream each, with their wires: pydantic-ai's
// cassettes cut at their interactions, vercel/ai's chunk files framed as
// the APIs send them and cut at each response's start.
func recordedResponses(t *testing.T) map[string][]byte {
	files, err := filepath.Glob("../testdata/llm_streams/*")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, f := range files {
		if !strings.HasSuffix(f, ".sse") && !strings.HasSuffix(f, ".chunks.txt") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var parts [][]byte
		switch {
		case strings.HasSuffix(f, ".sse"):
			all := bytes.Split(data, []byte("\n: interaction "))
			for i, p := range all {
				if i > 0 {
					p = p[bytes.IndexByte(p, '\n')+1:]
				}
				if i < len(all)-1 {
					p = append(p, '\n') // the line end the split took
				}
				parts = append(parts, p)
			}
		case strings.HasSuffix(f, ".chunks.txt"):
			var cur []byte
			for line := range bytes.Lines(data) {
				typ := wiretest.JSONType(t, bytes.TrimSpace(line))
				if (typ == "message_start" || typ == "response.created") && len(cur) > 0 {
					parts, cur = append(parts, cur), nil
				}
				cur = append(cur, line...)
			}
			parts = append(parts, cur)
			for i, p := range parts {
				typed := !bytes.Contains(p, []byte(`"chat.completion.chunk"`))
				if parts[i], err = wiretest.SSEFromChunks(p, typed); err != nil {
					t.Fatal(err)
				}
			}
		default:
			continue
		}
		for i, p := range parts {
			if len(bytes.TrimSpace(p)) > 0 {
				out[filepath.Base(f)+"#"+string(rune('0'+i))] = p
			}
		}
	}
	return out
}

// kindOf tells a recorded stream's wire from its events.
func kindOf(t *testing.T, stream []byte) wire.Kind {
	rd := sse.NewReader(bytes.NewReader(stream))
	for rd.Next() {
		if k := wire.OfEvent(rd.Event()); k != wire.Unknown {
			return k
		}
	}
	t.Fatalf("no wire in %q", stream)
	return wire.Unknown
}

// TestRecordingsForwarded: with nothing blocked, the client reads each
// recorded response byte for byte; a recording cut short (some end before
// their last event) gets the wire's error event after its bytes.
func TestRecordingsForwarded(t *testing.T) {
	yes := mustPolicy(t, `{"run": "unattended"}`)
	ask := mustPolicy(t, `{"run": "ask"}`)
	n := 0
	for name, in := range recordedResponses(t) {
		k := kindOf(t, in)
		for _, cfg := range []Config{{}, {Policy: func(string) *policy.Policy { return yes }}, {Policy: func(string) *policy.Policy { return ask }}} {
			out, _ := filterAll(t, New(cfg), k, in)
			if bytes.Equal(out, in) {
				n++
				continue
			}
			// Cut short: what came whole, then the gateway's error.
			i := bytes.LastIndex(out, []byte("argstream gateway"))
			if i >= 0 {
				i = bytes.LastIndex(out[:i], []byte("\n\n")) + 2
			}
			if i < 2 || !bytes.HasPrefix(in, out[:i]) {
				t.Errorf("%s (%v): the client read\n%s", name, k, out)
				continue
			}
			if _, _, err := readClient(k, out); err == nil {
				t.Errorf("%s (%v): the gateway added %q, not an error", name, k, out[i:])
			}
			t.Logf("%s: cut short: %q", name, out[i:])
		}
	}
	if n < 30 {
		t.Errorf("only %d recordings forwarded whole", n)
	}
}

// TestReadSizes: the client's bytes do not depend on the sizes of its
// reads: a read smaller than an event (the rest kept for the next reads)
// gives the same bytes as large reads, blocked calls and all.
func TestReadSizes(t *testing.T) {
	skip := mustPolicy(t, `{"run": "skip"}`)
	for name, in := range recordedResponses(t) {
		k := kindOf(t, in)
		for _, cfg := range []Config{{}, {Policy: func(string) *policy.Policy { return skip }}} {
			want, _ := filterAll(t, New(cfg), k, in)
			for _, size := range []int{1, 7, 100} {
				rc := New(cfg).Filter(k, io.NopCloser(bytes.NewReader(in)), nil)
				var got []byte
				buf := make([]byte, size)
				for {
					n, err := rc.Read(buf)
					got = append(got, buf[:n]...)
					if err == io.EOF {
						break
					}
					if err != nil {
						t.Fatal(err)
					}
				}
				rc.Close()
				if !bytes.Equal(got, want) {
					t.Errorf("%s (%v), reads of %d bytes: other bytes than large reads", name, k, size)
				}
			}
		}
	}
}
