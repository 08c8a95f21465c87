package ollamasdk_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
)

// gen writes Ollama /api/chat streams of random calls, in one layout per
// stream: the members of every object in Ollama's order or shuffled, with
// or without a space after ':' and ',', with or without unknown members
// (scalars and composites) in the objects Read reads.
type gen struct {
	rng     *rand.Rand
	shuffle bool // members in random order
	space   bool // a space after ':' and ','
	unknown bool // unknown members added
	calls   int  // the calls written so far
}

// member is a name and its value, raw JSON.
type member struct{ k, v string }

func newGen(rng *rand.Rand) *gen {
	return &gen{rng: rng, shuffle: rng.IntN(2) == 0, space: rng.IntN(3) == 0, unknown: rng.IntN(3) == 0}
}

// obj writes an object of ms in the layout, unknown members added if
// extra and the layout has them.
func (g *gen) obj(ms []member, extra bool) string {
	ms = append([]member(nil), ms...)
	if extra && g.unknown {
		unknown := []member{{"x_num", "1.5"}, {"x_str", `"\u00e9"`}, {"x_obj", `{"a":[1,{"b":null}],"c":"d"}`}, {"x_arr", `[true,[],{}]`}, {"x_null", "null"}}
		for _, u := range unknown {
			if g.rng.IntN(3) == 0 {
				ms = append(ms, u)
			}
		}
	}
	if g.shuffle {
		g.rng.Shuffle(len(ms), func(i, j int) { ms[i], ms[j] = ms[j], ms[i] })
	}
	colon, comma := ":", ","
	if g.space {
		colon, comma = ": ", ", "
	}
	var b strings.Builder
	b.WriteString("{")
	for i, m := range ms {
		if i > 0 {
			b.WriteString(comma)
		}
		b.WriteString(quote(m.k) + colon + m.v)
	}
	b.WriteString("}")
	return b.String()
}

func quote(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// args is a JSON object of 0 to 5 distinct members: strings with escapes
// and non-ASCII, numbers (an integer beyond 2^53 among them), literals,
// arrays and nested objects, a name written with an escape.
func (g *gen) args(depth int) string {
	names := []string{"path", "count", "text", `k\u00e9y`, "opts", "list"}
	vals := []string{`"src/main.go"`, `42`, `-3.5e2`, `0.1`, `12345678901234567890`, `true`, `false`, `null`,
		`"\u00e9 \"q\" \\ ☃ \n\t \ud83d\ude00"`, `""`, `[]`, `{}`, `[1,"x",[null]]`}
	g.rng.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
	n := g.rng.IntN(6)
	if depth > 0 {
		n = min(n, 3)
	}
	var ms []member
	for _, name := range names[:n] {
		v := vals[g.rng.IntN(len(vals))]
		if depth < 2 && g.rng.IntN(5) == 0 {
			v = g.args(depth + 1)
		}
		ms = append(ms, member{name, v})
	}
	// Written raw: the escaped name stays escaped.
	var b strings.Builder
	colon, comma := ":", ","
	if g.space {
		colon, comma = ": ", ", "
	}
	b.WriteString("{")
	for i, m := range ms {
		if i > 0 {
			b.WriteString(comma)
		}
		b.WriteString(`"` + m.k + `"` + colon + m.v)
	}
	b.WriteString("}")
	return b.String()
}

// line is a line of the stream, its message's members given.
func (g *gen) line(message []member, done bool, tail ...member) string {
	ms := []member{
		{"model", `"qwen3"`},
		{"created_at", `"2025-07-07T20:22:19.184789Z"`},
		{"message", g.obj(append([]member{{"role", `"assistant"`}}, message...), true)},
		{"done", fmt.Sprint(done)},
	}
	return g.obj(append(ms, tail...), true) + "\n"
}

// call is one element of tool_calls: an id (most of the time), a function
// with its index (most of the time, 0), name and arguments, a type
// (sometimes).
func (g *gen) call() string {
	names := []string{"read_file", "write_file", "search", "get_weather", "run"}
	fn := []member{{"name", quote(names[g.rng.IntN(len(names))])}, {"arguments", g.args(0)}}
	if g.rng.IntN(4) != 0 {
		fn = append(fn, member{"index", "0"})
	}
	c := []member{{"function", g.obj(fn, true)}}
	if g.rng.IntN(5) != 0 {
		c = append(c, member{"id", quote(fmt.Sprintf("call_%08d", g.rng.IntN(1e8)))})
	}
	if g.rng.IntN(4) == 0 {
		c = append(c, member{"type", `"function"`})
	}
	g.calls++
	return g.obj(c, true)
}

// stream is a stream of 1 to 5 calls, one to three a line, text and
// thinking lines between; done its last line (done_reason stop, length or
// none) unless cut.
func (g *gen) stream(cut bool) (body []byte, calls int) {
	var b strings.Builder
	want := 1 + g.rng.IntN(5)
	for g.calls < want {
		switch g.rng.IntN(4) {
		case 0:
			b.WriteString(g.line([]member{{"content", `""`}, {"thinking", `"let me think"`}}, false))
		case 1:
			b.WriteString(g.line([]member{{"content", `"Some text, then a call."`}}, false))
		}
		k := min(want-g.calls, 1+g.rng.IntN(3))
		elems := make([]string, k)
		for i := range elems {
			elems[i] = g.call()
		}
		comma := ","
		if g.space {
			comma = ", "
		}
		b.WriteString(g.line([]member{{"content", `""`}, {"tool_calls", "[" + strings.Join(elems, comma) + "]"}}, false))
	}
	if !cut {
		var tail []member
		switch g.rng.IntN(4) {
		case 0:
			tail = append(tail, member{"done_reason", `"length"`})
		case 1:
		default:
			tail = append(tail, member{"done_reason", `"stop"`})
		}
		tail = append(tail, member{"total_duration", "182242375"}, member{"eval_count", "15"})
		b.WriteString(g.line([]member{{"content", `""`}}, true, tail...))
	}
	return []byte(b.String()), g.calls
}
