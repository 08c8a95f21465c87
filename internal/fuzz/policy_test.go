package fuzz

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/policy"
)

// FuzzPolicy checks the streaming policy evaluator against the decision on
// the complete arguments, for fuzzed rules files, arguments and chunkings:
// valid arguments get exactly EvaluateArgs's decision, at the same byte
// whatever the chunking, and are executable unless skipped; arguments that
// EvaluateArgs refuses (malformed, a duplicate or confusable key) are never
// executable, whatever was decided while they streamed.
func FuzzPolicy(f *testing.F) {
	files, _ := filepath.Glob("../../testdata/policy/*.json")
	var ruleSeeds, argSeeds [][]byte
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		switch {
		case strings.HasSuffix(name, ".rules.json"):
			ruleSeeds = append(ruleSeeds, data)
		case len(data) <= 4<<10:
			// Larger seeds leave the fuzzer minimising them for a minute
			// at a time instead of fuzzing.
			argSeeds = append(argSeeds, data)
		}
	}
	// The bypasses of the security review, each with rules it targeted.
	for _, s := range []struct{ rules, args string }{
		{`{"run": [{"arg": "/path", "prefix": "src/", "mode": "unattended"}, {"mode": "ask"}], "paths": ["/path"]}`,
			`{"path": "src/a\\b\\c\\d\\e\\f\\g\\h/../../../../../../../../etc/passwd"}`},
		{`{"run": [{"arg": "/path", "prefix": "src/", "mode": "unattended"}, {"mode": "ask"}], "paths": ["/path"]}`,
			`{"path": "src/a", "PATH": "/etc/passwd"}`},
		{`{"run": [{"arg": "/path", "prefix": "src/", "mode": "unattended"}, {"mode": "ask"}], "paths": ["/path"]}`,
			`{"path": ["src/a", "/etc/passwd"]}`},
		{`{"run": [{"arg": "/n", "maximum": 100, "mode": "unattended"}, {"mode": "ask"}]}`, `{"n": [[50], [500]]}`},
		{`{"run": [{"arg": "/n", "exclusive_maximum": 100, "mode": "unattended"}, {"mode": "ask"}]}`, `{"n": 99.99999999999999999}`},
		{`{"run": [{"arg": "/n", "exclusive_minimum": 0, "mode": "unattended"}, {"mode": "ask"}]}`, `{"n": 1e-400}`},
		{`{"run": [{"arg": "/p", "pattern": "(^|/)\\.env($|\\.)", "mode": "skip"}, {"mode": "unattended"}], "paths": ["/p"], "path_style": "windows"}`,
			`{"p": ["src/.ENV", "src/.env ", "src\\.env", "src/.env::$DATA"]}`},
		{`{"run": [{"arg": "/path", "const": "x", "mode": "unattended", "quantifier": "any"}, {"mode": "ask"}]}`, `{"path\u0000": "y", "path": ["x", "y"]}`},
	} {
		ruleSeeds = append(ruleSeeds, []byte(s.rules))
		argSeeds = append(argSeeds, []byte(s.args))
		f.Add([]byte(s.rules), []byte(s.args), []byte{3})
	}
	for i, r := range ruleSeeds {
		for j, a := range argSeeds {
			f.Add(r, a, []byte{byte(i + j), 1, 0, 7})
		}
	}
	f.Fuzz(func(t *testing.T, rules, args, cuts []byte) {
		p, _, err := policy.Parse(rules)
		if err != nil {
			return
		}
		want, wantErr := p.EvaluateArgs(args)
		var at int64 = -2
		for _, chunks := range [][][]byte{{args}, chunksOf(args, cuts), chunksOf(args, []byte{1})} {
			ev := p.Evaluator()
			s := argstream.New(ev)
			err := feed(s, chunks)
			v := ev.Verdict()
			if wantErr != nil {
				if err == nil || v.Valid() || v.Executable() {
					t.Fatalf("rules %s, args %q in %d chunks: EvaluateArgs refused them (%v), the stream gave %+v, %v",
						rules, args, len(chunks), wantErr, v, err)
				}
				continue
			}
			switch {
			case err != nil:
				t.Fatalf("rules %s, args %q in %d chunks: %v", rules, args, len(chunks), err)
			case v.Decision != want:
				t.Fatalf("rules %s, args %q in %d chunks: streaming decided %v, complete arguments %v", rules, args, len(chunks), v.Decision, want)
			case v.Executable() != (want.Mode != policy.Skip):
				t.Fatalf("rules %s, args %q in %d chunks: verdict %+v", rules, args, len(chunks), v)
			case at != -2 && v.At != at:
				t.Fatalf("rules %s, args %q in %d chunks: decided at %d, at %d in another chunking", rules, args, len(chunks), v.At, at)
			}
			at = v.At
		}
	})
}

// feed feeds chunks to s and closes it.
func feed(s *argstream.Stream, chunks [][]byte) error {
	for _, c := range chunks {
		if err := s.Feed(c); err != nil {
			return err
		}
	}
	return s.Close()
}
