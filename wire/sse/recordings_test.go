package sse

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
)

// recordings returns the recorded provider streams (raw SSE) of
// testdata/llm_streams; see its INDEX.md for where each comes from.
func recordings(t *testing.T) map[string][]byte {
	t.Helper()
	paths, err := filepath.Glob("../../testdata/llm_streams/*.sse")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no recordings: %v", err)
	}
	out := make(map[string][]byte)
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(p)] = data
	}
	return out
}

// countEvents counts, with a plain line scan written apart from the Reader,
// the events of an LF-only stream without a BOM: the blocks, ended by a
// blank line, that hold a "data" field; and says whether a block with a
// field was left without its blank line at the end.
func countEvents(stream string) (events int, cut bool) {
	hasData, hasField := false, false
	lines := strings.Split(stream, "\n")
	for i, line := range lines {
		last := i == len(lines)-1 // after the last "\n", or an unterminated line
		switch {
		case line == "" && !last:
			if hasData {
				events++
			}
			hasData, hasField = false, false
		case line == "" || strings.HasPrefix(line, ":"):
		default:
			hasField = true
			if line == "data" || strings.HasPrefix(line, "data:") {
				hasData = true
			}
		}
	}
	return events, hasField
}

// TestRecordings reads every recorded provider stream: each gives the count
// of events a plain line scan finds, each event's data is JSON (or OpenAI's
// "[DONE]"), a typed event's data has that "type", the same events come in
// one-byte reads, and Err is nil, or ErrTruncated exactly for the
// recordings that end without the blank line of their last event.
func TestRecordings(t *testing.T) {
	for name, data := range recordings(t) {
		t.Run(name, func(t *testing.T) {
			if bytes.ContainsRune(data, '\r') || bytes.HasPrefix(data, []byte("\xEF\xBB\xBF")) {
				t.Fatal("countEvents expects LF line ends and no BOM")
			}
			got, err := readAll(NewReader(bytes.NewReader(data)))
			wantN, cut := countEvents(string(data))
			if len(got) != wantN || wantN == 0 {
				t.Errorf("%d events, a line scan finds %d", len(got), wantN)
			}
			switch {
			case cut && !errors.Is(err, ErrTruncated):
				t.Errorf("the recording ends mid-event, Err() = %v, want ErrTruncated", err)
			case !cut && err != nil:
				t.Errorf("Err() = %v", err)
			}
			if cut {
				t.Logf("%d events; the last one has no blank line: %v", len(got), err)
			}
			for i, e := range got {
				if e.Data == Done {
					continue
				}
				var v struct{ Type string }
				if err := json.Unmarshal([]byte(e.Data), &v); err != nil {
					t.Errorf("event %d: data is not JSON: %v: %q", i, err, e.Data)
				} else if e.Type != "" && v.Type != e.Type {
					t.Errorf("event %d: type %q, data's type %q", i, e.Type, v.Type)
				}
			}
			small, err2 := readAll(NewReader(iotest.OneByteReader(bytes.NewReader(data))))
			if diff := cmp.Diff(got, small); diff != "" || (err2 == nil) != (err == nil) || errors.Is(err2, ErrTruncated) != errors.Is(err, ErrTruncated) {
				t.Errorf("in one-byte reads: %v, events differ (-whole +one byte):\n%s", err2, diff)
			}
		})
	}
}
