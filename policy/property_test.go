package policy_test

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/policy"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
)

// The central property: for random policies, random arguments and random
// chunkings, the streaming decision is the pure evaluator's decision on the
// complete arguments, and it is made no later than the first byte at which
// the arguments received so far determine it: the first prefix at which the
// pure evaluator, given the top-level parameters complete in that prefix,
// decides. Fed byte by byte, the decision appears exactly at the byte it
// reports. The verdict names the first suspect declared path, and is
// Unattended() exactly when the decision is Unattended and there is none.
// A truncated stream is never executable, and what it decided before its
// end is the decision of the complete arguments.
func TestPropertyStreamingMatchesPure(t *testing.T) {
	properties := gopter.NewProperties(testutil.PropertyParameters(500))
	properties.Property("streaming decision = pure decision, no later", prop.ForAll(
		func(pc policyCase, doc testutil.Doc, cuts []int) string {
			if err := checkCase(pc, doc.Text, cuts); err != "" {
				return err + "\nargs: " + string(doc.Text)
			}
			return ""
		},
		genPolicy(), genArgs(), testutil.GenCuts(),
	))
	properties.TestingRun(t)
}

func checkCase(pc policyCase, text []byte, cuts []int) string {
	p := pc.p
	members, rootAt, err := determinations(text)
	if err != nil {
		return "generator made invalid arguments: " + err.Error()
	}
	all := map[string]jsontext.Value{}
	for _, m := range members {
		all[m.name] = m.value
	}
	want := p.Evaluate(all, true)
	if got, err := p.EvaluateArgs(text); err != nil || got != want {
		return fmt.Sprintf("EvaluateArgs = %v, %v; Evaluate = %v", got, err, want)
	}

	suspect := firstSuspect(text, pc.paths, pc.style)
	unattended := want.Mode == policy.Unattended && suspect == ""

	// The earliest prefix that determines the decision, by the pure
	// evaluator; once decided, it must never say anything else.
	points := []int64{0, rootAt}
	for _, m := range members {
		points = append(points, m.at)
	}
	slices.Sort(points)
	oracle := int64(-1)
	for _, k := range slices.Compact(points) {
		known := map[string]jsontext.Value{}
		for _, m := range members {
			if m.at <= k {
				known[m.name] = m.value
			}
		}
		d := p.Evaluate(known, k >= rootAt)
		if !d.Decided() {
			continue
		}
		if d != want {
			return fmt.Sprintf("pure evaluator decided %v at %d, then %v on the complete arguments", d, k, want)
		}
		if oracle < 0 {
			oracle = k
		}
	}

	for _, chunks := range [][][]byte{
		{text},
		testutil.SplitAt(text, testutil.Cuts(text, cuts)),
		testutil.SplitEvery(text, 7),
	} {
		v, err := stream(p, chunks)
		switch {
		case err != nil:
			return fmt.Sprintf("%d chunks: %v", len(chunks), err)
		case v.Decision != want:
			return fmt.Sprintf("%d chunks: streaming decided %v, complete arguments %v", len(chunks), v.Decision, want)
		case v.At < 0 || v.At > oracle:
			return fmt.Sprintf("%d chunks: decided %v at %d, determined at %d", len(chunks), v.Decision, v.At, oracle)
		case v.Executable() != (want.Mode != policy.Skip):
			return fmt.Sprintf("%d chunks: verdict %+v", len(chunks), v)
		case v.SuspectPath != suspect || v.Unattended() != unattended:
			return fmt.Sprintf("%d chunks: verdict %+v, Unattended() %v; want SuspectPath %q", len(chunks), v, v.Unattended(), suspect)
		}
	}

	// Byte by byte, the decision appears when the byte it reports arrives.
	ev := p.Evaluator()
	s := argstream.New(ev)
	first := int64(-1)
	if ev.Decision().Decided() {
		first = 0
	}
	for i := range text {
		if err := s.Feed(text[i : i+1]); err != nil {
			return "byte by byte: " + err.Error()
		}
		if first < 0 && ev.Decision().Decided() {
			first = int64(i + 1)
		}
	}
	if err := s.Close(); err != nil {
		return "byte by byte: " + err.Error()
	}
	if first < 0 {
		first = int64(len(text))
	}
	if v := ev.Verdict(); v.Decision != want || v.At != first {
		return fmt.Sprintf("byte by byte: %v reported at %d, known after %d bytes", v.Decision, v.At, first)
	} else if v.SuspectPath != suspect || v.Unattended() != unattended {
		return fmt.Sprintf("byte by byte: verdict %+v, Unattended() %v; want SuspectPath %q", v, v.Unattended(), suspect)
	}

	// A truncated stream: never executable; a decision made before the
	// cut is the decision of the whole. (At the cut itself, Close may
	// complete a number that the rest of the input would have continued.)
	cut := 0
	if len(cuts) > 0 {
		cut = cuts[0] % (len(text) + 1)
	}
	if cut < len(text) && !testutil.Valid(text[:cut]) {
		v, err := stream(p, testutil.SplitAt(text[:cut], testutil.Cuts(text[:cut], cuts)))
		switch {
		case err == nil || v.Valid() || v.Executable() || v.Unattended():
			return fmt.Sprintf("truncated at %d: %+v, %v", cut, v, err)
		case v.Decided() && v.At < int64(cut) && v.Decision != want:
			return fmt.Sprintf("truncated at %d: decided %v at %d, complete arguments %v", cut, v.Decision, v.At, want)
		case v.Decided() && v.At > int64(cut):
			return fmt.Sprintf("truncated at %d: decided at %d", cut, v.At)
		}
	}
	return ""
}

