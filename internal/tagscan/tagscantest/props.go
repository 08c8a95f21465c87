package tagscantest

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/aggregate"
	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/internal/testutil/tokentest"
	"github.com/argstream/argstream/schema"
	"github.com/argstream/argstream/token"
)

// Tools are the schemas the properties type calls by: "typed" has a
// parameter of each kind; other tools are untyped.
const Tools = `[{"name": "typed", "input_schema": {"type": "object", "properties": {
	"n": {"type": "number"}, "i": {"type": "integer"}, "b": {"type": "boolean"},
	"s": {"type": "string"}, "paths": {"type": "array", "items": {"type": "string"}},
	"o": {"type": "object"}, "nums": {"type": "array", "items": {"type": "integer"}}}}}]`

// genCall generates the text of a call, valid or not: parameters with
// tricky values, then maybe mutated.
func (d Dialect) genCall() gopter.Gen {
	keys := []string{"path", "paths", "content", "a.b", "x-y", "n", "i", "b", "s", "o", "nums", "PATH"}
	vals := append([]string{"", "a", "a < b", "<div>", "\n", "\r\n", "\r", "\n\n", " ", "3", "-1.5e3", "true",
		"null", "[1,2]", `["a","b"]`, `{"k":"v"}`, "{", "é", "😀", "<", "</", "<<", "x\ny"}, d.Tags...)
	param := gopter.CombineGens(gen.IntRange(0, len(keys)-1), gen.SliceOfN(3, gen.IntRange(0, len(vals)-1)),
		testutil.GenString()).Map(func(v []any) [2]string {
		parts := v[1].([]int)
		s := vals[parts[0]] + vals[parts[1]]
		if parts[2]%3 == 0 {
			s += v[2].(string)
		}
		return [2]string{keys[v[0].(int)], s + vals[parts[2]]}
	})
	mutations := gen.SliceOfN(2, testutil.GenMutation(strings.Join(d.Tags, "")+"<>/=:\n\r \t\xff\xc3"))
	return gopter.CombineGens(gen.OneConstOf("typed", "t", "read_files", "a.b"), upTo(8, param),
		gen.OneConstOf("", "\n", " \r\n\t", "\n\n \n"), gen.IntRange(0, 3), mutations).
		Map(func(v []any) string {
			call := d.Call(v[0].(string), v[1].([][2]string), v[2].(string))
			if v[3].(int) == 0 {
				call = string(testutil.Mutate([]byte(call), v[4].([]testutil.Mutation)))
			}
			return call
		})
}

// Chunking checks that any chunking of random calls, valid and invalid,
// typed or not, gives the [Outcome] of the call in one chunk.
func (d Dialect) Chunking(t *testing.T) {
	tools, err := schema.Parse([]byte(Tools))
	if err != nil {
		t.Fatal(err)
	}
	typed := d.Typed(tools)
	untyped := d.NewFunc()
	props := gopter.NewProperties(testutil.PropertyParameters(500))
	props.Property("any chunking gives the same events and error", prop.ForAll(
		func(call string, seed uint64) string {
			rng := rand.New(rand.NewPCG(seed, 1))
			for _, f := range []token.NewFunc{untyped, typed} {
				if _, err := Same(f, []byte(call), rng); err != nil {
					return err.Error()
				}
			}
			return ""
		}, d.genCall(), gen.UInt64()))
	props.TestingRun(t)
}

// Fuzz checks, for a fuzz target, that data cut in two at cut gives the
// [Outcome] of data whole, untyped and typed by [Tools].
func (d Dialect) Fuzz(t *testing.T, data []byte, cut uint) {
	tools, err := schema.Parse([]byte(Tools))
	if err != nil {
		t.Fatal(err)
	}
	at := int(cut % uint(len(data)+1))
	for _, f := range []token.NewFunc{d.NewFunc(), d.Typed(tools)} {
		whole, err := Run(f, Whole(data))
		if err != nil {
			t.Fatal(err)
		}
		two, err := Run(f, [][]byte{data[:at], data[at:]})
		if err != nil {
			t.Fatal(err)
		}
		if !Equal(whole, two) {
			t.Fatalf("%q cut at %d:\nwhole: %v\ncut:   %v", data, at, whole, two)
		}
	}
}

