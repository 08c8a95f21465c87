package ollamastream

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/argstream/argstream/internal/testutil/wiretest"
)

// FuzzRead reads any bytes with wiretest's checks (ReadChecked): only the
// documented errors, never a panic, and no call executable after a
// refusal or with arguments that are not JSON. The seeds are the
// recordings and streams of each kind of line.
func FuzzRead(f *testing.F) {
	var seeds [][]byte
	files, _ := filepath.Glob(filepath.Join("testdata", "*.ndjson"))
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, b)
	}
	for _, s := range []string{
		ndjson(head+`"","thinking":"hm"},"done":false}`, textLine("a"), callLine("c0", "f", `{"a":[1,{"b":null}]}`), doneLine),
		ndjson(head+`"","tool_calls":[{"id":"c0","function":{"index":0,"name":"f","arguments":{}}},{"function":{"name":"g","arguments":{"x":"\u00e9"}}}]},"done":false}`, doneLine),
		ndjson(callLine("c0", "f", `{"n":1}`), `{"error":"boom"}`),
		ndjson(callLine("c0", "f", `{"n":1}`), `{"message":{"content":""},"done":true,"done_reason":"length"}`),
		ndjson(callLine("c0", "f", `{"n":1}`), `{"Done":true}`),
		callLine("c0", "f", `{"n":1}`) + "\r\n" + `{"done":true}`,
		ndjson(callLine("c0", "f", `{"n":1}`)) + `{"message":{"content":"a`,
	} {
		seeds = append(seeds, []byte(s))
	}
	if len(seeds) < 10 {
		f.Fatalf("%d seeds", len(seeds))
	}
	adapterRead.Fuzz(f, wiretest.Streams(seeds...))
}