// firstSuspect returns the pointer to the first string in text, which is
// valid JSON, that one of the pointers paths resolves to (an array along
// the way standing for its elements) and that is suspect in style, or "".
// It reads text with jsontext alone.
func firstSuspect(text []byte, paths []string, style policy.PathStyle) jsontext.Pointer {
	d := jsontext.NewDecoder(bytes.NewReader(text))
	for {
		tok, err := d.ReadToken()
		if err != nil {
			return ""
		}
		depth := d.StackDepth()
		if tok.Kind() != '"' || depth == 0 {
			continue
		}
		if k, n := d.StackIndex(depth); k == '{' && n%2 == 1 {
			continue // a member's name
		}
		if k, _ := d.StackIndex(1); k != '{' {
			continue // the arguments have no parameters
		}
		str := tok.String() // before anything else reads d
		ptr := d.StackPointer()
		var keys []string
		level := 0
		for t := range ptr.Tokens() {
			level++
			if k, _ := d.StackIndex(level); k == '{' {
				keys = append(keys, t)
			}
		}
		for _, p := range paths {
			if slices.Equal(keys, strings.Split(p[1:], "/")) && policy.IsSuspect(str, style) {
				return ptr
			}
		}
	}
}

// member is a top-level parameter of generated arguments and the length of
// the shortest prefix that determines its value.
type member struct {
	name  string
	value jsontext.Value
	at    int64
}

// determinations decodes text with jsontext alone (not argstream) and says
// where each top-level value and the whole arguments are determined: at the
// end of the value, or one byte later for a number, which a following digit
// could still continue (at the end of the input, for a root number).
func determinations(text []byte) (members []member, root int64, err error) {
	d := jsontext.NewDecoder(bytes.NewReader(text))
	determined := func(kind jsontext.Kind) int64 {
		end := d.InputOffset()
		if kind == '0' {
			return min(end+1, int64(len(text)))
		}
		return end
	}
	if d.PeekKind() != '{' {
		v, err := d.ReadValue()
		if err != nil {
			return nil, 0, err
		}
		return nil, determined(v.Kind()), nil
	}
	if _, err := d.ReadToken(); err != nil {
		return nil, 0, err
	}
	for d.PeekKind() != '}' {
		tok, err := d.ReadToken()
		if err != nil {
			return nil, 0, err
		}
		name := tok.String()
		v, err := d.ReadValue()
		if err != nil {
			return nil, 0, err
		}
		members = append(members, member{name, bytes.Clone(v), determined(v.Kind())})
	}
	if _, err := d.ReadToken(); err != nil {
		return nil, 0, err
	}
	return members, d.InputOffset(), nil
}

