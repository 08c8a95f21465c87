package toolcall_test

import (
	"errors"
	"fmt"

	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/policy"
	"github.com/argstream/argstream/sink"
	"github.com/argstream/argstream/token"
	"github.com/argstream/argstream/toolcall"
)

// An SDK event loop, here Anthropic's events written out by hand: three calls,
// one streamed, one with its input whole at the start, one cut off by
// max_tokens.
func Example() {
	r := toolcall.New(toolcall.WithSinks(func(c fragment.Call) sink.Sink {
		fmt.Printf("call %d %s begins\n", c.Index, c.Name)
		return nil // or a renderer, a field sink...
	}))

	r.Start(fragment.Call{Index: 1, ID: "toolu_1", Name: "read_file"}, []byte(`{}`)) // content_block_start; {}: deltas follow
	r.ChunkString(1, `{"path": "go`)                                                 // content_block_delta, input_json_delta
	r.ChunkString(1, `.mod"}`)
	r.Stop(1)                                                                                     // content_block_stop
	r.Start(fragment.Call{Index: 2, ID: "toolu_2", Name: "roll_die"}, []byte(`{"player": "p1"}`)) // input whole at the start
	r.Stop(2)
	r.Start(fragment.Call{Index: 3, ID: "toolu_3", Name: "write_file"}, nil)
	r.ChunkString(3, `{"path": "main.go", "content": "package ma`) // then max_tokens

	for _, res := range r.End() { // message_stop, or the end of the stream
		if res.Err != nil {
			fmt.Printf("%d %s: truncated: %v (run: %v)\n", res.Call.Index, res.Call.Name,
				errors.Is(res.Err, token.ErrTruncated), res.Executable)
			continue
		}
		fmt.Printf("%d %s: %s (run: %v)\n", res.Call.Index, res.Call.Name, res.Arguments, res.Executable)
	}
	r.Reset() // for the next response

	// Output:
	// call 1 read_file begins
	// call 2 roll_die begins
	// call 3 write_file begins
	// 1 read_file: {"path":"go.mod"} (run: true)
	// 2 roll_die: {"player":"p1"} (run: true)
	// 3 write_file: truncated: true (run: false)
}

// A per-tool policy decides while the arguments stream; the user declines
// at the early prompt, and since no other call is pending, the caller
// cancels the response.
func ExampleResponse_Decline() {
	write, _, _ := policy.Parse([]byte(`{"run": [{"arg": "/path", "prefix": "src/", "mode": "unattended"}, {"mode": "ask"}]}`))
	r := toolcall.New(
		toolcall.WithPolicy(func(name string) *policy.Policy {
			if name == "write_file" {
				return write
			}
			return nil
		}),
		toolcall.OnDecision(func(r *toolcall.Response, c fragment.Call, d policy.Decision, at int64) {
			fmt.Printf("%s: %v after %d bytes\n", c.Name, d, at)
			if d.Mode == policy.Ask { // prompt now; say the user answers no
				if r.Decline(c.Index) {
					fmt.Println("no other call pending: cancel the response's context")
				}
			}
		}))

	r.Start(fragment.Call{Index: 0, ID: "call_0", Name: "write_file"}, nil)
	r.ChunkString(0, `{"path": "/etc/hosts", "content": "127.0.0.1 `)
	r.ChunkString(0, `example.com\n"}`) // discarded: the call is declined
	res := r.End()[0]
	fmt.Println("declined:", res.Declined, "run:", res.Executable)

	// Output:
	// write_file: ask (rule 1) after 21 bytes
	// no other call pending: cancel the response's context
	// declined: true run: false
}

// A reader of the Responses API, which restates each call's arguments after
// they have streamed: with WithRestatements, a restatement of the bytes that
// streamed is compared by hash, not parsed again; one of other bytes fails
// the call.
func ExampleWithRestatements() {
	r := toolcall.New(toolcall.WithRestatements())
	for i, restated := range []string{`{"path":"src/a.go"}`, `{"path":"/etc/hosts"}`} {
		c := fragment.Call{Index: int64(i), ID: fmt.Sprint("call_", i), Name: "read_file"}
		r.Start(c, nil)                         // response.output_item.added
		r.ChunkString(c.Index, `{"path":"src/`) // response.function_call_arguments.delta
		r.ChunkString(c.Index, `a.go"}`)
		r.Restate(c, []byte(restated)) // the done event, the output item...
		r.Restate(c, []byte(restated))
	}
	for _, res := range r.End() {
		if res.Err != nil {
			fmt.Printf("%s: ErrRestated %v (run: %v)\n", res.Call.ID, errors.Is(res.Err, toolcall.ErrRestated), res.Executable)
			fmt.Println(" ", res.Err)
			continue
		}
		fmt.Printf("%s: %s (run: %v)\n", res.Call.ID, res.Arguments, res.Executable)
	}
	// Output:
	// call_0: {"path":"src/a.go"} (run: true)
	// call_1: ErrRestated true (run: false)
	//   toolcall: call 1 ("read_file") restated with its arguments changed: "{\"path\":\"src/a.go\"}", then "{\"path\":\"/etc/hosts\"}"
}