// Seeds returns calls for a fuzz corpus.
func (d Dialect) Seeds() []string {
	return []string{
		d.Call("read_files", [][2]string{{"paths", "a.go"}, {"paths", "b < c"}}, "\n"),
		d.Call("typed", [][2]string{{"n", "3"}, {"o", `{"k":[1]}`}, {"nums", "[1,2]"}}, "\n"),
		d.Call("write_file", [][2]string{{"content", "\nline\r\n<div>\n"}}, ""),
		d.Call("t", [][2]string{{"a", "x"}, {"a", "y"}}, " "),
		d.Call("t", [][2]string{{"a", "x" + d.Tags[0]}}, ""),
	}
}

// Streaming checks that a long value's text reaches the handler before
// its closing tag arrives, all but a few bytes of it.
func (d Dialect) Streaming(t *testing.T) {
	call := d.Call("write_file", [][2]string{{"content", strings.Repeat("line < 1 \n", 1000)}}, "\n")
	cut := strings.Index(call, "line") + 10000 - 1 // in the last line's '\n'
	var got int
	tk := d.New(token.HandlerFunc(func(e token.Event) error {
		if e.Kind == token.StringData {
			got += len(e.Data)
		}
		return nil
	}))
	for _, c := range testutil.SplitEvery([]byte(call[:cut]), 7) {
		if err := tk.Feed(c); err != nil {
			t.Fatal(err)
		}
	}
	if want := 10000 - 10; got < want {
		t.Errorf("%d bytes of the value reached the handler before its end, want at least %d", got, want)
	}
}

