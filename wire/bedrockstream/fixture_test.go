package bedrockstream

import (
	"bytes"
	"os"
	"testing"
)

// converseFixture is testdata/converse-tool-use.bin: a ConverseStream
// response of a text block and a tool call whose input comes in three
// deltas, encoded by this package's test encoder (helpers_test.go, written
// from the event stream specification), for the command's tests, which
// replay it.
func converseFixture() []byte {
	return stream(
		ev("messageStart", `{"role":"assistant"}`),
		ev("contentBlockDelta", `{"contentBlockIndex":0,"delta":{"text":"Let me look."}}`),
		ev("contentBlockStop", `{"contentBlockIndex":0}`),
		ev("contentBlockStart", `{"contentBlockIndex":1,"start":{"toolUse":{"toolUseId":"tooluse_1","name":"read_file"}}}`),
		ev("contentBlockDelta", `{"contentBlockIndex":1,"delta":{"toolUse":{"input":"{\"path\":"}}}`),
		ev("contentBlockDelta", `{"contentBlockIndex":1,"delta":{"toolUse":{"input":" \"src/"}}}`),
		ev("contentBlockDelta", `{"contentBlockIndex":1,"delta":{"toolUse":{"input":"main.go\"}"}}}`),
		ev("contentBlockStop", `{"contentBlockIndex":1}`),
		ev("messageStop", `{"stopReason":"tool_use"}`),
		ev("metadata", `{"usage":{"inputTokens":10,"outputTokens":20,"totalTokens":30},"metrics":{"latencyMs":100}}`),
	)
}

// TestFixtureFile: the fixture file holds what converseFixture encodes
// (BEDROCK_FIXTURE=write writes it again), and reads to its call.
func TestFixtureFile(t *testing.T) {
	const name = "testdata/converse-tool-use.bin"
	want := converseFixture()
	if os.Getenv("BEDROCK_FIXTURE") == "write" {
		if err := os.WriteFile(name, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s differs from what converseFixture encodes (BEDROCK_FIXTURE=write to write it)", name)
	}
	g := run(got)
	if g.Err != nil || len(g.Calls) != 1 || !g.Calls[0].Executable || g.Calls[0].Arguments != `{"path":"src/main.go"}` {
		t.Errorf("%+v", g)
	}
}
