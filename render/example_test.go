package render_test

import (
	"fmt"
	"os"

	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/policy"
	"github.com/argstream/argstream/render"
	"github.com/argstream/argstream/toolcall"
)

// The renderer as the sink constructor of a toolcall.Response: the header
// when the call starts, path when it is complete, the content line by line
// as the deltas arrive. On a terminal it is in colour; here, plain.
func Example() {
	r := render.New(os.Stdout)
	resp := toolcall.New(toolcall.WithSinks(r.Sink))

	resp.Start(fragment.Call{Index: 0, ID: "toolu_1", Name: "fs_create_file"}, nil)
	for _, delta := range []string{`{"path": "src/ma`, `in.rs", "content": "fn main() {\n`, `    println!(\"hi\");\n}\n"}`} {
		resp.ChunkString(0, delta)
	}
	resp.End()

	// Output:
	// Calling tool fs_create_file(path: "src/main.rs", content: …
	//   │ fn main() {
	//   │     println!("hi");
	//   │ }
	//   )
}

// The JSON style: the arguments as pretty-printed JSON, growing as they
// stream.
func Example_json() {
	r := render.New(os.Stdout, render.WithStyle(render.JSON))
	resp := toolcall.New(toolcall.WithSinks(r.Sink))

	resp.Start(fragment.Call{Index: 0, ID: "toolu_1", Name: "fs_modify_file"}, nil)
	resp.ChunkString(0, `{"path": "lib.rs", "patterns": [{"old": "a", "new": "b"}], "dry_run": false}`)
	resp.End()

	// Output:
	// Calling tool fs_modify_file
	// {
	//   "path": "lib.rs",
	//   "patterns": [
	//     {
	//       "old": "a",
	//       "new": "b"
	//     }
	//   ],
	//   "dry_run": false
	// }
}

// The early permission prompt of RFD D26 (docs/design.md, "RFD D26's
// phases"): the policy decides "ask" as soon as path is complete; the prompt,
// written through the renderer, shows the parameters known so far, while
// content goes on streaming below it.
func ExampleRenderer_Partial() {
	rules, _, _ := policy.Parse([]byte(`{"run": [{"arg": "/path", "prefix": "src/", "mode": "unattended"}, {"mode": "ask"}], "paths": ["/path"]}`))
	r := render.New(os.Stdout)
	resp := toolcall.New(
		toolcall.WithSinks(r.Sink),
		toolcall.WithPolicy(func(string) *policy.Policy { return rules }),
		toolcall.OnDecision(func(_ *toolcall.Response, c fragment.Call, d policy.Decision, at int64) {
			if d.Mode == policy.Ask {
				fmt.Fprintf(r, "Allow %s? [y/n]\n", r.Partial(c.Index))
			}
		}))

	resp.Start(fragment.Call{Index: 0, ID: "toolu_1", Name: "fs_create_file"}, nil)
	resp.ChunkString(0, `{"path": "/etc/hosts", "content": "127.0.0.1 `)
	resp.ChunkString(0, `localhost\n"}`)
	resp.End()

	// Output:
	// Calling tool fs_create_file(path: "/etc/hosts"
	// Allow fs_create_file(path: "/etc/hosts", …)? [y/n]
	// ⋯ fs_create_file [call 0] continued
	//   ┆ , content: …
	//   │ 127.0.0.1 localhost
	//   )
}
