package policy_test

import (
	"testing"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/policy"
	"github.com/go-json-experiment/json/jsontext"
)

// mustParse parses a rules file that must be valid.
func mustParse(t testing.TB, rules string) *policy.Policy {
	t.Helper()
	p, _, err := policy.Parse([]byte(rules))
	if err != nil {
		t.Fatalf("Parse(%s): %v", rules, err)
	}
	return p
}

// stream feeds chunks to a new evaluator of p and returns its verdict and
// the stream's error.
func stream(p *policy.Policy, chunks [][]byte, opts ...policy.EvaluatorOption) (policy.Verdict, error) {
	ev := p.Evaluator(opts...)
	s := argstream.New(ev)
	var err error
	for _, c := range chunks {
		if err = s.Feed(c); err != nil {
			break
		}
	}
	if err == nil {
		err = s.Close()
	}
	return ev.Verdict(), err
}

// bytewise cuts s into one-byte chunks.
func bytewise(s string) [][]byte {
	chunks := make([][]byte, len(s))
	for i := range len(s) { // bytes, not runes
		chunks[i] = []byte{s[i]}
	}
	return chunks
}

// known builds the parameter map for Evaluate from name, JSON pairs.
func known(kv ...string) map[string]jsontext.Value {
	m := map[string]jsontext.Value{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i]] = jsontext.Value(kv[i+1])
	}
	return m
}

func decided(m policy.Mode, rule int) policy.Decision { return policy.Decision{Mode: m, Rule: rule} }