// Values chosen so that the random rules often match the random arguments.
var (
	stringPool = []string{"src/a.rs", "src/", "src", "src-old/x.rs", "./src/b.rs", "src/../../etc/passwd",
		"src/../lib.rs", "/etc/passwd", ".env", "config/.env", ".env.local", "rm -rf /", "rm -fr build",
		"ls -la", "", "1", "10", "-1", "1.0", "héllo", "a", `src\x`, `src/a\b/../../x`, `SRC\.ENV`, "src/.env ",
		"src/.env::$DATA", `C:\src\x`, "src/CON", "//server/share/x", "~/.ssh/id_rsa", "$HOME/.env", "src/%2e%2e/x",
		"src/..\uFF3C..\uFF3Cx", "ENV~1", "GIT~1/hooks/x", "src/\uFF0Eenv"}
	numberPool = []string{"0", "-0", "1", "1.0", "10", "-1", "2.5", "1e1", "100", "9007199254740993", "0.1", "-1e400",
		"99.99999999999999999", "1e-400", "1e99999999999999999999"}
	patternPool = []string{`^src/`, `\.env`, `(^|/)\.env($|\.)`, `rm\s+-[a-z]*r`, `^1$`, `a`, `^$`, `[0-9]`, `é`, `.`}
	prefixPool  = []string{"src/", "src", "./src/", "/etc", "/etc/", "", ".", "..", "src/../src/", "rm ", "1", "s"}
	constPool   = []string{`"src/a.rs"`, `".env"`, `"1"`, `"rm -rf /"`, `""`, `1`, `1.0`, `10`, `-0`, `null`, `true`, `false`,
		`{"paths":["src/a.rs"]}`, `{"old":"a"}`, `{}`}
	pointerPool = []string{"/path", "/path", "/path", "/content", "/patterns/paths", "/patterns/paths", "/patterns/old",
		"/patterns", "/n", "/n", "/flag", "/missing", "/patterns/paths/x"}
	modes = []policy.Mode{policy.Ask, policy.Unattended, policy.Edit, policy.Skip}
)

// policyCase is a generated policy with the rules it was built from, for
// failure reports.
type policyCase struct {
	rules []policy.Rule
	paths []string
	style policy.PathStyle
	p     *policy.Policy
}

func (pc policyCase) String() string {
	var b strings.Builder
	b.WriteString("[")
	for i, r := range pc.rules {
		if i > 0 {
			b.WriteString(", ")
		}
		if r.Arg == "" {
			fmt.Fprintf(&b, `{"mode": %q}`, r.Mode)
		} else {
			fmt.Fprintf(&b, `{"arg": %q, %v, "mode": %q, "quantifier": %q}`, r.Arg, r.Match, r.Mode, r.Quantifier)
		}
	}
	fmt.Fprintf(&b, "] paths %q style %v", pc.paths, pc.style)
	return b.String()
}

