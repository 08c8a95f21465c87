package dialect_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/dialect"
	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/policy"
	"github.com/argstream/argstream/render"
	"github.com/argstream/argstream/sink"
	"github.com/argstream/argstream/toolcall"
)

// seen is what one call went through: the decision, the parameter of the
// last fragment before it, and what the renderer drew.
type seen struct {
	Mode     string
	Rule     int
	After    string // the parameter of the last fragment the sink had when the policy decided
	Args     string
	Rendered string
}

const rules = `{"run": [{"arg": "/path", "prefix": "src/", "mode": "unattended"}, {"mode": "ask"}], "paths": ["/path"]}`

// The acceptance test of the text syntaxes: the same policy file and the same
// renderer, on a JSON tool call, a caret block, XML tags and Qwen tags with
// the same arguments, give the same decision at the same parameter, the same
// arguments, and the same drawing.
func TestSameSinks(t *testing.T) {
	pol, _, err := policy.Parse([]byte(rules))
	if err != nil {
		t.Fatal(err)
	}
	content := "package main\n\nfunc main() {\n\tprintln(\"a < b\")\n}"
	for _, path := range []string{"src/main.go", "/etc/passwd"} {
		args := fmt.Sprintf(`{"path":%q,"content":%q}`, path, content)
		texts := map[string]string{}
		for _, syn := range []dialect.Syntax{dialect.Caret, dialect.XML, dialect.Qwen} {
			src, err := syn.Format("write_file", []byte(args))
			if err != nil {
				t.Fatal(err)
			}
			texts[syn.String()] = "Writing it.\n" + string(src) + "\nDone.\n"
		}
		rng := rand.New(rand.NewPCG(1, 2))
		want := run(t, pol, 0, func(r *toolcall.Response) {
			r.Start(fragment.Call{Index: 0, Name: "write_file"}, nil)
			for _, c := range testutil.SplitRandom([]byte(args), rng, 8) {
				r.Chunk(0, c)
			}
			r.Stop(0)
		})
		// The JSON call itself: decided at path, before content streamed.
		wantMode, wantRule := "unattended", 0
		if path != "src/main.go" {
			wantMode, wantRule = "ask", 1
		}
		if want.Mode != wantMode || want.Rule != wantRule || want.After != "path" ||
			want.Args != args || !strings.Contains(want.Rendered, "println") {
			t.Fatalf("%s: the JSON call: %+v", path, want)
		}
		for name, text := range texts {
			syn, _ := dialect.ParseSyntax(name)
			got := run(t, pol, syn, func(r *toolcall.Response) {
				d := dialect.NewReader(syn, r)
				for _, c := range testutil.SplitRandom([]byte(text), rng, 8) {
					d.Write(c)
				}
				d.Close()
			})
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s, %s (-JSON +%s):\n%s", path, name, name, diff)
			}
		}
	}
}

// run feeds one call to a Response with the policy and a renderer, and
// returns what it saw.
func run(t *testing.T, pol *policy.Policy, syn dialect.Syntax, feed func(*toolcall.Response)) seen {
	t.Helper()
	var out bytes.Buffer
	rd := render.New(&out)
	var s seen
	last := ""
	opts := []toolcall.Option{
		toolcall.WithPolicy(func(string) *policy.Policy { return pol }),
		toolcall.WithSinks(func(c fragment.Call) sink.Sink {
			return sink.Multi(rd.Sink(c), sink.PushFunc(func(p *fragment.Progress) error {
				if len(p.Path) > 0 {
					last = string(p.Path[0].Key)
				}
				return nil
			}))
		}),
		toolcall.OnDecision(func(r *toolcall.Response, c fragment.Call, d policy.Decision, at int64) {
			s.Mode, s.Rule, s.After = d.Mode.String(), d.Rule, last
			r.Approve(c.Index) // the user says yes: the call runs as a JSON call would
		}),
	}
	if syn != 0 {
		opts = append(opts, toolcall.WithStreamOptions(argstream.WithTokenizer(syn.Tokenizer(nil))))
	}
	r := toolcall.New(opts...)
	feed(r)
	res := r.End()
	if len(res) != 1 || res[0].Err != nil {
		t.Fatalf("results: %+v", res)
	}
	s.Args, s.Rendered = string(res[0].Arguments), out.String()
	return s
}
