package ollamastream

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire"
)

func bytesReader(b []byte) io.Reader { return bytes.NewReader(b) }

// checkCuts reads every prefix of stream, a whole response whose done line
// is its last: each must end with an error wrapping io.ErrUnexpectedEOF,
// never ErrMalformed, and never run a call the whole stream does not
// (but the prefix that ends right after the done line's last brace, which
// is whole).
func checkCuts(t *testing.T, name string, stream []byte) {
	t.Helper()
	whole := toolcall.New()
	if err := Read(t.Context(), bytes.NewReader(stream), whole); err != nil {
		t.Fatalf("%s: Read = %v", name, err)
	}
	wholeRes := whole.End()
	end := bytes.LastIndexByte(bytes.TrimRight(stream, "\r\n"), '}') + 1
	for n := range end {
		resp := toolcall.New()
		err := Read(t.Context(), bytes.NewReader(stream[:n]), resp)
		if !errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, wire.ErrMalformed) {
			t.Fatalf("%s cut at %d: Read = %v, want io.ErrUnexpectedEOF", name, n, err)
		}
		for i, r := range resp.End() {
			if r.Executable && (i >= len(wholeRes) || string(r.Arguments) != string(wholeRes[i].Arguments)) {
				t.Fatalf("%s cut at %d: call %+v executable", name, n, r)
			}
		}
	}
}

// TestCutAnywhere cuts a stream of text, thinking and calls at every byte.
func TestCutAnywhere(t *testing.T) {
	stream := ndjson(
		head+`"","thinking":"hm \u00e9"},"done":false}`,
		textLine(`a \"b\"`),
		head+`"","tool_calls":[{"id":"c0","function":{"index":0,"name":"f","arguments":{"a":[1,{"b":"}"}]}}},{"id":"c1","function":{"index":1,"name":"g","arguments":{}}}]},"done":false}`,
		callLine("c2", "h", `{"n":-1.5e3}`),
		doneLine)
	checkCuts(t, "synthetic", []byte(stream))
	if !strings.HasSuffix(stream, "}\n") {
		t.Fatal("the stream must end with its done line")
	}
}