// genRule generates a rule of any kind, a catch-all now and then.
func genRule() gopter.Gen {
	return gopter.CombineGens(
		gen.IntRange(0, 16), gen.IntRange(0, len(pointerPool)-1), gen.IntRange(0, len(modes)-1),
		gen.SliceOfN(3, gen.IntRange(0, 1<<20)), gen.IntRange(1, 3), gen.IntRange(0, 5),
	).Map(func(v []any) policy.Rule {
		kind, ptr, mode, pick, n := v[0].(int), v[1].(int), v[2].(int), v[3].([]int), v[4].(int)
		r := policy.Rule{Arg: pointerPool[ptr], Mode: modes[mode]}
		if q := v[5].(int); q <= int(policy.Any) {
			r.Quantifier = policy.Quantifier(q) // mostly the default
		}
		at := func(pool []string, i int) string { return pool[pick[i]%len(pool)] }
		switch kind {
		case 0:
			return policy.Rule{Mode: modes[mode]}
		case 1, 2:
			r.Match = policy.Const(jsontext.Value(at(constPool, 0)))
		case 3, 4:
			var vs []jsontext.Value
			for i := range n {
				vs = append(vs, jsontext.Value(at(constPool, i)))
			}
			r.Match = policy.Enum(vs...)
		case 5, 6:
			r.Match = policy.Pattern(at(patternPool, 0))
		case 7, 8, 9:
			r.Match = policy.Prefix(at(prefixPool, 0))
		case 10, 11:
			r.Match = policy.Minimum(at(numberPool, 0))
		case 12, 13:
			r.Match = policy.Maximum(at(numberPool, 0))
		case 14:
			r.Match = policy.ExclusiveMinimum(at(numberPool, 0))
		default:
			r.Match = policy.ExclusiveMaximum(at(numberPool, 0))
		}
		return r
	})
}

// genPolicy generates valid policies: each generated rule is kept if the
// rules so far stay valid (a rule can be unreachable after the others, or
// a bound on a path), and sometimes the policy is a bare mode.
func genPolicy() gopter.Gen {
	return gopter.CombineGens(
		gen.IntRange(0, 7).FlatMap(func(n any) gopter.Gen { return gen.SliceOfN(n.(int), genRule()) }, nil),
		gen.Bool(), gen.Bool(), gen.IntRange(0, 39), gen.Bool(),
	).Map(func(v []any) policyCase {
		var pc policyCase
		if v[4].(bool) {
			pc.style = policy.Windows
		}
		opts := func() []policy.Option {
			return []policy.Option{policy.WithPaths(pc.paths...), policy.WithPathStyle(pc.style)}
		}
		if v[1].(bool) {
			pc.paths = append(pc.paths, "/path")
		}
		if v[2].(bool) {
			pc.paths = append(pc.paths, "/patterns/paths")
		}
		if bare := v[3].(int); bare < len(modes) {
			pc.rules = []policy.Rule{{Mode: modes[bare]}}
		} else {
			for _, r := range v[0].([]policy.Rule) {
				if _, _, err := policy.New(append(slices.Clip(pc.rules), r), opts()...); err == nil {
					pc.rules = append(pc.rules, r)
				}
			}
		}
		p, _, err := policy.New(pc.rules, opts()...)
		if err != nil {
			panic(err) // each rule was checked on the way
		}
		pc.p = p
		return pc
	})
}

func str(s string) testutil.Node { return testutil.Node{Kind: '"', Text: s} }
func num(s string) testutil.Node { return testutil.Node{Kind: '0', Text: s} }

// genScalar generates scalars, mostly from the pools.
func genScalar() gopter.Gen {
	return gen.Weighted([]gen.WeightedGen{
		{Weight: 5, Gen: gen.OneConstOf(anys(stringPool)...).Map(str)},
		{Weight: 1, Gen: testutil.GenString().Map(str)},
		{Weight: 4, Gen: gen.OneConstOf(anys(numberPool)...).Map(num)},
		{Weight: 1, Gen: testutil.GenNumber().Map(num)},
		{Weight: 2, Gen: gen.OneConstOf(testutil.Node{Kind: 'n'}, testutil.Node{Kind: 't'}, testutil.Node{Kind: 'f'})},
	})
}

