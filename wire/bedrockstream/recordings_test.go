package bedrockstream

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"testing"

	"github.com/argstream/argstream/internal/testutil/wiretest"
	"github.com/argstream/argstream/toolcall"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
)

// framed reads a recording of testdata in the Vercel AI SDK's form, one
// {"TYPE": PAYLOAD} a line, and frames its events again as Bedrock sends
// them, with AppendEvent.
func framed(t *testing.T, name string) []byte {
	t.Helper()
	f, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var body []byte
	sc := bufio.NewScanner(bytes.NewReader(f))
	for sc.Scan() {
		var ev map[string]jsontext.Value
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil || len(ev) != 1 {
			t.Fatalf("%s: line %q: %v", name, sc.Bytes(), err)
		}
		for typ, payload := range ev {
			body = AppendEvent(body, typ, payload)
		}
	}
	return body
}

// TestRecordings: the recorded responses give their calls, text and
// reasoning, whole and in reads of every size (wiretest's splits).
func TestRecordings(t *testing.T) {
	for _, tc := range []struct {
		file  string
		calls []wiretest.CallOutcome
		text  bool // the response has text, not only empty text blocks
	}{
		{"vercel-ai__issue-11409-kimi-k2-thinking-glob-search.chunks.txt",
			[]wiretest.CallOutcome{{Index: 3, ID: "functions.glob_search:0", Name: "glob_search", Arguments: `{"pattern":"**/*cursor*"}`, Executable: true}}, false},
		{"vercel-ai__amazon-bedrock-reasoning.chunks.txt", nil, true},
	} {
		body := framed(t, tc.file)
		got := run(body)
		text := false // empty text blocks come too
		for _, s := range got.Text {
			text = text || s != ""
		}
		if got.Err != nil || len(got.Thinking) == 0 || text != tc.text {
			t.Errorf("%s: Err %v, text %v, thinking %v", tc.file, got.Err, got.Text, got.Thinking)
		}
		if diff := cmp.Diff(tc.calls, got.Calls); diff != "" {
			t.Errorf("%s: (-want +got):\n%s", tc.file, diff)
		}
		bedrockAdapter.CheckSplits(t, tc.file, body, func(rd io.Reader) wiretest.Got {
			return bedrockAdapter.Run(toolcall.New(), rd)
		})
	}
}