// Linear checks that the time grows linearly with a value made of unit
// repeated, full of '<' and near-tags, fed in small chunks.
func (d Dialect) Linear(t *testing.T, unit string) {
	testutil.CheckLinear(t, 2000, func(n int) func() {
		call := []byte(d.Call("write_file", [][2]string{{"content", strings.Repeat(unit, n)}}, "\n"))
		chunks := testutil.SplitEvery(call, 13)
		tk := d.New(token.HandlerFunc(func(token.Event) error { return nil }))
		return func() {
			tk.Reset(token.HandlerFunc(func(token.Event) error { return nil }))
			for _, c := range chunks {
				if err := tk.Feed(c); err != nil {
					t.Fatal(err)
				}
			}
			if err := tk.Close(); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// Allocs checks that a Reset tokenizer reads a call without allocating,
// untyped and typed, in small chunks.
func (d Dialect) Allocs(t *testing.T, typedCall string) {
	tools, err := schema.Parse([]byte(Tools))
	if err != nil {
		t.Fatal(err)
	}
	untypedCall := d.Call("write_file", [][2]string{{"path", "a.go"}, {"content", "\nx < y\r\n<div>\n"}}, "\n")
	tokentest.Suite{New: d.NewFunc()}.NoAllocs(t, []byte(untypedCall), 5)
	tokentest.Suite{New: d.Typed(tools)}.NoAllocs(t, []byte(typedCall), 5)
}

// param is a generated parameter: its schema and its JSON value.
type param struct {
	schema, value string
	empty         bool // an empty array
}

// genParam generates a parameter of a random kind with a value of it.
func genParam(repeat bool) gopter.Gen {
	str := gen.OneGenOf(testutil.GenString(), gen.OneConstOf("", "\n", "a\r", "\r\n\r", "x < y", "<div>", "</", "a\n", "\nb"))
	quote := func(s string) string { b, _ := jsontext.AppendQuote(nil, s); return string(b) }
	integer := gen.OneGenOf(gen.Int64().Map(func(i int64) string { return strconv.FormatInt(i, 10) }), gen.OneConstOf("0", "-0"))
	object := gen.SliceOfN(3, str).Map(func(vs []string) string {
		var b strings.Builder
		b.WriteString("{")
		for i, v := range vs[:len(vs[0])%4] {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(quote("k"+strconv.Itoa(i)) + ":" + quote(v))
		}
		return b.String() + "}"
	})
	array := func(items string, g gopter.Gen) gopter.Gen {
		min := 0
		if repeat {
			min = 1
		}
		return gen.IntRange(min, 3).FlatMap(func(n any) gopter.Gen {
			return gen.SliceOfN(n.(int), g).Map(func(vs []string) param {
				return param{`{"type":"array","items":{"type":"` + items + `"}}`, "[" + strings.Join(vs, ",") + "]", len(vs) == 0}
			})
		}, reflect.TypeOf(param{}))
	}
	return gen.OneGenOf(
		str.Map(func(s string) param { return param{`{"type":"string"}`, quote(s), false} }),
		str.Map(func(s string) param { return param{`{}`, quote(s), false} }),
		testutil.GenNumber().Map(func(s string) param { return param{`{"type":"number"}`, s, false} }),
		integer.Map(func(s string) param { return param{`{"type":"integer"}`, s, false} }),
		gen.Bool().Map(func(b bool) param { return param{`{"type":"boolean"}`, strconv.FormatBool(b), false} }),
		gen.Const(param{`{"type":"null"}`, "null", false}),
		object.Map(func(s string) param { return param{`{"type":"object"}`, s, false} }),
		array("string", str.Map(quote)),
		array("number", testutil.GenNumber()),
		array("object", object),
	)
}

// RoundTrip checks that [Dialect.Format] writes random arguments, typed by a
// random tool definition, so that the tokenizer typed by it (through
// argstream and the aggregator) reads them back.
func (d Dialect) RoundTrip(t *testing.T) {
	props := gopter.NewProperties(testutil.PropertyParameters(300))
	props.Property("Format then parse gives the arguments", prop.ForAll(
		func(ps []param) string {
			name := "tool.x-1"
			if d.Repeat {
				name = "tool_x-1"
			}
			var def, args bytes.Buffer
			fmt.Fprintf(&def, `[{"name":%q,"input_schema":{"type":"object","properties":{`, name)
			args.WriteString("{")
			for i, p := range ps {
				if i > 0 {
					def.WriteString(",")
					args.WriteString(",")
				}
				key := "p_" + strconv.Itoa(i) + ".x"
				fmt.Fprintf(&def, "%q:%s", key, p.schema)
				fmt.Fprintf(&args, "%q:%s", key, p.value)
			}
			def.WriteString("}}}]")
			args.WriteString("}")
			tools, err := schema.Parse(def.Bytes())
			if err != nil {
				return err.Error()
			}
			text, err := d.Format(name, args.Bytes())
			for _, p := range ps {
				if p.empty && d.Repeat {
					if err == nil {
						return "Format wrote an empty array"
					}
					return ""
				}
			}
			if err != nil {
				return fmt.Sprintf("Format(%s): %v", args.Bytes(), err)
			}
			agg := aggregate.New()
			s := argstream.New(agg, argstream.WithTokenizer(d.Typed(tools)))
			if err := testutil.Feed(s, testutil.SplitEvery(text, 3)); err != nil {
				return fmt.Sprintf("%q: %v", text, err)
			}
			got, _ := agg.Value()
			want, err := testutil.Canonical(args.Bytes())
			if err != nil {
				return err.Error()
			}
			if string(got) != string(want) {
				return fmt.Sprintf("%q:\ngot  %s\nwant %s", text, got, want)
			}
			return ""
		}, upTo(8, genParam(d.Repeat))))
	props.TestingRun(t)
}

// upTo generates slices of up to n values of g.
func upTo(n int, g gopter.Gen) gopter.Gen {
	return gen.IntRange(0, n).FlatMap(func(k any) gopter.Gen { return gen.SliceOfN(k.(int), g) },
		reflect.SliceOf(g(gopter.MinGenParams).ResultType))
}

// Bench measures reading a call with one 100 KB value of source text
// (lines with '<'), in chunks of size bytes, with a Reset tokenizer.
func (d Dialect) Bench(b *testing.B, size int) {
	line := "\tif a < b && c > d { fmt.Println(\"<div>\", x) } // a line of code\n"
	call := []byte(d.Call("write_file", [][2]string{{"path", "src/main.go"},
		{"content", "\n" + strings.Repeat(line, 100_000/len(line)) + "\n"}}, "\n"))
	chunks := testutil.SplitEvery(call, size)
	h := token.HandlerFunc(func(token.Event) error { return nil })
	tk := d.New(h)
	b.SetBytes(int64(len(call)))
	b.ReportAllocs()
	for b.Loop() {
		tk.Reset(h)
		for _, c := range chunks {
			if err := tk.Feed(c); err != nil {
				b.Fatal(err)
			}
		}
		if err := tk.Close(); err != nil {
			b.Fatal(err)
		}
	}
}