func anys(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// genValue generates parameter values: scalars, arrays, and objects with
// the keys the pointers use.
func genValue(depth int, scalar gopter.Gen) gopter.Gen {
	if depth == 0 {
		return scalar
	}
	inner := genValue(depth-1, scalar)
	return gen.Weighted([]gen.WeightedGen{
		{Weight: 5, Gen: scalar},
		{Weight: 2, Gen: gen.IntRange(0, 3).FlatMap(func(n any) gopter.Gen {
			return gen.SliceOfN(n.(int), inner).Map(func(items []testutil.Node) testutil.Node {
				return testutil.Node{Kind: '[', Items: items}
			})
		}, nil)},
		{Weight: 2, Gen: genObject([]string{"paths", "old", "x", "path"}, func(string) gopter.Gen { return inner })},
	})
}

// genObject generates objects with members drawn from keys, in random
// order, each present or not.
func genObject(keys []string, value func(key string) gopter.Gen) gopter.Gen {
	var gens []gopter.Gen
	for _, k := range keys {
		gens = append(gens, gopter.CombineGens(gen.IntRange(0, 2), gen.Int64(), value(k)))
	}
	return gopter.CombineGens(gens...).Map(func(v []any) testutil.Node {
		type m struct {
			key   string
			order int64
			value testutil.Node
		}
		var ms []m
		for i, x := range v {
			x := x.([]any)
			if x[0].(int) > 0 {
				ms = append(ms, m{keys[i], x[1].(int64), x[2].(testutil.Node)})
			}
		}
		slices.SortFunc(ms, func(a, b m) int { return int(min(max(a.order-b.order, -1), 1)) })
		o := testutil.Node{Kind: '{'}
		for _, m := range ms {
			o.Keys = append(o.Keys, m.key)
			o.Items = append(o.Items, m.value)
		}
		return o
	})
}

// genArgs generates tool-call arguments: an object with some of the
// parameters the pointers name, in any order, a large "content" at times,
// typical "patterns"; now and then arguments that are not an object.
func genArgs() gopter.Gen {
	// Generators are built once: building one (a regular expression for
	// numbers) costs more than using it.
	scalar := genScalar()
	pattern := genObject([]string{"old", "paths", "new"}, func(k string) gopter.Gen {
		if k != "paths" {
			return scalar
		}
		return gen.IntRange(0, 3).FlatMap(func(n any) gopter.Gen {
			return gen.SliceOfN(n.(int), scalar)
		}, nil).Map(func(items []testutil.Node) testutil.Node {
			return testutil.Node{Kind: '[', Items: items}
		})
	})
	patterns := gen.IntRange(0, 3).FlatMap(func(n any) gopter.Gen {
		return gen.SliceOfN(n.(int), pattern)
	}, nil).Map(func(items []testutil.Node) testutil.Node { return testutil.Node{Kind: '[', Items: items} })
	value2, value3 := genValue(2, scalar), genValue(3, scalar)
	content := gen.IntRange(0, 300).Map(func(n int) testutil.Node {
		return str(strings.Repeat("fn main() {}\n", n))
	})
	args := genObject([]string{"path", "content", "patterns", "n", "flag", "other"}, func(k string) gopter.Gen {
		switch k {
		case "content":
			return gen.Weighted([]gen.WeightedGen{{Weight: 1, Gen: content}, {Weight: 1, Gen: value2}})
		case "patterns":
			return gen.Weighted([]gen.WeightedGen{{Weight: 2, Gen: patterns}, {Weight: 1, Gen: value3}})
		case "path":
			return gen.Weighted([]gen.WeightedGen{{Weight: 3, Gen: gen.OneConstOf(anys(stringPool)...).Map(str)}, {Weight: 1, Gen: value2}})
		case "n":
			return gen.Weighted([]gen.WeightedGen{{Weight: 3, Gen: gen.OneConstOf(anys(numberPool)...).Map(num)}, {Weight: 1, Gen: value2}})
		}
		return value2
	})
	return gopter.CombineGens(
		gen.Weighted([]gen.WeightedGen{{Weight: 19, Gen: args}, {Weight: 1, Gen: value2}}),
		gen.UInt64(),
	).Map(func(v []any) testutil.Doc {
		n := v[0].(testutil.Node)
		return testutil.Doc{Value: n, Text: testutil.Render(n, v[1].(uint64))}
	})
}
