package toolcall_test

import (
	"testing"

	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/policy"
	"github.com/argstream/argstream/sink"
	"github.com/argstream/argstream/toolcall"
)

type countSink struct{ n int }

func (s *countSink) Push(*fragment.Progress) error { s.n++; return nil }
func (s *countSink) End(error)                     {}

// A Response reused over responses of 3 interleaved calls does not
// allocate in steady state: not per delta, not per call, not per response.
// With a policy that decides while the arguments stream, the evaluator
// parses the value it decides on (package policy: a few allocations per
// decision), and resolves each declared path, also after deciding ("read"
// decides at the start, and still follows "path"), so there allocations
// must not grow with the deltas.
func TestAllocs(t *testing.T) {
	if testing.CoverMode() != "" {
		t.Skip("coverage instrumentation allocates")
	}
	write := mustPolicy(t, `{"run": [{"arg": "/path", "prefix": "src/", "mode": "unattended"}, {"mode": "ask"}], "paths": ["/path"]}`)
	read := mustPolicy(t, `{"run": "unattended", "paths": ["/path"]}`)
	sinks := [3]countSink{}
	newSink := toolcall.WithSinks(func(c fragment.Call) sink.Sink { return &sinks[c.Index%3] })
	policies := toolcall.WithPolicy(func(name string) *policy.Policy {
		switch name {
		case "write":
			return write
		case "read":
			return read
		}
		return nil
	})
	head := []string{`{"path": "src/ma`, `in.go", "content": "package main\n`}
	body := `func main() {\n\tprintln(\"hi\")\n}\n`
	tail := `", "mode": 420}`
	empty := []byte(`{}`)
	allocs := func(r *toolcall.Response, lines int) float64 {
		response := func() {
			r.Reset()
			r.Start(fragment.Call{Index: 0, ID: "call_0", Name: "write"}, nil)
			r.Start(fragment.Call{Index: 1, ID: "call_1", Name: "read"}, empty)
			r.Start(fragment.Call{Index: 2, ID: "call_2", Name: "other"}, nil)
			for i := range int64(3) {
				for _, d := range head {
					r.ChunkString(i, d)
				}
			}
			for range lines {
				for i := range int64(3) {
					r.ChunkString(i, body)
				}
			}
			for i := range int64(3) {
				r.ChunkString(i, tail)
			}
			r.Stop(1)
			res := r.End()
			if len(res) != 3 || !res[0].Executable || !res[1].Executable || !res[2].Executable {
				t.Fatalf("results %+v", res)
			}
		}
		response() // warm the pools
		return testing.AllocsPerRun(50, response)
	}
	if n := allocs(toolcall.New(newSink), 100); n != 0 {
		t.Errorf("no policy: %v allocations per response of 3 calls and 300 deltas, want 0", n)
	}
	r := toolcall.New(newSink, policies)
	short, long := allocs(r, 1), allocs(r, 100)
	t.Logf("with policies: %v allocations per response (the evaluator parsing the value it decides on)", short)
	if long != short {
		t.Errorf("with policies: %v allocations per response of 3 calls with 3 deltas each, %v with 102: want the same", short, long)
	}
}
