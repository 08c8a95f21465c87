package caret_test

import (
	"testing"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/aggregate"
	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/token"
	"github.com/argstream/argstream/token/caret"
)

// untyped is caret.New as a token.NewFunc.
func untyped(h token.Handler, opts ...token.Option) token.Tokenizer { return caret.New(h, opts...) }

// parse feeds chunks through argstream with the tokenizers of nf (untyped
// if nil) and returns the aggregated arguments or the error.
func parse(nf token.NewFunc, chunks ...string) (string, error) {
	if nf == nil {
		nf = untyped
	}
	agg := aggregate.New()
	s := argstream.New(agg, argstream.WithTokenizer(nf))
	for _, c := range chunks {
		if err := s.Feed([]byte(c)); err != nil {
			return "", err
		}
	}
	if err := s.Close(); err != nil {
		return "", err
	}
	v, err := agg.Value()
	return string(v), err
}

// canonical returns the JSON text j as the aggregator writes it.
func canonical(t *testing.T, j string) string {
	t.Helper()
	c, err := testutil.Canonical([]byte(j))
	if err != nil {
		t.Fatalf("%s: %v", j, err)
	}
	return string(c)
}

// TestDesignExamples parses the examples of code-assistant's caret design
// (docs/design.md, "Tool calls written in text"): its specification's and
// every example of its appendix, verbatim, to the JSON arguments they stand
// for.
func TestDesignExamples(t *testing.T) {
	for _, tc := range designExamples {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parse(nil, tc.block)
			if err != nil {
				t.Fatal(err)
			}
			if want := canonical(t, tc.want); got != want {
				t.Errorf("got  %s\nwant %s", got, want)
			}
		})
	}
}

var designExamples = []struct{ name, block, want string }{
	{"specification", "^^^write_file\nproject: code-assistant\npath: src/lib.rs\ncontent ---\n//! hello\nfn main() {}\n--- content\n^^^",
		`{"project":"code-assistant","path":"src/lib.rs","content":"//! hello\nfn main() {}"}`},
	{"array parameter (specification)", "^^^read_files\nproject: my_proj\npaths: [\nsrc/main.rs\nCargo.toml\ndocs/README.md\n]\n^^^",
		`{"project":"my_proj","paths":["src/main.rs","Cargo.toml","docs/README.md"]}`},
	{"read_files (single parameter)", "^^^read_files\nproject: my_proj\npath: src/main.rs\n^^^",
		`{"project":"my_proj","path":"src/main.rs"}`},
	{"read_files (array parameter)", "^^^read_files\nproject: my_proj\npaths: [\nsrc/main.rs\nCargo.toml\ndocs/README.md\n]\n^^^",
		`{"project":"my_proj","paths":["src/main.rs","Cargo.toml","docs/README.md"]}`},
	{"replace_in_file (multi-line diff parameter)", "^^^replace_in_file\nproject: cool_proj\npath: src/lib.rs\ndiff ---\n[SEARCH/REPLACE block content here]\n--- diff\n^^^",
		`{"project":"cool_proj","path":"src/lib.rs","diff":"[SEARCH/REPLACE block content here]"}`},
	{"write_file (multi-line content parameter)", "^^^write_file\nproject: notes\npath: design.md\ncontent ---\n# Title\nMultiline\nbody.\n--- content\n^^^",
		`{"project":"notes","path":"design.md","content":"# Title\nMultiline\nbody."}`},
	{"multiple multi-line parameters", "^^^replace_in_file\nproject: my_proj\npath: src/main.rs\ndiff ---\n[SEARCH/REPLACE block for code changes]\n--- diff\ncomment ---\nThis change updates the function name\nto better reflect its purpose.\n--- comment\n^^^",
		`{"project":"my_proj","path":"src/main.rs","diff":"[SEARCH/REPLACE block for code changes]","comment":"This change updates the function name\nto better reflect its purpose."}`},
}

func newStream(nf token.NewFunc, opts ...token.Option) *stream {
	agg := aggregate.New()
	return &stream{argstream.New(agg, argstream.WithTokenizer(nf), argstream.WithTokenOptions(opts...)), agg}
}

type stream struct {
	s   *argstream.Stream
	agg *aggregate.Aggregator
}

func feedAll(s *stream, chunks []string) (string, error) {
	for _, c := range chunks {
		if err := s.s.Feed([]byte(c)); err != nil {
			return "", err
		}
	}
	if err := s.s.Close(); err != nil {
		return "", err
	}
	v, err := s.agg.Value()
	return string(v), err
}
