package ollamastream

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/argstream/argstream/internal/testutil/wiretest"
	"github.com/argstream/argstream/toolcall"
	"github.com/google/go-cmp/cmp"
)

// TestRecordings reads the streams of Ollama's tests and documentation
// (testdata/README.md), whole and split into reads of every size, and
// checks their calls and text.
func TestRecordings(t *testing.T) {
	for _, tc := range []struct {
		file  string
		calls []wiretest.CallOutcome
		text  string
	}{
		{"cloud_web_search.ndjson", []wiretest.CallOutcome{exec(0, "call_1", "web_search", `{"query":"latest Ollama release"}`)}, ""},
		{"cloud_text_no_eol.ndjson", nil, "Ollama [release](https://ollama.com/release)."},
		{"api_md_tools.ndjson", []wiretest.CallOutcome{exec(0, "", "get_weather", `{"city":"Tokyo"}`)}, ""},
	} {
		stream, err := os.ReadFile(filepath.Join("testdata", tc.file))
		if err != nil {
			t.Fatal(err)
		}
		got := adapterRead.Run(toolcall.New(), bytesReader(stream))
		adapterRead.CheckEnd(t, got.Err, false)
		if diff := cmp.Diff(tc.calls, got.Calls); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.file, diff)
		}
		if got.Text[0] != tc.text {
			t.Errorf("%s: text %q, want %q", tc.file, got.Text[0], tc.text)
		}
		adapterRead.CheckSplits(t, tc.file, stream, func(rd io.Reader) wiretest.Got {
			return adapterRead.Run(toolcall.New(), rd)
		})
		// Cut anywhere before its last line ends, a recording is an
		// error wrapping io.ErrUnexpectedEOF.
		checkCuts(t, tc.file, stream)
	}
}
