package toolcall_test

import (
	"bufio"
	"encoding/json"
	"github.com/argstream/argstream/fragment"
	"os"
	"testing"

	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/toolcall"
)

// driveAnthropic plays a recorded Anthropic stream, one event per line, as
// an SDK event loop would.
func driveAnthropic(t *testing.T, r *toolcall.Response, path string) {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var e testutil.AnthropicEvent
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatal(err)
		}
		switch e.Type {
		case "content_block_start":
			if b := e.ContentBlock; b.Type == "tool_use" || b.Type == "server_tool_use" {
				err = r.Start(fragment.Call{Index: e.Index, ID: b.ID, Name: b.Name}, b.Input)
			}
		case "content_block_delta":
			if e.Delta.Type == "input_json_delta" {
				err = r.ChunkString(e.Index, e.Delta.PartialJSON)
			}
		case "content_block_stop":
			err = r.Stop(e.Index)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}

// The recorded rollDie call has its input whole in content_block_start and
// no deltas: its arguments are that input (the official SDK makes them {}).
func TestRecordedInputAtStart(t *testing.T) {
	r := toolcall.New()
	driveAnthropic(t, r, "testdata/anthropic-programmatic-tool-calling.chunks.txt")
	res := r.End()
	if len(res) != 2 {
		t.Fatalf("%d calls, want 2", len(res))
	}
	code, roll := res[0], res[1]
	if code.Call.Name != "code_execution" || code.Call.Index != 1 || code.Err != nil || !code.Executable {
		t.Errorf("code_execution call: %+v", code)
	}
	if roll.Call.Name != "rollDie" || roll.Call.ID != "toolu_019jKkXz4jAdwHweHBw92CVY" || roll.Call.Index != 2 ||
		roll.Err != nil || !roll.Executable || string(roll.Arguments) != `{"player":"player1"}` {
		t.Errorf("rollDie call: %+v, arguments %s", roll, roll.Arguments)
	}
}
