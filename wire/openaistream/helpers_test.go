package openaistream

import (
	"testing"

	"github.com/argstream/argstream/internal/testutil/wiretest"
)

// Test helpers shared by the Chat Completions and the Responses tests; see
// also internal/testutil's wire.go.

func readRecording(t testing.TB, name string) []byte {
	t.Helper()
	return wiretest.Testdata(t, "llm_streams/"+name)
}
